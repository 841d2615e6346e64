use std::collections::BTreeSet;

use proptest::prelude::*;
use serde_json::json;

use super::*;

fn template(image: &str) -> PodTemplateSpec {
    serde_json::from_value(json!({
        "metadata": { "labels": { "app": "web" } },
        "spec": { "containers": [ { "name": "app", "image": image } ] },
    }))
    .expect("valid template")
}

fn known(name: &str, revision: i64, image: &str) -> KnownRevision {
    KnownRevision {
        name: name.into(),
        revision,
        created: "2026-01-01T00:00:00Z".into(),
        data: payload(&template(image)),
    }
}

#[test]
fn fnv1_matches_the_reference_vectors() {
    assert_eq!(fnv1_32(b""), 0x811c_9dc5);
    assert_eq!(fnv1_32(b"a"), 0x050c_5d7e);
    assert_eq!(fnv1_32(b"foobar"), 0x31f0_b262);
}

#[test]
fn the_safe_encoding_matches_upstreams_example() {
    assert_eq!(safe_encode(653_280_100), "b976d4544");
}

#[test]
fn names_truncate_the_owner_to_223_characters() {
    let long = "a".repeat(300);
    let name = revision_name(&long, "b976d4544");
    assert_eq!(name.len(), 223 + 1 + 9);
    assert_eq!(revision_name("web", "b976d4544"), "web-b976d4544");
}

#[test]
fn the_payload_replaces_the_whole_template() {
    let p = payload(&template("nginx:1"));
    assert_eq!(p["spec"]["template"]["$patch"], "replace");
    assert_eq!(p["spec"]["template"]["spec"]["containers"][0]["image"], "nginx:1");
}

#[test]
fn a_revision_written_by_go_with_zero_fields_is_the_same_template() {
    // What upstream stores: Go keeps empty structs and null times.
    let go = json!({ "spec": { "template": { "$patch": "replace",
        "metadata": { "creationTimestamp": null, "labels": { "app": "web" } },
        "spec": { "containers": [ { "name": "app", "image": "nginx:1", "resources": {} } ] } } } });
    assert!(same_template(&go, &payload(&template("nginx:1"))));
    assert!(!same_template(&go, &payload(&template("nginx:2"))));
}

#[test]
fn step_1_of_3_a_first_template_creates_revision_1() {
    let step = plan_update_revision("web", &template("nginx:1"), &[], 0);
    let RevisionStep::Create { name, revision, .. } = step else {
        panic!("expected create, got {step:?}")
    };
    assert_eq!(revision, 1);
    assert!(name.starts_with("web-"));
}

#[test]
fn step_2_of_3_the_same_template_is_the_newest_revision() {
    let history = [known("web-1", 1, "nginx:1"), known("web-2", 2, "nginx:2")];
    assert_eq!(
        plan_update_revision("web", &template("nginx:2"), &history, 0),
        RevisionStep::Current { name: "web-2".into() }
    );
}

#[test]
fn step_3_of_3_going_back_reuses_the_older_revision_with_a_new_number() {
    let history = [known("web-1", 1, "nginx:1"), known("web-2", 2, "nginx:2")];
    assert_eq!(
        plan_update_revision("web", &template("nginx:1"), &history, 0),
        RevisionStep::Reuse {
            name: "web-1".into(),
            revision: 3
        }
    );
}

#[test]
fn a_collision_count_changes_the_name() {
    let a = plan_update_revision("web", &template("nginx:1"), &[], 0);
    let b = plan_update_revision("web", &template("nginx:1"), &[], 1);
    assert_ne!(a, b);
}

#[test]
fn truncation_spares_current_update_and_running_revisions() {
    let history: Vec<KnownRevision> = (1..=6)
        .map(|i| known(&format!("web-{i}"), i, &format!("nginx:{i}")))
        .collect();
    let running: BTreeSet<String> = ["web-2".to_string()].into();
    let gone = revisions_to_truncate(&history, &["web-1", "web-6"], &running, 3);
    assert_eq!(
        gone,
        vec!["web-3".to_string(), "web-4".to_string(), "web-5".to_string()]
    );
}

proptest! {
    /// However the history looks, truncation keeps the protected revisions and never
    /// leaves more than `limit` unless only protected ones remain.
    #[test]
    fn truncation_never_deletes_a_protected_revision(count in 0usize..15, limit in 0usize..12, running in proptest::collection::btree_set(0usize..15, 0..5)) {
        let history: Vec<KnownRevision> = (0..count).map(|i| known(&format!("r-{i}"), i as i64, &format!("i:{i}"))).collect();
        let running: BTreeSet<String> = running.into_iter().map(|i| format!("r-{i}")).collect();
        let keep = ["r-0", "r-1"];
        let gone = revisions_to_truncate(&history, &keep, &running, limit);
        for name in &gone {
            prop_assert!(!keep.contains(&name.as_str()) && !running.contains(name));
        }
        let protected = history.iter().filter(|r| keep.contains(&r.name.as_str()) || running.contains(&r.name)).count();
        prop_assert!(history.len() - gone.len() <= limit.max(protected));
    }
}
