//! The process's heap: one glibc malloc arena, set before any thread starts.
//!
//! glibc gives threads that contend for the heap arenas of their own (up to eight per
//! core). A controller's memory is long-lived pod records replaced on every watch event
//! and a round's short-lived snapshot; with tokio's worker threads each round and each
//! event can land in another arena, and every arena keeps the free space of the largest
//! round it saw. One arena reuses the same free space for all: at one CloneSet of 1000
//! pods, peak RSS 51.6 -> 40.4 MiB with the same CPU (tests/bench/README.md, B8).
//!
//! Invariants: called once, first thing in `main`, before the async runtime's threads
//! exist; a `MALLOC_ARENA_MAX` the user set (glibc read it at start) is left as it is;
//! other platforms and allocators are untouched.

/// Limits glibc to one malloc arena unless the user chose a number.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn one_arena() {
    if std::env::var_os("MALLOC_ARENA_MAX").is_some() {
        return;
    }
    // SAFETY: mallopt only sets a malloc parameter (under malloc's own lock); M_ARENA_MAX
    // takes any positive count. No pointer is passed and no allocation is touched.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// Nothing to set off glibc.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn one_arena() {}
