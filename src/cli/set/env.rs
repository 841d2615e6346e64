//! `kubectl kruise set env KIND/NAME KEY=VALUE ... KEY- ...`, kubectl's verb on every kind
//! with a pod template: `-e KEY=VALUE` (`-e -` reads `KEY=VALUE` lines from stdin), `-c`
//! (wildcards), `--from secret/NAME|configmap/NAME` with `--keys` and `--prefix`,
//! `--overwrite=false`, `--list` (with `--resolve`), `--dry-run`, `-o`.
//!
//! Invariants (kubectl's): a variable set keeps its place in the list and a new one is
//! appended; `--prefix` prefixes every variable set; a name both set and removed, a bad
//! name or a `--from` that is neither a Secret nor a ConfigMap is an error before anything
//! is read; with `--overwrite=false` a variable whose value would change is an error naming
//! it, and nothing is written. `--list` writes nothing.
use std::collections::BTreeMap;
use std::io::BufRead;

use clap::Args;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::api::Api;
use serde_json::{Value, json};

use super::pod_spec::{self, Read};
use crate::cli::UsageError;
use crate::cli::connection::ConnectionArgs;
use crate::cli::install::{DryRun, Output};

pub const HELP: &str = "\
Kinds: cloneset (clone), asts, ads, uniteddeployment (ud: its subset template), sidecarset
(its sidecar containers), deployment (deploy), statefulset (sts), daemonset (ds). An env
change is not an in-place update: the pods are recreated as the rollout allows (a
SidecarSet's pods get it when next injected). The line after the result says which.

Examples:
  kubectl kruise set env cloneset/web LOG_LEVEL=debug
  kubectl kruise set env cloneset/web LOG_LEVEL-            # remove it
  kubectl kruise set env cloneset/web --list
  kubectl kruise set env asts/db -c 'app*' --from=configmap/db-config --prefix=DB_
  kubectl kruise set env ud/shop --from=secret/creds --keys=user,password
  env | grep ^APP_ | kubectl kruise set env cloneset/web -e -";

#[derive(Debug, Args)]
pub struct EnvArgs {
    /// TYPE/NAME
    #[arg(value_name = "TYPE/NAME")]
    pub target: String,
    /// KEY=VALUE to set, KEY- to remove
    #[arg(value_name = "KEY=VALUE|KEY-")]
    pub changes: Vec<String>,
    /// A KEY=VALUE to set (repeatable; `-` reads KEY=VALUE lines from stdin)
    #[arg(short = 'e', long = "env", value_name = "KEY=VALUE")]
    pub env: Vec<String>,
    /// The containers to change (wildcards: `*`, `?`)
    #[arg(short = 'c', long, default_value = "*", value_name = "NAMES")]
    pub containers: String,
    /// Set a variable for each key of this Secret or ConfigMap (secret/NAME, configmap/NAME)
    #[arg(long, value_name = "KIND/NAME")]
    pub from: Option<String>,
    /// Only these keys of --from (comma-separated)
    #[arg(long, value_delimiter = ',', requires = "from")]
    pub keys: Vec<String>,
    /// Prepend this to the name of every variable set
    #[arg(long, default_value = "")]
    pub prefix: String,
    /// Whether a variable that has a value may be given another
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, num_args = 0..=1, default_missing_value = "true")]
    pub overwrite: bool,
    /// Print the variables (after the changes given) instead of writing them
    #[arg(long, conflicts_with_all = ["output", "dry_run"])]
    pub list: bool,
    /// With --list: print the values of Secret and ConfigMap references
    #[arg(long, requires = "list")]
    pub resolve: bool,
    /// Print the updated object in this format instead of one line
    #[arg(short = 'o', long, value_enum)]
    pub output: Option<Output>,
    /// `client` prints the patch without sending it; `server` sends it with dry-run
    #[arg(long, value_enum, default_value = "none", num_args = 0..=1, default_missing_value = "client")]
    pub dry_run: DryRun,
}

/// What the arguments ask: variables to set (in order) and names to remove.
#[derive(Debug, Default, PartialEq)]
struct Changes {
    set: Vec<Value>,
    remove: Vec<String>,
}

/// Whether `name` is a valid variable name (Kubernetes': letters, digits, `_`, `-`, `.`,
/// not starting with a digit).
fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || "_-.".contains(c))
        && chars.all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
}

/// Parses `KEY=VALUE` and `KEY-` words (`stdin`: the lines `-e -` reads).
fn parse(words: &[String], stdin: &[String]) -> Result<Changes, UsageError> {
    let mut changes = Changes::default();
    let lines = stdin
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    for word in words.iter().map(String::as_str).chain(lines) {
        if let Some((name, value)) = word.split_once('=') {
            if !valid_name(name) {
                return Err(UsageError(format!(
                    "{word:?}: {name:?} is not a valid variable name (letters, digits, '_', '-', '.'; not a digit first)"
                )));
            }
            changes.set.push(json!({ "name": name, "value": value }));
        } else if let Some(name) = word.strip_suffix('-').filter(|n| valid_name(n)) {
            changes.remove.push(name.to_string());
        } else {
            return Err(UsageError(format!(
                "{word:?}: expected KEY=VALUE or KEY- (see --help)"
            )));
        }
    }
    if let Some(both) = changes
        .set
        .iter()
        .filter_map(|e| e["name"].as_str())
        .find(|n| changes.remove.iter().any(|r| r == n))
    {
        return Err(UsageError(format!("{both} is both set and removed; give one")));
    }
    Ok(changes)
}

/// kubectl's variable name for a key of a Secret or ConfigMap: upper case, and every
/// character that is not a letter, digit or `_` becomes `_`.
fn key_to_name(key: &str) -> String {
    key.chars()
        .map(|c| match c.is_ascii_alphanumeric() || c == '_' {
            true => c.to_ascii_uppercase(),
            false => '_',
        })
        .collect()
}

/// The variables `--from` sets: one per key (those of `--keys`, if given), sorted, each a
/// reference to its key.
async fn from_source(read: &Read, from: &str, keys: &[String]) -> anyhow::Result<Vec<Value>> {
    let (kind, name) = from
        .split_once('/')
        .ok_or_else(|| UsageError(format!("--from {from:?}: expected secret/NAME or configmap/NAME")))?;
    let (reference, found): (&str, Vec<String>) = match kind.to_ascii_lowercase().as_str() {
        "secret" | "secrets" => {
            let api: Api<Secret> = Api::namespaced(read.client.clone(), &read.namespace);
            let secret = api.get(name).await?;
            (
                "secretKeyRef",
                secret.data.unwrap_or_default().into_keys().collect(),
            )
        }
        "configmap" | "configmaps" | "cm" => {
            let api: Api<ConfigMap> = Api::namespaced(read.client.clone(), &read.namespace);
            let map = api.get(name).await?;
            (
                "configMapKeyRef",
                map.data.unwrap_or_default().into_keys().collect(),
            )
        }
        other => {
            return Err(UsageError(format!(
                "--from {from:?}: {other} is neither a Secret nor a ConfigMap"
            ))
            .into());
        }
    };
    if let Some(missing) = keys.iter().find(|k| !found.contains(k)) {
        anyhow::bail!(
            "--keys: {from} has no key {missing:?} (keys: {})",
            found.join(", ")
        );
    }
    Ok(found
        .into_iter()
        .filter(|k| keys.is_empty() || keys.contains(k))
        .map(|key| {
            json!({ "name": key_to_name(&key),
                "valueFrom": { reference: { "name": name, "key": key } } })
        })
        .collect())
}

/// `env` as `changes` leave it; with `overwrite` false, an error names a variable whose
/// value would change.
fn updated(env: &[Value], changes: &Changes, overwrite: bool) -> Result<Vec<Value>, String> {
    let mut list: Vec<Value> = env
        .iter()
        .filter(|e| !changes.remove.iter().any(|r| e["name"] == r.as_str()))
        .cloned()
        .collect();
    for variable in &changes.set {
        match list.iter_mut().find(|e| e["name"] == variable["name"]) {
            Some(existing) if existing != variable => {
                if !overwrite {
                    return Err(format!(
                        "{} already has a value ({}), and --overwrite is false",
                        existing["name"].as_str().unwrap_or_default(),
                        described(existing)
                    ));
                }
                *existing = variable.clone();
            }
            Some(_) => {}
            None => list.push(variable.clone()),
        }
    }
    Ok(list)
}

/// A variable's value, or where it comes from (kubectl's words).
fn described(variable: &Value) -> String {
    let from = &variable["valueFrom"];
    let field = |f: &str, k: &str| from[f][k].as_str().unwrap_or_default().to_string();
    if from.is_null() {
        variable["value"].as_str().unwrap_or_default().to_string()
    } else if from.get("configMapKeyRef").is_some() {
        format!(
            "configmap {}, key {}",
            field("configMapKeyRef", "name"),
            field("configMapKeyRef", "key")
        )
    } else if from.get("secretKeyRef").is_some() {
        format!(
            "secret {}, key {}",
            field("secretKeyRef", "name"),
            field("secretKeyRef", "key")
        )
    } else if from.get("fieldRef").is_some() {
        format!("field path {}", field("fieldRef", "fieldPath"))
    } else if from.get("resourceFieldRef").is_some() {
        let container = field("resourceFieldRef", "containerName");
        let prefix = if container.is_empty() {
            String::new()
        } else {
            format!("{container}/")
        };
        format!("resource field {prefix}{}", field("resourceFieldRef", "resource"))
    } else {
        "invalid source".into()
    }
}

/// `--list`: each chosen container's variables, as kubectl prints them.
async fn list(read: &Read, spec: &mut Value, pattern: &str, resolve: bool) -> anyhow::Result<()> {
    let kind = read.kind_name();
    let mut values = Resolver::new(read);
    for container in pod_spec::choose(spec, pattern).map_err(|e| anyhow::anyhow!("{}: {e}", read.id))? {
        let name = container["name"].as_str().unwrap_or_default();
        println!("# {kind} {}, container {name}", read.target.name);
        for variable in container["env"].as_array().into_iter().flatten() {
            let name = variable["name"].as_str().unwrap_or_default();
            if variable["valueFrom"].is_null() {
                println!("{name}={}", described(variable));
                continue;
            }
            match resolve {
                true => match values.value(&variable["valueFrom"]).await {
                    Ok(value) => println!("{name}={value}"),
                    Err(error) => {
                        println!("# {name} from {}", described(variable));
                        eprintln!("error retrieving reference for {name}: {error}");
                    }
                },
                false => println!("# {name} from {}", described(variable)),
            }
        }
    }
    Ok(())
}

/// Reads the Secrets and ConfigMaps references name, each once.
struct Resolver<'a> {
    read: &'a Read,
    read_objects: BTreeMap<(bool, String), BTreeMap<String, String>>,
}

impl<'a> Resolver<'a> {
    fn new(read: &'a Read) -> Self {
        Self {
            read,
            read_objects: BTreeMap::new(),
        }
    }

    async fn value(&mut self, from: &Value) -> Result<String, String> {
        let (secret, reference) = match (from.get("secretKeyRef"), from.get("configMapKeyRef")) {
            (Some(r), _) => (true, r),
            (None, Some(r)) => (false, r),
            _ => return Err("only Secret and ConfigMap references are resolved".into()),
        };
        let name = reference["name"].as_str().unwrap_or_default().to_string();
        let key = reference["key"].as_str().unwrap_or_default();
        if !self.read_objects.contains_key(&(secret, name.clone())) {
            let data = self.data(secret, &name).await?;
            self.read_objects.insert((secret, name.clone()), data);
        }
        self.read_objects[&(secret, name.clone())]
            .get(key)
            .cloned()
            .ok_or_else(|| format!("key {key} not found in {name}"))
    }

    async fn data(&self, secret: bool, name: &str) -> Result<BTreeMap<String, String>, String> {
        let (client, namespace) = (self.read.client.clone(), &self.read.namespace);
        match secret {
            true => {
                let api: Api<Secret> = Api::namespaced(client, namespace);
                let found = api.get(name).await.map_err(|e| e.to_string())?;
                Ok(found
                    .data
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(k, v)| (k, String::from_utf8_lossy(&v.0).into_owned()))
                    .collect())
            }
            false => {
                let api: Api<ConfigMap> = Api::namespaced(client, namespace);
                let found = api.get(name).await.map_err(|e| e.to_string())?;
                Ok(found.data.unwrap_or_default())
            }
        }
    }
}

pub async fn run(args: EnvArgs, connection: &ConnectionArgs) -> anyhow::Result<()> {
    let stdin: Vec<String> = match args.env.iter().any(|e| e == "-") {
        true => std::io::stdin().lock().lines().collect::<Result<_, _>>()?,
        false => Vec::new(),
    };
    let words: Vec<String> = args
        .changes
        .iter()
        .chain(args.env.iter().filter(|e| *e != "-"))
        .cloned()
        .collect();
    let mut changes = parse(&words, &stdin)?;
    if !args.list && args.from.is_none() && changes.set.is_empty() && changes.remove.is_empty() {
        return Err(UsageError("set env: give KEY=VALUE, KEY-, --from or --list (see --help)".into()).into());
    }
    let read = pod_spec::read(std::slice::from_ref(&args.target), connection, "set env").await?;
    if let Some(from) = &args.from {
        let mut sourced = from_source(&read, from, &args.keys).await?;
        sourced.append(&mut changes.set);
        changes.set = sourced;
    }
    for variable in &mut changes.set {
        let name = format!("{}{}", args.prefix, variable["name"].as_str().unwrap_or_default());
        variable["name"] = json!(name);
    }
    let mut spec = read.pod_spec().clone();
    {
        let chosen =
            pod_spec::choose(&mut spec, &args.containers).map_err(|e| anyhow::anyhow!("{}: {e}", read.id))?;
        for container in chosen {
            let env: Vec<Value> = container["env"].as_array().cloned().unwrap_or_default();
            let env = updated(&env, &changes, args.overwrite).map_err(|e| {
                anyhow::anyhow!(
                    "{}: container {}: {e}; nothing was changed",
                    read.id,
                    container["name"]
                )
            })?;
            if !env.is_empty() {
                container["env"] = Value::Array(env);
            } else if let Some(fields) = container.as_object_mut() {
                fields.remove("env");
            }
        }
    }
    if args.list {
        return list(&read, &mut spec, &args.containers, args.resolve).await;
    }
    read.write(&spec, "env", args.dry_run, args.output).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn words_set_and_remove_and_bad_ones_are_errors_naming_them() {
        let changes =
            parse(&words(&["A=1", "B=x=y", "C-"]), &words(&["# comment", "D=4", ""])).expect("parsed");
        assert_eq!(
            changes.set,
            vec![
                json!({ "name": "A", "value": "1" }),
                json!({ "name": "B", "value": "x=y" }),
                json!({ "name": "D", "value": "4" }),
            ]
        );
        assert_eq!(changes.remove, vec!["C"]);
        for bad in ["A", "1A=2", "=3", "A B=1"] {
            let err = parse(&words(&[bad]), &[]).expect_err(bad).0;
            assert!(err.contains(bad), "{err}");
        }
        assert!(parse(&words(&["A=1", "A-"]), &[]).is_err());
    }

    #[test]
    fn a_variable_set_keeps_its_place_and_new_ones_are_appended() {
        let env = vec![
            json!({ "name": "A", "value": "1" }),
            json!({ "name": "B", "value": "2" }),
        ];
        let changes = Changes {
            set: vec![
                json!({ "name": "B", "value": "3" }),
                json!({ "name": "C", "value": "4" }),
            ],
            remove: vec!["A".into()],
        };
        assert_eq!(
            updated(&env, &changes, true),
            Ok(vec![
                json!({ "name": "B", "value": "3" }),
                json!({ "name": "C", "value": "4" })
            ])
        );
        let err = updated(&env, &changes, false).expect_err("overwrite refused");
        assert!(err.contains("B already has a value (2)"), "{err}");
        let same = Changes {
            set: vec![json!({ "name": "B", "value": "2" })],
            remove: vec![],
        };
        assert_eq!(
            updated(&env, &same, false),
            Ok(env.clone()),
            "the same value is no overwrite"
        );
    }

    #[test]
    fn keys_become_kubectls_names_and_references_are_described_in_its_words() {
        assert_eq!(key_to_name("db.user-name"), "DB_USER_NAME");
        let from = json!({ "name": "X", "valueFrom": { "secretKeyRef": { "name": "s", "key": "k" } } });
        assert_eq!(described(&from), "secret s, key k");
        let field = json!({ "name": "P", "valueFrom": { "fieldRef": { "fieldPath": "metadata.name" } } });
        assert_eq!(described(&field), "field path metadata.name");
        let resource = json!({ "name": "R", "valueFrom": { "resourceFieldRef": { "containerName": "app", "resource": "limits.cpu" } } });
        assert_eq!(described(&resource), "resource field app/limits.cpu");
    }
}
