//! The PodUnavailableBudget's own CLI part: the budgets a rollout's pods name, read for
//! `rollout status` ([`held`]). `get pub` lists budgets through the listed-only kinds
//! ([`super::kinds::listed_only`]).
pub mod held;
