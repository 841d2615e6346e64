//! Runtime shared by every controller: the in-place update engine, revision history (and, as the
//! controllers land, watches and stores, expectations, the rate-limited client).
pub mod inplace;
pub mod revision;
