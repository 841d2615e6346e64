//! The binary as users call it: through a real `kubectl` as a plugin, with an exec
//! credential plugin in the kubeconfig, and with bad arguments (exit 2 and a hint).
mod support;

use std::path::Path;
use std::process::Command;

use support::{CLI, kruise, kubectl};

#[test]
fn kubectl_finds_and_runs_the_plugin_and_help_says_kubectl_kruise() {
    let kubeconfig = support::kubeconfig().display().to_string();
    let (code, out, err) = kubectl(&["kruise", "version", "--kubeconfig", &kubeconfig]);
    assert_eq!(code, 0, "kubectl kruise version: {err}");
    assert!(
        out.contains("Client Version: v") && out.contains("Server Version: v1.36"),
        "{out}"
    );
    let (code, out, _) = kubectl(&["kruise", "--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Usage: kubectl kruise"),
        "plugin-mode usage line missing:\n{out}"
    );
    let (_, plugins, _) = kubectl(&["plugin", "list"]);
    assert!(
        plugins.contains("kubectl-kruise"),
        "kubectl plugin list does not show us:\n{plugins}"
    );
}

#[test]
fn an_exec_credential_plugin_in_the_kubeconfig_is_used() {
    let kubeconfig = support::kubeconfig();
    let pki = kubeconfig.parent().expect("run dir").join("pki");
    let read = |f: &str| std::fs::read(pki.join(f)).unwrap_or_else(|e| panic!("read {f}: {e}"));
    let credential = serde_json::json!({
        "apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential",
        "status": {
            "clientCertificateData": String::from_utf8_lossy(&read("admin.crt")),
            "clientKeyData": String::from_utf8_lossy(&read("admin.key")),
        },
    });
    let dir = std::env::temp_dir().join(format!("kruise-exec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cred_file = dir.join("credential.json");
    std::fs::write(&cred_file, credential.to_string()).expect("write credential");
    let original = std::fs::read_to_string(kubeconfig).expect("read kubeconfig");
    let server = original
        .lines()
        .find_map(|l| l.trim().strip_prefix("server: "))
        .expect("server line");
    let exec_config = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: {server}\n    \
         certificate-authority: {ca}\nusers:\n- name: exec-user\n  user:\n    exec:\n      \
         apiVersion: client.authentication.k8s.io/v1\n      command: cat\n      args: [\"{cred}\"]\n      \
         interactiveMode: Never\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: exec-user\n\
         current-context: x\n",
        ca = pki.join("ca.crt").display(),
        cred = cred_file.display(),
    );
    let exec_kubeconfig = dir.join("exec.kubeconfig");
    std::fs::write(&exec_kubeconfig, exec_config).expect("write kubeconfig");
    let (code, out, err) = kruise(&exec_kubeconfig, &["version"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Server Version: v1.36"),
        "exec credentials were not used: {out}\n{err}"
    );
}

#[test]
fn bad_arguments_exit_2_with_a_hint() {
    let kubeconfig = support::kubeconfig();
    let (code, _, err) = kruise(kubeconfig, &["install", "--only", "ClownSet"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.starts_with("error: ") && err.contains("known kinds: CloneSet"),
        "{err}"
    );
    let (code, _, err) = kruise(kubeconfig, &["no-such-verb"]);
    assert_eq!(code, 2);
    assert!(err.contains("--help"), "no pointer to --help: {err}");
}

#[test]
fn a_missing_kubeconfig_is_a_clear_error_naming_the_file() {
    let (code, _, err) = kruise(Path::new("/nonexistent/kube.config"), &["install"]);
    assert_eq!(code, 1);
    assert!(err.contains("/nonexistent/kube.config"), "{err}");
}

#[test]
fn kubectl_kruise_tab_completes_through_the_companion() {
    let dir = Path::new(CLI).parent().expect("binary directory");
    let companion = Path::new(support::REPO).join("completions");
    let path = format!(
        "{}:{}:{}",
        dir.display(),
        companion.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("kubectl")
        .args(["__complete", "kruise", "un"])
        .env("PATH", path)
        .output()
        .expect("kubectl");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.lines().any(|l| l.starts_with("uninstall\t")),
        "no candidate from the plugin:\n{stdout}"
    );
    assert!(stdout.lines().any(|l| l == ":4"), "no directive line:\n{stdout}");
}

/// Runs `command` on a pseudo-terminal (util-linux `script`), typing `keys` once it waits.
fn on_terminal(command: &str, keys: &str) -> (i32, String) {
    use std::io::Write;
    let mut child = Command::new("script")
        .args(["-qec", command, "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("script (util-linux) runs");
    std::thread::sleep(std::time::Duration::from_secs(2));
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(keys.as_bytes()).expect("type");
    drop(stdin);
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[tokio::test]
async fn uninstall_force_asks_on_a_terminal_and_only_yes_deletes() {
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
    use kube::api::{Api, DynamicObject, Patch};
    use support::manifests::{documents, resource_of, strict_apply};

    let plane = support::PrivateControlPlane::start("confirm");
    let (code, _, err) = kruise(&plane.kubeconfig, &["install", "--only", "CloneSet"]);
    assert_eq!(code, 0, "{err}");
    let fixture = Path::new(support::REPO).join("tests/fixtures/cloneset-guestbook.yaml");
    let doc = documents(&fixture)
        .into_iter()
        .find(|d| d["kind"] == "CloneSet")
        .expect("CloneSet document");
    let client = plane.client().await;
    let clones: Api<DynamicObject> = Api::namespaced_with(client.clone(), "default", &resource_of(&doc));
    clones
        .patch("guestbook-clone", &strict_apply(), &Patch::Apply(&doc))
        .await
        .expect("apply guestbook");

    let command = format!(
        "{CLI} uninstall --force --only CloneSet --kubeconfig {}",
        plane.kubeconfig.display()
    );
    let (code, screen) = on_terminal(&command, "n");
    assert!(
        screen.contains("clonesets.apps.kruise.io: 1 (default: 1)") && screen.contains("Continue?"),
        "{screen}"
    );
    assert_eq!(code, 1, "answering no must fail: {screen}");
    assert!(
        clones.get_opt("guestbook-clone").await.expect("get").is_some(),
        "'no' deleted the CloneSet"
    );

    let (code, screen) = on_terminal(&command, "y");
    assert_eq!(code, 0, "answering yes: {screen}");
    assert!(screen.contains("clonesets.apps.kruise.io deleted"), "{screen}");
    let crds: Api<CustomResourceDefinition> = Api::all(client);
    assert!(
        crds.get_opt("clonesets.apps.kruise.io")
            .await
            .expect("get")
            .is_none(),
        "CRD still installed"
    );
}

#[test]
fn ctrl_c_exits_130() {
    // A server that accepts and never answers keeps `version` waiting.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let server = format!("https://{}", listener.local_addr().expect("addr"));
    let kubeconfig = std::env::temp_dir().join(format!("kruise-silent-{}.kubeconfig", std::process::id()));
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: s\n  cluster:\n    server: {server}\n    \
         insecure-skip-tls-verify: true\nusers:\n- name: u\n  user:\n    token: t\ncontexts:\n- name: c\n  \
         context:\n    cluster: s\n    user: u\ncurrent-context: c\n"
    );
    std::fs::write(&kubeconfig, text).expect("write kubeconfig");
    let mut child = Command::new(CLI)
        .arg("version")
        .arg("--kubeconfig")
        .arg(&kubeconfig)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    // Once it has said its client version it is waiting for the server, its Ctrl-C handler
    // in place (a fixed sleep raced the start of a loaded machine; a SIGINT that came
    // first was ignored where the test ran as a background job, and version exited 0).
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().expect("stdout")),
        &mut first,
    )
    .expect("read stdout");
    assert!(first.starts_with("Client Version"), "{first}");
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let out = child.wait_with_output().expect("wait");
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    drop(listener);
}
