//! Events on the objects a controller acts on, so `kubectl describe` shows what it did and
//! why. One recorder per process (reporting controller `kubectl-kruise`).
//!
//! Invariant: an event that cannot be written is logged and dropped; it never fails a
//! reconcile (events are best effort in Kubernetes too).
use k8s_openapi::api::core::v1::ObjectReference;
use kube::Client;
use kube::runtime::events::{Event, EventType, Recorder, Reporter};

pub const REPORTER: &str = "kubectl-kruise";

#[derive(Clone)]
pub struct Events {
    recorder: Recorder,
}

impl Events {
    pub fn new(client: Client) -> Self {
        Self {
            recorder: Recorder::new(client, Reporter::from(REPORTER)),
        }
    }

    pub async fn publish(&self, regarding: &ObjectReference, warning: bool, reason: &str, note: String) {
        let event = Event {
            type_: if warning {
                EventType::Warning
            } else {
                EventType::Normal
            },
            reason: reason.to_string(),
            note: Some(note.chars().take(1000).collect()),
            action: reason.to_string(),
            secondary: None,
        };
        if let Err(error) = self.recorder.publish(&event, regarding).await {
            tracing::debug!(reason, %error, "event not recorded");
        }
    }
}
