//! The BroadcastJob's facts for the webhooks and the rollout verbs ([`KindFacts`]): its
//! defaults (its pod template is left as written: upstream's template defaults would make
//! an unset restartPolicy `Always`, which a job's pods cannot have), its refusals, and its
//! pause switch. A job: no revisions, partition or replicas.
use serde_json::Value;

use crate::workloads::facts::{KindFacts, Path, Peers, View};

/// The BroadcastJob's facts.
pub struct Facts;

impl crate::workloads::facts::HasFacts for crate::api::broadcastjob::BroadcastJob {
    const KIND: Option<crate::api::KruiseKind> = Some(crate::api::KruiseKind::BroadcastJob);
    const FACTS: &'static dyn KindFacts = &Facts;
}

impl KindFacts for Facts {
    fn word(&self) -> &'static str {
        "bcj"
    }

    fn status_view(&self) -> Option<View> {
        Some(View::Job)
    }

    fn tree_view(&self) -> View {
        View::Job
    }

    fn defaulted(&self, object: &Value, _old: Option<&Value>) -> Option<Value> {
        Some(super::defaults::defaulted(object))
    }

    fn refusal(&self, object: &Value, _old: Option<&Value>, _peers: &Peers) -> Option<String> {
        super::validation::refusal(object)
    }

    fn is_job(&self) -> bool {
        true
    }

    fn paused_path(&self, _object: &Value) -> Option<Path> {
        Some(&["spec", "paused"])
    }
}
