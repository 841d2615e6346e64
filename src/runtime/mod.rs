//! Runtime shared by every controller: the in-place update engine (and, as the
//! controllers land, watches and stores, expectations, the rate-limited client).
pub mod inplace;
