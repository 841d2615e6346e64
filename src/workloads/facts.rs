//! What the webhooks and the rollout verbs know of a kind, said once, in the kind's own
//! module (`workloads::<kind>::facts`): its defaults and its refusals (the admission
//! webhooks), where its partition and pause switch live, its status numbers under whatever
//! names it gives them, what a `rollout step` reads of it and the preview of its next
//! updates through its own planner (the rollout verbs). The admission server and the CLI
//! ask [`KindFacts`] instead of matching on the kind; a kind names its facts beside its
//! controller ([`HasFacts`]), and [`crate::workloads::registry::facts`] finds them.
//!
//! Invariants: every method is pure (objects as JSON in, answers out); a method a kind does
//! not override answers as a kind without that feature would (no partition, no pause, no
//! defaults, nothing refused); a status field that is missing or not a number counts 0.
use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::jiff::Timestamp;
use serde_json::Value;

use crate::api::KruiseKind;
use crate::api::common::PodUpdatePolicy;
use crate::runtime::configuration::Configuration;
use crate::runtime::features::Features;

/// A path of JSON field names inside an object.
pub type Path = &'static [&'static str];

/// Where a pod template's container lists are.
pub const TEMPLATE_CONTAINERS: Path = &["spec", "template", "spec"];

/// A workload's status numbers, whatever the kind calls them (a DaemonSet counts nodes:
/// `desiredNumberScheduled` is its replicas, `updatedNumberScheduled` its updated pods).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StatusNumbers {
    /// Pods wanted.
    pub replicas: i64,
    /// Pods the status counts (terminating ones too, for most kinds).
    pub current: i64,
    pub updated: i64,
    pub ready: i64,
    pub available: i64,
    /// Updated and ready, and updated and available, where the kind reports them.
    pub updated_ready: Option<i64>,
    pub updated_available: Option<i64>,
}

/// A status number (0 when missing).
pub fn count(v: &Value) -> i64 {
    v.as_i64().unwrap_or(0)
}

impl StatusNumbers {
    /// The numbers of a kind that counts replicas (`spec.replicas`, `status.replicas`,
    /// `updatedReplicas`, `readyReplicas`, `availableReplicas`).
    pub fn of_replicas(object: &Value) -> StatusNumbers {
        let (spec, status) = (&object["spec"], &object["status"]);
        StatusNumbers {
            replicas: spec["replicas"].as_i64().unwrap_or(1),
            current: count(&status["replicas"]),
            updated: count(&status["updatedReplicas"]),
            ready: count(&status["readyReplicas"]),
            available: count(&status["availableReplicas"]),
            updated_ready: status["updatedReadyReplicas"].as_i64(),
            updated_available: status["updatedAvailableReplicas"].as_i64(),
        }
    }

    /// The numbers of a kind that counts nodes (a DaemonSet, built-in or Advanced).
    pub fn of_nodes(object: &Value) -> StatusNumbers {
        let status = &object["status"];
        StatusNumbers {
            replicas: count(&status["desiredNumberScheduled"]),
            current: count(&status["currentNumberScheduled"]),
            updated: count(&status["updatedNumberScheduled"]),
            ready: count(&status["numberReady"]),
            available: count(&status["numberAvailable"]),
            updated_ready: None,
            updated_available: None,
        }
    }
}

/// The shape of a kind's views in the CLI (`rollout status`, `get --tree`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Its pods and their revisions.
    Pods,
    /// A job's (or a schedule's) runs and pods.
    Job,
    /// The pods it injected, by the sidecars they run.
    Sidecars,
    /// Its subsets, each a workload.
    Subsets,
}

/// How a kind's partition field takes a percentage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PercentPartition {
    /// Stored as written (an int-or-percent field).
    Kept,
    /// Resolved to the number of pods it stands for (the field is an integer).
    Resolved,
    /// Not taken: why, to tell the user.
    Refused(&'static str),
}

/// What `rollout step` reads of a workload with a partition: the numbers of one step.
#[derive(Debug, Clone, PartialEq)]
pub struct StepNumbers {
    pub replicas: i64,
    /// Always a number of pods (a percentage resolved as the controller does).
    pub partition: i64,
    /// The partition as written when it is a percentage (`40%`).
    pub partition_raw: Option<String>,
    pub paused: bool,
    /// The default batch: the unavailable budget.
    pub budget: i64,
    /// The revision the status names (`<name>-<hash>` for a DaemonSet, which reports a hash).
    pub update_revision: String,
    pub updated: i64,
    /// How its pods take a new template.
    pub policy: PodUpdatePolicy,
    /// Where the object keeps its partition.
    pub partition_path: Path,
    /// Seconds a pod must be Ready before it counts as available.
    pub min_ready_seconds: i64,
}

/// The pods (and, where the kind places pods on nodes, the nodes) a preview reads.
pub struct Listed<'a> {
    pub pods: &'a [Pod],
    pub nodes: &'a [Node],
}

/// A preview: the pods updated next, in the controller's order, each with its node where
/// the kind places pods on nodes.
pub type Preview = Vec<(String, Option<String>)>;

/// What a round of a kind's controller would write to one workload it renders from its
/// template (a UnitedDeployment's subset): the workload before and after (a create has no
/// before, a delete no after).
#[derive(Debug, Clone, PartialEq)]
pub struct ChildChange {
    /// The name its parent gives it (the subset).
    pub subset: String,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

/// What an in-place upgrade of the pods a kind matches (not controls: a SidecarSet's
/// injected pods) would do, in its controller's order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MatchedUpgrade {
    /// `namespace/name` of each pod upgraded, in order, with whether it is ready now.
    pub order: Vec<(String, bool)>,
    /// The pods its partition holds.
    pub held: Vec<String>,
    /// The pods it cannot upgrade in place (they keep what they run).
    pub not_upgradable: Vec<String>,
    /// Its unavailable budget, and the pods already unavailable against it.
    pub budget: i64,
    pub unavailable: i64,
    /// `name=image` of what the upgrade writes.
    pub images: String,
}

/// One entry of OpenKruise's `kruise-configuration` ConfigMap, as the webhook read it.
#[derive(Debug, Clone)]
pub struct ConfigurationEntry {
    /// Where it lives (`ConfigMap NS/kruise-configuration`), for messages.
    pub at: String,
    /// The entry's text (None: the ConfigMap or the key is missing), or why it could not be read.
    pub text: Result<Option<String>, String>,
}

/// What judging an object may need besides itself and its stored version, gathered by the
/// validating webhook when the kind asks for it ([`KindFacts::judged_in_context`],
/// [`KindFacts::target_ref`], [`KindFacts::configuration_key`]).
#[derive(Default)]
pub struct Peers<'a> {
    /// The other stored objects of the kind in scope (its namespace, or the cluster), as JSON.
    pub others: Vec<Value>,
    /// The workload the object's target reference names, when it exists.
    pub target: Option<Value>,
    /// The run's configuration (custom workload kinds).
    pub configuration: Option<&'a Configuration>,
    /// The entry of `kruise-configuration` the kind asked for.
    pub entry: Option<ConfigurationEntry>,
    /// OpenKruise's feature gates.
    pub features: Option<&'a Features>,
}

/// Which OpenKruise kind a controlled type is, and its facts: what the registry reads of
/// it beside its controller (`registry::of`), so one line there registers both.
pub trait HasFacts {
    /// The OpenKruise kind (None: a kind of this project's tests, not OpenKruise's).
    const KIND: Option<KruiseKind>;
    /// Its facts.
    const FACTS: &'static dyn KindFacts;
    /// Its part in the pod webhooks, if it has one.
    const POD_HOOK: Option<crate::workloads::pod_hooks::WatchHook> = None;
}

/// The facts of a kind that has none of the features: every default.
pub struct Defaults;

impl KindFacts for Defaults {
    fn word(&self) -> &'static str {
        "object"
    }

    fn is_rollout_target(&self) -> bool {
        false
    }
}

/// What the webhooks and the rollout verbs know of one kind (see the module doc).
pub trait KindFacts: Sync {
    // --- the admission webhooks ---

    /// The object with the kind's spec defaults (OpenKruise's `SetDefaults*`); `old`: the
    /// stored object on an update. None: the kind has no defaults.
    fn defaulted(&self, _object: &Value, _old: Option<&Value>) -> Option<Value> {
        None
    }

    /// Whether its pod template (`spec.template`) also gets OpenKruise's template defaults.
    fn defaults_template(&self) -> bool {
        false
    }

    /// Why the object must be refused (None: it may be stored); `old`: the stored object
    /// on an update (for the fields that are immutable).
    fn refusal(&self, _object: &Value, _old: Option<&Value>, _peers: &Peers) -> Option<String> {
        None
    }

    /// Whether judging it needs what the validating webhook gathers: the other objects of
    /// its kind in scope, and the target and `kruise-configuration` entry it names
    /// ([`KindFacts::target_ref`], [`KindFacts::configuration_key`], asked only then).
    fn judged_in_context(&self) -> bool {
        false
    }

    /// The reference to a workload judging it needs (None: it needs none).
    fn target_ref<'a>(&self, _object: &'a Value) -> Option<&'a Value> {
        None
    }

    /// The entry of `kruise-configuration` judging `object` needs (None: none), when the
    /// run scoped to `scope` judges it.
    fn configuration_key(&self, _object: &Value, _scope: Option<&str>) -> Option<&'static str> {
        None
    }

    // --- the rollout verbs ---

    /// Whether the CLI's verbs name it as a workload (`TYPE/NAME`); a WorkloadSpread is
    /// reached only through `get ws/NAME --tree`.
    fn is_rollout_target(&self) -> bool {
        true
    }

    /// The word progress lines name it by (`cloneset/web`, `asts/db`).
    fn word(&self) -> &'static str;

    /// How `rollout status` follows it (None: it has no rollout to follow).
    fn status_view(&self) -> Option<View> {
        Some(View::Pods)
    }

    /// How `get --tree` shows it.
    fn tree_view(&self) -> View {
        View::Pods
    }

    /// A job kind: no revisions, partition or replicas.
    fn is_job(&self) -> bool {
        false
    }

    /// Has a pod template whose revisions roll out (restart, history, undo, scale, step).
    fn rolls_out_a_template(&self) -> bool {
        !self.is_job()
    }

    /// Where `object`'s container lists (`containers`, `initContainers`) are: the pod spec
    /// its `set` verbs change.
    fn containers_path(&self, _object: &Value) -> Path {
        TEMPLATE_CONTAINERS
    }

    /// What a change of its pod spec does to its pods, when no update policy says it
    /// ([`KindFacts::pod_update_policy`]); None: they are replaced as its rollout strategy
    /// allows.
    fn pod_spec_change(&self) -> Option<&'static str> {
        None
    }

    /// Where `object` keeps its partition (None: the kind has none; `Value::Null` asks
    /// whether the kind has one at all).
    fn partition_path(&self, _object: &Value) -> Option<Path> {
        None
    }

    /// How its partition takes a percentage.
    fn percent_partition(&self) -> PercentPartition {
        PercentPartition::Resolved
    }

    /// Where `object` keeps its pause switch (None: the kind has none).
    fn paused_path(&self, _object: &Value) -> Option<Path> {
        None
    }

    /// What its status numbers count ("replicas", "nodes").
    fn counts(&self) -> &'static str {
        "replicas"
    }

    /// The status numbers of `object`.
    fn numbers(&self, object: &Value) -> StatusNumbers {
        StatusNumbers::of_replicas(object)
    }

    /// The pods the partition lets through, which must be updated and ready for the
    /// rollout (or a `rollout step` batch) to be done. A partition holds only pods at an
    /// older revision: once more pods are updated than it lets through, those count too.
    fn expected_updated(&self, object: &Value) -> i64 {
        self.numbers(object).replicas
    }

    /// Why no controller rolls `object` (its metadata and spec) out, if none does: it cannot
    /// be read, or its planner refuses it. `id` names it.
    fn spec_refusal(&self, object: &Value, id: &str) -> Option<String> {
        let _ = id;
        self.refusal(object, None, &Peers::default())
    }

    /// Whether its status names its update revision (`updateRevision`, or a DaemonSet's
    /// hash); a built-in Deployment's or DaemonSet's does not.
    fn reports_update_revision(&self) -> bool {
        true
    }

    /// The revision name of a hash the status reports.
    fn revision_name(&self, _name: &str, hash: &str) -> String {
        hash.to_string()
    }

    /// Whether its partition lets pods through in its controller's order, batch by batch:
    /// `rollout step` and the preview of [`KindFacts::preview`] work on it.
    fn steps(&self) -> bool {
        false
    }

    /// Whether `scale --delete POD` can delete a chosen pod (`scaleStrategy.podsToDelete`).
    fn deletes_chosen_pods(&self) -> bool {
        false
    }

    /// How its pods take a new template, where the kind lists each pod's outcome before an
    /// undo (None: it does not); an error names `id` and the field when the object cannot
    /// be read.
    fn pod_update_policy(&self, _object: &Value, _id: &str) -> Result<Option<PodUpdatePolicy>, String> {
        Ok(None)
    }

    /// Whether its partitions and replicas are per subset (`set partition SUBSET=N`; `scale`
    /// splits the replicas), not one field of its own.
    fn partitions_per_subset(&self) -> bool {
        false
    }

    /// What `rollout step` reads of `object` (None: the kind has no steps). `id` names it.
    fn step(&self, _object: &Value, _id: &str) -> Option<Result<StepNumbers, String>> {
        None
    }

    /// Whether a preview needs the nodes (the kind places pods on nodes).
    fn preview_needs_nodes(&self) -> bool {
        false
    }

    /// The pods `object` updates next to revision `update` (what its status names) once
    /// its partition is `partition`, in its controller's order, through its own planner
    /// (None: the kind has no preview).
    fn preview(
        &self,
        _object: &Value,
        _id: &str,
        _update: &str,
        _listed: &Listed,
        _partition: i64,
        _now: Timestamp,
    ) -> Option<Result<Preview, String>> {
        None
    }

    /// The pods `object` deletes to come down to its replicas, in its controller's order,
    /// through its own planner, `update` being the revision its status names (None: the
    /// kind has no such preview).
    fn scale_in_preview(
        &self,
        _object: &Value,
        _id: &str,
        _update: &str,
        _listed: &Listed,
        _now: Timestamp,
    ) -> Option<Result<Vec<String>, String>> {
        None
    }

    /// The resources of the workloads it renders from its template and controls (a
    /// UnitedDeployment's subsets; empty: none).
    fn child_resources(&self) -> Vec<kube::core::ApiResource> {
        Vec::new()
    }

    /// What one round of its controller would write to those workloads were `object`
    /// applied, given its `revisions` and its `children` (each with its pods), through its
    /// own planner (None: it has no such workloads).
    fn child_changes(
        &self,
        _object: &Value,
        _id: &str,
        _revisions: &[crate::runtime::revision::KnownRevision],
        _children: &[(Value, Vec<Pod>)],
        _now: Timestamp,
    ) -> Option<Result<Vec<ChildChange>, String>> {
        None
    }

    /// Whether its pods are those it matches across namespaces and upgrades in place (a
    /// SidecarSet), rather than pods it controls.
    fn matches_pods(&self) -> bool {
        false
    }

    /// The in-place upgrade `object` would make among `pods`, given the `namespaces`,
    /// through its own planner (None: it matches no pods).
    fn matched_upgrade(
        &self,
        _object: &Value,
        _id: &str,
        _pods: &[Pod],
        _namespaces: &[k8s_openapi::api::core::v1::Namespace],
        _now: Timestamp,
    ) -> Option<Result<MatchedUpgrade, String>> {
        None
    }

    /// A batch `set partition` asks to confirm when more pods than it start updating (None:
    /// it never asks); an error names `id` and the field when the object cannot be read.
    fn confirmed_batch(&self, _object: &Value, _id: &str, _replicas: i64) -> Result<Option<i64>, String> {
        Ok(None)
    }
}

/// Reads `value` as its kind `K`; the error names `id` and the first bad field.
pub fn read_as<K: serde::de::DeserializeOwned>(value: &Value, id: &str) -> Result<K, String> {
    crate::runtime::decoded::read(value)
        .map_err(|e| format!("{id} cannot be read: {e}; fix the object (kubectl edit {id}) and retry"))
}

/// The value at `path` in `object` (Null when a field on the way is missing).
pub fn value_at<'v>(object: &'v Value, path: &[&str]) -> &'v Value {
    path.iter().fold(object, |v, key| &v[*key])
}

#[cfg(test)]
#[path = "facts_tests.rs"]
mod tests;
