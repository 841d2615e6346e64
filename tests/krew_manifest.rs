//! `krew-manifest.yaml` passes krew's own manifest validation (the rules of
//! kubernetes-sigs/krew internal/index/validation/validate.go) and covers the five release
//! platforms. Pure: no cluster.

use serde_json::Value;

const MANIFEST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/krew-manifest.yaml");

const PLATFORMS: [(&str, &str); 5] = [
    ("linux", "amd64"),
    ("linux", "arm64"),
    ("darwin", "amd64"),
    ("darwin", "arm64"),
    ("windows", "amd64"),
];

fn text() -> String {
    std::fs::read_to_string(MANIFEST).unwrap_or_else(|e| panic!("read {MANIFEST}: {e}"))
}

fn manifest() -> Value {
    let docs: Vec<Value> =
        serde_saphyr::from_multiple(&text()).unwrap_or_else(|e| panic!("parse {MANIFEST}: {e}"));
    let mut docs: Vec<Value> = docs.into_iter().filter(|d| d.is_object()).collect();
    assert_eq!(docs.len(), 1, "krew-manifest.yaml must hold exactly one document");
    docs.remove(0)
}

fn str_at<'a>(value: &'a Value, what: &str) -> &'a str {
    value
        .as_str()
        .unwrap_or_else(|| panic!("{what} is missing or not a string"))
}

/// krew's `IsSafePluginName`: letters, digits, `_` and `-`, and not a reserved Windows name.
fn is_safe_plugin_name(name: &str) -> bool {
    let charset_ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let upper = name.to_ascii_uppercase();
    let mut reserved: Vec<String> = ["CON", "PRN", "AUX", "NUL"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for n in 1..=9 {
        reserved.push(format!("COM{n}"));
        reserved.push(format!("LPT{n}"));
    }
    charset_ok && !reserved.contains(&upper)
}

/// A semantic version with krew's mandatory leading `v`: `vMAJOR.MINOR.PATCH[-pre][+build]`.
fn is_v_semver(version: &str) -> bool {
    let Some(rest) = version.strip_prefix('v') else {
        return false;
    };
    let (rest, build) = match rest.split_once('+') {
        Some((r, b)) => (r, Some(b)),
        None => (rest, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (rest, None),
    };
    let numeric =
        |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    let ident = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| numeric(p))
        && pre.is_none_or(|p| p.split('.').all(ident))
        && build.is_none_or(|b| b.split('.').all(ident))
}

fn is_sha256_hex(s: &str) -> bool {
    s.len() == 64 && s.chars().all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
}

#[test]
fn the_checkers_agree_with_krew_on_known_cases() {
    for good in ["kruise", "kubectl_kruise", "a-b", "x1"] {
        assert!(is_safe_plugin_name(good), "{good}");
    }
    for bad in [
        "",
        "con",
        "NUL",
        "com1",
        "Lpt9",
        "a/b",
        "a.b",
        "a b",
        "kr\u{fc}ise",
    ] {
        assert!(!is_safe_plugin_name(bad), "{bad}");
    }
    for good in ["v0.1.0", "v1.2.3-rc.1", "v10.0.0+build.5"] {
        assert!(is_v_semver(good), "{good}");
    }
    for bad in ["0.1.0", "v0.1", "v01.0.0", "v1.0.0-", "vx.y.z", "V1.0.0"] {
        assert!(!is_v_semver(bad), "{bad}");
    }
    assert!(is_sha256_hex(&"ab".repeat(32)));
    assert!(!is_sha256_hex(&"AB".repeat(32)));
    assert!(!is_sha256_hex(&"a".repeat(63)));
}

#[test]
fn api_version_kind_and_name_are_what_krew_accepts() {
    let m = manifest();
    assert_eq!(m["apiVersion"], "krew.googlecontainertools.github.com/v1alpha2");
    assert_eq!(m["kind"], "Plugin");
    let name = str_at(&m["metadata"]["name"], "metadata.name");
    assert_eq!(name, "kruise");
    assert!(is_safe_plugin_name(name), "unsafe plugin name {name:?}");
    // krew expects the file to be called <name>.yaml; this repository fixes the path
    // krew-manifest.yaml, so the manifest must say why in its opening comment.
    let file = std::path::Path::new(MANIFEST)
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    if file != format!("{name}.yaml") {
        let comment: String = text()
            .lines()
            .take_while(|l| l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            comment.contains("krew-manifest.yaml") && comment.contains(&format!("{name}.yaml")),
            "{file} is not {name}.yaml and its opening comment does not say why:\n{comment}"
        );
    }
}

#[test]
fn spec_has_a_v_semver_version_and_the_descriptions() {
    let m = manifest();
    let spec = &m["spec"];
    let version = str_at(&spec["version"], "spec.version");
    assert!(
        is_v_semver(version),
        "spec.version {version:?} is not a semver with a leading v"
    );
    assert_eq!(version, "v0.1.0");
    let short = str_at(&spec["shortDescription"], "spec.shortDescription");
    assert!(
        !short.trim().is_empty() && !short.contains('\n'),
        "shortDescription must be one line"
    );
    assert!(str_at(&spec["homepage"], "spec.homepage").starts_with("https://"));
    assert!(!str_at(&spec["description"], "spec.description").trim().is_empty());
    let caveats = str_at(&spec["caveats"], "spec.caveats");
    assert!(caveats.contains("kubectl_complete-kruise"), "{caveats}");
    assert!(caveats.contains("kubectl kruise install"), "{caveats}");
}

#[test]
fn every_platform_is_valid_and_the_five_release_platforms_are_covered() {
    let m = manifest();
    let version = str_at(&m["spec"]["version"], "spec.version").to_string();
    let platforms = m["spec"]["platforms"]
        .as_array()
        .expect("spec.platforms is a list");
    assert!(!platforms.is_empty(), "spec.platforms is empty");
    let mut covered = Vec::new();
    for (i, p) in platforms.iter().enumerate() {
        let at = format!("spec.platforms[{i}]");
        let labels = p["selector"]["matchLabels"]
            .as_object()
            .unwrap_or_else(|| panic!("{at}.selector.matchLabels is missing"));
        let selector = p["selector"].as_object().expect("selector is a map");
        assert!(
            selector.keys().all(|k| k == "matchLabels"),
            "{at}.selector may only use matchLabels: {selector:?}"
        );
        for key in labels.keys() {
            assert!(
                key == "os" || key == "arch",
                "{at}: selector key {key:?} is not os or arch"
            );
        }
        let os = str_at(&labels["os"], "os").to_string();
        let arch = str_at(&labels["arch"], "arch").to_string();
        let windows = os == "windows";

        let uri = str_at(&p["uri"], &format!("{at}.uri"));
        assert!(uri.starts_with("https://"), "{at}.uri {uri}");
        assert!(
            uri.contains(&format!("/releases/download/{version}/")),
            "{at}.uri {uri} is not for {version}"
        );
        assert!(
            uri.contains(&os) && uri.contains(&arch),
            "{at}.uri {uri} does not name {os}/{arch}"
        );
        let archive = if windows { ".zip" } else { ".tar.gz" };
        assert!(uri.ends_with(archive), "{at}.uri {uri} is not a {archive}");

        let sha = str_at(&p["sha256"], &format!("{at}.sha256"));
        assert!(
            is_sha256_hex(sha),
            "{at}.sha256 {sha:?} is not 64 lower-case hex digits"
        );

        let bin = str_at(&p["bin"], &format!("{at}.bin"));
        let want_bin = if windows {
            "kubectl-kruise.exe"
        } else {
            "kubectl-kruise"
        };
        assert_eq!(bin, want_bin, "{at}.bin");
        if windows {
            assert!(bin.ends_with(".exe"), "{at}: a windows bin must end in .exe");
        }

        if let Some(files) = p.get("files") {
            let files = files
                .as_array()
                .unwrap_or_else(|| panic!("{at}.files is not a list"));
            assert!(!files.is_empty(), "{at}.files is present but empty");
            let from: Vec<&str> = files
                .iter()
                .map(|f| {
                    assert!(
                        f["to"].as_str().is_some_and(|t| !t.is_empty()),
                        "{at}.files entry without `to`: {f}"
                    );
                    str_at(&f["from"], &format!("{at}.files[].from"))
                })
                .collect();
            assert!(from.contains(&bin), "{at}.files does not ship the bin {bin}");
            assert!(from.contains(&"LICENSE"), "{at}.files does not ship LICENSE");
            assert!(
                from.iter().any(|f| f.starts_with("kubectl_complete-kruise")),
                "{at}.files does not ship kubectl_complete-kruise"
            );
        }
        assert!(
            !covered.contains(&(os.clone(), arch.clone())),
            "{at}: {os}/{arch} listed twice"
        );
        covered.push((os, arch));
    }
    for (os, arch) in PLATFORMS {
        assert!(
            covered.contains(&(os.to_string(), arch.to_string())),
            "no platform for {os}/{arch}"
        );
    }
}
