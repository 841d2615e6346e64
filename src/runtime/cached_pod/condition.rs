//! A pod condition as the pod cache's record keeps it: its type and status are words the
//! record does not allocate when they are the usual ones (`Ready`, `True`, ...), and the
//! struct holds no more than the API's fields. A pod's phase and restart policy are such
//! words too. A pod carries six or seven conditions, each
//! a 160-byte `PodCondition` and two small strings when parsed: the largest part of a
//! record after its metadata.
//!
//! Invariant: [`Condition`] and `PodCondition` convert into each other without loss (a
//! word outside the known list is kept as its own text).
use std::borrow::Cow;

use k8s_openapi::api::core::v1::PodCondition;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use serde::Deserialize;
use serde::de::{Deserializer, Error, Visitor};

use super::shared::{Text, string, text};

/// Condition types and statuses, phases and restart policies pods commonly carry: kept as
/// references, not copies.
const KNOWN: &[&str] = &[
    "Running",
    "Pending",
    "Succeeded",
    "Failed",
    "Always",
    "OnFailure",
    "Never",
    "True",
    "False",
    "Unknown",
    "Ready",
    "ContainersReady",
    "Initialized",
    "PodScheduled",
    "PodReadyToStartContainers",
    "InPlaceUpdateReady",
    "KruisePodReady",
    "DisruptionTarget",
];

/// A short text: one of [`KNOWN`] by reference, else its own copy.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Word(Cow<'static, str>);

impl Word {
    pub(super) fn of(text: &str) -> Self {
        match KNOWN.iter().find(|k| **k == text) {
            Some(known) => Self(Cow::Borrowed(known)),
            None => Self(Cow::Owned(text.to_string())),
        }
    }

    pub(super) fn text(&self) -> String {
        self.0.to_string()
    }
}

impl<'de> Deserialize<'de> for Word {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Text;
        impl Visitor<'_> for Text {
            type Value = Word;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: Error>(self, text: &str) -> Result<Word, E> {
                Ok(Word::of(text))
            }
        }
        deserializer.deserialize_str(Text)
    }
}

/// The fields of a `PodCondition`, its type and status as [`Word`]s.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Condition {
    #[serde(rename = "type", default)]
    kind: Word,
    #[serde(default)]
    status: Word,
    last_probe_time: Option<Time>,
    last_transition_time: Option<Time>,
    message: Option<Text>,
    observed_generation: Option<i64>,
    reason: Option<Text>,
}

impl From<PodCondition> for Condition {
    fn from(c: PodCondition) -> Self {
        Self {
            kind: Word::of(&c.type_),
            status: Word::of(&c.status),
            last_probe_time: c.last_probe_time,
            last_transition_time: c.last_transition_time,
            message: text(c.message),
            observed_generation: c.observed_generation,
            reason: text(c.reason),
        }
    }
}

impl From<&Condition> for PodCondition {
    fn from(c: &Condition) -> Self {
        Self {
            type_: c.kind.text(),
            status: c.status.text(),
            last_probe_time: c.last_probe_time.clone(),
            last_transition_time: c.last_transition_time.clone(),
            message: string(&c.message),
            observed_generation: c.observed_generation,
            reason: string(&c.reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn known_words_are_references_and_others_copies() {
        assert!(matches!(Word::of("Ready").0, Cow::Borrowed(_)));
        assert!(matches!(Word::of("True").0, Cow::Borrowed(_)));
        assert_eq!(
            Word::of("example.com/Gate").0,
            Cow::<str>::Owned("example.com/Gate".into())
        );
    }

    /// The watch reads bytes, not a `Value`: borrowed and escaped strings both arrive.
    #[test]
    fn words_read_from_bytes_as_a_watch_reads_them() {
        let bytes = br#"{ "type": "Ready", "status": "True", "reason": "r", "message": "a \"quoted\" m" }"#;
        let read: Condition = serde_json::from_slice(bytes).expect("test input");
        assert!(matches!(read.kind.0, Cow::Borrowed("Ready")));
        assert!(matches!(read.status.0, Cow::Borrowed("True")));
        let escaped: Condition =
            serde_json::from_slice(br#"{ "type": "example.com/Gate", "status": "True" }"#)
                .expect("test input");
        assert_eq!(escaped.kind, Word::of("example.com/Gate"));
        assert!(matches!(escaped.status.0, Cow::Borrowed("True")));
        assert_eq!(
            PodCondition::from(&read).message.as_deref(),
            Some("a \"quoted\" m")
        );
    }

    #[test]
    fn a_condition_converts_both_ways_without_loss() {
        for value in [
            json!({ "type": "Ready", "status": "True", "lastTransitionTime": "2026-12-04T10:01:00Z" }),
            json!({ "type": "example.com/Gate", "status": "Maybe", "reason": "r", "message": "m",
                "lastProbeTime": "2026-12-04T10:00:00Z", "observedGeneration": 3 }),
        ] {
            let whole: PodCondition = serde_json::from_value(value.clone()).expect("test input");
            let read: Condition = serde_json::from_value(value).expect("test input");
            assert_eq!(read, Condition::from(whole.clone()));
            assert_eq!(PodCondition::from(&read), whole);
        }
    }
}
