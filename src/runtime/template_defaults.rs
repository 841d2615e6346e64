//! The defaults OpenKruise's webhook writes into a workload's pod template (its
//! `SetDefaultPodSpec`: the API server's pod defaults, with `imagePullPolicy: Always` for
//! every container), and the empty values Go's encoder writes for it. Together they are
//! the template OpenKruise hashes into a revision name, so a revision we write for a
//! template has the name OpenKruise would give it (`revision::payload`). Pure, on JSON.
//!
//! Invariants: a value the user set is never changed, only absent ones are filled;
//! defaulting twice changes nothing; the fields covered are the common ones (pod spec,
//! containers and init containers, ports, env field references, probes and lifecycle
//! handlers, volumes); a template using a field not covered here can still hash to another
//! name than OpenKruise's (resource quantities are kept as written, not rounded).
use serde_json::{Map, Value, json};

fn fill(object: &mut Map<String, Value>, key: &str, value: Value) {
    if object.get(key).is_none_or(Value::is_null) {
        object.insert(key.into(), value);
    }
}

fn each_object(value: Option<&mut Value>) -> impl Iterator<Item = &mut Map<String, Value>> {
    value
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

/// `Always` when the image has no tag or the tag `latest`, else `IfNotPresent` (the API
/// server's rule; OpenKruise uses it for init containers).
fn pull_policy_of(image: &str) -> &'static str {
    let without_digest = image.split('@').next().unwrap_or(image);
    let last = without_digest.rsplit('/').next().unwrap_or(without_digest);
    match last.split_once(':') {
        Some((_, tag)) if tag != "latest" => "IfNotPresent",
        _ => "Always",
    }
}

fn handler(handler: &mut Map<String, Value>) {
    if let Some(get) = handler.get_mut("httpGet").and_then(Value::as_object_mut) {
        fill(get, "path", json!("/"));
        fill(get, "scheme", json!("HTTP"));
    }
}

fn probe(probe: &mut Map<String, Value>) {
    fill(probe, "timeoutSeconds", json!(1));
    fill(probe, "periodSeconds", json!(10));
    fill(probe, "successThreshold", json!(1));
    fill(probe, "failureThreshold", json!(3));
    handler(probe);
}

fn env_field_refs(container: &mut Map<String, Value>) {
    for env in each_object(container.get_mut("env")) {
        if let Some(field) = env
            .get_mut("valueFrom")
            .and_then(|v| v.get_mut("fieldRef"))
            .and_then(Value::as_object_mut)
        {
            fill(field, "apiVersion", json!("v1"));
        }
    }
}

/// Defaults of every kind of container (ports, env, probes, lifecycle handlers), plus the
/// empty `resources` Go writes.
fn container_common(container: &mut Map<String, Value>) {
    for port in each_object(container.get_mut("ports")) {
        fill(port, "protocol", json!("TCP"));
    }
    env_field_refs(container);
    for key in ["livenessProbe", "readinessProbe", "startupProbe"] {
        if let Some(p) = container.get_mut(key).and_then(Value::as_object_mut) {
            probe(p);
        }
    }
    if let Some(lifecycle) = container.get_mut("lifecycle").and_then(Value::as_object_mut) {
        for key in ["postStart", "preStop"] {
            if let Some(h) = lifecycle.get_mut(key).and_then(Value::as_object_mut) {
                handler(h);
            }
        }
    }
    fill(container, "resources", json!({}));
}

fn container(container: &mut Map<String, Value>, pull_policy: &str) {
    container_common(container);
    fill(container, "imagePullPolicy", json!(pull_policy));
    fill(container, "terminationMessagePath", json!("/dev/termination-log"));
    fill(container, "terminationMessagePolicy", json!("File"));
}

const VOLUME_SOURCES: &[&str] = &[
    "hostPath",
    "emptyDir",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "gitRepo",
    "secret",
    "nfs",
    "iscsi",
    "glusterfs",
    "persistentVolumeClaim",
    "rbd",
    "flexVolume",
    "cinder",
    "cephfs",
    "flocker",
    "downwardAPI",
    "fc",
    "azureFile",
    "configMap",
    "vsphereVolume",
    "quobyte",
    "azureDisk",
    "photonPersistentDisk",
    "projected",
    "portworxVolume",
    "scaleIO",
    "storageos",
    "csi",
    "ephemeral",
    "image",
];

fn volume(volume: &mut Map<String, Value>) {
    if !VOLUME_SOURCES.iter().any(|s| volume.contains_key(*s)) {
        volume.insert("emptyDir".into(), json!({}));
    }
    if let Some(host_path) = volume.get_mut("hostPath").and_then(Value::as_object_mut) {
        fill(host_path, "type", json!(""));
    }
    for key in ["secret", "configMap", "downwardAPI", "projected"] {
        if let Some(source) = volume.get_mut(key).and_then(Value::as_object_mut) {
            fill(source, "defaultMode", json!(420));
        }
    }
    let field_refs = |items: Option<&mut Value>| {
        for item in each_object(items) {
            if let Some(field) = item.get_mut("fieldRef").and_then(Value::as_object_mut) {
                fill(field, "apiVersion", json!("v1"));
            }
        }
    };
    field_refs(volume.get_mut("downwardAPI").and_then(|d| d.get_mut("items")));
    if let Some(sources) = volume.get_mut("projected").and_then(|p| p.get_mut("sources")) {
        for source in each_object(Some(sources)) {
            field_refs(source.get_mut("downwardAPI").and_then(|d| d.get_mut("items")));
            if let Some(token) = source
                .get_mut("serviceAccountToken")
                .and_then(Value::as_object_mut)
            {
                fill(token, "expirationSeconds", json!(3600));
            }
        }
    }
}

/// A volume as Kubernetes defaults it (an empty source is an `emptyDir`, file modes,
/// field reference versions).
pub fn volume_defaulted(v: &mut Value) {
    if let Some(v) = v.as_object_mut() {
        volume(v);
    }
}

/// The template as OpenKruise's webhook defaults it, with Go's empty values
/// (`metadata.creationTimestamp: null`, `resources: {}`).
pub fn defaulted(template: &Value) -> Value {
    let mut out = template.clone();
    let Some(root) = out.as_object_mut() else {
        return out;
    };
    if !root.get("metadata").is_some_and(Value::is_object) {
        root.insert("metadata".into(), json!({}));
    }
    if let Some(metadata) = root.get_mut("metadata").and_then(Value::as_object_mut) {
        metadata.entry("creationTimestamp").or_insert(Value::Null);
    }
    if !root.get("spec").is_some_and(Value::is_object) {
        root.insert("spec".into(), json!({}));
    }
    let Some(spec) = root.get_mut("spec").and_then(Value::as_object_mut) else {
        return out;
    };
    fill(spec, "restartPolicy", json!("Always"));
    fill(spec, "terminationGracePeriodSeconds", json!(30));
    fill(spec, "dnsPolicy", json!("ClusterFirst"));
    fill(spec, "securityContext", json!({}));
    fill(spec, "schedulerName", json!("default-scheduler"));
    if !spec.get("containers").is_some_and(Value::is_array) {
        spec.insert("containers".into(), json!([]));
    }
    for c in each_object(spec.get_mut("containers")) {
        container(c, "Always");
    }
    for c in each_object(spec.get_mut("initContainers")) {
        let policy = pull_policy_of(c.get("image").and_then(Value::as_str).unwrap_or_default());
        container(c, policy);
    }
    for c in each_object(spec.get_mut("ephemeralContainers")) {
        container_common(c);
    }
    for v in each_object(spec.get_mut("volumes")) {
        volume(v);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_template_gets_the_pod_defaults_and_go_empties() {
        let bare = json!({ "metadata": { "labels": { "app": "web" } },
            "spec": { "containers": [{ "name": "app", "image": "registry.local/web:1" }] } });
        let out = defaulted(&bare);
        assert_eq!(
            out,
            json!({ "metadata": { "creationTimestamp": null, "labels": { "app": "web" } },
                "spec": {
                    "containers": [{ "name": "app", "image": "registry.local/web:1",
                        "imagePullPolicy": "Always", "resources": {},
                        "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File" }],
                    "dnsPolicy": "ClusterFirst", "restartPolicy": "Always",
                    "schedulerName": "default-scheduler", "securityContext": {},
                    "terminationGracePeriodSeconds": 30 } })
        );
        assert_eq!(defaulted(&out), out, "defaulting twice changes nothing");
    }

    #[test]
    fn set_values_stay_and_nested_defaults_are_filled() {
        let template = json!({ "spec": {
            "restartPolicy": "Always", "dnsPolicy": "None",
            "initContainers": [{ "name": "init", "image": "busybox:1.36" }, { "name": "latest", "image": "busybox" }],
            "containers": [{ "name": "app", "image": "web:1", "imagePullPolicy": "IfNotPresent",
                "ports": [{ "containerPort": 80 }],
                "env": [{ "name": "NODE", "valueFrom": { "fieldRef": { "fieldPath": "spec.nodeName" } } }],
                "readinessProbe": { "httpGet": { "port": 80 } } }],
            "volumes": [{ "name": "scratch" }, { "name": "cfg", "configMap": { "name": "cfg" } },
                { "name": "host", "hostPath": { "path": "/var" } }] } });
        let out = defaulted(&template);
        let spec = &out["spec"];
        assert_eq!(spec["dnsPolicy"], "None");
        let app = &spec["containers"][0];
        assert_eq!(app["imagePullPolicy"], "IfNotPresent");
        assert_eq!(app["ports"][0]["protocol"], "TCP");
        assert_eq!(app["env"][0]["valueFrom"]["fieldRef"]["apiVersion"], "v1");
        assert_eq!(
            app["readinessProbe"],
            json!({ "httpGet": { "port": 80, "path": "/", "scheme": "HTTP" },
                "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3 })
        );
        assert_eq!(spec["initContainers"][0]["imagePullPolicy"], "IfNotPresent");
        assert_eq!(spec["initContainers"][1]["imagePullPolicy"], "Always");
        assert_eq!(spec["volumes"][0]["emptyDir"], json!({}));
        assert_eq!(spec["volumes"][1]["configMap"]["defaultMode"], 420);
        assert_eq!(spec["volumes"][2]["hostPath"]["type"], "");
    }
}
