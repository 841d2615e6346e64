//! OpenKruise's `v1beta1` renamed two subset fields of `v1alpha1`
//! (`requiredNodeSelectorTerm` → `requiredNodeSelector`, `preferredNodeSelectorTerms` →
//! `preferredNodeSelector`) and converts between them with a webhook. Here both versions
//! share one schema with both spellings and no conversion (see `crate::api::versions`), so
//! the mutating webhook writes each subset's node selectors under both spellings: a
//! WorkloadSpread written through either version reads back through the other with its
//! own field names. Pure: the object (and the stored one on update) as JSON in, the
//! object with the spellings agreeing out.
//!
//! Invariants, per subset and per renamed pair:
//! - Both spellings end equal (both absent, or both the same value).
//! - The request's own spelling (that of its `apiVersion`) wins when the request changed
//!   it against the stored subset of the same name (on create: when it is there), so an
//!   edit or a removal through either version is kept. Otherwise the other spelling wins
//!   when the request set it to a new value. A request that merely lacks the other
//!   spelling (a typed client of its version, which does not know it: OpenKruise's Go
//!   clients send the whole spec) removes nothing. Else the own spelling's value, or the
//!   other's when it has none.
use serde_json::Value;

/// The renamed pairs: (`v1alpha1` name, `v1beta1` name).
pub const RENAMED: [(&str, &str); 2] = [
    ("requiredNodeSelectorTerm", "requiredNodeSelector"),
    ("preferredNodeSelectorTerms", "preferredNodeSelector"),
];

fn field<'a>(subset: Option<&'a Value>, name: &str) -> Option<&'a Value> {
    subset.and_then(|s| s.get(name)).filter(|v| !v.is_null())
}

/// The subset named `name` in `object`'s spec.
fn subset_named<'a>(object: Option<&'a Value>, name: &Value) -> Option<&'a Value> {
    object?["spec"]["subsets"]
        .as_array()?
        .iter()
        .find(|s| s.get("name") == Some(name))
}

/// `object` with both spellings of every renamed subset field agreeing; `old` is the
/// stored object on an update.
pub fn mirrored(object: &Value, old: Option<&Value>) -> Value {
    let mut out = object.clone();
    let beta = object["apiVersion"]
        .as_str()
        .is_some_and(|v| v.ends_with("/v1beta1"));
    let Some(subsets) = out["spec"]["subsets"].as_array_mut() else {
        return out;
    };
    for subset in subsets.iter_mut() {
        let before = subset_named(old, &subset["name"]).cloned();
        for (alpha_name, beta_name) in RENAMED {
            let (own_name, other_name) = if beta {
                (beta_name, alpha_name)
            } else {
                (alpha_name, beta_name)
            };
            let own = field(Some(subset), own_name).cloned();
            let other = field(Some(subset), other_name).cloned();
            if own == other {
                continue;
            }
            let (own_before, other_before) = match old {
                Some(_) => (
                    field(before.as_ref(), own_name),
                    field(before.as_ref(), other_name),
                ),
                None => (None, None),
            };
            let own_changed = own.as_ref() != own_before;
            let other_set_anew = other.is_some() && other.as_ref() != other_before;
            let winner = if own_changed {
                own
            } else if other_set_anew {
                other
            } else {
                own.or(other)
            };
            let Some(map) = subset.as_object_mut() else {
                continue;
            };
            match winner {
                Some(value) => {
                    map.insert(alpha_name.into(), value.clone());
                    map.insert(beta_name.into(), value);
                }
                None => {
                    map.remove(alpha_name);
                    map.remove(beta_name);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn term(zone: &str) -> Value {
        json!({ "matchExpressions": [{ "key": "zone", "operator": "In", "values": [zone] }] })
    }

    fn spread(version: &str, subset: Value) -> Value {
        json!({ "apiVersion": format!("apps.kruise.io/{version}"), "kind": "WorkloadSpread",
            "spec": { "subsets": [subset] } })
    }

    #[test]
    fn a_spread_created_through_either_version_gets_both_spellings() {
        let alpha = spread(
            "v1alpha1",
            json!({ "name": "a", "requiredNodeSelectorTerm": term("a"),
            "preferredNodeSelectorTerms": [{ "weight": 1, "preference": term("b") }] }),
        );
        let out = mirrored(&alpha, None);
        let subset = &out["spec"]["subsets"][0];
        assert_eq!(subset["requiredNodeSelector"], term("a"));
        assert_eq!(subset["preferredNodeSelector"][0]["preference"], term("b"));
        let beta = spread(
            "v1beta1",
            json!({ "name": "a", "requiredNodeSelector": term("a") }),
        );
        assert_eq!(
            mirrored(&beta, None)["spec"]["subsets"][0]["requiredNodeSelectorTerm"],
            term("a")
        );
        // Both written, differently: the object's version decides.
        let both = spread(
            "v1beta1",
            json!({ "name": "a", "requiredNodeSelector": term("b"),
            "requiredNodeSelectorTerm": term("a") }),
        );
        assert_eq!(
            mirrored(&both, None)["spec"]["subsets"][0]["requiredNodeSelectorTerm"],
            term("b")
        );
        let plain = spread("v1alpha1", json!({ "name": "a" }));
        assert_eq!(mirrored(&plain, None), plain);
    }

    #[test]
    fn on_update_the_spelling_the_request_changed_wins_and_a_removal_removes_both() {
        let stored = spread(
            "v1alpha1",
            json!({ "name": "a", "requiredNodeSelectorTerm": term("a"),
            "requiredNodeSelector": term("a") }),
        );
        // An update through v1alpha1 changing the old spelling (the new one still stored).
        let edited = spread(
            "v1alpha1",
            json!({ "name": "a", "requiredNodeSelectorTerm": term("c"),
            "requiredNodeSelector": term("a") }),
        );
        let out = mirrored(&edited, Some(&stored));
        assert_eq!(out["spec"]["subsets"][0]["requiredNodeSelector"], term("c"));
        // A v1beta1 apply that dropped the field: both go.
        let dropped = spread(
            "v1beta1",
            json!({ "name": "a", "requiredNodeSelectorTerm": term("a") }),
        );
        let out = mirrored(&dropped, Some(&stored));
        assert_eq!(out["spec"]["subsets"][0], json!({ "name": "a" }));
        // A v1alpha1 client that does not know the v1beta1 name sends the spec without it:
        // nothing is removed (OpenKruise's e2e "deploy in two zone" updates so).
        let typed = spread(
            "v1alpha1",
            json!({ "name": "a", "requiredNodeSelectorTerm": term("a"),
            "maxReplicas": 4 }),
        );
        let out = mirrored(&typed, Some(&stored));
        assert_eq!(out["spec"]["subsets"][0]["requiredNodeSelector"], term("a"));
        assert_eq!(out["spec"]["subsets"][0]["requiredNodeSelectorTerm"], term("a"));
        // A merge patch through v1alpha1 that sets the v1beta1 name anew: it wins.
        let patched = spread(
            "v1alpha1",
            json!({ "name": "a", "requiredNodeSelectorTerm": term("a"),
            "requiredNodeSelector": term("b") }),
        );
        let out = mirrored(&patched, Some(&stored));
        assert_eq!(out["spec"]["subsets"][0]["requiredNodeSelectorTerm"], term("b"));
    }
}
