//! The job kinds' own views and verbs (BroadcastJob, AdvancedCronJob): `get --tree` (a
//! job's pods by node, a schedule's runs, [`tree`]), `rollout status` of a BroadcastJob
//! ([`status`]) and `create job|broadcastjob --from acj/NAME` ([`create`]).
pub mod create;
pub mod status;
pub mod tree;
