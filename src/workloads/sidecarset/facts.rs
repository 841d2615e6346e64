//! The SidecarSet's facts for the webhooks and the rollout verbs ([`KindFacts`]): its
//! defaults, its refusals (alone, against the other SidecarSets, and its patched pod
//! metadata against OpenKruise's whitelist), where its containers, int-or-percent
//! partition and pause switch live, and its status numbers (its "replicas" are the pods
//! it injected, `matchedPods`). Its containers go into other workloads' pods: it has no
//! template of its own that rolls out.
use serde_json::Value;

use super::whitelist::{PATCH_METADATA_WHITELIST_KEY, patch_metadata_fault};
use crate::api::sidecarset::SidecarSet;
use crate::workloads::facts::{KindFacts, Path, Peers, PercentPartition, StatusNumbers, View, count};

/// The SidecarSet's facts.
pub struct Facts;

impl crate::workloads::facts::HasFacts for crate::api::sidecarset::SidecarSet {
    const KIND: Option<crate::api::KruiseKind> = Some(crate::api::KruiseKind::SidecarSet);
    const FACTS: &'static dyn KindFacts = &Facts;
    const POD_HOOK: Option<crate::workloads::pod_hooks::WatchHook> = Some(super::pod_hook::watched);
}

impl KindFacts for Facts {
    fn word(&self) -> &'static str {
        "sidecarset"
    }

    fn status_view(&self) -> Option<View> {
        Some(View::Sidecars)
    }

    fn tree_view(&self) -> View {
        View::Sidecars
    }

    fn defaulted(&self, object: &Value, _old: Option<&Value>) -> Option<Value> {
        Some(super::defaults::defaulted(object))
    }

    /// The whitelist first (when the webhook read it), then the set alone and against the
    /// other SidecarSets.
    fn refusal(&self, object: &Value, old: Option<&Value>, peers: &Peers) -> Option<String> {
        let set = || serde_json::from_value::<SidecarSet>(object.clone()).ok();
        if let Some(entry) = &peers.entry {
            let defaults_allowed = peers
                .features
                .is_some_and(|f| f.patch_pod_metadata_defaults_allowed);
            let fault = match (&entry.text, set()) {
                (Err(e), Some(set)) => Some(format!(
                    "SidecarSet {}: {} cannot be read: {e}",
                    set.metadata.name.as_deref().unwrap_or_default(),
                    entry.at
                )),
                (Ok(text), Some(set)) => {
                    patch_metadata_fault(&set, text.as_deref(), &entry.at, defaults_allowed)
                }
                (_, None) => None,
            };
            if fault.is_some() {
                return fault;
            }
        }
        let others: Vec<SidecarSet> = peers
            .others
            .iter()
            .filter_map(|o| serde_json::from_value(o.clone()).ok())
            .collect();
        super::validation::refusal(object, old, &others)
    }

    fn judged_in_context(&self) -> bool {
        true
    }

    /// A set that patches pod metadata is judged against the whitelist. A run scoped to a
    /// namespace judges only the sets scoped to it (every run's webhook sees cluster-scoped
    /// objects).
    fn configuration_key(&self, object: &Value, scope: Option<&str>) -> Option<&'static str> {
        let set: SidecarSet = serde_json::from_value(object.clone()).ok()?;
        if set.spec.patch_pod_metadata.as_ref().is_none_or(|p| p.is_empty()) {
            return None;
        }
        if let Some(scope) = scope
            && super::matching::scoped_to(&set) != Some(scope)
        {
            return None;
        }
        Some(PATCH_METADATA_WHITELIST_KEY)
    }

    fn rolls_out_a_template(&self) -> bool {
        false
    }

    fn containers_path(&self, _object: &Value) -> Path {
        &["spec"]
    }

    fn pod_spec_change(&self) -> Option<&'static str> {
        Some(
            "pods injected from now on get it; a sidecar already injected is upgraded in place only by an image change",
        )
    }

    fn matches_pods(&self) -> bool {
        true
    }

    fn matched_upgrade(
        &self,
        object: &Value,
        id: &str,
        pods: &[k8s_openapi::api::core::v1::Pod],
        namespaces: &[k8s_openapi::api::core::v1::Namespace],
        now: k8s_openapi::jiff::Timestamp,
    ) -> Option<Result<crate::workloads::facts::MatchedUpgrade, String>> {
        Some(
            crate::workloads::facts::read_as(object, id)
                .map(|set| super::preview::upgrade(&set, pods, namespaces, now)),
        )
    }

    fn partition_path(&self, _object: &Value) -> Option<Path> {
        Some(&["spec", "updateStrategy", "partition"])
    }

    fn percent_partition(&self) -> PercentPartition {
        PercentPartition::Kept
    }

    fn paused_path(&self, _object: &Value) -> Option<Path> {
        Some(&["spec", "updateStrategy", "paused"])
    }

    fn counts(&self) -> &'static str {
        "injected pods"
    }

    fn numbers(&self, object: &Value) -> StatusNumbers {
        let status = &object["status"];
        StatusNumbers {
            replicas: count(&status["matchedPods"]),
            current: count(&status["matchedPods"]),
            updated: count(&status["updatedPods"]),
            ready: count(&status["readyPods"]),
            available: count(&status["readyPods"]),
            updated_ready: status["updatedReadyPods"].as_i64(),
            updated_available: status["updatedReadyPods"].as_i64(),
        }
    }

    /// An update selector holds the pods it does not pick, NotUpdate holds all: what is
    /// updated is what is expected.
    fn expected_updated(&self, object: &Value) -> i64 {
        let numbers = self.numbers(object);
        let (replicas, updated) = (numbers.replicas, numbers.updated.min(numbers.replicas));
        let strategy = &object["spec"]["updateStrategy"];
        if strategy["selector"].is_object() || strategy["type"] == "NotUpdate" {
            return updated;
        }
        let strategy = serde_json::from_value(strategy.clone()).unwrap_or_default();
        let partition = super::plan_update::partition(&strategy, replicas);
        (replicas - partition).max(updated)
    }
}
