//! The WorkloadSpread's facts for the webhooks ([`KindFacts`]): not defaults but its
//! renamed fields under both versions' names (what upstream's conversion webhook does),
//! and its refusals, alone, against the other spreads of its namespace and against its
//! target. It has no rollout of its own.
use serde_json::Value;

use crate::api::workloadspread::WorkloadSpread;
use crate::runtime::configuration::Configuration;
use crate::workloads::facts::{KindFacts, Peers, View};

/// The WorkloadSpread's facts.
pub struct Facts;

impl crate::workloads::facts::HasFacts for crate::api::workloadspread::WorkloadSpread {
    const KIND: Option<crate::api::KruiseKind> = Some(crate::api::KruiseKind::WorkloadSpread);
    const FACTS: &'static dyn KindFacts = &Facts;
    const POD_HOOK: Option<crate::workloads::pod_hooks::WatchHook> = Some(super::pod_hook::watched);
}

impl KindFacts for Facts {
    fn word(&self) -> &'static str {
        "ws"
    }

    fn status_view(&self) -> Option<View> {
        None
    }

    fn is_rollout_target(&self) -> bool {
        false
    }

    fn defaulted(&self, object: &Value, old: Option<&Value>) -> Option<Value> {
        Some(super::spelling::mirrored(object, old))
    }

    fn refusal(&self, object: &Value, old: Option<&Value>, peers: &Peers) -> Option<String> {
        let others: Vec<WorkloadSpread> = peers
            .others
            .iter()
            .filter_map(|o| serde_json::from_value(o.clone()).ok())
            .collect();
        let default = Configuration::default();
        super::validation::refusal_among(
            object,
            old,
            &others,
            peers.target.as_ref(),
            peers.configuration.unwrap_or(&default),
        )
    }

    fn judged_in_context(&self) -> bool {
        true
    }

    fn target_ref<'a>(&self, object: &'a Value) -> Option<&'a Value> {
        Some(&object["spec"]["targetRef"])
    }

    fn rolls_out_a_template(&self) -> bool {
        false
    }
}
