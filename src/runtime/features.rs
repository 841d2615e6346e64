//! OpenKruise's feature gates (`run --feature-gates`), by their upstream names and with
//! upstream's defaults (OpenKruise v1.9.0, `pkg/features/kruise_features.go`), so a user
//! who runs kruise-manager with `--feature-gates=...` can pass the same value here.
//!
//! Invariants: every upstream gate name is accepted, any other name is refused (as
//! upstream does); `AllAlpha` / `AllBeta` set every alpha / beta gate not named
//! explicitly; a gate whose setting this binary cannot follow is reported by
//! [`FeatureGates::unsupported`] when it is set away from its default (it never fails a
//! run: the setting is the user's, the warning says what it does not do here).
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Alpha,
    Beta,
}

/// What this binary does with a gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// Both settings behave as upstream's.
    Honoured,
    /// Only the default setting behaves as upstream's; the text says why.
    DefaultOnly(&'static str),
    /// The behaviour is on whatever the setting (upstream's default is off for some).
    AlwaysOn,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gate {
    pub name: &'static str,
    pub default: bool,
    pub stage: Stage,
    pub support: Support,
}

const NODE_AGENT: &str = "needs kruise-daemon, which this binary does not run";
const NOT_HERE: &str = "a feature this binary does not have";

const fn gate(name: &'static str, default: bool, stage: Stage, support: Support) -> Gate {
    Gate {
        name,
        default,
        stage,
        support,
    }
}

use Stage::{Alpha, Beta};
use Support::{AlwaysOn, DefaultOnly, Honoured};

pub const CLONESET_PARTITION_ROLLBACK: &str = "CloneSetPartitionRollback";
pub const PREPARING_UPDATE_AS_UPDATE: &str = "PreparingUpdateAsUpdate";
pub const RECREATE_POD_WHEN_CHANGE_VCT: &str = "RecreatePodWhenChangeVCTInCloneSetGate";
pub const PATCH_POD_METADATA_DEFAULTS_ALLOWED: &str = "SidecarSetPatchPodMetadataDefaultsAllowed";

/// Every gate of OpenKruise v1.9.0, in its order.
pub const GATES: &[Gate] = &[
    gate(
        "PodWebhook",
        true,
        Beta,
        DefaultOnly("the pod webhook is `run --webhooks`"),
    ),
    gate("KruiseDaemon", true, Beta, DefaultOnly(NODE_AGENT)),
    gate("DaemonWatchingPod", true, Beta, DefaultOnly(NODE_AGENT)),
    gate("CloneSetShortHash", false, Alpha, DefaultOnly(NOT_HERE)),
    gate("KruisePodReadinessGate", false, Alpha, DefaultOnly(NOT_HERE)),
    gate(
        "PreDownloadImageForInPlaceUpdate",
        false,
        Alpha,
        DefaultOnly(NODE_AGENT),
    ),
    gate(CLONESET_PARTITION_ROLLBACK, false, Alpha, Honoured),
    // Deletion protection acts only on objects labelled for it: always on here.
    gate("ResourcesDeletionProtection", false, Beta, AlwaysOn),
    gate("WorkloadSpread", true, Beta, AlwaysOn),
    // A budget protects deletions, evictions and updates alike unless it says otherwise
    // (`protectOperations`): the controllers' own in-place updates included.
    gate("PodUnavailableBudgetDeleteGate", true, Beta, AlwaysOn),
    gate("PodUnavailableBudgetUpdateGate", false, Alpha, AlwaysOn),
    gate("TemplateNoDefaults", false, Alpha, DefaultOnly(NOT_HERE)),
    gate(
        "InPlaceUpdateEnvFromMetadata",
        true,
        Beta,
        DefaultOnly(NODE_AGENT),
    ),
    gate("StatefulSetAutoDeletePVC", true, Beta, AlwaysOn),
    gate(PATCH_POD_METADATA_DEFAULTS_ALLOWED, false, Alpha, Honoured),
    gate("SidecarTerminator", false, Alpha, DefaultOnly(NOT_HERE)),
    gate("PodProbeMarkerGate", true, Beta, DefaultOnly(NODE_AGENT)),
    gate(
        "PreDownloadImageForDaemonSetUpdate",
        false,
        Alpha,
        DefaultOnly(NODE_AGENT),
    ),
    gate("CloneSetEventHandlerOptimization", false, Alpha, AlwaysOn),
    gate(PREPARING_UPDATE_AS_UPDATE, false, Alpha, Honoured),
    gate("ImagePullJobGate", false, Alpha, DefaultOnly(NODE_AGENT)),
    gate("ResourceDistributionGate", false, Alpha, DefaultOnly(NOT_HERE)),
    gate("DeletionProtectionForCRDCascadingGate", false, Alpha, AlwaysOn),
    gate("EnhancedLivenessProbe", false, Alpha, DefaultOnly(NODE_AGENT)),
    gate(RECREATE_POD_WHEN_CHANGE_VCT, false, Alpha, Honoured),
    gate("StatefulSetStartOrdinal", false, Alpha, AlwaysOn),
    gate("PodIndexLabel", true, Beta, AlwaysOn),
    gate(
        "EnableExternalCerts",
        false,
        Alpha,
        DefaultOnly("certificates are made by `run`"),
    ),
    gate(
        "StatefulSetAutoResizePVCGate",
        false,
        Alpha,
        DefaultOnly(NOT_HERE),
    ),
    gate("ForceDeleteTimeoutExpectationFeatureGate", false, Alpha, AlwaysOn),
    gate(
        "InPlaceWorkloadVerticalScaling",
        false,
        Alpha,
        DefaultOnly(NOT_HERE),
    ),
    gate(
        "EnablePodProbeMarkerOnServerless",
        false,
        Alpha,
        DefaultOnly(NODE_AGENT),
    ),
    gate(
        "EnableSortSidecarContainerByName",
        false,
        Alpha,
        DefaultOnly(NOT_HERE),
    ),
    gate("InPlacePodVerticalScaling", false, Alpha, DefaultOnly(NOT_HERE)),
];

/// The gates in effect: every gate's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureGates {
    values: BTreeMap<&'static str, bool>,
}

impl Default for FeatureGates {
    fn default() -> Self {
        FeatureGates {
            values: GATES.iter().map(|g| (g.name, g.default)).collect(),
        }
    }
}

/// The gates the planners read, copied out once (cheap to pass by value).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Features {
    /// A CloneSet whose partition grows rolls updated pods back to the current revision.
    pub cloneset_partition_rollback: bool,
    /// A CloneSet's scaling counts a PreparingUpdate pod as updated.
    pub preparing_update_as_update: bool,
    /// A CloneSet pod whose claims no longer match the claim templates is recreated.
    pub recreate_pod_when_claim_templates_change: bool,
    /// A SidecarSet may patch pod metadata without a whitelist rule for it.
    pub patch_pod_metadata_defaults_allowed: bool,
}

impl FeatureGates {
    /// Parses `Name=bool,Name=bool` (kruise-manager's `--feature-gates` syntax).
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut explicit: BTreeMap<&'static str, bool> = BTreeMap::new();
        let (mut all_alpha, mut all_beta) = (None, None);
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("feature gate `{item}`: expected NAME=true|false"))?;
            let value: bool = value
                .trim()
                .parse()
                .map_err(|_| format!("feature gate {name}: `{value}` is not true or false"))?;
            match name.trim() {
                "AllAlpha" => all_alpha = Some(value),
                "AllBeta" => all_beta = Some(value),
                name => {
                    let gate = GATES.iter().find(|g| g.name == name).ok_or_else(|| {
                        let names: Vec<&str> = GATES.iter().map(|g| g.name).collect();
                        format!(
                            "unknown feature gate {name} (OpenKruise's: AllAlpha, AllBeta, {})",
                            names.join(", ")
                        )
                    })?;
                    explicit.insert(gate.name, value);
                }
            }
        }
        let mut gates = FeatureGates::default();
        for gate in GATES {
            let by_stage = match gate.stage {
                Stage::Alpha => all_alpha,
                Stage::Beta => all_beta,
            };
            if let Some(value) = explicit.get(gate.name).copied().or(by_stage) {
                gates.values.insert(gate.name, value);
            }
        }
        Ok(gates)
    }

    pub fn enabled(&self, name: &str) -> bool {
        self.values.get(name).copied().unwrap_or(false)
    }

    /// The gates set away from their default whose behaviour this binary does not have,
    /// with why: one warning each at start.
    pub fn unsupported(&self) -> Vec<String> {
        GATES
            .iter()
            .filter(|g| self.enabled(g.name) != g.default)
            .filter_map(|g| match g.support {
                Support::Honoured => None,
                Support::AlwaysOn if self.enabled(g.name) => None,
                Support::AlwaysOn => Some(format!(
                    "feature gate {}=false has no effect here: this binary always does it",
                    g.name
                )),
                Support::DefaultOnly(why) => Some(format!(
                    "feature gate {}={} has no effect here ({why}); it behaves as {}={}",
                    g.name, !g.default, g.name, g.default
                )),
            })
            .collect()
    }

    pub fn features(&self) -> Features {
        Features {
            cloneset_partition_rollback: self.enabled(CLONESET_PARTITION_ROLLBACK),
            preparing_update_as_update: self.enabled(PREPARING_UPDATE_AS_UPDATE),
            patch_pod_metadata_defaults_allowed: self.enabled(PATCH_POD_METADATA_DEFAULTS_ALLOWED),
            recreate_pod_when_claim_templates_change: self.enabled(RECREATE_POD_WHEN_CHANGE_VCT),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_upstreams() {
        let gates = FeatureGates::default();
        assert!(!gates.enabled(CLONESET_PARTITION_ROLLBACK));
        assert!(gates.enabled("StatefulSetAutoDeletePVC"));
        assert!(gates.unsupported().is_empty());
        assert_eq!(gates.features(), Features::default());
    }

    #[test]
    fn named_gates_win_over_all_alpha_and_all_beta() {
        let gates =
            FeatureGates::parse("AllAlpha=true,AllBeta=true,PreparingUpdateAsUpdate=false").expect("parses");
        assert!(gates.enabled(CLONESET_PARTITION_ROLLBACK));
        assert!(!gates.enabled(PREPARING_UPDATE_AS_UPDATE));
        assert!(gates.enabled("PodIndexLabel"));
        let features = gates.features();
        assert!(features.cloneset_partition_rollback && !features.preparing_update_as_update);
        assert!(features.patch_pod_metadata_defaults_allowed);
        // Alpha gates this binary does not have are reported, honoured ones are not.
        let warnings = gates.unsupported();
        assert!(
            warnings
                .iter()
                .any(|w| w.starts_with("feature gate CloneSetShortHash=true has no effect here"))
        );
        assert!(!warnings.iter().any(|w| w.contains(CLONESET_PARTITION_ROLLBACK)));
    }

    #[test]
    fn unknown_names_and_values_are_refused_with_the_name() {
        let unknown = FeatureGates::parse("CloneSetRollback=true").expect_err("unknown");
        assert!(
            unknown.contains("unknown feature gate CloneSetRollback"),
            "{unknown}"
        );
        assert!(unknown.contains(CLONESET_PARTITION_ROLLBACK), "{unknown}");
        let bad = FeatureGates::parse("PodIndexLabel=yes").expect_err("bad value");
        assert!(bad.contains("PodIndexLabel") && bad.contains("yes"), "{bad}");
        assert!(FeatureGates::parse("PodIndexLabel").is_err());
        assert_eq!(FeatureGates::parse(" ").expect("empty"), FeatureGates::default());
    }
}
