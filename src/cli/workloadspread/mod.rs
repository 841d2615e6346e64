//! The WorkloadSpread's own view: `get ws/NAME --tree` (its subsets in order, each with
//! the pods it placed, [`tree`]).
pub mod tree;
