//! Docker's reading of an image reference (distribution/reference's `ParseNormalizedNamed`),
//! as far as Kubernetes' default pull policy needs it. Pure.
//!
//! Invariant: a reference the grammar refuses (an empty one included) reads as neither
//! tagged nor pinned, and gets `IfNotPresent`, as Kubernetes' defaulting gives it.
use std::sync::LazyLock;

use regex::Regex;

/// Kubernetes' default pull policy: `Always` for an image reference tagged `latest` or
/// neither tagged nor pinned by digest, else (also for a reference Docker's grammar
/// refuses, an empty one included) `IfNotPresent`.
pub fn pull_policy_of(image: &str) -> &'static str {
    match image_reference(image) {
        Some(ImageReference { tag: Some(tag), .. }) if tag == "latest" => "Always",
        Some(ImageReference {
            tag: None,
            pinned: false,
        }) => "Always",
        _ => "IfNotPresent",
    }
}

/// What Docker's `ParseNormalizedNamed` reads from an image reference.
struct ImageReference {
    tag: Option<String>,
    /// Pinned by a digest.
    pinned: bool,
}

/// The pieces of Docker's reference grammar (distribution/reference), ASCII only.
mod grammar {
    pub const PATH_COMPONENT: &str = "[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*";
    pub const DOMAIN_COMPONENT: &str = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
    pub const TAG: &str = "[0-9A-Za-z_][0-9A-Za-z_.-]{0,127}";
    pub const DIGEST: &str = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";

    pub fn domain() -> String {
        format!(r"(?:{DOMAIN_COMPONENT}(?:\.{DOMAIN_COMPONENT})*|\[[a-fA-F0-9:]+\])(?::[0-9]+)?")
    }

    pub fn path() -> String {
        format!("{PATH_COMPONENT}(?:/{PATH_COMPONENT})*")
    }
}

/// A whole reference: name (group 1), tag (2), digest (3).
static REFERENCE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    use grammar::*;
    let name = format!("(?:{}/)?{}", domain(), path());
    Regex::new(&format!("^({name})(?::({TAG}))?(?:@({DIGEST}))?$")).ok()
});

/// A name: its domain (group 1) and path (group 2).
static NAME: LazyLock<Option<Regex>> = LazyLock::new(|| {
    use grammar::*;
    Regex::new(&format!("^(?:({})/)?({})$", domain(), path())).ok()
});

/// Docker's normalization: the domain split off (`docker.io` when there is none) and a
/// bare name put under `library/`.
fn normalized(image: &str) -> (&str, String) {
    let (domain, remainder) = match image.split_once('/') {
        None => ("docker.io", image),
        Some(("index.docker.io", rest)) => ("docker.io", rest),
        Some((first, rest))
            if first == "localhost" || first.contains(['.', ':']) || first.to_lowercase() != first =>
        {
            (first, rest)
        }
        Some(_) => ("docker.io", image),
    };
    if domain == "docker.io" && !remainder.contains('/') {
        return (domain, format!("library/{remainder}"));
    }
    (domain, remainder.to_string())
}

fn is_lower_hex(text: &str) -> bool {
    text.bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A digest Go's `go-digest` accepts (sha256, sha384 or sha512, in lowercase hex).
fn valid_digest(digest: &str) -> bool {
    let Some((algorithm, hex)) = digest.split_once(':') else {
        return false;
    };
    let length = match algorithm {
        "sha256" => 64,
        "sha384" => 96,
        "sha512" => 128,
        _ => return false,
    };
    hex.len() == length && is_lower_hex(hex)
}

/// An image reference as `ParseNormalizedNamed` reads it, `None` where it refuses it.
fn image_reference(image: &str) -> Option<ImageReference> {
    if image.len() == 64 && is_lower_hex(image) {
        return None;
    }
    let (domain, remainder) = normalized(image);
    let remote = remainder.split(':').next().unwrap_or_default();
    if remote.to_lowercase() != remote {
        return None;
    }
    let full = format!("{domain}/{remainder}");
    let parts = REFERENCE.as_ref()?.captures(&full)?;
    let name = parts.get(1).map(|n| n.as_str()).unwrap_or_default();
    let path = NAME.as_ref()?.captures(name)?.get(2).map_or(name, |p| p.as_str());
    let digest = parts.get(3).map(|d| d.as_str());
    if path.len() > 255 || digest.is_some_and(|d| !valid_digest(d)) {
        return None;
    }
    Some(ImageReference {
        tag: parts.get(2).map(|t| t.as_str().to_string()),
        pinned: digest.is_some(),
    })
}
