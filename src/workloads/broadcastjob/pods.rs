//! The pods a BroadcastJob creates and deletes. Pure but for the random
//! name.
//!
//! Invariants: a pod is the template's (labels, annotations, finalizers, spec) plus the
//! labels `broadcastjob-name` and `broadcastjob-controller-uid`, named `<job>-<id>` (as
//! `generateName` would), with a controller reference (`blockOwnerDeletion`) to the job,
//! and its required node affinity replaced by the node's name so that the scheduler binds
//! it there.
use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use kube::{Resource, ResourceExt};

use crate::api::broadcastjob::{BroadcastJob, JOB_NAME_LABEL, JOB_UID_LABEL};
use crate::runtime::actions::Action;
use crate::workloads::common::node_fit::pin_to_node;
use crate::workloads::common::pod_names::random_id;

/// The two labels every pod of `job` carries.
pub fn job_labels(job: &BroadcastJob) -> BTreeMap<String, String> {
    BTreeMap::from([
        (JOB_NAME_LABEL.to_string(), job.name_any()),
        (JOB_UID_LABEL.to_string(), job.uid().unwrap_or_default()),
    ])
}

/// Does `pod` carry both of `job`'s labels?
pub fn is_labelled(job: &BroadcastJob, pod: &Pod) -> bool {
    let labels = pod.labels();
    job_labels(job).iter().all(|(k, v)| labels.get(k) == Some(v))
}

fn controller_ref(job: &BroadcastJob) -> OwnerReference {
    OwnerReference {
        block_owner_deletion: Some(true),
        ..job.controller_owner_ref(&()).unwrap_or_default()
    }
}

/// Names and builds one round's new pods (ids unique among the job's pods).
pub struct JobPods<'a> {
    job: &'a BroadcastJob,
    taken: BTreeSet<String>,
}

impl<'a> JobPods<'a> {
    /// `taken`: the names of the job's pods.
    pub fn new(job: &'a BroadcastJob, taken: BTreeSet<String>) -> Self {
        Self { job, taken }
    }

    /// The create of the job's pod on `node`.
    pub fn create_on(&mut self, node: &str) -> Action {
        let job = self.job;
        let name = job.name_any();
        let ids: BTreeSet<String> = self
            .taken
            .iter()
            .filter_map(|n| n.strip_prefix(&format!("{name}-")).map(str::to_owned))
            .collect();
        let id = random_id(&ids);
        let pod_name = format!("{name}-{id}");
        self.taken.insert(pod_name.clone());
        let template = &job.spec.template;
        let mut pod = Pod {
            metadata: template.metadata.clone().unwrap_or_default(),
            spec: template.spec.clone(),
            status: None,
        };
        pod.metadata.name = Some(pod_name);
        pod.metadata.generate_name = Some(format!("{name}-"));
        pod.metadata.namespace = job.namespace();
        pod.metadata.owner_references = Some(vec![controller_ref(job)]);
        pod.metadata
            .labels
            .get_or_insert_with(BTreeMap::new)
            .extend(job_labels(job));
        let mut spec = pod.spec.take().unwrap_or_default();
        pin_to_node(&mut spec, node);
        pod.spec = Some(spec);
        Action::CreatePod {
            pod: Box::new(pod),
            claims: Vec::new(),
        }
    }
}

/// The delete of `pod` (under its uid).
pub fn delete(pod: &Pod) -> Action {
    Action::DeletePod {
        name: pod.name_any(),
        uid: pod.uid().unwrap_or_default(),
        claims: Vec::new(),
        why: None,
    }
}
