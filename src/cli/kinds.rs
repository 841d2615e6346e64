//! The workload kinds the CLI's verbs know: the OpenKruise kinds, each read from its
//! [`KruiseKind`] description and its facts (names, scope, the word progress lines use,
//! the shape of its views; [`super::views`] routes a view to the kind's own module), and the
//! built-in `apps/v1` kinds, with their tokens. No OpenKruise kind is named here: every
//! verb asks a kind's facts ([`Kind::facts`]) instead of matching on it.
//!
//! Invariant: a bare `sts`/`statefulset` (and `ds`/`daemonset`) is the built-in `apps/v1`
//! kind, as in kubectl; the Advanced kinds are `asts`/`ads` or group-qualified.
use kube::api::ApiResource;
use serde_json::Value;

use crate::api::KruiseKind;
use crate::workloads::facts::{KindFacts, Path, StatusNumbers};

/// The workload kinds the rollout verbs know: the OpenKruise kinds they drive (every one
/// but the WorkloadSpread and the PodUnavailableBudget, see
/// [`KindFacts::is_rollout_target`]; `get` lists those, [`listed_only`]) and the built-in
/// ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An OpenKruise kind: its names, scope and API resource are read from [`KruiseKind`],
    /// the rest from its facts.
    Kruise(KruiseKind),
    Deployment,
    StatefulSet,
    DaemonSet,
}

pub use crate::workloads::facts::View;

impl Kind {
    const BUILTIN: [Kind; 3] = [Kind::Deployment, Kind::StatefulSet, Kind::DaemonSet];

    /// Every kind, the built-in ones first.
    fn all() -> impl Iterator<Item = Kind> + Clone {
        let kruise = KruiseKind::ALL
            .into_iter()
            .filter(|k| crate::workloads::registry::facts(*k).is_rollout_target())
            .map(Kind::Kruise);
        Kind::BUILTIN.into_iter().chain(kruise)
    }

    /// The OpenKruise kind this is, or a built-in kind's API resource.
    fn described(self) -> Result<KruiseKind, ApiResource> {
        use k8s_openapi::api::apps::v1;
        match self {
            Kind::Kruise(kind) => Ok(kind),
            Kind::Deployment => Err(ApiResource::erase::<v1::Deployment>(&())),
            Kind::StatefulSet => Err(ApiResource::erase::<v1::StatefulSet>(&())),
            Kind::DaemonSet => Err(ApiResource::erase::<v1::DaemonSet>(&())),
        }
    }

    /// The OpenKruise kind this is (None: a built-in kind).
    pub fn kruise(self) -> Option<KruiseKind> {
        self.described().ok()
    }

    /// What the webhooks and the rollout verbs know of this kind: an OpenKruise kind's
    /// facts are its own module's ([`crate::workloads::registry::facts`]), a built-in
    /// kind's are [`super::builtin_kinds`]. The verbs ask these, not the kind.
    pub fn facts(self) -> &'static dyn KindFacts {
        match self {
            Kind::Kruise(kind) => crate::workloads::registry::facts(kind),
            Kind::Deployment => &super::builtin_kinds::Deployment,
            Kind::StatefulSet => &super::builtin_kinds::StatefulSet,
            Kind::DaemonSet => &super::builtin_kinds::DaemonSet,
        }
    }

    /// Cluster-scoped (a SidecarSet): `-n` does not apply to the object itself.
    pub fn cluster_scoped(self) -> bool {
        self.kruise().is_some_and(|k| !k.namespaced())
    }

    /// Has a pod template whose revisions roll out (restart, history, undo, scale, step):
    /// not the job kinds, not a SidecarSet (its containers go into other workloads' pods),
    /// not a UnitedDeployment (its subset workloads roll out; it only scales).
    pub fn rolls_out_a_template(self) -> bool {
        self.facts().rolls_out_a_template()
    }

    /// Where `object`'s container lists (`containers`, `initContainers`) live.
    pub fn containers_path(self, object: &serde_json::Value) -> Path {
        self.facts().containers_path(object)
    }

    /// A job kind (BroadcastJob, AdvancedCronJob): no revisions, partition or replicas.
    pub fn is_job(self) -> bool {
        self.facts().is_job()
    }

    /// Where `object`, of this kind, keeps its partition (None: the kind has none). One
    /// place for every verb (`set partition`, `rollout step`, `undo`, the views).
    pub fn partition_path(self, object: &Value) -> Option<Path> {
        self.facts().partition_path(object)
    }

    /// Where `object`, of this kind, keeps its pause switch (None: the kind has none).
    pub fn paused_path(self, object: &Value) -> Option<Path> {
        self.facts().paused_path(object)
    }

    /// The status numbers of `object`, an object of this kind.
    pub fn numbers(self, object: &Value) -> StatusNumbers {
        self.facts().numbers(object)
    }

    /// The pods the partition lets through (see [`KindFacts::expected_updated`]).
    pub fn expected_updated(self, object: &Value) -> i64 {
        self.facts().expected_updated(object)
    }

    /// Why no controller rolls this object out, if none does: its spec cannot be read, or
    /// it reads but the planner refuses it (the controller's own `InvalidSpec` message).
    /// Built-in kinds are validated by the API server. Only metadata and spec are read:
    /// the status is the controller's.
    pub fn spec_refusal(self, object: &Value, id: &str) -> Option<String> {
        let spec = serde_json::json!({ "metadata": object["metadata"], "spec": object["spec"] });
        self.facts().spec_refusal(&spec, id)
    }

    /// The word progress lines name it by (`cloneset/web`, `asts/db`).
    pub fn word(self) -> &'static str {
        self.facts().word()
    }

    /// How `rollout status` follows it (None: it has no rollout to follow).
    pub fn status_view(self) -> Option<View> {
        self.facts().status_view()
    }

    /// How `get --tree` shows it.
    pub fn tree_view(self) -> View {
        self.facts().tree_view()
    }

    /// Tokens that name a built-in kind (lower case); they win over an OpenKruise kind's
    /// (`sts` and `statefulset` are the built-in StatefulSet, `asts` the Advanced one).
    fn builtin_tokens(self) -> &'static [&'static str] {
        match self {
            Kind::Deployment => &[
                "deploy",
                "deployment",
                "deployments",
                "deployments.apps",
                "deployment.apps",
            ],
            Kind::StatefulSet => &[
                "sts",
                "statefulset",
                "statefulsets",
                "statefulsets.apps",
                "statefulset.apps",
            ],
            Kind::DaemonSet => &[
                "ds",
                "daemonset",
                "daemonsets",
                "daemonsets.apps",
                "daemonset.apps",
            ],
            Kind::Kruise(_) => &[],
        }
    }

    /// Whether `token` (lower case) names this OpenKruise kind: a short name of its CRD, its
    /// kind, its plural, or either qualified by its group.
    fn kruise_token(self, token: &str) -> bool {
        self.kruise().is_some_and(|kind| names(kind, token))
    }

    pub fn from_token(token: &str) -> Option<Kind> {
        let token = token.to_ascii_lowercase();
        let token = token.as_str();
        let all = Kind::all();
        all.clone()
            .find(|k| k.builtin_tokens().contains(&token))
            .or_else(|| all.into_iter().find(|k| k.kruise_token(token)))
    }

    /// The API resource (the served version the controllers use).
    pub fn resource(self) -> ApiResource {
        self.described()
            .map_or_else(|builtin| builtin, KruiseKind::resource)
    }

    /// This kind's API in `namespace` (cluster-wide for a cluster-scoped kind).
    pub fn api(self, client: &kube::Client, namespace: &str) -> kube::Api<kube::api::DynamicObject> {
        if self.cluster_scoped() {
            kube::Api::all_with(client.clone(), &self.resource())
        } else {
            kube::Api::namespaced_with(client.clone(), namespace, &self.resource())
        }
    }

    /// The kind a manifest's `apiVersion` and `kind` name, and its API resource at that
    /// version (None: not a kind the verbs drive).
    pub fn of_manifest(api_version: &str, kind: &str) -> Option<(Kind, ApiResource)> {
        let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
        Kind::all().find_map(|k| {
            let mut resource = k.resource();
            (resource.group == group && resource.kind == kind).then(|| {
                resource.version = version.to_string();
                resource.api_version = api_version.to_string();
                (k, resource)
            })
        })
    }

    /// `<plural>.<group>`, as mutating verbs print it.
    pub fn qualified(self) -> String {
        qualified(self.resource())
    }
}

/// `<plural>.<group>` of a resource.
pub fn qualified(resource: ApiResource) -> String {
    format!("{}.{}", resource.plural, resource.group)
}

/// Whether `token` (lower case) names `kind`: a short name of its CRD, its kind, its
/// plural, or either qualified by its group.
fn names(kind: KruiseKind, token: &str) -> bool {
    let resource = kind.resource();
    let singular = kind.name().to_ascii_lowercase();
    let qualified = |name: &str| format!("{name}.{}", resource.group);
    kind.short_names().contains(&token)
        || token == singular
        || token == resource.plural
        || token == qualified(&resource.plural)
        || token == qualified(&singular)
}

/// The OpenKruise kind `token` names (case-insensitive) among those `get` lists but no
/// rollout verb acts on ([`KindFacts::is_rollout_target`]: a WorkloadSpread, a
/// PodUnavailableBudget).
pub fn listed_only(token: &str) -> Option<KruiseKind> {
    let token = token.to_ascii_lowercase();
    KruiseKind::ALL
        .into_iter()
        .find(|k| !crate::workloads::registry::facts(*k).is_rollout_target() && names(*k, &token))
}
