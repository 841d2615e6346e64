//! The fake volume provisioner: one PersistentVolume per pending PVC, pre-bound to it
//! through `claimRef`, so the controller-manager's binder binds the pair at once.
//!
//! Invariants: a PV is named `pvc-<claim uid>` and labelled [`PROVISIONED_LABEL`], so a
//! claim gets at most one PV even if it is seen twice; PVs are `Retain` (the binder
//! deletes nothing) and this provisioner deletes its own PV once it is `Released`,
//! which mirrors a dynamic provisioner's `Delete` policy without any volume plugin.
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{PersistentVolume, PersistentVolumeClaim};
use kube::api::{DeleteParams, PostParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::watcher;
use kube::{Api, Client, ResourceExt};
use serde_json::json;

use super::Error;

pub const PROVISIONED_LABEL: &str = "kubectl-kruise.io/simulated-volume";

/// Runs the provisioner until the process stops.
pub async fn run(client: Client) -> Result<(), Error> {
    let claims: Api<PersistentVolumeClaim> = Api::all(client.clone());
    let volumes: Api<PersistentVolume> = Api::all(client.clone());
    let ours = watcher::Config::default().labels(&format!("{PROVISIONED_LABEL}=true"));
    let ctx = Arc::new(client);
    let provision = Controller::new(claims, watcher::Config::default())
        .run(reconcile_claim, |_, e, _| retry(e), ctx.clone())
        .for_each(|_| async {});
    let reclaim = Controller::new(volumes, ours)
        .run(reconcile_volume, |_, e, _| retry(e), ctx)
        .for_each(|_| async {});
    futures::join!(provision, reclaim);
    Ok(())
}

fn retry(error: &Error) -> Action {
    tracing::warn!(%error, "provisioner write failed; retrying");
    Action::requeue(Duration::from_secs(1))
}

/// The PV that satisfies `claim`, or None when the claim needs none.
pub fn volume_for(claim: &PersistentVolumeClaim) -> Option<Result<PersistentVolume, Error>> {
    let spec = claim.spec.as_ref()?;
    let pending = claim
        .status
        .as_ref()
        .and_then(|s| s.phase.as_deref())
        .unwrap_or("Pending")
        == "Pending";
    let unbound = spec.volume_name.as_deref().unwrap_or("").is_empty();
    if claim.metadata.deletion_timestamp.is_some() || !pending || !unbound {
        return None;
    }
    let uid = claim.metadata.uid.clone()?;
    let size = spec
        .resources
        .as_ref()
        .and_then(|r| r.requests.as_ref())
        .and_then(|r| r.get("storage"))
        .map(|q| q.0.clone())
        .unwrap_or_else(|| "1Gi".to_string());
    let modes = spec
        .access_modes
        .clone()
        .unwrap_or_else(|| vec!["ReadWriteOnce".to_string()]);
    let volume = json!({
        "apiVersion": "v1",
        "kind": "PersistentVolume",
        "metadata": { "name": format!("pvc-{uid}"), "labels": { PROVISIONED_LABEL: "true" } },
        "spec": {
            "capacity": { "storage": size },
            "accessModes": modes,
            "persistentVolumeReclaimPolicy": "Retain",
            "storageClassName": spec.storage_class_name.clone().unwrap_or_default(),
            "volumeMode": spec.volume_mode.clone().unwrap_or_else(|| "Filesystem".to_string()),
            "hostPath": { "path": format!("/nonexistent/kubectl-kruise-sim/{uid}") },
            "claimRef": {
                "apiVersion": "v1", "kind": "PersistentVolumeClaim",
                "namespace": claim.namespace(), "name": claim.name_any(), "uid": uid,
            },
        },
    });
    Some(
        serde_json::from_value(volume)
            .map_err(|e| Error::Other(format!("volume for {}: {e}", claim.name_any()))),
    )
}

async fn reconcile_claim(claim: Arc<PersistentVolumeClaim>, client: Arc<Client>) -> Result<Action, Error> {
    let Some(volume) = volume_for(&claim) else {
        return Ok(Action::await_change());
    };
    let api: Api<PersistentVolume> = Api::all((*client).clone());
    match api.create(&PostParams::default(), &volume?).await {
        Ok(_) => Ok(Action::await_change()),
        Err(kube::Error::Api(s)) if s.code == 409 => Ok(Action::await_change()),
        Err(e) => Err(e.into()),
    }
}

async fn reconcile_volume(volume: Arc<PersistentVolume>, client: Arc<Client>) -> Result<Action, Error> {
    let released = volume.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Released");
    if !released || volume.metadata.deletion_timestamp.is_some() {
        return Ok(Action::await_change());
    }
    let api: Api<PersistentVolume> = Api::all((*client).clone());
    match api.delete(&volume.name_any(), &DeleteParams::default()).await {
        Ok(_) => Ok(Action::await_change()),
        Err(kube::Error::Api(s)) if s.code == 404 => Ok(Action::await_change()),
        Err(e) => Err(e.into()),
    }
}
