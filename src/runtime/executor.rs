//! The executor: the only code that writes pods, PVCs and other children for a workload. It applies a
//! plan's [`Action`]s, records an expectation for every write before the cache can show
//! it, and reports what happened for events.
//!
//! Invariants:
//! - Actions of one pod run in plan order (readiness gate before the pod patch); different
//!   pods run concurrently, at most [`PARALLEL_PODS`] at a time.
//! - Pods are created in slow-start batches (1, 2, 4, ...), stopping after a batch with a
//!   failure, so a quota or admission error costs one request, not hundreds.
//! - An expectation is recorded before its write and forgotten if the write fails, so a
//!   stale cache never makes the planner repeat a create or a delete.
//! - A conflict (stale cache) is not an error: the watch brings the fresh object, which
//!   triggers the next reconcile.
//! - Nothing is created in a namespace being deleted ([`Context::namespace_terminating`]: the
//!   namespace cache says so, or the API server just refused a create there for it): such
//!   creates are dropped, not failed, so an object whose namespace goes away neither retries
//!   nor reports them.
use std::collections::BTreeMap;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{PersistentVolumeClaim, Pod};
use kube::api::{Api, DeleteParams, DynamicObject, Patch, PatchParams, PostParams, Preconditions};
use kube::runtime::reflector::ObjectRef;
use kube::{Resource, ResourceExt};

use crate::runtime::actions::{Action, ChildAction, Why};
use crate::runtime::cached_pod::CachedPod;
use crate::runtime::children;
use crate::runtime::context::{ChildVerb, Context, Error, FIELD_MANAGER, TakeDown};
use crate::runtime::expectations::{Expect, ObjectKind, Watched, resource_version};

pub const PARALLEL_PODS: usize = 16;

/// What happened, for events and metrics.
#[derive(Debug, Default)]
pub struct Outcome {
    pub created: Vec<String>,
    pub deleted: Vec<String>,
    /// Successful pod writes by reason.
    pub done: BTreeMap<Why, Vec<String>>,
    /// Successful writes of other children, by verb and child kind (`Job`).
    pub children: BTreeMap<(ChildVerb, String), Vec<String>>,
    /// A conflict was seen: the cache is behind.
    pub stale: bool,
    /// Pod writes a PodUnavailableBudget refused (not failures: the budget has no room
    /// yet), with the budget's message.
    pub held: Vec<(String, String)>,
    pub first_error: Option<Error>,
}

/// Whether (and how) `action` takes its pod down: it begins or makes an in-place update,
/// or deletes the pod; with the pod's name.
fn takes_down(action: &Action) -> Option<(TakeDown, &str)> {
    match action {
        Action::PatchPodStatus {
            why: Why::UpdatePodInPlace,
            name,
            ..
        }
        | Action::PatchPod {
            why: Why::UpdatePodInPlace,
            name,
            ..
        } => Some((TakeDown::UpdateInPlace, name)),
        Action::DeletePod { name, .. } => Some((TakeDown::Delete, name)),
        _ => None,
    }
}

/// Asks [`Context::before_take_down`] about the cached pod `name`: Some(held) when it
/// holds the update or delete.
async fn held_before_take_down(ctx: &Context, namespace: &str, name: &str, how: TakeDown) -> Option<Step> {
    let ask = ctx.before_take_down?;
    let record = ctx.watches.pods.get(&ObjectRef::new(name).within(namespace))?;
    ask(&ctx.client, &record, how)
        .await
        .err()
        .map(|why| Step::Held(name.to_string(), why))
}

fn patch_params() -> PatchParams {
    PatchParams {
        field_manager: Some(FIELD_MANAGER.into()),
        ..PatchParams::default()
    }
}

fn post_params() -> PostParams {
    PostParams {
        field_manager: Some(FIELD_MANAGER.into()),
        ..PostParams::default()
    }
}

fn is_conflict(error: &kube::Error) -> bool {
    matches!(error, kube::Error::Api(s) if s.is_conflict())
}

fn is_not_found(error: &kube::Error) -> bool {
    matches!(error, kube::Error::Api(s) if s.is_not_found())
}

/// A failed write of pod `name`: held when a PodUnavailableBudget refused it (the pod
/// webhook names the budget; not a failure), else `failed`.
fn held_or_failed(
    name: String,
    error: kube::Error,
    failed: impl FnOnce(String, kube::Error) -> Error,
) -> Step {
    match &error {
        kube::Error::Api(s) if s.code == 403 && s.message.contains("PodUnavailableBudget ") => {
            Step::Held(name, s.message.clone())
        }
        _ => Step::Failed(failed(name, error)),
    }
}

fn is_already_exists(error: &kube::Error) -> bool {
    matches!(error, kube::Error::Api(s) if s.is_already_exists())
}

enum Step {
    /// A pod write succeeded.
    Wrote(Why, String),
    Deleted(String, Option<Why>),
    /// A child write succeeded: verb, kind, `namespace/name`.
    Child(ChildVerb, String, String),
    Nothing,
    Stale,
    /// A budget refused the write of this pod: why.
    Held(String, String),
    Failed(Error),
}

/// Applies `actions` in `namespace` for the workload whose expectations key is `owner`
/// (`namespace/name`).
pub async fn execute(ctx: &Context, namespace: &str, owner: &str, actions: Vec<Action>) -> Outcome {
    let mut outcome = Outcome::default();
    let namespace = namespace.to_string();
    let owner = owner.to_string();
    let (actions, dropped): (Vec<Action>, Vec<Action>) = actions
        .into_iter()
        .partition(|a| creates_in(a, &namespace).is_none_or(|target| !ctx.metrics.api.terminating(&target)));
    if !dropped.is_empty() {
        tracing::debug!(
            owner,
            creates = dropped.len(),
            "not creating in a namespace being deleted"
        );
    }
    let (creates, others): (Vec<Action>, Vec<Action>) = actions
        .into_iter()
        .partition(|a| matches!(a, Action::CreatePod { .. }));

    // Pod writes, grouped by pod (and namespace), in plan order within a pod.
    let mut groups: Vec<(String, Vec<Action>)> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    for action in others {
        let (target_namespace, action) = match action {
            Action::Elsewhere { namespace, action } => (namespace, *action),
            action => (namespace.clone(), action),
        };
        let name = match &action {
            Action::DeletePod { name, .. }
            | Action::DeleteClaim { name }
            | Action::PatchPod { name, .. }
            | Action::PatchPodStatus { name, .. } => name.clone(),
            Action::CreateClaim { claim } => claim.name_any(),
            Action::Child(child) => format!("{} {}", children::key(child.resource()), child.target()),
            Action::CreatePod { .. } | Action::Elsewhere { .. } => continue,
        };
        let i = *index
            .entry(format!("{target_namespace}/{name}"))
            .or_insert_with(|| {
                groups.push((target_namespace.clone(), Vec::new()));
                groups.len() - 1
            });
        groups[i].1.push(action);
    }
    let results: Vec<Vec<Step>> = futures::stream::iter(groups)
        .map(|(namespace, group)| {
            let owner = owner.clone();
            async move {
                let mut steps = Vec::new();
                // Each write bumps the pod's resourceVersion; a later write of the same pod
                // in this group must carry the new one, not the cached one.
                let mut latest: Option<String> = None;
                let mut asked = false;
                for mut action in group {
                    // A budget judges an in-place update before its first write, and a
                    // delete.
                    if !asked && let Some((how, name)) = takes_down(&action) {
                        asked = true;
                        if let Some(held) = held_before_take_down(ctx, &namespace, name, how).await {
                            steps.push(held);
                            break;
                        }
                    }
                    if let (Some(rv), Action::PatchPod { patch, .. }) = (&latest, &mut action)
                        && patch["metadata"]["resourceVersion"].is_string()
                    {
                        patch["metadata"]["resourceVersion"] = serde_json::Value::String(rv.clone());
                    }
                    let (step, rv) = run(ctx, &namespace, &owner, action).await;
                    latest = rv.or(latest);
                    let stop = matches!(step, Step::Stale | Step::Held(..) | Step::Failed(_));
                    steps.push(step);
                    if stop {
                        break;
                    }
                }
                steps
            }
        })
        .buffer_unordered(PARALLEL_PODS)
        .collect()
        .await;
    for step in results.into_iter().flatten() {
        match step {
            Step::Wrote(why, name) => outcome.done.entry(why).or_default().push(name),
            Step::Deleted(name, None) => outcome.deleted.push(name),
            Step::Deleted(name, Some(why)) => outcome.done.entry(why).or_default().push(name),
            Step::Child(verb, kind, target) => outcome.children.entry((verb, kind)).or_default().push(target),
            Step::Nothing => {}
            Step::Stale => outcome.stale = true,
            Step::Held(name, why) => outcome.held.push((name, why)),
            Step::Failed(e) => {
                outcome.first_error.get_or_insert(e);
            }
        }
    }

    // Creates, in slow-start batches.
    let mut creates = creates.into_iter();
    let mut batch_size = 1usize;
    loop {
        let batch: Vec<Action> = creates.by_ref().take(batch_size).collect();
        if batch.is_empty() {
            break;
        }
        let results: Vec<Result<String, Error>> =
            futures::future::join_all(batch.into_iter().map(|a| create(ctx, &namespace, &owner, a))).await;
        let mut failed = false;
        for r in results {
            match r {
                Ok(name) => outcome.created.push(name),
                Err(e) => {
                    failed = true;
                    outcome.first_error.get_or_insert(e);
                }
            }
        }
        if failed {
            break;
        }
        batch_size *= 2;
    }
    outcome
}

/// The namespace `action` creates an object in, if it is a create (`namespace`: the
/// workload's).
fn creates_in(action: &Action, namespace: &str) -> Option<String> {
    match action {
        Action::CreatePod { .. } | Action::CreateClaim { .. } => Some(namespace.to_string()),
        Action::Child(ChildAction::Create { object, .. }) => object.metadata.namespace.clone(),
        Action::Elsewhere { namespace, action } => creates_in(action, namespace),
        _ => None,
    }
}

async fn run(ctx: &Context, namespace: &str, owner: &str, action: Action) -> (Step, Option<String>) {
    match run_one(ctx, namespace, owner, action).await {
        (step, Some(pod)) => (step, pod.meta().resource_version.clone()),
        (step, None) => (step, None),
    }
}

/// One write. A pod the API server sends back is read as the cache's compact record: only
/// its metadata is used, and the rest of it (its `managedFields` most of all) is skipped,
/// not parsed.
async fn run_one(ctx: &Context, namespace: &str, owner: &str, action: Action) -> (Step, Option<CachedPod>) {
    let pods: Api<CachedPod> = Api::namespaced(ctx.client.clone(), namespace);
    let claims: Api<PersistentVolumeClaim> = Api::namespaced(ctx.client.clone(), namespace);
    match action {
        Action::PatchPod { name, patch, why } => {
            match pods
                .patch(&name, &patch_params(), &Patch::Strategic(&patch))
                .await
            {
                Ok(pod) => {
                    expect_version(ctx, owner, &pod);
                    (Step::Wrote(why, name), Some(pod))
                }
                Err(e) if is_conflict(&e) || is_not_found(&e) => (Step::Stale, None),
                Err(source) => (
                    held_or_failed(name, source, |name, source| Error::PatchPod { name, source }),
                    None,
                ),
            }
        }
        Action::PatchPodStatus { name, patch, why } => {
            match pods
                .patch_status(&name, &patch_params(), &Patch::Strategic(&patch))
                .await
            {
                Ok(pod) => {
                    expect_version(ctx, owner, &pod);
                    // The pod patch that follows carries the event for in-place updates.
                    let step = if why == Why::UpdatePodInPlace {
                        Step::Nothing
                    } else {
                        Step::Wrote(why, name)
                    };
                    (step, Some(pod))
                }
                Err(e) if is_conflict(&e) || is_not_found(&e) => (Step::Stale, None),
                Err(source) => (Step::Failed(Error::PatchPodStatus { name, source }), None),
            }
        }
        Action::DeletePod {
            name,
            uid,
            claims: claim_names,
            why,
        } => {
            let pod = Watched::new(ObjectKind::Pod, namespace, &name);
            match delete_expected(ctx, &pods, owner, pod, uid).await {
                Ok(true) => {}
                Ok(false) => return (Step::Stale, None),
                Err(source) => {
                    return (
                        held_or_failed(name, source, |name, source| Error::DeletePod { name, source }),
                        None,
                    );
                }
            }
            for claim in claim_names {
                if let Err(step) = delete_claim(ctx, &claims, namespace, owner, &claim).await {
                    return (step, None);
                }
            }
            (Step::Deleted(name, why), None)
        }
        Action::DeleteClaim { name } => match delete_claim(ctx, &claims, namespace, owner, &name).await {
            Ok(()) => (Step::Nothing, None),
            Err(step) => (step, None),
        },
        Action::CreateClaim { claim } => match create_claim(ctx, &claims, namespace, owner, &claim).await {
            Ok(()) => (Step::Nothing, None),
            Err(error) => (Step::Failed(error), None),
        },
        Action::Child(child) => (write_child(ctx, owner, child).await, None),
        // Unwrapped when the writes are grouped (see `execute`).
        Action::CreatePod { .. } | Action::Elsewhere { .. } => (Step::Nothing, None),
    }
}

/// One write of a child that is not a pod, with its expectation recorded first and
/// forgotten when nothing was written.
async fn write_child(ctx: &Context, owner: &str, action: ChildAction) -> Step {
    let resource = action.resource().clone();
    let kind = resource.kind.clone();
    let target = action.target();
    let watched = |namespace: &str, name: &str| {
        Watched::new(ObjectKind::Child(children::key(&resource)), namespace, name)
    };
    let api = |namespace: &str| -> Api<DynamicObject> {
        if namespace.is_empty() {
            Api::all_with(ctx.client.clone(), &resource)
        } else {
            Api::namespaced_with(ctx.client.clone(), namespace, &resource)
        }
    };
    let failed = |verb, source| {
        Step::Failed(Error::WriteChild {
            verb,
            kind: kind.clone(),
            name: target.clone(),
            source,
        })
    };
    match action {
        ChildAction::Create { object, .. } if object.metadata.name.is_none() => {
            // `generateName`: the name is known once created (expectations are checked
            // against the cache, so recording it after the write misses nothing).
            let namespace = object.metadata.namespace.clone().unwrap_or_default();
            match api(&namespace).create(&post_params(), &object).await {
                Ok(created) => {
                    let name = created.name_any();
                    ctx.expectations
                        .expect(owner, Expect::Created(watched(&namespace, &name)));
                    Step::Child(ChildVerb::Create, kind, format!("{namespace}/{name}"))
                }
                Err(source) => failed(ChildVerb::Create, source),
            }
        }
        ChildAction::Create { object, .. } => {
            let namespace = object.metadata.namespace.clone().unwrap_or_default();
            let expectation = Expect::Created(watched(&namespace, &object.name_any()));
            ctx.expectations.expect(owner, expectation.clone());
            match api(&namespace).create(&post_params(), &object).await {
                Ok(_) => Step::Child(ChildVerb::Create, kind, target),
                Err(e) if is_already_exists(&e) => {
                    ctx.expectations.forget(owner, &expectation);
                    Step::Stale
                }
                Err(source) => {
                    ctx.expectations.forget(owner, &expectation);
                    failed(ChildVerb::Create, source)
                }
            }
        }
        ChildAction::Delete {
            namespace, name, uid, ..
        } => {
            let api = api(&namespace);
            match delete_expected(ctx, &api, owner, watched(&namespace, &name), uid).await {
                Ok(true) => Step::Child(ChildVerb::Delete, kind, target),
                Ok(false) => Step::Stale,
                Err(source) => failed(ChildVerb::Delete, source),
            }
        }
        ChildAction::Patch {
            namespace,
            name,
            patch,
            ..
        } => match api(&namespace)
            .patch(&name, &patch_params(), &Patch::Merge(&patch))
            .await
        {
            Ok(written) => {
                let version = resource_version(written.metadata.resource_version.as_deref());
                ctx.expectations
                    .expect(owner, Expect::Version(watched(&namespace, &name), version));
                Step::Child(ChildVerb::Patch, kind, target)
            }
            Err(e) if is_conflict(&e) || is_not_found(&e) => Step::Stale,
            Err(source) => failed(ChildVerb::Patch, source),
        },
    }
}

/// Creates `claim` with a `Created` expectation recorded first; an existing claim of that
/// name is fine (the claim is what was wanted).
async fn create_claim(
    ctx: &Context,
    api: &Api<PersistentVolumeClaim>,
    namespace: &str,
    owner: &str,
    claim: &PersistentVolumeClaim,
) -> Result<(), Error> {
    let name = claim.name_any();
    let expectation = Expect::Created(Watched::new(ObjectKind::Claim, namespace, &name));
    ctx.expectations.expect(owner, expectation.clone());
    match api.create(&post_params(), claim).await {
        Ok(_) => Ok(()),
        // Nothing was created, so there is nothing to wait for: the existing claim may be
        // terminating, and a `Created` expectation on it would wait out the timeout.
        Err(e) if is_already_exists(&e) => {
            ctx.expectations.forget(owner, &expectation);
            Ok(())
        }
        Err(source) => {
            ctx.expectations.forget(owner, &expectation);
            Err(Error::CreateClaim { name, source })
        }
    }
}

async fn delete_claim(
    ctx: &Context,
    claims: &Api<PersistentVolumeClaim>,
    namespace: &str,
    owner: &str,
    name: &str,
) -> Result<(), Step> {
    let cached_uid = ctx
        .watches
        .claims
        .get(&ObjectRef::new(name).within(namespace))
        .and_then(|c| c.uid());
    let Some(uid) = cached_uid else { return Ok(()) };
    let claim = Watched::new(ObjectKind::Claim, namespace, name);
    match delete_expected(ctx, claims, owner, claim, uid).await {
        Ok(_) => Ok(()),
        Err(source) => Err(Step::Failed(Error::DeleteClaim {
            name: name.to_string(),
            source,
        })),
    }
}

/// Deletes `object` if it still has `uid`, with a `Deleted` expectation recorded first and
/// forgotten if nothing was deleted. `Ok(false)`: already gone or replaced (a stale cache).
async fn delete_expected<K>(
    ctx: &Context,
    api: &Api<K>,
    owner: &str,
    object: Watched,
    uid: String,
) -> Result<bool, kube::Error>
where
    K: Clone + serde::de::DeserializeOwned + std::fmt::Debug,
{
    let name = object.name.clone();
    let expectation = Expect::Deleted(object, uid.clone());
    ctx.expectations.expect(owner, expectation.clone());
    // Background: a deleted child's own children (a Job's pods) go with it, as `kubectl
    // delete` does (the API's default for a batch/v1 Job orphans them).
    let params = DeleteParams {
        preconditions: Some(Preconditions {
            uid: Some(uid),
            resource_version: None,
        }),
        propagation_policy: Some(kube::api::PropagationPolicy::Background),
        ..DeleteParams::default()
    };
    match api.delete(&name, &params).await {
        Ok(_) => Ok(true),
        Err(e) if is_not_found(&e) || is_conflict(&e) => {
            ctx.expectations.forget(owner, &expectation);
            Ok(false)
        }
        Err(e) => {
            ctx.expectations.forget(owner, &expectation);
            Err(e)
        }
    }
}

fn expect_version<K: Resource>(ctx: &Context, owner: &str, pod: &K) {
    let object = Watched::new(
        ObjectKind::Pod,
        pod.meta().namespace.as_deref().unwrap_or_default(),
        &pod.name_any(),
    );
    let version = resource_version(pod.meta().resource_version.as_deref());
    ctx.expectations.expect(owner, Expect::Version(object, version));
}

async fn create(ctx: &Context, namespace: &str, owner: &str, action: Action) -> Result<String, Error> {
    let Action::CreatePod { pod, claims } = action else {
        return Err(Error::Internal("create called with another action".into()));
    };
    let claims_api: Api<PersistentVolumeClaim> = Api::namespaced(ctx.client.clone(), namespace);
    for claim in claims {
        create_claim(ctx, &claims_api, namespace, owner, &claim).await?;
    }
    let pods: Api<Pod> = Api::namespaced(ctx.client.clone(), namespace);
    let name = pod.name_any();
    let expectation = Expect::Created(Watched::new(ObjectKind::Pod, namespace, &name));
    ctx.expectations.expect(owner, expectation.clone());
    match pods.create(&post_params(), &pod).await {
        Ok(_) => Ok(name),
        Err(source) => {
            ctx.expectations.forget(owner, &expectation);
            Err(Error::CreatePod { name, source })
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_budget_is_asked_before_an_in_place_update_and_before_a_delete_only() {
        let patch = |why| Action::PatchPod {
            name: "a".into(),
            patch: json!({}),
            why,
        };
        let status = |why| Action::PatchPodStatus {
            name: "a".into(),
            patch: json!({}),
            why,
        };
        let delete = |why| Action::DeletePod {
            name: "a".into(),
            uid: "u".into(),
            claims: Vec::new(),
            why,
        };
        assert_eq!(
            takes_down(&patch(Why::UpdatePodInPlace)),
            Some((TakeDown::UpdateInPlace, "a"))
        );
        assert_eq!(
            takes_down(&status(Why::UpdatePodInPlace)),
            Some((TakeDown::UpdateInPlace, "a"))
        );
        assert_eq!(takes_down(&delete(None)), Some((TakeDown::Delete, "a")));
        assert_eq!(
            takes_down(&delete(Some(Why::RecreatePod))),
            Some((TakeDown::Delete, "a"))
        );
        for harmless in [
            patch(Why::RelatedBudget),
            patch(Why::UpdatePodReCreate),
            status(Why::PodCondition),
        ] {
            assert_eq!(takes_down(&harmless), None, "{harmless:?}");
        }
    }
}
