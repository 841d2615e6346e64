//! The permissions `run` needs, declared where they are used (the shared runtime here, the
//! webhooks in [`crate::admission`], each controller on its registry entry) and turned into
//! RBAC rules: the ClusterRole of `install --manager` and the checks `run` makes at start
//! when it runs as a service account. Pure.
//!
//! Invariants:
//! - No wildcard: every group, resource and verb is named.
//! - [`normalize`] is the union of what it is given: per (group, resource) the union of the
//!   verbs, then the resources of one group with the same verbs in one rule, in a stable
//!   order (a rule removed from the output takes away at least one permission).
//! - Namespaced permissions of the run itself (its [`LEASE`], the webhook's CA Secret) are
//!   bound by a Role in the lease's namespace only.
use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::rbac::v1::PolicyRule;

/// Some verbs on some resources of one API group ("" for the core group).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    pub group: &'static str,
    pub resources: &'static [&'static str],
    pub verbs: &'static [&'static str],
}

/// A rule; `const` so declarations are plain data.
pub const fn rule(
    group: &'static str,
    resources: &'static [&'static str],
    verbs: &'static [&'static str],
) -> Rule {
    Rule {
        group,
        resources,
        verbs,
    }
}

/// Reading a kind: what a watch (list + watch) and a re-read need.
pub const READ: &[&str] = &["get", "list", "watch"];

/// What every run needs, whatever controllers it runs: the shared watches (pods, claims,
/// revisions, nodes, namespaces), the events of every controller, and the CRD check at start.
pub const SHARED: &[Rule] = &[
    rule(
        "",
        &["pods", "persistentvolumeclaims", "nodes", "namespaces"],
        &["list", "watch"],
    ),
    rule("apps", &["controllerrevisions"], &["list", "watch"]),
    // Events of every kind (a SidecarSet's go to `default`: it has no namespace).
    rule("events.k8s.io", &["events"], &["create", "patch"]),
    rule("apiextensions.k8s.io", &["customresourcedefinitions"], &["get"]),
    // At start, a run looks for a run of another scope holding a lease of the same name:
    // an all-namespaces run lists them, a run scoped to a namespace reads the one in `default`.
    rule("coordination.k8s.io", &["leases"], &["get", "list"]),
    // Before an in-place update, the pod's PodUnavailableBudget judges and records it.
    rule("policy.kruise.io", &["podunavailablebudgets"], &["get"]),
    rule("policy.kruise.io", &["podunavailablebudgets/status"], &["patch"]),
];

/// The API group of OpenKruise's workload kinds.
pub const KRUISE: &str = "apps.kruise.io";
/// The API group of OpenKruise's PodUnavailableBudget.
pub const KRUISE_POLICY: &str = "policy.kruise.io";

/// In the lease's namespace only (with the webhook's CA Secret,
/// [`crate::admission::CA_SECRET`]): the Lease.
pub const LEASE: Rule = rule("coordination.k8s.io", &["leases"], &["get", "create", "update"]);

/// Resources that are not namespaced (checked cluster-wide even by a run scoped to one
/// namespace).
const CLUSTER_SCOPED: &[(&str, &str)] = &[
    ("", "nodes"),
    ("", "namespaces"),
    ("apiextensions.k8s.io", "customresourcedefinitions"),
    ("admissionregistration.k8s.io", "mutatingwebhookconfigurations"),
    ("admissionregistration.k8s.io", "validatingwebhookconfigurations"),
    ("apps.kruise.io", "sidecarsets"),
    ("apps.kruise.io", "sidecarsets/status"),
    ("apps.kruise.io", "sidecarsets/finalizers"),
];

/// Whether `resource` of `group` lives in namespaces.
pub fn namespaced(group: &str, resource: &str) -> bool {
    !CLUSTER_SCOPED.contains(&(group, resource))
}

/// The CRDs of the Kruise kinds `rules` name (`clonesets.apps.kruise.io`; a subresource
/// names its kind's), in the order first named.
pub fn kruise_crds<'a>(rules: impl IntoIterator<Item = &'a Rule>) -> Vec<String> {
    let mut crds: Vec<String> = Vec::new();
    for rule in rules
        .into_iter()
        .filter(|r| r.group == KRUISE || r.group == KRUISE_POLICY)
    {
        for resource in rule.resources {
            let kind = resource.split('/').next().unwrap_or(resource);
            let crd = format!("{kind}.{}", rule.group);
            if !crds.contains(&crd) {
                crds.push(crd);
            }
        }
    }
    crds
}

/// One permission: a verb on a resource of a group.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Permission {
    pub group: String,
    pub resource: String,
    pub verb: String,
}

/// Every single permission the rules grant, sorted, without repeats.
pub fn permissions<'a>(rules: impl IntoIterator<Item = &'a Rule>) -> Vec<Permission> {
    let mut all = BTreeSet::new();
    for rule in rules {
        for resource in rule.resources {
            for verb in rule.verbs {
                all.insert(Permission {
                    group: rule.group.into(),
                    resource: (*resource).into(),
                    verb: (*verb).into(),
                });
            }
        }
    }
    all.into_iter().collect()
}

/// The RBAC rules granting exactly the union of `rules` (see the module invariants).
pub fn normalize<'a>(rules: impl IntoIterator<Item = &'a Rule>) -> Vec<PolicyRule> {
    let mut verbs_of: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for p in permissions(rules) {
        verbs_of.entry((p.group, p.resource)).or_default().insert(p.verb);
    }
    // (group, verbs) -> resources, in group order then verb-set order.
    let mut grouped: BTreeMap<(String, Vec<String>), Vec<String>> = BTreeMap::new();
    for ((group, resource), verbs) in verbs_of {
        grouped
            .entry((group, sorted_verbs(verbs)))
            .or_default()
            .push(resource);
    }
    grouped
        .into_iter()
        .map(|((group, verbs), resources)| PolicyRule {
            api_groups: Some(vec![group]),
            resources: Some(resources),
            verbs,
            ..PolicyRule::default()
        })
        .collect()
}

/// Verbs in the order RBAC listings usually show them.
fn sorted_verbs(verbs: BTreeSet<String>) -> Vec<String> {
    const ORDER: &[&str] = &[
        "get",
        "list",
        "watch",
        "create",
        "update",
        "patch",
        "delete",
        "deletecollection",
    ];
    let rank = |v: &String| ORDER.iter().position(|o| o == v).unwrap_or(ORDER.len());
    let mut verbs: Vec<String> = verbs.into_iter().collect();
    verbs.sort_by_key(|v| (rank(v), v.clone()));
    verbs
}

/// A kind that updates its pods through the shared in-place engine and keeps revisions.
pub const IN_PLACE_POD_OWNER: &[Rule] = &[
    rule("", &["pods"], &["create", "patch", "delete"]),
    // The InPlaceUpdateReady condition.
    rule("", &["pods/status"], &["patch"]),
    rule(
        "apps",
        &["controllerrevisions"],
        &["get", "create", "patch", "delete"],
    ),
];

/// A kind whose pods have claims from volumeClaimTemplates.
pub const CLAIM_OWNER: &[Rule] = &[rule("", &["persistentvolumeclaims"], &["create", "delete"])];

#[cfg(test)]
mod tests {
    use super::*;

    const A: &[Rule] = &[
        rule("", &["pods"], &["list", "watch"]),
        rule("apps", &["controllerrevisions"], &["list", "watch"]),
    ];
    const B: &[Rule] = &[
        rule("", &["pods"], &["create", "delete"]),
        rule("", &["pods/status"], &["patch"]),
        rule(
            "",
            &["persistentvolumeclaims"],
            &["list", "watch", "delete", "create"],
        ),
    ];

    #[test]
    fn the_union_is_per_resource_and_resources_with_the_same_verbs_share_a_rule() {
        let rules = normalize(A.iter().chain(B));
        let shown: Vec<(String, Vec<String>, Vec<String>)> = rules
            .iter()
            .map(|r| {
                (
                    r.api_groups.clone().unwrap_or_default().join(","),
                    r.resources.clone().unwrap_or_default(),
                    r.verbs.clone(),
                )
            })
            .collect();
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            shown,
            vec![
                (
                    String::new(),
                    s(&["persistentvolumeclaims", "pods"]),
                    s(&["list", "watch", "create", "delete"])
                ),
                (String::new(), s(&["pods/status"]), s(&["patch"])),
                ("apps".into(), s(&["controllerrevisions"]), s(&["list", "watch"])),
            ]
        );
    }

    #[test]
    fn normalizing_grants_exactly_what_was_declared() {
        let rules = normalize(A.iter().chain(B));
        let mut granted = BTreeSet::new();
        for r in &rules {
            for g in r.api_groups.iter().flatten() {
                for res in r.resources.iter().flatten() {
                    for v in &r.verbs {
                        granted.insert((g.clone(), res.clone(), v.clone()));
                    }
                }
            }
        }
        let declared: BTreeSet<(String, String, String)> = permissions(A.iter().chain(B))
            .into_iter()
            .map(|p| (p.group, p.resource, p.verb))
            .collect();
        assert_eq!(granted, declared);
        assert!(granted.iter().all(|(g, r, v)| g != "*" && r != "*" && v != "*"));
    }

    #[test]
    fn the_kruise_kinds_named_are_the_crds_needed() {
        const RULES: &[Rule] = &[
            rule(KRUISE, &["workloadspreads", "workloadspreads/status"], &["patch"]),
            rule("apps", &["deployments"], &["list"]),
            rule(KRUISE, &["clonesets", "statefulsets"], &["list"]),
        ];
        assert_eq!(
            kruise_crds(RULES),
            [
                "workloadspreads.apps.kruise.io",
                "clonesets.apps.kruise.io",
                "statefulsets.apps.kruise.io"
            ]
        );
    }

    #[test]
    fn cluster_scoped_resources_are_known() {
        assert!(!namespaced("", "nodes"));
        assert!(!namespaced("apps.kruise.io", "sidecarsets"));
        assert!(namespaced("", "pods"));
        assert!(namespaced("apps.kruise.io", "clonesets/status"));
    }
}
