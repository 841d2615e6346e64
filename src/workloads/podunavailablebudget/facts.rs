//! The PodUnavailableBudget's facts for the webhooks ([`KindFacts`]): no defaults, its
//! refusals alone and against the other budgets of its namespace; it has no rollout.
use serde_json::Value;

use crate::api::podunavailablebudget::PodUnavailableBudget;
use crate::workloads::facts::{KindFacts, Peers, View};

/// The PodUnavailableBudget's facts.
pub struct Facts;

impl crate::workloads::facts::HasFacts for PodUnavailableBudget {
    const KIND: Option<crate::api::KruiseKind> = Some(crate::api::KruiseKind::PodUnavailableBudget);
    const FACTS: &'static dyn KindFacts = &Facts;
    const POD_HOOK: Option<crate::workloads::pod_hooks::WatchHook> = Some(super::pod_hook::watched);
}

impl KindFacts for Facts {
    fn word(&self) -> &'static str {
        "pub"
    }

    fn status_view(&self) -> Option<View> {
        None
    }

    fn is_rollout_target(&self) -> bool {
        false
    }

    fn refusal(&self, object: &Value, old: Option<&Value>, peers: &Peers) -> Option<String> {
        let others: Vec<PodUnavailableBudget> = peers
            .others
            .iter()
            .filter_map(|o| serde_json::from_value(o.clone()).ok())
            .collect();
        super::validation::refusal(object, old, &others)
    }

    fn judged_in_context(&self) -> bool {
        true
    }

    fn rolls_out_a_template(&self) -> bool {
        false
    }
}
