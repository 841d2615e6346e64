//! Objects of a controller's own kind, read so that one unreadable object cannot stop the
//! others. The API server can store objects our types cannot read: fields the CRD schema
//! leaves open (the pod template), objects created before the schema was installed or under
//! another CRD. A typed watch fails its whole list on the first such object, and every
//! object of the kind stalls; [`Decoded`] never fails as long as the metadata reads.
//!
//! Invariants:
//! - Deserializing a `Decoded<K>` fails only when `metadata` is unreadable (the API server
//!   validates metadata, so a stored object always has readable metadata).
//! - An unreadable object keeps the path of the first bad field (`spec.template.spec...`),
//!   so the event and condition written about it name the field.
//! - `managedFields` are dropped before decoding (nobody reads them).
//! - [`unreadable_status`] keeps every stored status field and the other conditions; it
//!   only adds the `InvalidSpec` condition and fills required counters a missing status
//!   lacks, so the status subresource accepts the patch.
use std::sync::Arc;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::Resource;
use kube::core::object::HasStatus;
use kube::runtime::controller::Action;

use crate::runtime::context::{Context, Error, key, write_status};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::{Value, json};

/// The condition type written on an object the controller cannot read.
pub const INVALID_SPEC: &str = "InvalidSpec";
/// Its reason (a readable object never has it).
pub const UNREADABLE: &str = "Unreadable";
/// Its reason when the object reads but its planner refuses the spec (a selector that does
/// not select the template, too many replicas, bad numbers).
pub const REFUSED: &str = "Refused";

/// Why an object could not be read, with what the status patch needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Unreadable {
    /// The first bad field, as a path (`spec.replicas`, `spec.template.spec.containers[0]`).
    pub field: String,
    /// What was wrong with it.
    pub error: String,
    /// The stored status, as stored (it may be absent).
    pub status: Option<Value>,
}

impl Unreadable {
    /// One sentence naming the field: the event's note and the condition's message.
    pub fn message(&self) -> String {
        format!(
            "cannot read {}: {}; nothing is done for this object until it is fixed (other objects are not affected)",
            self.field, self.error
        )
    }
}

/// An object of kind `K`, read or not.
#[derive(Debug, Clone)]
pub struct Decoded<K> {
    pub meta: ObjectMeta,
    pub object: Result<Arc<K>, Arc<Unreadable>>,
}

impl<K: Resource> Resource for Decoded<K> {
    type DynamicType = K::DynamicType;
    type Scope = K::Scope;

    fn kind(dt: &Self::DynamicType) -> std::borrow::Cow<'_, str> {
        K::kind(dt)
    }
    fn group(dt: &Self::DynamicType) -> std::borrow::Cow<'_, str> {
        K::group(dt)
    }
    fn version(dt: &Self::DynamicType) -> std::borrow::Cow<'_, str> {
        K::version(dt)
    }
    fn plural(dt: &Self::DynamicType) -> std::borrow::Cow<'_, str> {
        K::plural(dt)
    }
    fn meta(&self) -> &ObjectMeta {
        &self.meta
    }
    fn meta_mut(&mut self) -> &mut ObjectMeta {
        &mut self.meta
    }
}

impl<'de, K: DeserializeOwned> Deserialize<'de> for Decoded<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut value = Value::deserialize(deserializer)?;
        decode(&mut value).map_err(D::Error::custom)
    }
}

/// The readable objects of `store` in `namespace` that are not being deleted, by name (what
/// a webhook's cache of a kind answers from).
pub fn live_in<K: Resource<DynamicType = ()> + Clone>(
    store: &kube::runtime::reflector::Store<Decoded<K>>,
    namespace: &str,
) -> Vec<Arc<K>> {
    let mut all: Vec<Arc<K>> = store
        .state()
        .iter()
        .filter(|d| d.meta.namespace.as_deref() == Some(namespace))
        .filter(|d| d.meta.deletion_timestamp.is_none())
        .filter_map(|d| d.object.as_ref().ok().cloned())
        .collect();
    all.sort_by(|a, b| a.meta().name.cmp(&b.meta().name));
    all
}

/// Reads `value` as a `K`, or keeps why not.
pub fn decode<K: DeserializeOwned>(value: &mut Value) -> Result<Decoded<K>, serde_json::Error> {
    if let Some(meta) = value.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("managedFields");
    }
    let meta: ObjectMeta = serde_json::from_value(value.get("metadata").cloned().unwrap_or(Value::Null))?;
    let status = value.get("status").cloned();
    let object = match serde_path_to_error::deserialize::<_, K>(&*value) {
        Ok(object) => Ok(Arc::new(object)),
        Err(e) => {
            let error = e.inner().to_string();
            Err(Arc::new(Unreadable {
                field: field_of(&e.path().to_string(), &error),
                error,
                status,
            }))
        }
    };
    Ok(Decoded { meta, object })
}

/// Reads `value` as a `K`; the error names the first bad field and what is wrong with it
/// (`spec.replicas: invalid type: string "three", expected i32`). For the CLI, which reads
/// one object it was asked about and must say where it is wrong.
pub fn read<K: DeserializeOwned>(value: &Value) -> Result<K, String> {
    serde_path_to_error::deserialize::<_, K>(value).map_err(|e| {
        let error = e.inner().to_string();
        format!("{}: {error}", field_of(&e.path().to_string(), &error))
    })
}

/// The path of the bad field. serde names the struct a required field is missing from
/// (`.` at the top), so the missing field's name is added from the error.
fn field_of(path: &str, error: &str) -> String {
    let missing = error
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split_once('`'))
        .map(|(name, _)| name);
    match (path, missing) {
        (".", Some(name)) => name.to_string(),
        (path, Some(name)) => format!("{path}.{name}"),
        (path, None) => path.to_string(),
    }
}

/// The status to write on an unreadable object (see the module invariants). `blank` is the
/// kind's empty status, which has every required counter.
pub fn unreadable_status(unreadable: &Unreadable, blank: Value, now: &str) -> Value {
    invalid_spec_status(
        unreadable.status.as_ref(),
        blank,
        UNREADABLE,
        &unreadable.message(),
        now,
    )
}

/// The stored status (`blank` filling what it lacks) with an `InvalidSpec` condition of
/// `reason` and `message`; an identical condition keeps its transition time, and every
/// other field and condition is kept.
pub fn invalid_spec_status(
    stored: Option<&Value>,
    blank: Value,
    reason: &str,
    message: &str,
    now: &str,
) -> Value {
    let mut status = match (stored, blank) {
        (Some(Value::Object(stored)), Value::Object(mut base)) => {
            base.extend(stored.clone());
            Value::Object(base)
        }
        (_, base) => base,
    };
    let mut conditions: Vec<Value> = status
        .get("conditions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let unchanged = conditions
        .iter()
        .find(|c| c["type"] == INVALID_SPEC)
        .filter(|c| c["message"] == message && c["status"] == "True" && c["reason"] == reason)
        .cloned();
    conditions.retain(|c| c["type"] != INVALID_SPEC);
    conditions.push(unchanged.unwrap_or_else(|| {
        json!({
            "type": INVALID_SPEC,
            "status": "True",
            "lastTransitionTime": now,
            "reason": reason,
            "message": message,
        })
    }));
    status["conditions"] = Value::Array(conditions);
    status
}

/// What a controller does with an object it cannot read: one `InvalidSpec` event while the
/// problem lasts, and the condition on its status (written only when it changes, so an
/// unreadable object costs no writes while idle). Then it waits for the object to change.
pub async fn report<K>(
    ctx: &Context,
    kind: &'static str,
    object: &Decoded<K>,
    unreadable: &Unreadable,
) -> Result<Action, Error>
where
    K: Resource<DynamicType = ()> + HasStatus + Clone + DeserializeOwned + std::fmt::Debug,
    K::Scope: crate::runtime::scope::Scoped,
    K::Status: Default + serde::Serialize,
{
    let owner = key(object);
    let message = unreadable.message();
    if !ctx
        .new_problems(&owner, std::slice::from_ref(&message))
        .is_empty()
    {
        tracing::warn!(object = owner, "{kind} {message}");
        ctx.events
            .publish(&object.object_ref(&()), true, INVALID_SPEC, message)
            .await;
    }
    let blank = serde_json::to_value(K::Status::default()).unwrap_or(Value::Null);
    let now = crate::runtime::inplace::step::rfc3339(k8s_openapi::jiff::Timestamp::now());
    let status = unreadable_status(unreadable, blank, &now);
    if unreadable.status.as_ref() != Some(&status) {
        write_status(ctx, object, kind, &status).await?;
    }
    Ok(Action::await_change())
}

#[cfg(test)]
#[path = "decoded_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "decode_fuzz_tests.rs"]
mod fuzz;
