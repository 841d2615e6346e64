//! The defaults OpenKruise's mutating webhook writes into a CloneSet, an Advanced
//! StatefulSet, an Advanced DaemonSet, a BroadcastJob, an AdvancedCronJob or a SidecarSet
//! (its `SetDefaults*`, spec level; the SidecarSet's in
//! `crate::workloads::sidecarset::defaults`), so `kubectl get -o yaml` shows what the
//! controller will do; and a WorkloadSpread's renamed fields under both names (what
//! upstream's conversion webhook does, `crate::workloads::workloadspread::spelling`). Pure: an object as JSON in, the defaulted object out; the webhook
//! answers with the JSON patch between them.
//!
//! Invariants: a field the user set is never changed, only absent ones are filled; the
//! planners read the same defaults when a field is absent (an object created while no
//! webhook ran is planned the same way); the pod template (not a job's, see [`of`]) gets
//! OpenKruise's template defaults ([`template_defaults`]) on create and when an update
//! changed it, so a template
//! stored through us hashes to the revision name OpenKruise would compute, and the
//! controllers hash every template defaulted anyway (a template stored while no webhook
//! ran gets the same revision).
use serde_json::{Value, json};

use crate::api::KruiseKind;
use crate::runtime::history::DEFAULT_REVISION_HISTORY_LIMIT;
use crate::runtime::template_defaults;
use crate::workloads::cloneset::numbers::DEFAULT_MAX_UNAVAILABLE;

/// Sets `object[path]` to `value` when it is absent (or null).
fn fill(object: &mut Value, path: &[&str], value: Value) {
    let mut node = object;
    for key in &path[..path.len() - 1] {
        if !node[*key].is_object() {
            node[*key] = json!({});
        }
        node = &mut node[*key];
    }
    let last = path[path.len() - 1];
    if node.get(last).is_none_or(Value::is_null) {
        node[last] = value;
    }
}

fn text<'a>(object: &'a Value, path: &[&str]) -> Option<&'a str> {
    path.iter().try_fold(object, |node, key| node.get(*key))?.as_str()
}

/// A CloneSet's defaults, in the spelling of the object: `v1beta1` (its `apiVersion`, or
/// an update strategy already nested) gets `type: RollingUpdate` and the knobs under
/// `rollingUpdate`; `v1alpha1` gets them flat, its `type` being the pod update policy.
pub fn cloneset(object: &Value) -> Value {
    let mut out = object.clone();
    fill(&mut out, &["spec", "replicas"], json!(1));
    fill(
        &mut out,
        &["spec", "revisionHistoryLimit"],
        json!(DEFAULT_REVISION_HISTORY_LIMIT),
    );
    let nested = object["apiVersion"]
        .as_str()
        .is_some_and(|v| v.ends_with("/v1beta1"))
        || crate::api::cloneset::strategy_is_nested(&object["spec"]["updateStrategy"]);
    let (knobs, policy): (&[&str], &str) = if nested {
        fill(
            &mut out,
            &["spec", "updateStrategy", "type"],
            json!("RollingUpdate"),
        );
        if text(&out, &["spec", "updateStrategy", "type"]) != Some("RollingUpdate") {
            return out;
        }
        (&["spec", "updateStrategy", "rollingUpdate"], "podUpdatePolicy")
    } else {
        (&["spec", "updateStrategy"], "type")
    };
    let at = |leaf: &'static str| [knobs, &[leaf]].concat();
    fill(&mut out, &at(policy), json!("ReCreate"));
    if matches!(text(&out, &at(policy)), Some("InPlaceIfPossible" | "InPlaceOnly")) {
        fill(&mut out, &at("inPlaceUpdateStrategy"), json!({}));
    }
    fill(&mut out, &at("partition"), json!(0));
    fill(&mut out, &at("maxUnavailable"), json!(DEFAULT_MAX_UNAVAILABLE));
    fill(&mut out, &at("maxSurge"), json!(0));
    out
}

/// An Advanced StatefulSet's defaults (both versions: the stored schema is v1beta1's).
pub fn statefulset(object: &Value) -> Value {
    let mut out = object.clone();
    fill(&mut out, &["spec", "replicas"], json!(1));
    fill(
        &mut out,
        &["spec", "revisionHistoryLimit"],
        json!(DEFAULT_REVISION_HISTORY_LIMIT),
    );
    fill(&mut out, &["spec", "podManagementPolicy"], json!("OrderedReady"));
    fill(
        &mut out,
        &["spec", "updateStrategy", "type"],
        json!("RollingUpdate"),
    );
    if text(&out, &["spec", "updateStrategy", "type"]) == Some("RollingUpdate") {
        let rolling = ["spec", "updateStrategy", "rollingUpdate"];
        fill(&mut out, &[&rolling[..], &["partition"]].concat(), json!(0));
        fill(&mut out, &[&rolling[..], &["maxUnavailable"]].concat(), json!(1));
        fill(
            &mut out,
            &[&rolling[..], &["podUpdatePolicy"]].concat(),
            json!("ReCreate"),
        );
        fill(&mut out, &[&rolling[..], &["minReadySeconds"]].concat(), json!(0));
    }
    if out["apiVersion"] == "apps.kruise.io/v1beta1" {
        let retention = ["spec", "persistentVolumeClaimRetentionPolicy"];
        fill(
            &mut out,
            &[&retention[..], &["whenDeleted"]].concat(),
            json!("Retain"),
        );
        fill(
            &mut out,
            &[&retention[..], &["whenScaled"]].concat(),
            json!("Retain"),
        );
    }
    out
}

/// An Advanced DaemonSet's defaults, as upstream's webhook writes them: burstReplicas,
/// revisionHistoryLimit, the update type and, under RollingUpdate,
/// `rollingUpdateType: Standard` and one unavailable node when neither maxUnavailable nor
/// maxSurge is set; the deprecated `Surging` becomes `Standard` with one surge pod and
/// none unavailable where unset.
pub fn daemonset(object: &Value) -> Value {
    let mut out = object.clone();
    fill(&mut out, &["spec", "burstReplicas"], json!(250));
    fill(
        &mut out,
        &["spec", "revisionHistoryLimit"],
        json!(DEFAULT_REVISION_HISTORY_LIMIT),
    );
    fill(
        &mut out,
        &["spec", "updateStrategy", "type"],
        json!("RollingUpdate"),
    );
    if text(&out, &["spec", "updateStrategy", "type"]) != Some("RollingUpdate") {
        return out;
    }
    let rolling = ["spec", "updateStrategy", "rollingUpdate"];
    let at = |leaf: &'static str| [&rolling[..], &[leaf]].concat();
    let unset =
        |out: &Value, leaf: &'static str| out["spec"]["updateStrategy"]["rollingUpdate"][leaf].is_null();
    if text(&out, &at("rollingUpdateType")) == Some("Surging") {
        fill(&mut out, &at("maxSurge"), json!(1));
        fill(&mut out, &at("maxUnavailable"), json!(0));
        out["spec"]["updateStrategy"]["rollingUpdate"]["rollingUpdateType"] = json!("Standard");
    }
    fill(&mut out, &at("rollingUpdateType"), json!("Standard"));
    if unset(&out, "maxUnavailable") && unset(&out, "maxSurge") {
        fill(&mut out, &at("maxUnavailable"), json!(1));
        fill(&mut out, &at("maxSurge"), json!(0));
    }
    out
}

/// A BroadcastJob's defaults: completion policy `Always`, parallelism unlimited (2^31-1,
/// as upstream spells it), failure policy `FailFast`.
pub fn broadcastjob(object: &Value) -> Value {
    let mut out = object.clone();
    fill(&mut out, &["spec", "completionPolicy", "type"], json!("Always"));
    fill(&mut out, &["spec", "parallelism"], json!(i32::MAX));
    fill(&mut out, &["spec", "failurePolicy", "type"], json!("FailFast"));
    out
}

/// An AdvancedCronJob's defaults: concurrency policy `Allow` (`Replace` for an image-list
/// pull job: running two at once is useless), not paused, 3 successful and 1 failed job
/// kept; an image-list pull job template gets its completion and pull policies.
pub fn advancedcronjob(object: &Value) -> Value {
    let mut out = object.clone();
    let pull = ["spec", "template", "imageListPullJobTemplate", "spec"];
    let at = |leaf: &[&'static str]| [&pull[..], leaf].concat();
    let pulls = out["spec"]["template"]["imageListPullJobTemplate"].is_object();
    if pulls && text(&out, &at(&["completionPolicy", "type"])).is_none() {
        fill(&mut out, &at(&["completionPolicy", "type"]), json!("Always"));
        fill(&mut out, &at(&["pullPolicy", "timeoutSeconds"]), json!(600));
        fill(&mut out, &at(&["pullPolicy", "backoffLimit"]), json!(3));
        fill(&mut out, &at(&["imagePullPolicy"]), json!("IfNotPresent"));
    }
    let concurrency = if pulls { "Replace" } else { "Allow" };
    fill(&mut out, &["spec", "concurrencyPolicy"], json!(concurrency));
    fill(&mut out, &["spec", "paused"], json!(false));
    fill(&mut out, &["spec", "successfulJobsHistoryLimit"], json!(3));
    fill(&mut out, &["spec", "failedJobsHistoryLimit"], json!(1));
    out
}

/// The defaults of `kind`, if it has any here; the pod template too when `template` (on
/// create, and on an update that changed it, as upstream; never a DaemonSet's, whose
/// webhook upstream leaves the template alone). `old`: the stored object on an update.
pub fn of(kind: &str, object: &Value, old: Option<&Value>, template: bool) -> Option<Value> {
    let mut out = match KruiseKind::named(kind)? {
        KruiseKind::CloneSet => cloneset(object),
        KruiseKind::StatefulSet => statefulset(object),
        KruiseKind::DaemonSet => return Some(daemonset(object)),
        KruiseKind::SidecarSet => return Some(crate::workloads::sidecarset::defaults::defaulted(object)),
        KruiseKind::UnitedDeployment => {
            return Some(crate::workloads::uniteddeployment::validation::defaulted(object));
        }
        // Their pod templates are left as written: upstream's template defaults would make
        // an unset restartPolicy `Always`, which a job's pods cannot have.
        KruiseKind::BroadcastJob => return Some(broadcastjob(object)),
        KruiseKind::AdvancedCronJob => return Some(advancedcronjob(object)),
        // Not defaults: the renamed fields under both versions' names.
        KruiseKind::WorkloadSpread => {
            return Some(crate::workloads::workloadspread::spelling::mirrored(object, old));
        }
    };
    if template && out["spec"]["template"].is_object() {
        out["spec"]["template"] = template_defaults::defaulted(&out["spec"]["template"]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_broadcastjob_gets_upstreams_policies_and_parallelism_and_a_set_field_is_kept() {
        let bare = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "BroadcastJob",
            "spec": { "template": { "spec": { "containers": [{ "name": "c", "image": "busybox" }] } } } });
        let out = of("BroadcastJob", &bare, None, true).expect("defaults");
        assert_eq!(
            out["spec"]["template"], bare["spec"]["template"],
            "no restartPolicy: Always"
        );
        assert_eq!(out["spec"]["completionPolicy"], json!({ "type": "Always" }));
        assert_eq!(out["spec"]["parallelism"], json!(2147483647));
        assert_eq!(out["spec"]["failurePolicy"], json!({ "type": "FailFast" }));
        let mut set = bare.clone();
        set["spec"]["parallelism"] = json!("50%");
        set["spec"]["completionPolicy"] = json!({ "type": "Never" });
        set["spec"]["failurePolicy"] = json!({ "type": "Continue", "restartLimit": 2 });
        let out = of("BroadcastJob", &set, None, false).expect("defaults");
        assert_eq!(out["spec"]["parallelism"], "50%");
        assert_eq!(out["spec"]["completionPolicy"], json!({ "type": "Never" }));
        assert_eq!(
            out["spec"]["failurePolicy"],
            json!({ "type": "Continue", "restartLimit": 2 })
        );
    }

    #[test]
    fn a_bare_advancedcronjob_gets_upstreams_defaults_and_its_child_template_is_left_alone() {
        let bare = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "AdvancedCronJob",
            "spec": { "schedule": "*/1 * * * *", "template": { "broadcastJobTemplate": { "spec": {
                "template": { "spec": { "containers": [{ "name": "c", "image": "busybox" }] } } } } } } });
        let out = of("AdvancedCronJob", &bare, None, true).expect("defaults");
        assert_eq!(out["spec"]["concurrencyPolicy"], "Allow");
        assert_eq!(out["spec"]["paused"], false);
        assert_eq!(out["spec"]["successfulJobsHistoryLimit"], 3);
        assert_eq!(out["spec"]["failedJobsHistoryLimit"], 1);
        assert_eq!(
            out["spec"]["template"], bare["spec"]["template"],
            "no restartPolicy: Always"
        );
        let pulls = json!({ "spec": { "schedule": "0 * * * *", "concurrencyPolicy": "Forbid",
            "template": { "imageListPullJobTemplate": { "spec": { "images": ["nginx"] } } } } });
        let out = of("AdvancedCronJob", &pulls, None, true).expect("defaults");
        assert_eq!(out["spec"]["concurrencyPolicy"], "Forbid", "kept");
        let spec = &out["spec"]["template"]["imageListPullJobTemplate"]["spec"];
        assert_eq!(spec["completionPolicy"], json!({ "type": "Always" }));
        assert_eq!(
            spec["pullPolicy"],
            json!({ "timeoutSeconds": 600, "backoffLimit": 3 })
        );
        assert_eq!(spec["imagePullPolicy"], "IfNotPresent");
        let unset = json!({ "spec": { "template": { "imageListPullJobTemplate": { "spec": {} } } } });
        assert_eq!(
            of("AdvancedCronJob", &unset, None, true).expect("d")["spec"]["concurrencyPolicy"],
            "Replace"
        );
    }

    #[test]
    fn a_bare_cloneset_gets_upstreams_defaults_and_a_set_field_is_kept() {
        let bare = json!({ "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
            "spec": { "selector": {}, "template": {} } });
        let out = cloneset(&bare);
        assert_eq!(out["spec"]["replicas"], 1);
        assert_eq!(out["spec"]["revisionHistoryLimit"], 10);
        assert_eq!(
            out["spec"]["updateStrategy"],
            json!({ "type": "ReCreate", "partition": 0, "maxUnavailable": "20%", "maxSurge": 0 })
        );
        let set = json!({ "spec": { "replicas": 0, "updateStrategy": {
            "type": "InPlaceIfPossible", "maxUnavailable": 2, "partition": "50%" } } });
        let out = cloneset(&set);
        assert_eq!(out["spec"]["replicas"], 0, "a set zero stays");
        assert_eq!(out["spec"]["updateStrategy"]["maxUnavailable"], 2);
        assert_eq!(out["spec"]["updateStrategy"]["partition"], "50%");
        assert_eq!(out["spec"]["updateStrategy"]["inPlaceUpdateStrategy"], json!({}));
        assert_eq!(cloneset(&out), out, "defaulting twice changes nothing");
    }

    #[test]
    fn a_v1beta1_cloneset_gets_its_defaults_nested_and_on_delete_gets_none() {
        let bare = json!({ "apiVersion": "apps.kruise.io/v1beta1", "kind": "CloneSet",
            "spec": { "updateStrategy": { "rollingUpdate": { "podUpdatePolicy": "InPlaceIfPossible" } } } });
        let out = cloneset(&bare);
        assert_eq!(
            out["spec"]["updateStrategy"],
            json!({ "type": "RollingUpdate", "rollingUpdate": { "podUpdatePolicy": "InPlaceIfPossible",
                "inPlaceUpdateStrategy": {}, "partition": 0, "maxUnavailable": "20%", "maxSurge": 0 } })
        );
        let on_delete = json!({ "apiVersion": "apps.kruise.io/v1beta1", "kind": "CloneSet",
            "spec": { "updateStrategy": { "type": "OnDelete" } } });
        assert_eq!(
            cloneset(&on_delete)["spec"]["updateStrategy"],
            json!({ "type": "OnDelete" })
        );
    }

    #[test]
    fn a_daemonset_gets_one_unavailable_node_only_when_neither_budget_is_set() {
        let bare = json!({ "kind": "DaemonSet", "spec": { "template": { "spec": { "containers": [] } } } });
        let out = of("DaemonSet", &bare, None, true).expect("defaults");
        assert_eq!(out["spec"]["burstReplicas"], 250);
        assert_eq!(
            out["spec"]["updateStrategy"],
            json!({ "type": "RollingUpdate", "rollingUpdate": { "rollingUpdateType": "Standard",
                "maxUnavailable": 1, "maxSurge": 0 } })
        );
        assert_eq!(
            out["spec"]["template"], bare["spec"]["template"],
            "the template is left alone"
        );
        let surge = json!({ "spec": { "updateStrategy": { "rollingUpdate": { "maxSurge": "10%" } } } });
        assert_eq!(
            daemonset(&surge)["spec"]["updateStrategy"]["rollingUpdate"],
            json!({ "maxSurge": "10%", "rollingUpdateType": "Standard" })
        );
        let surging =
            json!({ "spec": { "updateStrategy": { "rollingUpdate": { "rollingUpdateType": "Surging" } } } });
        assert_eq!(
            daemonset(&surging)["spec"]["updateStrategy"]["rollingUpdate"],
            json!({ "rollingUpdateType": "Standard", "maxSurge": 1, "maxUnavailable": 0 })
        );
    }

    #[test]
    fn the_template_is_defaulted_only_when_asked() {
        let set = json!({ "kind": "CloneSet", "spec": { "template": {
            "spec": { "containers": [{ "name": "app", "image": "web:1" }] } } } });
        let with = of("CloneSet", &set, None, true).expect("a kind with defaults");
        assert_eq!(
            with["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"],
            "Always"
        );
        let without = of("CloneSet", &set, None, false).expect("a kind with defaults");
        assert_eq!(without["spec"]["template"], set["spec"]["template"]);
        assert!(of("UnknownKind", &set, None, true).is_none());
    }

    #[test]
    fn an_advanced_statefulset_gets_a_rolling_update_block_only_under_rolling_update() {
        let bare = json!({ "apiVersion": "apps.kruise.io/v1beta1", "spec": {} });
        let out = statefulset(&bare);
        assert_eq!(out["spec"]["podManagementPolicy"], "OrderedReady");
        assert_eq!(
            out["spec"]["updateStrategy"],
            json!({ "type": "RollingUpdate", "rollingUpdate": {
                "partition": 0, "maxUnavailable": 1, "podUpdatePolicy": "ReCreate", "minReadySeconds": 0 } })
        );
        assert_eq!(
            out["spec"]["persistentVolumeClaimRetentionPolicy"],
            json!({ "whenDeleted": "Retain", "whenScaled": "Retain" })
        );
        let on_delete = json!({ "apiVersion": "apps.kruise.io/v1alpha1",
            "spec": { "updateStrategy": { "type": "OnDelete" } } });
        let out = statefulset(&on_delete);
        assert!(out["spec"]["updateStrategy"].get("rollingUpdate").is_none());
        assert!(
            out["spec"].get("persistentVolumeClaimRetentionPolicy").is_none(),
            "v1alpha1 has none"
        );
        assert_eq!(statefulset(&out), out);
    }
}
