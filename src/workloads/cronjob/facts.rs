//! The AdvancedCronJob's facts for the webhooks and the rollout verbs ([`KindFacts`]): its
//! defaults (its jobs' pod templates are left as written, as a BroadcastJob's), its
//! refusals (the schedule and its immutable fields on an update) and its pause switch. A
//! schedule of jobs: no revisions, partition or replicas.
use serde_json::Value;

use crate::workloads::facts::{KindFacts, Path, Peers, View};

/// The AdvancedCronJob's facts.
pub struct Facts;

impl crate::workloads::facts::HasFacts for crate::api::cronjob::AdvancedCronJob {
    const KIND: Option<crate::api::KruiseKind> = Some(crate::api::KruiseKind::AdvancedCronJob);
    const FACTS: &'static dyn KindFacts = &Facts;
}

impl KindFacts for Facts {
    fn word(&self) -> &'static str {
        "acj"
    }

    fn status_view(&self) -> Option<View> {
        None
    }

    fn tree_view(&self) -> View {
        View::Job
    }

    fn defaulted(&self, object: &Value, _old: Option<&Value>) -> Option<Value> {
        Some(super::defaults::defaulted(object))
    }

    fn refusal(&self, object: &Value, old: Option<&Value>, _peers: &Peers) -> Option<String> {
        super::validation::refusal(object, old)
    }

    fn is_job(&self) -> bool {
        true
    }

    fn paused_path(&self, _object: &Value) -> Option<Path> {
        Some(&["spec", "paused"])
    }
}
