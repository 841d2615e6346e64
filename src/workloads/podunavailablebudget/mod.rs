//! The PodUnavailableBudget (<https://openkruise.io/docs/user-manuals/podunavailablebudget>):
//! at most so many of an application's pods unavailable at once, whatever makes them so
//! (a deletion, an eviction, an in-place update). Its part of the pod webhooks
//! ([`pod_hook`], called by the admission server's `/mutate-pod` and `/validate-pod`)
//! names the budget on each new pod it counts and judges each delete, eviction and spec
//! change of a pod it counts ([`protect`]: allowed only while the budget has room, which
//! the allowing takes); the controller ([`controller`], planning in [`plan`]) counts the
//! pods ([`budget`]: what is available, what the budget wants, which recorded pods are
//! still owed). What is refused: [`validation`], for `/validate` and the controller alike.
pub mod budget;
pub mod controller;
pub mod facts;
pub mod guard;
pub mod plan;
pub mod pod_hook;
pub mod protect;
pub mod validation;
