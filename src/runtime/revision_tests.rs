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

#[test]
fn truncation_keeps_a_revision_whose_hash_alone_a_pod_carries() {
    let history: Vec<KnownRevision> = (1..=4)
        .map(|i| known(&format!("agent-h{i}"), i, &format!("nginx:{i}")))
        .collect();
    // An Advanced DaemonSet's pods carry the hash, not the revision's name.
    let running: BTreeSet<String> = ["h1".to_string()].into();
    let gone = revisions_to_truncate(&history, &["agent-h4"], &running, 1);
    assert_eq!(gone, vec!["agent-h2".to_string(), "agent-h3".to_string()]);
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

/// Measured on OpenKruise v1.8.4 (kruise-manager with its webhooks, collisionCount 0): the
/// CloneSet `web` with one container `app` named its revisions `web-78f9fc5944` (image
/// `registry.local/web:1`) and `web-c8bd6cc57` (`:2`). The same hash and name over the
/// payload as OpenKruise hashes it (the template as its webhook defaulted it, with the
/// empty values Go's encoder writes, sorted keys, the collision count appended) gives the
/// same names: the hashing is OpenKruise's; what still differs is the payload (our
/// templates are not defaulted, and serde omits what Go writes empty).
#[test]
fn the_hash_of_openkruises_payload_is_the_revision_name_openkruise_measured() {
    let upstream_payload = |image: &str| {
        json!({ "spec": { "template": {
            "$patch": "replace",
            "metadata": { "creationTimestamp": null, "labels": { "app": "web" } },
            "spec": {
                "containers": [{
                    "image": image, "imagePullPolicy": "Always", "name": "app", "resources": {},
                    "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
                }],
                "dnsPolicy": "ClusterFirst", "restartPolicy": "Always",
                "schedulerName": "default-scheduler", "securityContext": {},
                "terminationGracePeriodSeconds": 30,
            },
        } } })
    };
    let name = |image: &str| revision_name("web", &revision_hash(&upstream_payload(image), 0));
    assert_eq!(name("registry.local/web:1"), "web-78f9fc5944");
    assert_eq!(name("registry.local/web:2"), "web-c8bd6cc57");
    // And our own payload of the template as the user wrote it is that payload.
    let ours = |image: &str| revision_name("web", &revision_hash(&payload(&template(image)), 0));
    assert_eq!(ours("registry.local/web:1"), "web-78f9fc5944");
    assert_eq!(ours("registry.local/web:2"), "web-c8bd6cc57");
    // A CloneSet created under OpenKruise stores the defaulted template, and our payload of
    // it is the same template as OpenKruise's revision (only Go's empty values differ), so
    // that revision is found and reused on take-over.
    let stored: PodTemplateSpec =
        serde_json::from_value(upstream_payload("registry.local/web:1")["spec"]["template"].clone())
            .expect("template");
    assert!(same_template(
        &payload(&stored),
        &upstream_payload("registry.local/web:1")
    ));
}
