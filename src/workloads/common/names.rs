//! Kubernetes' name, key and value rules the refusals check (`validation.IsDNS1123Label`,
//! `IsDNS1123Subdomain`, `IsQualifiedName`, `IsValidLabelValue`), shared by every kind's
//! refusals. Pure.
//!
//! Invariant: ASCII only, the lengths Kubernetes checks (63 for a label and a name part, 253
//! for a subdomain, none for a subdomain's parts); an annotation key is checked lowercased, as Kubernetes does.

/// A DNS-1123 label (a container's or a volume's name).
pub fn dns_label(name: &str) -> bool {
    let edge = |c: Option<char>| c.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    !name.is_empty()
        && name.len() <= 63
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && edge(name.chars().next())
        && edge(name.chars().last())
}

/// A DNS-1123 subdomain: lowercase alphanumeric parts (inner '-' allowed) joined by dots,
/// at most 253 characters in all; as Kubernetes' `IsDNS1123Subdomain`, a part may be
/// longer than 63.
pub fn dns_subdomain(name: &str) -> bool {
    let edge = |c: Option<char>| c.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    let part = |p: &str| {
        p.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && edge(p.chars().next())
            && edge(p.chars().last())
    };
    name.len() <= 253 && name.split('.').all(part)
}

/// 1 to 63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric.
fn name_part(name: &str) -> bool {
    let edge = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    !name.is_empty()
        && name.len() <= 63
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && edge(name.chars().next())
        && edge(name.chars().last())
}

/// A qualified name (`[dns-subdomain/]name`): a label key.
pub fn label_key(key: &str) -> bool {
    match key.split_once('/') {
        Some((prefix, name)) => dns_subdomain(prefix) && name_part(name),
        None => name_part(key),
    }
}

/// A label value: empty, or a name part.
pub fn label_value(value: &str) -> bool {
    value.is_empty() || name_part(value)
}

/// An annotation key: a qualified name once lowercased.
pub fn annotation_key(key: &str) -> bool {
    label_key(&key.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubernetes_name_rules() {
        assert!(dns_label("web-1") && !dns_label("Web") && !dns_label("-a") && !dns_label(""));
        assert!(dns_subdomain("a.b-c.io") && !dns_subdomain("a..b"));
        assert!(dns_subdomain(&"a".repeat(70)), "a part may be longer than 63");
        assert!(!dns_subdomain(&"a".repeat(254)));
        assert!(
            label_key("app") && label_key("example.com/app_v1.2") && !label_key("a/b/c") && !label_key("-x")
        );
        assert!(label_value("") && label_value("v1.2_x") && !label_value("bad value"));
        assert!(annotation_key("Example.com/Key") && !label_key("Example.com/Key"));
    }
}
