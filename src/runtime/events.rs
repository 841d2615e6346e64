//! Events on the objects a controller acts on, so `kubectl describe` shows what it did and
//! why. One recorder per process (reporting controller `kubectl-kruise`).
//!
//! Invariants:
//! - An event that cannot be written is logged and dropped; it never fails a reconcile
//!   (events are best effort in Kubernetes too).
//! - Pod writes of one kind on one object are batched ([`Events::publish_pods`]): the
//!   first goes at once, those within [`EVENT_WINDOW`] of it are held and go as one event
//!   naming all their pods when the window ends (a rollout in waves is a few events, not
//!   one per wave). Warnings and notices are never held.
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::ObjectReference;
use kube::Client;
use kube::runtime::events::{Event, EventType, Recorder, Reporter};

pub const REPORTER: &str = "kubectl-kruise";

/// How long after an event of pod writes the next one of the same kind is held.
pub const EVENT_WINDOW: Duration = Duration::from_secs(10);

/// Pod names an event note shows; the rest are counted.
const SHOWN: usize = 10;

#[derive(Clone)]
pub struct Events {
    recorder: Recorder,
    batches: Arc<Mutex<Batches>>,
    /// The client's record of namespaces being deleted (None: not known).
    api: Option<Arc<crate::runtime::client::ApiCounters>>,
}

impl Events {
    pub fn new(client: Client) -> Self {
        Self {
            recorder: Recorder::new(client, Reporter::from(REPORTER)),
            batches: Arc::default(),
            api: None,
        }
    }

    /// Events that are not sent to namespaces `api` knows are being deleted.
    pub fn skipping_terminating(mut self, api: Arc<crate::runtime::client::ApiCounters>) -> Self {
        self.api = Some(api);
        self
    }

    /// A normal event of pod writes: `note` with `{pods}` standing for the pod names, on
    /// `regarding`; held and merged with the same kind's next ones while the last one is
    /// younger than [`EVENT_WINDOW`] (see the module documentation).
    pub async fn publish_pods(
        &self,
        regarding: &ObjectReference,
        reason: &str,
        note: &str,
        names: &[String],
    ) {
        let key = BatchKey {
            object: regarding.uid.clone().unwrap_or_else(|| {
                format!(
                    "{}/{}",
                    regarding.namespace.as_deref().unwrap_or_default(),
                    regarding.name.as_deref().unwrap_or_default()
                )
            }),
            reason: reason.to_string(),
            note: note.to_string(),
        };
        let offer = self
            .batches
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .offer(&key, names, Instant::now());
        match offer {
            Offer::Now => {
                self.publish(
                    regarding,
                    false,
                    reason,
                    note.replace("{pods}", &name_list(names)),
                )
                .await;
            }
            Offer::HeldUntil(at) => {
                let (events, regarding) = (self.clone(), regarding.clone());
                tokio::spawn(async move {
                    tokio::time::sleep_until(at.into()).await;
                    let held = events
                        .batches
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .take(&key, Instant::now());
                    if let Some((shown, total)) = held {
                        let note = key.note.replace("{pods}", &pod_list(&shown, total));
                        events.publish(&regarding, false, &key.reason, note).await;
                    }
                });
            }
            Offer::Held => {}
        }
    }

    pub async fn publish(&self, regarding: &ObjectReference, warning: bool, reason: &str, note: String) {
        // An event is a create: none goes to a namespace being deleted.
        if let Some(api) = &self.api
            && api.terminating(regarding.namespace.as_deref().unwrap_or("default"))
        {
            return;
        }
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

/// `a, b, c` for an event note: at most ten names, then `and N more`.
pub fn name_list(names: &[String]) -> String {
    pod_list(&names[..names.len().min(SHOWN)], names.len())
}

/// `a, b, c` for an event note: the `shown` names, then `and N more` up to `total`.
pub fn pod_list(shown: &[String], total: usize) -> String {
    let more = total.saturating_sub(shown.len());
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// One batch's identity: the object, the reason and the note's text around the names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct BatchKey {
    object: String,
    reason: String,
    note: String,
}

/// What to do with an offered batch of pod names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Offer {
    /// Publish it now.
    Now,
    /// Held; publish what is held at this instant (a flush is to be armed).
    HeldUntil(Instant),
    /// Held with others; a flush is armed already.
    Held,
}

#[derive(Debug)]
struct Batch {
    sent_at: Instant,
    shown: Vec<String>,
    total: usize,
    armed: bool,
}

/// The batches of pod-write events (pure bookkeeping; the clock is passed in).
#[derive(Debug, Default)]
struct Batches(HashMap<BatchKey, Batch>);

impl Batches {
    fn offer(&mut self, key: &BatchKey, names: &[String], now: Instant) -> Offer {
        // Batches whose window ended with nothing held are forgotten.
        self.0
            .retain(|_, b| b.armed || now.saturating_duration_since(b.sent_at) < EVENT_WINDOW);
        let Some(batch) = self.0.get_mut(key) else {
            let batch = Batch {
                sent_at: now,
                shown: Vec::new(),
                total: 0,
                armed: false,
            };
            self.0.insert(key.clone(), batch);
            return Offer::Now;
        };
        let room = SHOWN.saturating_sub(batch.shown.len());
        batch.shown.extend(names.iter().take(room).cloned());
        batch.total += names.len();
        if batch.armed {
            return Offer::Held;
        }
        batch.armed = true;
        Offer::HeldUntil(batch.sent_at + EVENT_WINDOW)
    }

    /// The names held for `key` (shown, total), now being published: the batch's window
    /// starts again at `now`.
    fn take(&mut self, key: &BatchKey, now: Instant) -> Option<(Vec<String>, usize)> {
        let batch = self.0.get_mut(key)?;
        batch.armed = false;
        batch.sent_at = now;
        let held = (std::mem::take(&mut batch.shown), std::mem::take(&mut batch.total));
        (held.1 > 0).then_some(held)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(range: std::ops::Range<usize>) -> Vec<String> {
        range.map(|n| format!("web-{n}")).collect()
    }

    #[test]
    fn the_first_batch_goes_at_once_and_the_next_ones_wait_for_one_flush() {
        let key = BatchKey {
            object: "uid".into(),
            reason: "SuccessfulUpdatePodInPlace".into(),
            note: "updated pod(s) {pods}".into(),
        };
        let mut batches = Batches::default();
        let start = Instant::now();
        let second = Duration::from_secs(1);
        assert_eq!(batches.offer(&key, &names(0..3), start), Offer::Now);
        assert_eq!(
            batches.offer(&key, &names(3..6), start + second),
            Offer::HeldUntil(start + EVENT_WINDOW)
        );
        assert_eq!(
            batches.offer(&key, &names(6..20), start + 2 * second),
            Offer::Held
        );
        let other = BatchKey {
            reason: "SuccessfulCreate".into(),
            ..key.clone()
        };
        assert_eq!(batches.offer(&other, &names(0..1), start + second), Offer::Now);
        let flushed = start + EVENT_WINDOW;
        let (shown, total) = batches.take(&key, flushed).expect("held names");
        assert_eq!((shown.len(), total), (SHOWN, 17));
        assert_eq!(shown[0], "web-3");
        assert_eq!(
            pod_list(&shown, total),
            format!("{} and 7 more", names(3..13).join(", "))
        );
        assert_eq!(batches.take(&key, flushed), None, "nothing held twice");
        // Within the window of the flush: held again; past it: at once.
        assert_eq!(
            batches.offer(&key, &names(20..21), flushed + second),
            Offer::HeldUntil(flushed + EVENT_WINDOW)
        );
        batches.take(&key, flushed + EVENT_WINDOW);
        assert_eq!(
            batches.offer(&key, &names(21..22), flushed + 3 * EVENT_WINDOW),
            Offer::Now
        );
    }

    #[test]
    fn idle_batches_are_forgotten() {
        let key = |n: usize| BatchKey {
            object: format!("uid-{n}"),
            reason: "SuccessfulCreate".into(),
            note: "{pods}".into(),
        };
        let mut batches = Batches::default();
        let start = Instant::now();
        for n in 0..100 {
            batches.offer(&key(n), &names(0..1), start);
        }
        batches.offer(&key(100), &names(0..1), start + EVENT_WINDOW);
        assert_eq!(batches.0.len(), 1);
    }
}
