//! The workload kinds the CLI's verbs know, and the one table of the CLI that names them:
//! the OpenKruise kinds (described by [`KruiseKind`] and their facts) and the built-in
//! `apps/v1` kinds, their tokens, the word progress lines use, and the shape of each kind's
//! views ([`View`]; [`super::views`] routes a view to the kind's own module, `cli::<kind>`,
//! from above, so that those modules can use this table without an import circle). Every
//! other verb asks a kind's facts ([`Kind::facts`]) instead of matching on it.
//!
//! Invariant: a bare `sts`/`statefulset` (and `ds`/`daemonset`) is the built-in `apps/v1`
//! kind, as in kubectl; the Advanced kinds are `asts`/`ads` or group-qualified.
use kube::api::ApiResource;
use serde_json::Value;

use crate::api::KruiseKind;
use crate::workloads::facts::{KindFacts, Path, StatusNumbers};

/// The workload kinds the rollout verbs know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    CloneSet,
    AdvancedStatefulSet,
    AdvancedDaemonSet,
    Deployment,
    StatefulSet,
    DaemonSet,
    /// A job, not a rollout: pause/resume and `rollout status` (complete or failed).
    BroadcastJob,
    /// A schedule of jobs: pause/resume, `create job --from`, `get --tree`.
    AdvancedCronJob,
    /// Cluster-scoped sidecars of other workloads' pods: `rollout status|pause|resume`,
    /// `set image`, `set partition`, `get --tree`.
    SidecarSet,
    /// One workload per subset: `rollout status` (every subset), `set partition SUBSET=N`,
    /// `scale`, `get --tree`.
    UnitedDeployment,
}

/// The shape of a kind's views (`rollout status`, `get --tree`).
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

impl Kind {
    const ALL: [Kind; 10] = [
        Kind::CloneSet,
        Kind::AdvancedStatefulSet,
        Kind::AdvancedDaemonSet,
        Kind::Deployment,
        Kind::StatefulSet,
        Kind::DaemonSet,
        Kind::BroadcastJob,
        Kind::AdvancedCronJob,
        Kind::SidecarSet,
        Kind::UnitedDeployment,
    ];

    /// The OpenKruise kind this is, or a built-in kind's API resource. An OpenKruise
    /// kind's names, scope and API resource are read from [`KruiseKind`], not repeated here.
    fn described(self) -> Result<KruiseKind, ApiResource> {
        use k8s_openapi::api::apps::v1;
        match self {
            Kind::CloneSet => Ok(KruiseKind::CloneSet),
            Kind::AdvancedStatefulSet => Ok(KruiseKind::StatefulSet),
            Kind::AdvancedDaemonSet => Ok(KruiseKind::DaemonSet),
            Kind::BroadcastJob => Ok(KruiseKind::BroadcastJob),
            Kind::AdvancedCronJob => Ok(KruiseKind::AdvancedCronJob),
            Kind::SidecarSet => Ok(KruiseKind::SidecarSet),
            Kind::UnitedDeployment => Ok(KruiseKind::UnitedDeployment),
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
        match self.described() {
            Ok(kind) => crate::workloads::registry::facts(kind),
            Err(_) => match self {
                Kind::StatefulSet => &super::builtin_kinds::StatefulSet,
                Kind::DaemonSet => &super::builtin_kinds::DaemonSet,
                _ => &super::builtin_kinds::Deployment,
            },
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
    pub fn containers_path(self) -> Path {
        self.facts().containers_path()
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
        match self {
            Kind::CloneSet => "cloneset",
            Kind::Deployment => "deployment",
            Kind::AdvancedStatefulSet => "asts",
            Kind::AdvancedDaemonSet => "ads",
            Kind::StatefulSet => "statefulset",
            Kind::DaemonSet => "daemonset",
            Kind::BroadcastJob => "bcj",
            Kind::AdvancedCronJob => "acj",
            Kind::SidecarSet => "sidecarset",
            Kind::UnitedDeployment => "ud",
        }
    }

    /// How `rollout status` follows it (None: it has no rollout to follow).
    pub fn status_view(self) -> Option<View> {
        match self {
            Kind::CloneSet | Kind::AdvancedStatefulSet | Kind::AdvancedDaemonSet | Kind::Deployment => {
                Some(View::Pods)
            }
            Kind::BroadcastJob => Some(View::Job),
            Kind::SidecarSet => Some(View::Sidecars),
            Kind::UnitedDeployment => Some(View::Subsets),
            Kind::StatefulSet | Kind::DaemonSet | Kind::AdvancedCronJob => None,
        }
    }

    /// How `get --tree` shows it.
    pub fn tree_view(self) -> View {
        match self {
            Kind::BroadcastJob | Kind::AdvancedCronJob => View::Job,
            Kind::SidecarSet => View::Sidecars,
            Kind::UnitedDeployment => View::Subsets,
            Kind::CloneSet
            | Kind::AdvancedStatefulSet
            | Kind::AdvancedDaemonSet
            | Kind::Deployment
            | Kind::StatefulSet
            | Kind::DaemonSet => View::Pods,
        }
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
            Kind::CloneSet
            | Kind::AdvancedStatefulSet
            | Kind::AdvancedDaemonSet
            | Kind::BroadcastJob
            | Kind::AdvancedCronJob
            | Kind::SidecarSet
            | Kind::UnitedDeployment => &[],
        }
    }

    /// Whether `token` (lower case) names this OpenKruise kind: a short name of its CRD, its
    /// kind, its plural, or either qualified by its group.
    fn kruise_token(self, token: &str) -> bool {
        let Some(kind) = self.kruise() else {
            return false;
        };
        let resource = kind.resource();
        let singular = kind.name().to_ascii_lowercase();
        let qualified = |name: &str| format!("{name}.{}", resource.group);
        kind.short_names().contains(&token)
            || token == singular
            || token == resource.plural
            || token == qualified(&resource.plural)
            || token == qualified(&singular)
    }

    pub fn from_token(token: &str) -> Option<Kind> {
        let token = token.to_ascii_lowercase();
        let token = token.as_str();
        let all = Kind::ALL.into_iter();
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

    /// `<plural>.<group>`, as mutating verbs print it.
    pub fn qualified(self) -> String {
        let r = self.resource();
        format!("{}.{}", r.plural, r.group)
    }
}
