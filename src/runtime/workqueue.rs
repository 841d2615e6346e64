//! What each controller has waiting and running, as controller-runtime's workqueue figures
//! (`workqueue_*{name}`, beside `kruise_queue_depth` and `kruise_reconcile_active`) and as
//! the liveness verdict of `/healthz` and of `run` itself ([`WorkQueue::stall`]).
//!
//! ```text
//! event wakes object ──add──> waiting ──start (passed the gate)──> running ──finish
//!                      object deleted ──forget──┘
//! ```
//!
//! Invariants:
//! - An object is waiting at most once (a second wake-up of a waiting object is no new
//!   add), and leaves the waiting set when its reconcile starts or the object is deleted:
//!   the depth counts objects some reconcile still owes, never ones that are gone.
//! - A controller is stalled when an object has waited at least the limit and no
//!   reconcile of that controller finished within it; a controller with nothing waiting,
//!   or one that finishes reconciles, is never stalled, however long it is idle.
//! - Reading the figures (a scrape, a health check) copies nothing per object beyond the
//!   one pass over the waiting and running sets.
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};

/// One controller's queue.
#[derive(Debug)]
pub struct WorkQueue {
    pub name: &'static str,
    state: Mutex<State>,
    /// Seconds from a wake-up to the start of its reconcile.
    pub queue_latency: Histogram,
    /// Seconds a reconcile took.
    pub work_duration: Histogram,
    /// The controller's expectations (for their figures), once it runs.
    expectations: OnceLock<Arc<crate::runtime::expectations::Expectations>>,
}

#[derive(Debug)]
struct State {
    waiting: HashMap<String, Instant>,
    running: HashMap<String, Instant>,
    adds: u64,
    retries: u64,
    last_finished: Instant,
}

/// What a stalled controller looks like (see [`WorkQueue::stall`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Stall {
    pub controller: &'static str,
    /// Objects waiting.
    pub waiting: usize,
    /// How long the oldest has waited.
    pub oldest: Duration,
    /// How long ago a reconcile last finished (or the controller started).
    pub since_finished: Duration,
    /// Reconciles running now.
    pub running: usize,
}

impl std::fmt::Display for Stall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "controller {} is stalled: {} object(s) waiting (the oldest for {}s), {} reconcile(s) \
             running, none finished for {}s",
            self.controller,
            self.waiting,
            self.oldest.as_secs(),
            self.running,
            self.since_finished.as_secs()
        )
    }
}

/// The figures of one queue at one instant (a scrape).
#[derive(Debug, Clone, PartialEq)]
pub struct Figures {
    pub depth: usize,
    pub running: usize,
    pub adds: u64,
    pub retries: u64,
    /// Seconds the running reconciles have run, summed.
    pub unfinished_work: f64,
    /// Seconds the longest running reconcile has run.
    pub longest_running: f64,
    /// Objects waiting for the cache to show their earlier writes (expectations).
    pub expecting: usize,
    /// Seconds the oldest unmet expectation has waited.
    pub oldest_expectation: f64,
}

fn seconds_buckets() -> impl Iterator<Item = f64> {
    // 1 ms to about 4.4 minutes.
    exponential_buckets(0.001, 4.0, 10)
}

impl WorkQueue {
    pub fn new(name: &'static str) -> Self {
        Self::started_at(name, Instant::now())
    }

    fn started_at(name: &'static str, now: Instant) -> Self {
        Self {
            name,
            state: Mutex::new(State {
                waiting: HashMap::new(),
                running: HashMap::new(),
                adds: 0,
                retries: 0,
                last_finished: now,
            }),
            queue_latency: Histogram::new(seconds_buckets()),
            work_duration: Histogram::new(seconds_buckets()),
            expectations: OnceLock::new(),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `key` was woken; true when it was not waiting already.
    pub fn add(&self, key: &str) -> bool {
        self.add_at(key, Instant::now())
    }

    fn add_at(&self, key: &str, now: Instant) -> bool {
        let mut state = self.state();
        if state.waiting.contains_key(key) {
            return false;
        }
        state.waiting.insert(key.to_string(), now);
        state.adds += 1;
        true
    }

    /// The reconcile of `key` starts (it passed the gate): it waits no longer.
    pub fn start(&self, key: &str) {
        self.start_at(key, Instant::now());
    }

    fn start_at(&self, key: &str, now: Instant) {
        let mut state = self.state();
        if let Some(since) = state.waiting.remove(key) {
            self.queue_latency
                .observe(now.saturating_duration_since(since).as_secs_f64());
        }
        state.running.insert(key.to_string(), now);
    }

    /// The reconcile of `key` ended, whatever its outcome (dropped mid-way too: see
    /// [`Running`]).
    pub fn finish(&self, key: &str) {
        self.finish_at(key, Instant::now());
    }

    fn finish_at(&self, key: &str, now: Instant) {
        let mut state = self.state();
        if let Some(started) = state.running.remove(key) {
            self.work_duration
                .observe(now.saturating_duration_since(started).as_secs_f64());
        }
        state.last_finished = now;
    }

    /// A reconcile failed and is retried after a backoff.
    pub fn retry(&self) {
        self.state().retries += 1;
    }

    /// `key` is gone (deleted, or no longer in the cache when its turn came).
    pub fn forget(&self, key: &str) {
        self.state().waiting.remove(key);
    }

    /// Counts `expectations` in the figures (the controller's own, set once it runs).
    pub fn count_expectations(&self, expectations: Arc<crate::runtime::expectations::Expectations>) {
        let _ = self.expectations.set(expectations);
    }

    /// The figures now.
    pub fn figures(&self) -> Figures {
        self.figures_at(Instant::now())
    }

    fn figures_at(&self, now: Instant) -> Figures {
        let state = self.state();
        let ages = state
            .running
            .values()
            .map(|started| now.saturating_duration_since(*started).as_secs_f64());
        let (expecting, oldest) = self
            .expectations
            .get()
            .map(|e| e.waiting(now))
            .unwrap_or_default();
        let (unfinished_work, longest_running) =
            ages.fold((0.0, 0.0), |(sum, max), age| (sum + age, f64::max(max, age)));
        Figures {
            depth: state.waiting.len(),
            running: state.running.len(),
            adds: state.adds,
            retries: state.retries,
            unfinished_work,
            longest_running,
            expecting,
            oldest_expectation: oldest.as_secs_f64(),
        }
    }

    /// Whether the controller is stalled at `now` (see the module's invariants).
    pub fn stall(&self, now: Instant, limit: Duration) -> Option<Stall> {
        let state = self.state();
        let oldest = state
            .waiting
            .values()
            .map(|since| now.saturating_duration_since(*since))
            .max()?;
        let since_finished = now.saturating_duration_since(state.last_finished);
        (oldest >= limit && since_finished >= limit).then(|| Stall {
            controller: self.name,
            waiting: state.waiting.len(),
            oldest,
            since_finished,
            running: state.running.len(),
        })
    }
}

/// A reconcile in progress: finishes it in the queue when dropped, so a reconcile future
/// dropped mid-way (a timeout, a shutdown) never stays "running".
pub struct Running<'q> {
    queue: &'q WorkQueue,
    key: String,
}

impl<'q> Running<'q> {
    pub fn start(queue: &'q WorkQueue, key: &str) -> Self {
        queue.start(key);
        Self {
            queue,
            key: key.to_string(),
        }
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.queue.finish(&self.key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: Duration = Duration::from_secs(120);

    #[test]
    fn an_object_waits_once_and_leaves_when_it_starts_or_is_forgotten() {
        let t0 = Instant::now();
        let q = WorkQueue::started_at("CloneSet", t0);
        assert!(q.add_at("ns/a", t0));
        assert!(!q.add_at("ns/a", t0), "a second wake-up is no new add");
        assert!(q.add_at("ns/b", t0));
        assert_eq!(q.figures_at(t0).depth, 2);
        q.start_at("ns/a", t0 + Duration::from_secs(1));
        q.forget("ns/b");
        let f = q.figures_at(t0 + Duration::from_secs(4));
        assert_eq!((f.depth, f.running, f.adds), (0, 1, 2));
        assert_eq!(f.longest_running, 3.0);
        q.finish_at("ns/a", t0 + Duration::from_secs(5));
        assert_eq!(q.figures_at(t0 + Duration::from_secs(6)).running, 0);
    }

    #[test]
    fn stalled_only_with_work_waiting_the_limit_and_nothing_finished_in_it() {
        let t0 = Instant::now();
        let q = WorkQueue::started_at("CloneSet", t0);
        // Idle for ever: never stalled.
        assert_eq!(q.stall(t0 + LIMIT * 10, LIMIT), None);
        // Something woke long after the last finish: not stalled until it waited the limit.
        let woke = t0 + LIMIT * 10;
        q.add_at("ns/a", woke);
        assert_eq!(q.stall(woke + LIMIT / 2, LIMIT), None);
        let stall = q.stall(woke + LIMIT, LIMIT).expect("stalled");
        assert_eq!(
            (stall.controller, stall.waiting, stall.oldest),
            ("CloneSet", 1, LIMIT)
        );
        assert!(
            stall.to_string().contains("controller CloneSet is stalled"),
            "{stall}"
        );
        // Other objects finishing keep it live even while one waits long.
        q.add_at("ns/b", woke);
        q.start_at("ns/b", woke + LIMIT);
        q.finish_at("ns/b", woke + LIMIT);
        assert_eq!(q.stall(woke + LIMIT + LIMIT / 2, LIMIT), None);
        // Its reconcile starting ends the wait.
        q.start_at("ns/a", woke + LIMIT * 3);
        assert_eq!(q.stall(woke + LIMIT * 4, LIMIT), None);
    }

    #[test]
    fn a_reconcile_dropped_mid_way_is_finished() {
        let q = WorkQueue::new("CloneSet");
        q.add("ns/a");
        {
            let _running = Running::start(&q, "ns/a");
            assert_eq!(q.figures().running, 1);
        }
        assert_eq!(q.figures().running, 0);
        assert_eq!(q.figures().depth, 0);
    }
}
