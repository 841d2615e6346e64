//! Table tests for the pure tree renderer and pod facts.
use serde_json::json;

use super::*;
use crate::cli::glyphs::{ASCII, UNICODE};

fn revision(number: i64, name: &str, image: &str) -> RevisionNode {
    RevisionNode {
        number,
        name: name.into(),
        images: image.into(),
    }
}

fn pod(name: &str, revision: &str, node: &str) -> PodNode {
    PodNode {
        name: name.into(),
        revision: revision.into(),
        node: node.into(),
        phase: "Running".into(),
        ready: true,
        ..PodNode::default()
    }
}

/// A CloneSet of 3 at revision 2 with partition 1: two pods updated in place, one held.
fn partitioned() -> TreeInput {
    let in_place = |p: PodNode| PodNode {
        updated_in_place: true,
        ..p
    };
    TreeInput {
        id: "cloneset/web".into(),
        replicas: 3,
        updated: 2,
        ready: 3,
        partition: 1,
        partition_raw: None,
        update_revision: Some("web-6b8d7f".into()),
        revisions: vec![
            revision(1, "web-5d8f9c", "nginx:1.25"),
            revision(2, "web-6b8d7f", "nginx:1.26"),
        ],
        pods: vec![
            in_place(pod("web-def34", "web-6b8d7f", "node-2")),
            pod("web-ghi56", "web-5d8f9c", "node-0"),
            in_place(pod("web-abc12", "web-6b8d7f", "node-10")),
        ],
        limit: 3,
    }
}

#[test]
fn a_partitioned_cloneset_shows_updated_pods_then_the_marker_then_the_held_pod() {
    assert_eq!(
        render_tree(&partitioned(), UNICODE),
        "\
cloneset/web  (2/3 updated, 3/3 ready, partition 1)
├─ revision 2  web-6b8d7f  [update]  nginx:1.26
│  ├─ ✔ web-abc12  Ready  node-10  updated in place
│  └─ ✔ web-def34  Ready  node-2   updated in place
│  ── partition: 1 pod held at older revisions ──
└─ revision 1  web-5d8f9c  nginx:1.25
   └─ • web-ghi56  Ready  node-0
"
    );
}

#[test]
fn without_a_unicode_locale_icons_and_branches_are_ascii() {
    assert_eq!(
        render_tree(&partitioned(), ASCII),
        "\
cloneset/web  (2/3 updated, 3/3 ready, partition 1)
|- revision 2  web-6b8d7f  [update]  nginx:1.26
|  |- ok web-abc12  Ready  node-10  updated in place
|  `- ok web-def34  Ready  node-2   updated in place
|  -- partition: 1 pod held at older revisions --
`- revision 1  web-5d8f9c  nginx:1.25
   `- -  web-ghi56  Ready  node-0
"
    );
}

#[test]
fn revisions_beyond_the_limit_are_summarised_and_the_update_revision_is_always_shown() {
    let input = TreeInput {
        id: "deployment/front".into(),
        replicas: 2,
        updated: 2,
        ready: 2,
        update_revision: Some("3c3c".into()),
        revisions: vec![
            revision(1, "front-1a1a", "nginx:1"),
            revision(2, "front-2b2b", "nginx:2"),
            revision(3, "front-3c3c", "nginx:3"),
            revision(4, "front-4d4d", "nginx:4"),
        ],
        pods: vec![
            pod("front-3c3c-x", "3c3c", "n1"),
            pod("front-1a1a-y", "1a1a", "n1"),
            pod("stray", "", "n2"),
        ],
        limit: 1,
        ..TreeInput::default()
    };
    assert_eq!(
        render_tree(&input, UNICODE),
        "\
deployment/front  (2/2 updated, 2/2 ready)
├─ revision 4  front-4d4d  nginx:4
├─ revision 3  front-3c3c  [update]  nginx:3
│  └─ ✔ front-3c3c-x  Ready  n1
└─ +2 pods at older revisions
"
    );
}

#[test]
fn each_pod_state_has_its_icon_and_word() {
    type Edit = fn(&mut PodNode);
    let table: &[(Edit, bool, &str, &str)] = &[
        (|_| {}, true, "✔", "Ready"),
        (|_| {}, false, "•", "Ready"),
        (
            |p| p.failing = Some("CrashLoopBackOff".into()),
            true,
            "✖",
            "CrashLoopBackOff",
        ),
        (|p| p.phase = "Failed".into(), false, "✖", "Failed"),
        (
            |p| (p.updating_in_place, p.ready) = (true, false),
            true,
            "◌",
            "UpdatingInPlace",
        ),
        (|p| p.ready = false, true, "◌", "NotReady"),
        (
            |p| (p.phase, p.ready) = ("Pending".into(), false),
            false,
            "◌",
            "Pending",
        ),
        (|p| p.terminating = true, false, "◌", "Terminating"),
        (
            |p| (p.phase, p.ready) = (String::new(), false),
            true,
            "?",
            "Unknown",
        ),
    ];
    for (edit, updated, icon, word) in table {
        let mut pod = pod("p", "web-2", "n");
        edit(&mut pod);
        assert_eq!(
            pod_state(&pod, *updated, UNICODE),
            (*icon, word.to_string()),
            "{pod:?}"
        );
    }
}

#[test]
fn a_percent_partition_shows_the_number_and_the_raw_value_and_no_partition_no_marker() {
    let mut input = partitioned();
    input.partition_raw = Some("40%".into());
    let tree = render_tree(&input, UNICODE);
    assert!(
        tree.starts_with("cloneset/web  (2/3 updated, 3/3 ready, partition 1 (40%))\n"),
        "{tree}"
    );
    input.partition = 0;
    let tree = render_tree(&input, UNICODE);
    assert!(!tree.contains("partition"), "{tree}");
}

#[test]
fn an_empty_workload_is_one_line_and_odd_input_never_panics() {
    let input = TreeInput {
        id: "cloneset/none".into(),
        partition: 5,
        limit: 0,
        pods: vec![pod("orphan", "", "")],
        ..TreeInput::default()
    };
    assert_eq!(
        render_tree(&input, ASCII),
        "cloneset/none  (0/0 updated, 0/0 ready, partition 5)\n`- +1 pod at older revisions\n"
    );
}

#[test]
fn pod_facts_come_from_conditions_container_states_and_the_in_place_state() {
    let pod: Pod = serde_json::from_value(json!({
        "metadata": {
            "name": "web-abc12",
            "labels": { "controller-revision-hash": "web-6b8d7f" },
            "annotations": {
                "apps.kruise.io/inplace-update-state": json!({
                    "revision": "web-6b8d7f", "updateTimestamp": "2024-01-01T00:00:00Z",
                    "lastContainerStatuses": null,
                }).to_string(),
            },
        },
        "spec": { "nodeName": "node-1", "containers": [{ "name": "app" }] },
        "status": {
            "phase": "Running",
            "conditions": [
                { "type": "Ready", "status": "True" },
                { "type": "InPlaceUpdateReady", "status": "False" },
            ],
            "containerStatuses": [{
                "name": "app", "image": "nginx", "imageID": "", "ready": false, "restartCount": 2,
                "state": { "waiting": { "reason": "ImagePullBackOff" } },
            }],
        },
    }))
    .expect("pod literal");
    let facts = PodNode::from_resource(&pod, REVISION_LABEL);
    assert_eq!(
        facts,
        PodNode {
            name: "web-abc12".into(),
            revision: "web-6b8d7f".into(),
            node: "node-1".into(),
            phase: "Running".into(),
            ready: false,
            terminating: false,
            updating_in_place: true,
            failing: Some("ImagePullBackOff".into()),
            restarts: 2,
            updated_in_place: true,
        }
    );
    let bare = PodNode::from_resource(&Pod::default(), REVISION_LABEL);
    assert_eq!((bare.revision.as_str(), bare.ready), ("", false));
}
