//! Recording a disruption in a budget's status before it happens: the pod webhook does it
//! for a pod deleted, evicted or changed by any client, and our controllers do it before
//! an in-place update, whose first write (the readiness gate) the webhook does not see,
//! and before a delete (so a budget holds without the webhook; with it, the webhook finds
//! the pod recorded and lets the delete through).
//!
//! Invariants:
//! - The status write carries the resourceVersion the pod was judged from: two judges of
//!   one budget cannot both take its last unit; the loser reads the budget again and is
//!   judged again, [`ATTEMPTS`] times at most, then refused naming the budget.
//! - A budget gone meanwhile protects nothing; one that cannot be read or written refuses,
//!   naming it (as upstream).
//! - `writes` false (a dry run): judged, nothing written.
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::jiff::Timestamp;
use kube::api::{Api, Patch, PatchParams};
use kube::{Client, ResourceExt};
use serde_json::json;

use super::plan::related;
use super::protect::{Verdict, judge};
use crate::api::podunavailablebudget::{
    OLD_RELATED_PUB_ANNOTATION, PodUnavailableBudget, PubOperation, RELATED_PUB_ANNOTATION,
};
use crate::runtime::cached_pod::CachedPod;
use crate::runtime::context::TakeDown;

/// Judgements of one operation before it is refused (upstream retries 4 times).
pub const ATTEMPTS: usize = 4;

/// Judges `operation` of `pod` under `budget` (as last seen) and records it when allowed
/// and `writes`; Ok(Some): the budget as written.
pub async fn guard(
    client: &Client,
    budget: PodUnavailableBudget,
    pod: &Pod,
    operation: PubOperation,
    writes: bool,
) -> Result<Option<PodUnavailableBudget>, String> {
    let namespace = budget.namespace().unwrap_or_default();
    let name = budget.name_any();
    let api: Api<PodUnavailableBudget> = Api::namespaced(client.clone(), &namespace);
    let mut current = budget;
    for _ in 0..ATTEMPTS {
        let status = match judge(&current, pod, operation, Timestamp::now()) {
            Verdict::Unprotected(why) => {
                tracing::debug!(pod = %pod.name_any(), budget = %name, why, "not the budget's to judge");
                return Ok(None);
            }
            Verdict::Refused(message) => return Err(message),
            Verdict::Record(status) => status,
        };
        if !writes {
            return Ok(None);
        }
        let patch = json!({
            "metadata": { "resourceVersion": current.resource_version() },
            "status": {
                "unavailableAllowed": status.unavailable_allowed,
                "disruptedPods": status.disrupted_pods,
                "unavailablePods": status.unavailable_pods,
            },
        });
        let params = PatchParams {
            field_manager: Some(crate::runtime::context::FIELD_MANAGER.into()),
            ..PatchParams::default()
        };
        match api.patch_status(&name, &params, &Patch::Merge(&patch)).await {
            Ok(written) => return Ok(Some(written)),
            Err(kube::Error::Api(s)) if s.is_conflict() => {
                current = match api.get_opt(&name).await {
                    Ok(Some(fresh)) => fresh,
                    Ok(None) => return Ok(None),
                    Err(e) => return Err(format!("reading PodUnavailableBudget {namespace}/{name}: {e}")),
                };
            }
            Err(kube::Error::Api(s)) if s.is_not_found() => return Ok(None),
            Err(e) => {
                return Err(format!(
                    "writing the status of PodUnavailableBudget {namespace}/{name}: {e}"
                ));
            }
        }
    }
    Err(format!(
        "PodUnavailableBudget {namespace}/{name}: its status changed under {ATTEMPTS} writes in a row"
    ))
}

/// Before a controller of ours updates `pod` in place or deletes it: the budget its
/// annotation names (read from the API server) judges and records it. No budget named, or
/// none by that name: nothing to ask.
pub async fn before_take_down(client: &Client, pod: &Pod, how: TakeDown) -> Result<(), String> {
    let Some(name) = related(pod) else {
        return Ok(());
    };
    let namespace = pod.namespace().unwrap_or_default();
    let api: Api<PodUnavailableBudget> = Api::namespaced(client.clone(), &namespace);
    let budget = match api.get_opt(name).await {
        Ok(Some(budget)) => budget,
        Ok(None) => return Ok(()),
        // Not installed (an older install): no budget can exist.
        Err(kube::Error::Api(s)) if s.is_not_found() => return Ok(()),
        Err(e) => return Err(format!("reading PodUnavailableBudget {namespace}/{name}: {e}")),
    };
    let operation = match how {
        TakeDown::UpdateInPlace => PubOperation::Update,
        TakeDown::Delete => PubOperation::Delete,
    };
    guard(client, budget, pod, operation, true).await.map(|_| ())
}

/// [`before_take_down`] as the run hands it to the controllers
/// ([`crate::runtime::context::BeforeTakeDown`]): a pod no budget names costs no read and
/// is not even assembled.
pub fn before_take_down_boxed<'a>(
    client: &'a Client,
    record: &'a CachedPod,
    how: TakeDown,
) -> futures::future::BoxFuture<'a, Result<(), String>> {
    Box::pin(async move {
        let named = [RELATED_PUB_ANNOTATION, OLD_RELATED_PUB_ANNOTATION]
            .into_iter()
            .any(|key| record.annotation(key).is_some_and(|name| !name.is_empty()));
        if !named {
            return Ok(());
        }
        before_take_down(client, &record.pod(), how).await
    })
}
