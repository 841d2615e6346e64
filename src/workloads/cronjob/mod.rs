//! The AdvancedCronJob controller (<https://openkruise.io/docs/user-manuals/advancedcronjob>):
//! a Job or a BroadcastJob on a cron schedule. [`controller`] wires it to the shared runtime
//! (`kubectl kruise run --controllers AdvancedCronJob`). Pure parts: the schedule
//! ([`schedule`]: upstream's grammar, croner's evaluation, IANA zones) and the planner
//! ([`plan`]).
pub mod controller;
pub mod defaults;
pub mod facts;
pub mod plan;
pub mod schedule;
pub mod validation;
