//! A UnitedDeployment's subset workload, rendered from the template, and the facts the
//! controller reads back from one. Pure: JSON in, JSON out, no client.
//!
//! Invariants of [`render`]:
//! - The workload is the template's kind ([`template_kind`]): `apps/v1` StatefulSet,
//!   `apps.kruise.io/v1beta1` StatefulSet, `apps.kruise.io/v1alpha1` CloneSet or `apps/v1`
//!   Deployment, in the UnitedDeployment's namespace, with exactly one controller owner
//!   reference, to the UnitedDeployment; an object controlled by anything else is refused.
//! - Metadata is only ever added to: the fetched object's labels and annotations stay, the
//!   template's and ours are written over them. Labels: template labels, then the
//!   UnitedDeployment's `selector.matchLabels`, then [`REVISION_LABEL`] (the UnitedDeployment
//!   revision) and [`SUBSET_NAME_LABEL`]. Annotation [`SUBSET_PATCH_ANNOTATION`]: the
//!   subset's patch as [`patch_text`] writes it (`""` for none).
//! - The spec is the template's spec, whole (the fetched spec is replaced), then in this
//!   order: `selector` (the UnitedDeployment's, `matchLabels` plus the subset name),
//!   `replicas`, the partition (see [`ChildKind`]), the pod template's two labels, the
//!   subset's node affinity and tolerations, and last the subset's strategic merge patch on
//!   the pod template, so the patch wins over everything before it. The subset's
//!   `nodeSelectorTerm.matchExpressions` place pods (its `matchFields` are not used, as
//!   upstream); without them, the terms of the deprecated `nodeSelector` do, ORed. Upstream
//!   no longer reads that field, but handbook manifests still place their subsets with it.
//! - `generateName` is `<ud>-<subset>-`, or `<ud>-` when that is not a valid generated-name
//!   prefix (a DNS-1123 subdomain once Kubernetes masks the trailing dash).
//!
//! [`read_back`] is the inverse the controller needs: replicas, partition and status counts
//! of a fetched subset workload, keyed by its subset-name label.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{NodeSelectorRequirement, NodeSelectorTerm, Pod, PodTemplateSpec};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::api::uniteddeployment::SUBSET_NAME_LABEL;
pub use crate::workloads::common::names::dns_subdomain;
use crate::{
    api::uniteddeployment::{Subset, SubsetTemplate, UnitedDeployment},
    runtime::strategic_merge,
};

/// Label on subset workloads and their pods: the UnitedDeployment revision they were
/// rendered from.
pub const REVISION_LABEL: &str = "apps.kruise.io/controller-revision-hash";
/// Annotation on subset workloads: the subset patch they were rendered with.
pub const SUBSET_PATCH_ANNOTATION: &str = "apps.kruise.io/subset-patch";

const UD_API_VERSION: &str = "apps.kruise.io/v1alpha1";
const UD_KIND: &str = "UnitedDeployment";
const ON_DELETE: &str = "OnDelete";
const ROLLING_UPDATE: &str = "RollingUpdate";

/// The kind of a subset workload.
///
/// Partition: a StatefulSet whose template strategy is unset or `RollingUpdate` gets
/// `RollingUpdate` with `rollingUpdate.partition`; an Advanced StatefulSet gets
/// `rollingUpdate.partition` under the same condition, its `type` left as written; both
/// leave `OnDelete` alone. A CloneSet gets `updateStrategy.partition` (and
/// `rollingUpdate.partition` when the template spells the `v1beta1` knobs, which win).
/// A Deployment has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChildKind {
    StatefulSet,
    AdvancedStatefulSet,
    CloneSet,
    Deployment,
}

impl ChildKind {
    pub fn api_version(self) -> &'static str {
        match self {
            Self::StatefulSet | Self::Deployment => "apps/v1",
            Self::AdvancedStatefulSet => "apps.kruise.io/v1beta1",
            Self::CloneSet => "apps.kruise.io/v1alpha1",
        }
    }

    pub fn kind(self) -> &'static str {
        match self {
            Self::StatefulSet | Self::AdvancedStatefulSet => "StatefulSet",
            Self::CloneSet => "CloneSet",
            Self::Deployment => "Deployment",
        }
    }

    pub fn plural(self) -> &'static str {
        match self {
            Self::StatefulSet | Self::AdvancedStatefulSet => "statefulsets",
            Self::CloneSet => "clonesets",
            Self::Deployment => "deployments",
        }
    }

    pub fn all() -> [ChildKind; 4] {
        [
            Self::StatefulSet,
            Self::AdvancedStatefulSet,
            Self::CloneSet,
            Self::Deployment,
        ]
    }

    /// The field of `spec.template` holding this kind's template.
    pub fn template_field(self) -> &'static str {
        match self {
            Self::StatefulSet => "statefulSetTemplate",
            Self::AdvancedStatefulSet => "advancedStatefulSetTemplate",
            Self::CloneSet => "cloneSetTemplate",
            Self::Deployment => "deploymentTemplate",
        }
    }
}

/// The template kind of `ud` (None: no template, or more than one — validation refuses that).
pub fn template_kind(ud: &UnitedDeployment) -> Option<ChildKind> {
    let template = ud.spec.template.as_ref()?;
    let mut set = ChildKind::all()
        .into_iter()
        .filter(|kind| has_template(template, *kind));
    match (set.next(), set.next()) {
        (Some(kind), None) => Some(kind),
        _ => None,
    }
}

fn has_template(template: &SubsetTemplate, kind: ChildKind) -> bool {
    match kind {
        ChildKind::StatefulSet => template.stateful_set_template.is_some(),
        ChildKind::AdvancedStatefulSet => template.advanced_stateful_set_template.is_some(),
        ChildKind::CloneSet => template.clone_set_template.is_some(),
        ChildKind::Deployment => template.deployment_template.is_some(),
    }
}

/// `generateName` of subset `subset` of UnitedDeployment `ud`: `<ud>-<subset>-`, or `<ud>-`
/// when the former is not a valid generated-name prefix.
pub fn subset_prefix(ud: &str, subset: &str) -> String {
    let prefix = format!("{ud}-{subset}-");
    if is_name_prefix(&prefix) {
        prefix
    } else {
        format!("{ud}-")
    }
}

/// Kubernetes' check of a `generateName` (`NameIsDNSSubdomain(prefix, true)`): a trailing
/// dash is masked (the last two characters become `a`), then the rest must be a DNS-1123
/// subdomain.
fn is_name_prefix(prefix: &str) -> bool {
    match prefix.strip_suffix('-') {
        Some(_) if prefix.len() > 1 => prefix
            .get(..prefix.len() - 2)
            .is_some_and(|head| dns_subdomain(&format!("{head}a"))),
        _ => dns_subdomain(prefix),
    }
}

/// The annotation text of a subset patch: compact JSON with sorted keys and `<`, `>`, `&`,
/// U+2028 and U+2029 escaped, as the API server serves the patch to OpenKruise; `""` for
/// none. Compare an existing workload's [`SUBSET_PATCH_ANNOTATION`] against this.
pub fn patch_text(patch: Option<&Value>) -> String {
    let Some(patch) = patch.filter(|p| !p.is_null()) else {
        return String::new();
    };
    let mut out = String::new();
    for c in patch.to_string().chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// The subset workload `subset` of `ud` as JSON (apiVersion, kind, metadata, spec), rendered
/// onto `existing` (the fetched object, on update) or new (generateName).
///
/// `subset` must be one of `ud`'s subsets (found by name, for its index in error paths; its
/// node selector term, tolerations and patch are the ones used). `revision` is the
/// UnitedDeployment revision name; `replicas` and `partition` the subset's allocation.
/// Errors name the field: `UnitedDeployment NAME: spec.topology.subsets[i].patch: ...`.
pub fn render(
    ud: &UnitedDeployment,
    subset: &Subset,
    revision: &str,
    replicas: i32,
    partition: i32,
    existing: Option<&Value>,
) -> Result<Value, String> {
    let ud_name = ud.metadata.name.as_deref().unwrap_or_default();
    let fail = |field: &str, message: &dyn std::fmt::Display| {
        format!("UnitedDeployment {ud_name}: {field}: {message}")
    };
    let kind = template_kind(ud).ok_or_else(|| {
        fail(
            "spec.template",
            &"must set exactly one of statefulSetTemplate, advancedStatefulSetTemplate, \
              cloneSetTemplate and deploymentTemplate",
        )
    })?;
    let index = subset_index(ud, &subset.name).ok_or_else(|| {
        fail(
            "spec.topology.subsets",
            &format_args!("no subset named {:?}", subset.name),
        )
    })?;
    let template_path = format!("spec.template.{}", kind.template_field());
    let template = template_of(ud, kind).map_err(|e| fail(&template_path, &e))?;

    let mut object = match existing {
        Some(Value::Object(map)) => map.clone(),
        Some(_) => return Err(fail("the existing subset workload", &"is not a JSON object")),
        None => Map::new(),
    };
    object.insert("apiVersion".into(), kind.api_version().into());
    object.insert("kind".into(), kind.kind().into());
    let owner = owner_reference(ud).map_err(|e| fail("metadata.uid", &e))?;
    let metadata = ensure_object(object_entry(&mut object, "metadata"));
    render_metadata(
        metadata,
        ud,
        subset,
        revision,
        &template.labels,
        &template.annotations,
    );
    set_controller(metadata, owner).map_err(|e| fail("the existing subset workload", &e))?;

    let mut spec = template.spec;
    let selector = subset_selector(ud, &subset.name).map_err(|e| fail("spec.selector", &e))?;
    spec.insert("selector".into(), selector);
    spec.insert("replicas".into(), replicas.into());
    set_partition(&mut spec, kind, partition);
    let pod_template = ensure_object(object_entry(&mut spec, "template"));
    render_pod_template(pod_template, subset, revision)
        .map_err(|(field, e)| fail(&format!("spec.topology.subsets[{index}].{field}"), &e))?;
    object.insert("spec".into(), Value::Object(spec));
    Ok(Value::Object(object))
}

/// The pod template's subset labels, node affinity and tolerations, then the patch; an
/// error names the subset field at fault.
fn render_pod_template(
    pod_template: &mut Map<String, Value>,
    subset: &Subset,
    revision: &str,
) -> Result<(), (&'static str, String)> {
    label_pod_template(pod_template, &subset.name, revision);
    let pod_spec = ensure_object(object_entry(pod_template, "spec"));
    attach_node_affinity(pod_spec, subset).map_err(|e| ("nodeSelectorTerm", e))?;
    attach_tolerations(pod_spec, subset).map_err(|e| ("tolerations", e))?;
    apply_patch(pod_template, subset.patch.as_ref()).map_err(|e| ("patch", e))
}

fn subset_index(ud: &UnitedDeployment, name: &str) -> Option<usize> {
    let subsets = ud.spec.topology.as_ref()?.subsets.as_ref()?;
    subsets.iter().position(|s| s.name == name)
}

/// A template's labels, annotations and spec (as JSON).
struct TemplateParts {
    labels: BTreeMap<String, String>,
    annotations: BTreeMap<String, String>,
    spec: Map<String, Value>,
}

fn template_of(ud: &UnitedDeployment, kind: ChildKind) -> Result<TemplateParts, String> {
    let Some(template) = ud.spec.template.as_ref() else {
        return Err("not set".into());
    };
    let (metadata, spec) = match kind {
        ChildKind::StatefulSet => parts(
            template
                .stateful_set_template
                .as_ref()
                .map(|t| (&t.metadata, &t.spec)),
        ),
        ChildKind::AdvancedStatefulSet => parts(
            template
                .advanced_stateful_set_template
                .as_ref()
                .map(|t| (&t.metadata, &t.spec)),
        ),
        ChildKind::CloneSet => parts(
            template
                .clone_set_template
                .as_ref()
                .map(|t| (&t.metadata, &t.spec)),
        ),
        ChildKind::Deployment => parts(
            template
                .deployment_template
                .as_ref()
                .map(|t| (&t.metadata, &t.spec)),
        ),
    }?;
    let spec = match spec {
        Value::Object(map) => map,
        Value::Null => Map::new(),
        _ => return Err("spec: not an object".into()),
    };
    let labels = metadata
        .as_ref()
        .and_then(|m| m.labels.clone())
        .unwrap_or_default();
    let annotations = metadata.and_then(|m| m.annotations).unwrap_or_default();
    Ok(TemplateParts {
        labels,
        annotations,
        spec,
    })
}

type TemplateMetadata = Option<k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta>;

fn parts<S: Serialize>(
    template: Option<(&TemplateMetadata, &S)>,
) -> Result<(TemplateMetadata, Value), String> {
    let (metadata, spec) = template.ok_or("not set")?;
    let spec = serde_json::to_value(spec).map_err(|e| format!("spec: {e}"))?;
    Ok((metadata.clone(), spec))
}

fn render_metadata(
    metadata: &mut Map<String, Value>,
    ud: &UnitedDeployment,
    subset: &Subset,
    revision: &str,
    template_labels: &BTreeMap<String, String>,
    template_annotations: &BTreeMap<String, String>,
) {
    if let Some(namespace) = &ud.metadata.namespace {
        metadata.insert("namespace".into(), namespace.as_str().into());
    }
    let ud_name = ud.metadata.name.as_deref().unwrap_or_default();
    metadata.insert("generateName".into(), subset_prefix(ud_name, &subset.name).into());

    let labels = ensure_object(object_entry(metadata, "labels"));
    insert_strings(labels, template_labels);
    if let Some(match_labels) = &ud.spec.selector.match_labels {
        insert_strings(labels, match_labels);
    }
    labels.insert(REVISION_LABEL.into(), revision.into());
    labels.insert(SUBSET_NAME_LABEL.into(), subset.name.as_str().into());

    let annotations = ensure_object(object_entry(metadata, "annotations"));
    insert_strings(annotations, template_annotations);
    annotations.insert(
        SUBSET_PATCH_ANNOTATION.into(),
        patch_text(subset.patch.as_ref()).into(),
    );
}

fn insert_strings(map: &mut Map<String, Value>, entries: &BTreeMap<String, String>) {
    for (key, value) in entries {
        map.insert(key.clone(), value.as_str().into());
    }
}

fn owner_reference(ud: &UnitedDeployment) -> Result<Value, String> {
    let uid = ud
        .metadata
        .uid
        .as_deref()
        .filter(|uid| !uid.is_empty())
        .ok_or("not set; the subset workload's owner reference needs it")?;
    Ok(serde_json::json!({
        "apiVersion": UD_API_VERSION,
        "kind": UD_KIND,
        "name": ud.metadata.name.as_deref().unwrap_or_default(),
        "uid": uid,
        "controller": true,
        "blockOwnerDeletion": true,
    }))
}

/// Makes `owner` the controller reference of `metadata` (replacing a reference to the same
/// object, matched by API group, kind and name); refuses when another object controls it.
fn set_controller(metadata: &mut Map<String, Value>, owner: Value) -> Result<(), String> {
    let refs = ensure_array(object_entry(metadata, "ownerReferences"));
    if let Some(other) = refs
        .iter()
        .find(|r| r.get("controller").and_then(Value::as_bool) == Some(true))
        .filter(|r| !same_object(r, &owner))
    {
        let field = |key: &str| {
            other
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        return Err(format!(
            "is controlled by {} {}, not by this UnitedDeployment",
            field("kind"),
            field("name")
        ));
    }
    match refs.iter().position(|r| same_object(r, &owner)) {
        Some(i) => refs[i] = owner,
        None => refs.push(owner),
    }
    Ok(())
}

/// Two owner references name the same object: same API group, kind and name.
fn same_object(a: &Value, b: &Value) -> bool {
    let text = |r: &Value, key: &str| r.get(key).and_then(Value::as_str).map(str::to_owned);
    let group = |r: &Value| {
        let api_version = text(r, "apiVersion")?;
        match api_version.split('/').collect::<Vec<_>>().as_slice() {
            [_version] => Some(String::new()),
            [group, _version] => Some((*group).to_owned()),
            _ => None,
        }
    };
    group(a).is_some()
        && group(a) == group(b)
        && text(a, "kind") == text(b, "kind")
        && text(a, "name") == text(b, "name")
}

fn subset_selector(ud: &UnitedDeployment, subset: &str) -> Result<Value, String> {
    let mut selector = serde_json::to_value(&ud.spec.selector).map_err(|e| e.to_string())?;
    let map = ensure_object(&mut selector);
    ensure_object(object_entry(map, "matchLabels")).insert(SUBSET_NAME_LABEL.into(), subset.into());
    Ok(selector)
}

fn set_partition(spec: &mut Map<String, Value>, kind: ChildKind, partition: i32) {
    let strategy_type = spec
        .get("updateStrategy")
        .and_then(|s| s.get("type"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let rolling = strategy_type.is_empty() || strategy_type == ROLLING_UPDATE;
    match kind {
        ChildKind::StatefulSet | ChildKind::AdvancedStatefulSet if rolling => {
            let strategy = ensure_object(object_entry(spec, "updateStrategy"));
            if kind == ChildKind::StatefulSet {
                strategy.insert("type".into(), ROLLING_UPDATE.into());
            }
            ensure_object(object_entry(strategy, "rollingUpdate"))
                .insert("partition".into(), partition.into());
        }
        ChildKind::CloneSet => {
            let strategy = ensure_object(object_entry(spec, "updateStrategy"));
            strategy.insert("partition".into(), partition.into());
            if let Some(Value::Object(nested)) = strategy.get_mut("rollingUpdate") {
                nested.insert("partition".into(), partition.into());
            }
        }
        _ => {}
    }
}

fn label_pod_template(pod_template: &mut Map<String, Value>, subset: &str, revision: &str) {
    let metadata = ensure_object(object_entry(pod_template, "metadata"));
    let labels = ensure_object(object_entry(metadata, "labels"));
    labels.insert(SUBSET_NAME_LABEL.into(), subset.into());
    labels.insert(REVISION_LABEL.into(), revision.into());
}

/// The match expressions of the subset's placement, one list per alternative (ORed): its
/// `nodeSelectorTerm`; else the terms of the deprecated `nodeSelector` (which upstream no
/// longer reads; handbook manifests still place subsets with it). `matchFields` are not
/// used, as upstream.
fn subset_terms(subset: &Subset) -> Vec<&[NodeSelectorRequirement]> {
    if let Some(own) = subset.node_selector_term.as_ref().and_then(expressions_of) {
        return vec![own];
    }
    subset
        .node_selector
        .iter()
        .flat_map(|s| s.node_selector_terms.iter())
        .filter_map(expressions_of)
        .collect()
}

fn expressions_of(term: &NodeSelectorTerm) -> Option<&[NodeSelectorRequirement]> {
    term.match_expressions.as_deref().filter(|e| !e.is_empty())
}

/// ANDs the subset's match expressions into every term of the pod's required node affinity
/// (a single empty term is added when there is none); with several subset terms (the
/// deprecated `nodeSelector`), every pod term is paired with every subset term.
fn attach_node_affinity(pod_spec: &mut Map<String, Value>, subset: &Subset) -> Result<(), String> {
    let alternatives = subset_terms(subset)
        .into_iter()
        .map(to_values)
        .collect::<Result<Vec<_>, _>>()?;
    if alternatives.is_empty() {
        return Ok(());
    }
    let affinity = ensure_object(object_entry(pod_spec, "affinity"));
    let node_affinity = ensure_object(object_entry(affinity, "nodeAffinity"));
    let required = ensure_object(object_entry(
        node_affinity,
        "requiredDuringSchedulingIgnoredDuringExecution",
    ));
    let terms = ensure_array(object_entry(required, "nodeSelectorTerms"));
    if terms.is_empty() {
        terms.push(Value::Object(Map::new()));
    }
    let paired: Vec<Value> = terms
        .iter()
        .flat_map(|term| {
            alternatives.iter().map(move |expressions| {
                let mut term = term.clone();
                let map = ensure_object(&mut term);
                ensure_array(object_entry(map, "matchExpressions")).extend(expressions.iter().cloned());
                term
            })
        })
        .collect();
    *terms = paired;
    Ok(())
}

fn attach_tolerations(pod_spec: &mut Map<String, Value>, subset: &Subset) -> Result<(), String> {
    let tolerations = subset.tolerations.as_deref().unwrap_or_default();
    if !tolerations.is_empty() {
        let tolerations = to_values(tolerations)?;
        ensure_array(object_entry(pod_spec, "tolerations")).extend(tolerations);
    }
    Ok(())
}

fn to_values<T: Serialize>(items: &[T]) -> Result<Vec<Value>, String> {
    items
        .iter()
        .map(|item| serde_json::to_value(item).map_err(|e| e.to_string()))
        .collect()
}

/// Strategic-merges `patch` onto the pod template (`{metadata, spec}`, the shape of a pod);
/// the result must still read as a pod template.
fn apply_patch(pod_template: &mut Map<String, Value>, patch: Option<&Value>) -> Result<(), String> {
    let patch = match patch {
        None | Some(Value::Null) => return Ok(()),
        Some(patch @ Value::Object(_)) => patch,
        Some(other) => return Err(format!("must be a JSON object, not {}", json_type(other))),
    };
    let patched = strategic_merge::apply(&Value::Object(std::mem::take(pod_template)), patch);
    serde_json::from_value::<PodTemplateSpec>(patched.clone())
        .map_err(|e| format!("the patched pod template is not a pod template: {e}"))?;
    *pod_template = match patched {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    Ok(())
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The slot at `key` of `map` (null when absent).
fn object_entry<'a>(map: &'a mut Map<String, Value>, key: &str) -> &'a mut Value {
    map.entry(key).or_insert(Value::Null)
}

/// `value` as an object, replacing anything else (null included) by an empty one.
fn ensure_object(value: &mut Value) -> &mut Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => {
            *other = Value::Object(Map::new());
            ensure_object(other)
        }
    }
}

/// `value` as an array, replacing anything else (null included) by an empty one.
fn ensure_array(value: &mut Value) -> &mut Vec<Value> {
    match value {
        Value::Array(items) => items,
        other => {
            *other = Value::Array(Vec::new());
            ensure_array(other)
        }
    }
}

/// What the controller reads back from a subset workload.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubsetRead {
    /// The [`SUBSET_NAME_LABEL`] value.
    pub subset: String,
    /// `spec.replicas` (0 when unset).
    pub replicas: i32,
    /// The partition in effect (0 when none).
    pub partition: i32,
    /// `status.replicas`.
    pub status_replicas: i32,
    /// `status.readyReplicas`.
    pub ready_replicas: i32,
    /// The workload's [`REVISION_LABEL`]: the UnitedDeployment revision it was rendered from.
    pub revision: Option<String>,
    /// The workload's [`SUBSET_PATCH_ANNOTATION`].
    pub patch: Option<String>,
}

/// The facts of subset workload `object` of kind `kind`; `pods` are its pods (used for a
/// StatefulSet's `OnDelete` partition). None when it has no (or an empty) subset-name label.
///
/// Partition: a StatefulSet or Advanced StatefulSet with `OnDelete` counts the pods whose
/// [`REVISION_LABEL`] differs from the workload's; otherwise `rollingUpdate.partition`. A
/// CloneSet's partition (`rollingUpdate.partition` winning over `partition`) is scaled
/// against `spec.replicas`, a percentage rounded up; an invalid one reads as 0. A
/// Deployment's is 0.
pub fn read_back(kind: ChildKind, object: &Value, pods: &[&Pod]) -> Option<SubsetRead> {
    let subset = label(object, SUBSET_NAME_LABEL).filter(|s| !s.is_empty())?;
    let replicas = int_at(object, "/spec/replicas");
    let partition = match kind {
        ChildKind::StatefulSet | ChildKind::AdvancedStatefulSet => stateful_partition(object, pods),
        ChildKind::CloneSet => cloneset_partition(object, replicas),
        ChildKind::Deployment => 0,
    };
    Some(SubsetRead {
        subset: subset.to_owned(),
        replicas,
        partition,
        status_replicas: int_at(object, "/status/replicas"),
        ready_replicas: int_at(object, "/status/readyReplicas"),
        revision: label(object, REVISION_LABEL).map(str::to_owned),
        patch: object
            .pointer(&format!(
                "/metadata/annotations/{}",
                pointer_key(SUBSET_PATCH_ANNOTATION)
            ))
            .and_then(Value::as_str)
            .map(str::to_owned),
    })
}

fn label<'a>(object: &'a Value, key: &str) -> Option<&'a str> {
    object.get("metadata")?.get("labels")?.get(key)?.as_str()
}

/// `key` escaped for a JSON pointer (`~` → `~0`, `/` → `~1`).
fn pointer_key(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn int_at(object: &Value, pointer: &str) -> i32 {
    object
        .pointer(pointer)
        .and_then(Value::as_i64)
        .and_then(|n| i32::try_from(n).ok())
        .unwrap_or(0)
}

fn stateful_partition(object: &Value, pods: &[&Pod]) -> i32 {
    if object
        .pointer("/spec/updateStrategy/type")
        .and_then(Value::as_str)
        == Some(ON_DELETE)
    {
        let revision = label(object, REVISION_LABEL).unwrap_or_default();
        let behind = pods.iter().filter(|pod| pod_revision(pod) != revision).count();
        return i32::try_from(behind).unwrap_or(i32::MAX);
    }
    int_at(object, "/spec/updateStrategy/rollingUpdate/partition")
}

fn pod_revision(pod: &Pod) -> &str {
    pod.metadata
        .labels
        .as_ref()
        .and_then(|labels| labels.get(REVISION_LABEL))
        .map(String::as_str)
        .unwrap_or_default()
}

fn cloneset_partition(object: &Value, replicas: i32) -> i32 {
    let partition = object
        .pointer("/spec/updateStrategy/rollingUpdate/partition")
        .or_else(|| object.pointer("/spec/updateStrategy/partition"));
    partition.and_then(|p| scaled_round_up(p, replicas)).unwrap_or(0)
}

/// An int-or-percent value against `total`, a percentage rounded up
/// (`GetScaledValueFromIntOrPercent(.., roundUp: true)`); None when it is neither.
fn scaled_round_up(value: &Value, total: i32) -> Option<i32> {
    let scaled = match value {
        Value::Number(n) => n.as_i64()?,
        Value::String(s) => {
            let percent: i64 = s.strip_suffix('%')?.parse().ok()?;
            let product = percent.checked_mul(i64::from(total))?;
            product.div_euclid(100) + i64::from(product.rem_euclid(100) != 0)
        }
        _ => return None,
    };
    i32::try_from(scaled).ok()
}

#[cfg(test)]
#[path = "render_tests.rs"]
mod tests;
