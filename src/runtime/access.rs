//! What `run` checks at start when it runs as a service account (in a pod, or with
//! `--as system:serviceaccount:NS:NAME`): who it is (a SelfSubjectReview) and which of the
//! permissions its controllers declare ([`super::rbac`]) it lacks (one
//! SelfSubjectAccessReview each, a few at a time). A person's credentials are not checked:
//! an administrator has them all, and the reviews would cost a request each at every start.
//!
//! Invariant: the check never stops the run; what it lacks is said once, and a request
//! refused later is said again by the client ([`super::client`]).
use futures::StreamExt;
use k8s_openapi::api::authentication::v1::SelfSubjectReview;
use k8s_openapi::api::authorization::v1::{
    ResourceAttributes, SelfSubjectAccessReview, SelfSubjectAccessReviewSpec,
};
use kube::api::{Api, PostParams};

use super::client::denial;
use super::rbac::{Permission, namespaced};

const SERVICE_ACCOUNT_PREFIX: &str = "system:serviceaccount:";

/// `NS/NAME` when this client authenticates as a service account; None for anyone else,
/// or when the API server cannot say (no SelfSubjectReview before Kubernetes 1.28).
pub async fn service_account(client: &kube::Client) -> Option<String> {
    let api: Api<SelfSubjectReview> = Api::all(client.clone());
    let review = api
        .create(&PostParams::default(), &SelfSubjectReview::default())
        .await
        .inspect_err(|e| tracing::debug!(error = %e, "no SelfSubjectReview"))
        .ok()?;
    let user = review.status?.user_info?.username?;
    let account = user.strip_prefix(SERVICE_ACCOUNT_PREFIX)?;
    let (namespace, name) = account.split_once(':')?;
    Some(format!("{namespace}/{name}"))
}

/// One permission to check: where (None: cluster-wide).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Needed {
    pub permission: Permission,
    pub namespace: Option<String>,
}

/// Where each permission is needed: namespaced ones in `scope` (all namespaces when None),
/// the others cluster-wide.
pub fn needed(permissions: Vec<Permission>, scope: Option<&str>) -> Vec<Needed> {
    permissions
        .into_iter()
        .map(|permission| {
            let namespace = scope
                .filter(|_| namespaced(&permission.group, &permission.resource))
                .map(String::from);
            Needed {
                permission,
                namespace,
            }
        })
        .collect()
}

/// The permissions of `needed` this client lacks, as [`denial`] names them (a review that
/// fails is counted as lacking, with why).
pub async fn lacking(client: &kube::Client, needed: Vec<Needed>) -> Vec<String> {
    let api: Api<SelfSubjectAccessReview> = Api::all(client.clone());
    let checks = needed.into_iter().map(|n| {
        let api = api.clone();
        async move {
            let p = &n.permission;
            let (resource, subresource) = match p.resource.split_once('/') {
                Some((r, s)) => (r.to_string(), Some(s.to_string())),
                None => (p.resource.clone(), None),
            };
            let review = SelfSubjectAccessReview {
                spec: SelfSubjectAccessReviewSpec {
                    resource_attributes: Some(ResourceAttributes {
                        group: Some(p.group.clone()),
                        resource: Some(resource),
                        subresource,
                        verb: Some(p.verb.clone()),
                        namespace: n.namespace.clone(),
                        ..ResourceAttributes::default()
                    }),
                    ..SelfSubjectAccessReviewSpec::default()
                },
                ..SelfSubjectAccessReview::default()
            };
            let named = denial(&p.verb, &p.group, &p.resource, n.namespace.as_deref());
            match api.create(&PostParams::default(), &review).await {
                Ok(r) if r.status.as_ref().is_some_and(|s| s.allowed) => None,
                Ok(_) => Some(named),
                Err(e) => Some(format!("{named} (not checked: {e})")),
            }
        }
    });
    let mut lacking: Vec<String> = futures::stream::iter(checks)
        .buffer_unordered(8)
        .filter_map(|x| async move { x })
        .collect()
        .await;
    lacking.sort();
    lacking
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(group: &str, resource: &str, verb: &str) -> Permission {
        Permission {
            group: group.into(),
            resource: resource.into(),
            verb: verb.into(),
        }
    }

    #[test]
    fn a_scoped_run_needs_namespaced_permissions_in_its_namespace_only() {
        let wanted = needed(vec![p("", "pods", "list"), p("", "nodes", "list")], Some("web"));
        assert_eq!(wanted[0].namespace.as_deref(), Some("web"));
        assert_eq!(wanted[1].namespace, None);
        let everywhere = needed(vec![p("", "pods", "list")], None);
        assert_eq!(everywhere[0].namespace, None);
    }
}
