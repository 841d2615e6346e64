//! Routes from a kind's view ([`View`], in the CLI's kind table) to the kind's own module
//! (`cli::<kind>`): its `get --tree`, its `rollout status` judged from the object, its
//! per-subset partitions, the WorkloadSpread's tree; and the verbs that are one kind's
//! own ([`migrate`] to a CloneSet, [`exec`] into a SidecarSet's sidecar), for the command
//! table. Above both the table and the kinds' modules, which use the table: routing from
//! the table itself would be an import circle.
pub use super::cloneset::migrate;
pub use super::sidecarset::exec;

use super::kinds::View;
use super::status::by_object::Judged;
use super::target::Target;

/// `get --tree` of `target` in its kind's own view, from the kind's own module (None: the
/// pods view, which the caller draws).
pub async fn tree(
    view: View,
    client: &kube::Client,
    namespace: &str,
    target: &Target,
    glyphs: super::glyphs::Glyphs,
) -> Option<anyhow::Result<String>> {
    let name = &target.name;
    Some(match view {
        View::Subsets => {
            super::uniteddeployment::tree::load_and_render(client, namespace, name, glyphs).await
        }
        View::Sidecars => super::sidecarset::tree::load_and_render(client, name, glyphs).await,
        View::Job => super::jobs::tree::load_and_render(client, namespace, target, glyphs).await,
        View::Pods => return None,
    })
}

/// How `rollout status` judges an object of a kind with `view` from the object alone
/// (None: from its pods).
pub fn judged(view: View) -> Option<&'static Judged> {
    match view {
        View::Job => Some(&super::jobs::status::BROADCAST_JOB),
        View::Sidecars => Some(&super::sidecarset::status::SIDECARSET),
        View::Subsets => Some(&super::uniteddeployment::status::UNITED_DEPLOYMENT),
        View::Pods => None,
    }
}

/// The PodUnavailableBudgets a rollout's pods name, for `rollout status`.
pub use super::podunavailablebudget::held as budgets;
/// `set partition SUBSET=N` of a kind whose partitions are per subset.
pub use super::uniteddeployment::partition as subset_partition;
/// `get ws/NAME --tree` (a WorkloadSpread is not a rollout target: no CLI kind).
pub use super::workloadspread::tree as spread_tree;

/// `get --tree` of an object of a kind `get` only lists ([`super::kinds::listed_only`]):
/// a WorkloadSpread's subsets (None: the kind has no tree, a PodUnavailableBudget).
pub async fn listed_tree(
    kind: crate::api::KruiseKind,
    client: &kube::Client,
    namespace: &str,
    name: &str,
    glyphs: super::glyphs::Glyphs,
) -> Option<anyhow::Result<String>> {
    match kind {
        crate::api::KruiseKind::WorkloadSpread => {
            Some(spread_tree::load_and_render(client, namespace, name, glyphs).await)
        }
        _ => None,
    }
}
