//! What the `set` verbs that change a workload's pod spec share (`set image`, `set env`,
//! `set resources`, `set serviceaccount`; `expose` reads with it too): read the object, find its pod spec where its
//! kind keeps it (a UnitedDeployment's in its subset template), send what changed, and
//! say what that does to the pods.
//!
//! Invariants: the change is worked out on the whole pod spec as read and sent as a merge
//! patch of the changed fields only (a changed container list whole), guarded by the
//! generation it was read at ([`crate::cli::target::patch_unchanged_spec`]): status writes
//! meanwhile do not stop it, a spec change meanwhile is refused with nothing written. An
//! edit that fails writes nothing. What it does to the pods is worked out by the in-place
//! engine's own rule ([`crate::runtime::inplace::decide`]) under the kind's update policy.
use kube::api::{Api, DynamicObject};
use serde_json::{Map, Value, json};

use crate::cli::UsageError;
use crate::cli::connection::ConnectionArgs;
use crate::cli::install::{DryRun, Output};
use crate::cli::target::{self, Target};
use crate::workloads::facts::Path;

/// A workload as a `set` verb read it.
pub struct Read {
    pub target: Target,
    pub id: String,
    pub client: kube::Client,
    pub namespace: String,
    api: Api<DynamicObject>,
    object: DynamicObject,
    value: Value,
    path: Path,
}

/// Reads the one workload `words` name (`TYPE/NAME` or `TYPE NAME`) for `verb` (not a
/// job: its template is not rolled out).
pub async fn read(words: &[String], connection: &ConnectionArgs, verb: &str) -> anyhow::Result<Read> {
    let targets = target::parse(words)?;
    target::no_jobs(&targets, verb)?;
    let Ok([t]) = <[Target; 1]>::try_from(targets) else {
        return Err(UsageError(format!("{verb} takes one workload (see --help)")).into());
    };
    let (client, namespace) = target::connect(connection).await?;
    let api: Api<DynamicObject> = t.api(&client, &namespace);
    let object = api.get(&t.name).await?;
    let value = serde_json::to_value(&object)?;
    let path = t.kind.containers_path(&value);
    Ok(Read {
        id: t.id(),
        target: t,
        client,
        namespace,
        api,
        object,
        value,
        path,
    })
}

impl Read {
    /// The object as read, as JSON.
    pub fn object(&self) -> &Value {
        &self.value
    }

    /// Its kind as the API names it (`CloneSet`).
    pub fn kind_name(&self) -> &str {
        self.value["kind"].as_str().unwrap_or_default()
    }

    /// Whether its pod spec is a pod template's (a SidecarSet's containers are not: they go
    /// into other workloads' pods).
    pub fn has_pod_template(&self) -> bool {
        self.path.ends_with(&["template", "spec"])
    }

    /// Its pod spec as stored (for a SidecarSet: its spec, which holds the containers).
    pub fn pod_spec(&self) -> &Value {
        target::value_at(&self.value, self.path)
    }

    /// Sends `spec` as its pod spec and prints `{what} updated` (kubectl's words: `env
    /// updated`), or the object with `-o`; then, on stderr, what that does to its pods.
    pub async fn write(
        &self,
        spec: &Value,
        what: &str,
        dry_run: DryRun,
        output: Option<Output>,
    ) -> anyhow::Result<()> {
        let changed = changed_fields(self.pod_spec(), spec);
        if changed.is_empty() {
            println!("{} {what} already up to date", self.id);
            return Ok(());
        }
        let done = format!("{what} updated");
        let patch = target::nested(self.path, Value::Object(changed));
        if dry_run == DryRun::Client {
            println!("{}", serde_json::to_string(&patch)?);
            eprintln!("{} {done} (dry run: nothing sent)", self.id);
            return Ok(());
        }
        let params = dry_run.patch_params();
        let updated = target::patch_unchanged_spec(
            &self.api,
            &self.target.name,
            &params,
            &self.object,
            &patch,
            &self.id,
        )
        .await?;
        let suffix = if params.dry_run { " (server dry run)" } else { "" };
        target::print(&updated, &self.id, &format!("{done}{suffix}"), output)?;
        if !params.dry_run {
            eprintln!("  {}", self.consequence(spec)?);
        }
        Ok(())
    }

    /// What moving its pods to `spec` does, in a sentence.
    fn consequence(&self, spec: &Value) -> anyhow::Result<String> {
        let facts = self.target.kind.facts();
        let policy = facts
            .pod_update_policy(&self.value, &self.id)
            .map_err(anyhow::Error::msg)?;
        let Some(policy) = policy else {
            return Ok(crate::cli::undo::without_policy(self.target.kind).to_string());
        };
        let Some((_, template_path)) = self.path.split_last() else {
            return Ok(String::new());
        };
        let template = |pod_spec: &Value| {
            let mut template = target::value_at(&self.value, template_path).clone();
            template["spec"] = pod_spec.clone();
            serde_json::from_value(template).unwrap_or_default()
        };
        let outcome =
            crate::cli::undo::pod_outcome(Some(&template(self.pod_spec())), &template(spec), policy);
        Ok(format!("its pods: {outcome}"))
    }
}

/// The top-level fields of a pod spec that differ between `old` and `new`, with their new
/// values (null: removed): a merge patch.
fn changed_fields(old: &Value, new: &Value) -> Map<String, Value> {
    let empty = Map::new();
    let (old, new) = (
        old.as_object().unwrap_or(&empty),
        new.as_object().unwrap_or(&empty),
    );
    let mut changed = Map::new();
    for (key, value) in new {
        // A null where there was nothing is no change (indexing a JSON map adds one).
        if old.get(key).unwrap_or(&Value::Null) != value {
            changed.insert(key.clone(), value.clone());
        }
    }
    for key in old.keys().filter(|k| !new.contains_key(*k)) {
        changed.insert(key.clone(), Value::Null);
    }
    changed
}

/// Whether a container `name` is chosen by `pattern` (kubectl's `-c`: `*` any run of
/// characters, `?` one character).
pub fn chosen(pattern: &str, name: &str) -> bool {
    glob::Pattern::new(pattern).is_ok_and(|p| p.matches(name))
}

/// The containers and init containers of `spec` that `pattern` chooses, mutable, with
/// whether each is an init container; an error names the containers there are when none
/// is chosen.
pub fn choose<'a>(spec: &'a mut Value, pattern: &str) -> Result<Vec<&'a mut Value>, String> {
    let names = container_names(spec);
    let mut chosen_ones = Vec::new();
    let Some(object) = spec.as_object_mut() else {
        return Err("the object has no pod spec".into());
    };
    for (list, entries) in object.iter_mut() {
        if list != "containers" && list != "initContainers" {
            continue;
        }
        for c in entries.as_array_mut().into_iter().flatten() {
            if c["name"].as_str().is_some_and(|n| chosen(pattern, n)) {
                chosen_ones.push(c);
            }
        }
    }
    match chosen_ones.is_empty() {
        true => Err(format!(
            "no container matches {pattern:?} (containers: {})",
            names.join(", ")
        )),
        false => Ok(chosen_ones),
    }
}

/// The names of the containers and init containers of `spec`.
pub fn container_names(spec: &Value) -> Vec<String> {
    ["containers", "initContainers"]
        .iter()
        .flat_map(|l| spec[*l].as_array().into_iter().flatten())
        .filter_map(|c| c["name"].as_str().map(str::to_string))
        .collect()
}

/// An empty object at `container[field]` when it has none, and it.
pub fn field_of<'a>(container: &'a mut Value, field: &str) -> &'a mut Value {
    if container.get(field).is_none_or(Value::is_null) {
        container[field] = json!({});
    }
    &mut container[field]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_changed_fields_are_sent_and_removed_ones_as_null() {
        let old = json!({ "containers": [{ "name": "a" }], "serviceAccountName": "x", "hostNetwork": true });
        let new = json!({ "containers": [{ "name": "a" }], "serviceAccountName": "y" });
        assert_eq!(
            Value::Object(changed_fields(&old, &new)),
            json!({ "serviceAccountName": "y", "hostNetwork": null })
        );
        assert!(changed_fields(&old, &old).is_empty());
        let mut indexed = old.clone();
        let _ = &mut indexed["initContainers"];
        assert!(
            changed_fields(&old, &indexed).is_empty(),
            "a null added by indexing is no change"
        );
    }

    #[test]
    fn containers_are_chosen_by_kubectls_wildcards_and_none_chosen_names_those_there_are() {
        let mut spec = json!({ "containers": [{ "name": "app" }, { "name": "app-log" }],
            "initContainers": [{ "name": "setup" }] });
        assert_eq!(choose(&mut spec, "*").map(|c| c.len()), Ok(3));
        assert_eq!(choose(&mut spec, "app*").map(|c| c.len()), Ok(2));
        assert_eq!(choose(&mut spec, "se?up").map(|c| c.len()), Ok(1));
        let err = choose(&mut spec, "db").map(|c| c.len()).expect_err("none");
        assert!(err.contains("app, app-log, setup"), "{err}");
    }
}
