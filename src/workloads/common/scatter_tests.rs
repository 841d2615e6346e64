use proptest::prelude::*;

use super::*;

/// Marks a slot of the set with no pod (upstream's tables use it for reserved ordinals);
/// it is left out of the set and the indices after it keep their numbers.
const GAP: &str = "<no pod>";

/// `"k=v,k2=v2"`; a part without `=` is ignored, as upstream's table parser does.
fn labels(spec: &str) -> BTreeMap<String, String> {
    spec.split(',')
        .filter_map(|pair| pair.split_once('='))
        .map(|(key, value)| (key.to_string(), value.to_string()))
        .collect()
}

fn terms(pairs: &[(&str, &str)]) -> Vec<UpdateScatterTerm> {
    pairs
        .iter()
        .map(|(key, value)| UpdateScatterTerm {
            key: key.to_string(),
            value: value.to_string(),
        })
        .collect()
}

/// One row of an upstream table: the first `expected.len()` pods (gaps skipped) are the
/// candidates, in index order; the remaining pods only count in the set.
struct Case {
    name: &'static str,
    pods: &'static [&'static str],
    terms: &'static [(&'static str, &'static str)],
    expected: &'static [usize],
}

fn scatter_case(case: &Case) -> Vec<usize> {
    let slot_of: Vec<usize> = (0..case.pods.len()).filter(|&i| case.pods[i] != GAP).collect();
    let label_maps: Vec<BTreeMap<String, String>> = slot_of.iter().map(|&i| labels(case.pods[i])).collect();
    let pods: Vec<&BTreeMap<String, String>> = label_maps.iter().collect();
    let candidates: Vec<usize> = (0..case.expected.len()).collect();
    scatter(&candidates, &pods, &terms(case.terms))
        .into_iter()
        .map(|i| slot_of[i])
        .collect()
}

fn check(cases: &[Case]) {
    for case in cases {
        assert_eq!(scatter_case(case), case.expected, "{}", case.name);
    }
}

const LABEL_A: (&str, &str) = ("labelA", "AAA");
const LABEL_B: (&str, &str) = ("labelB", "BBB");
const LABEL_C: (&str, &str) = ("labelC", "CCC");

#[test]
fn one_term_spreads_the_matched_pods_as_upstreams_table_expects() {
    check(&[
        Case {
            name: "a single unlabelled pod stays put",
            pods: &[""],
            terms: &[LABEL_A],
            expected: &[0],
        },
        Case {
            name: "a single matched pod stays put",
            pods: &["labelA=AAA"],
            terms: &[LABEL_A],
            expected: &[0],
        },
        Case {
            name: "one matched and one unmatched pod stay put",
            pods: &["labelA=AAA", "bbb"],
            terms: &[LABEL_A],
            expected: &[0, 1],
        },
        Case {
            name: "two matched among four unmatched go first and last",
            pods: &["", "", "", "", "labelA=AAA", "labelA=AAA"],
            terms: &[LABEL_A],
            expected: &[4, 0, 1, 2, 3, 5],
        },
        Case {
            name: "three matched after three unmatched alternate one with two then one with one",
            pods: &["", "", "", "labelA=AAA", "labelA=AAA", "labelA=AAA"],
            terms: &[LABEL_A],
            expected: &[3, 0, 1, 4, 2, 5],
        },
        Case {
            name: "two matched among five unmatched go first and last",
            pods: &["", "", "", "labelA=AAA", "", "", "labelA=AAA"],
            terms: &[LABEL_A],
            expected: &[3, 0, 1, 2, 4, 5, 6],
        },
        Case {
            name: "three matched after six unmatched each lead a run of three",
            pods: &["", "", "", "", "", "", "labelA=AAA", "labelA=AAA", "labelA=AAA"],
            terms: &[LABEL_A],
            expected: &[6, 0, 1, 2, 7, 3, 4, 5, 8],
        },
        Case {
            name: "four matched after two unmatched come two then one per unmatched pod",
            pods: &["", "", "labelA=AAA", "labelA=AAA", "labelA=AAA", "labelA=AAA"],
            terms: &[LABEL_A],
            expected: &[2, 3, 0, 4, 1, 5],
        },
        Case {
            name: "six matched among three unmatched come in pairs",
            pods: &[
                "",
                "",
                "labelA=AAA",
                "",
                "labelA=AAA",
                "labelA=AAA",
                "labelA=AAA",
                "labelA=AAA",
                "labelA=AAA",
            ],
            terms: &[LABEL_A],
            expected: &[2, 4, 0, 5, 6, 1, 7, 3, 8],
        },
        Case {
            name: "five matched among four unmatched alternate one to one",
            pods: &[
                "",
                "labelA=AAA",
                "",
                "labelA=AAA",
                "",
                "",
                "labelA=AAA",
                "labelA=AAA",
                "labelA=AAA",
            ],
            terms: &[LABEL_A],
            expected: &[1, 0, 3, 2, 6, 4, 7, 5, 8],
        },
        Case {
            name: "labels that are not the term count as unmatched",
            pods: &[
                "",
                "",
                "",
                "",
                "ee",
                "a",
                "",
                "labelA=AAA",
                "labelA=AAA",
                "labelA=AAA,labelB=BBB",
            ],
            terms: &[LABEL_A],
            expected: &[7, 0, 1, 2, 3, 8, 4, 5, 6, 9],
        },
    ]);
}

#[test]
fn several_terms_apply_one_after_another_as_upstreams_table_expects() {
    check(&[
        Case {
            name: "a single candidate is returned as is",
            pods: &["labelA=AAA,labelB=BBB"],
            terms: &[LABEL_A],
            expected: &[0],
        },
        Case {
            name: "no terms keep the order",
            pods: &["", "", "", "", "", ""],
            terms: &[],
            expected: &[0, 1, 2, 3, 4, 5],
        },
        Case {
            name: "one term over pods with one label each",
            pods: &["", "", "", "", "labelA=AAA", "labelA=AAA"],
            terms: &[LABEL_A],
            expected: &[4, 0, 1, 2, 3, 5],
        },
        Case {
            name: "one term over pods with assorted labels",
            pods: &[
                "",
                "",
                "",
                "",
                "sdfb=eee",
                "dsf=same",
                "labelB=BBB",
                "labelA=AAA",
                "labelA=AAA",
                "labelA=AAA,labelB=BBB",
            ],
            terms: &[LABEL_B],
            expected: &[6, 0, 1, 2, 3, 4, 5, 7, 8, 9],
        },
        Case {
            name: "two terms over disjoint pairs",
            pods: &["labelB=BBB", "labelB=BBB", "", "", "labelA=AAA", "labelA=AAA"],
            terms: &[LABEL_A, LABEL_B],
            expected: &[0, 4, 2, 3, 5, 1],
        },
        Case {
            name: "two terms with one pod carrying both",
            pods: &["", "", "", "labelB=BBB", "labelA=AAA,labelB=BBB", "labelA=AAA"],
            terms: &[LABEL_A, LABEL_B],
            expected: &[4, 0, 1, 2, 5, 3],
        },
        Case {
            name: "equally matched terms apply in spec order, b then a",
            pods: &[
                "",
                "",
                "",
                "",
                "sdfb=eee",
                "dsf=same",
                "labelB=BBB",
                "labelA=AAA",
                "labelA=AAA",
                "labelB=BBB",
            ],
            terms: &[LABEL_B, LABEL_A],
            expected: &[7, 6, 0, 1, 2, 3, 4, 5, 9, 8],
        },
        Case {
            name: "equally matched terms apply in spec order, a then b",
            pods: &[
                "",
                "",
                "",
                "",
                "sdfb=eee",
                "dsf=same",
                "labelB=BBB",
                "labelA=AAA",
                "labelA=AAA",
                "labelB=BBB",
            ],
            terms: &[LABEL_A, LABEL_B],
            expected: &[6, 7, 0, 1, 2, 3, 4, 5, 8, 9],
        },
        Case {
            name: "two pods carrying both terms among eight",
            pods: &[
                "",
                "",
                "",
                "",
                "sdfb=eee",
                "dsf=same",
                "labelA=AAA,labelB=BBB",
                "",
                "",
                "labelB=BBB,labelA=AAA",
            ],
            terms: &[LABEL_A, LABEL_B],
            expected: &[6, 0, 1, 2, 3, 4, 5, 7, 8, 9],
        },
        Case {
            name: "two pods carrying both terms among seven",
            pods: &[
                "",
                "",
                "",
                "sdfb=eee",
                "dsf=same",
                "labelA=AAA,labelB=BBB",
                "",
                "",
                "labelB=BBB,labelA=AAA",
            ],
            terms: &[LABEL_A, LABEL_B],
            expected: &[5, 0, 1, 2, 3, 4, 6, 7, 8],
        },
        Case {
            name: "the pods after the candidates count in the set only",
            pods: &[
                "",
                "",
                "",
                "labelA=AAA",
                "sdfb=eee",
                "dsf=same",
                "labelA=AAA,labelB=BBB",
                "",
                "",
                "",
            ],
            terms: &[LABEL_A, LABEL_B],
            expected: &[3, 0, 1, 2, 4, 5, 7, 6],
        },
        Case {
            name: "a matched pod outside the candidates makes the set denser",
            pods: &[
                "",
                "",
                "",
                "labelA=AAA",
                "",
                "",
                "sdfb=eee",
                "dsf=same",
                "labelA=AAA,labelB=BBB",
                "",
                "",
                "labelB=BBB,labelA=AAA",
            ],
            terms: &[LABEL_A, LABEL_B],
            expected: &[0, 1, 2, 4, 3, 5, 6, 7, 9, 10, 8],
        },
        Case {
            name: "four matched among six unmatched",
            pods: &[
                "",
                "",
                "",
                "labelA=AAA",
                "sdfb=eee,labelA=AAA",
                "dsf=same",
                "labelA=AAA,labelB=BBB",
                "",
                "",
                "labelB=BBB,labelA=AAA",
            ],
            terms: &[LABEL_A, LABEL_B],
            expected: &[6, 3, 0, 1, 4, 2, 5, 7, 8, 9],
        },
        Case {
            name: "four matched among five unmatched",
            pods: &[
                "",
                "labelA=AAA",
                "labelA=AAA",
                "sdfb=eee",
                "dsf=same",
                "labelA=AAA,labelB=BBB",
                "",
                "",
                "labelB=BBB,labelA=AAA",
            ],
            terms: &[LABEL_A, LABEL_B],
            expected: &[5, 1, 0, 3, 2, 4, 6, 7, 8],
        },
        Case {
            name: "five matched in the set, four of them candidates",
            pods: &[
                "labelA=AAA",
                "",
                "",
                "labelA=AAA",
                "sdfb=eee,labelA=AAA",
                "dsf=same",
                "labelA=AAA,labelB=BBB",
                "",
                "",
                "labelB=BBB,labelA=AAA",
            ],
            terms: &[LABEL_A, LABEL_B],
            expected: &[1, 0, 2, 3, 5, 4, 7, 6],
        },
        Case {
            name: "five matched in the set, four of them among eleven candidates",
            pods: &[
                "",
                "",
                "labelA=AAA",
                "labelA=AAA",
                "",
                "labelA=AAA",
                "sdfb=eee",
                "dsf=same",
                "labelA=AAA,labelB=BBB",
                "",
                "",
                "labelB=BBB,labelA=AAA",
            ],
            terms: &[LABEL_A, LABEL_B],
            expected: &[0, 2, 1, 4, 3, 6, 7, 5, 9, 10, 8],
        },
        Case {
            name: "three terms, the most matched applied first",
            pods: &[
                "",
                "labelA=AAA",
                "labelA=AAA",
                "labelB=BBB",
                "labelB=BBB",
                "labelC=CCC",
                "labelC=CCC",
                "labelC=CCC",
                "labelC=CCC",
                "labelC=CCC",
            ],
            terms: &[LABEL_A, LABEL_B, LABEL_C],
            expected: &[3, 1, 5, 0, 6, 7, 8, 9, 2, 4],
        },
        Case {
            name: "three terms over pods carrying two of them",
            pods: &[
                "",
                "labelA=AAA",
                "labelA=AAA,labelC=CCC",
                "labelB=BBB,labelC=CCC",
                "labelB=BBB",
                "",
                "",
                "labelC=CCC",
                "labelC=CCC",
                "labelC=CCC",
            ],
            terms: &[LABEL_A, LABEL_B, LABEL_C],
            expected: &[3, 2, 0, 7, 8, 5, 6, 9, 1, 4],
        },
        Case {
            name: "a matched pod left out of the candidates changes the spacing",
            pods: &["", "", "", "", "labelA=AAA", "labelA=AAA", "labelA=AAA"],
            terms: &[LABEL_A],
            expected: &[0, 1, 4, 2, 3, 5],
        },
        Case {
            name: "a set denser in matched pods than the candidates puts unmatched pods up front",
            pods: &[
                "labelA=AAA",
                "labelA=AAA",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "labelA=AAA",
            ],
            terms: &[LABEL_A],
            expected: &[2, 0, 3, 4, 5, 6, 1],
        },
        Case {
            name: "an empty slot in the set neither counts nor shifts the others",
            pods: &[
                "",
                "labelA=AAA",
                "labelA=AAA,labelC=CCC",
                "labelB=BBB,labelC=CCC",
                "labelB=BBB",
                GAP,
                "",
                "",
                "labelC=CCC",
                "labelC=CCC",
                "labelC=CCC",
            ],
            terms: &[LABEL_A, LABEL_B, LABEL_C],
            expected: &[3, 2, 0, 8, 9, 6, 7, 10, 1, 4],
        },
    ]);
}

/// The terms given in a spec and those applied, in the order applied.
struct TermCase {
    name: &'static str,
    pods: &'static [&'static str],
    given: &'static [(&'static str, &'static str)],
    applied: &'static [(&'static str, &'static str)],
}

#[test]
fn the_terms_applied_are_those_candidates_carry_most_matched_first() {
    let cases = [
        TermCase {
            name: "a single term is applied as given",
            pods: &["", "", "", "", "labelA=AAA", "labelA=AAA"],
            given: &[LABEL_A],
            applied: &[LABEL_A],
        },
        TermCase {
            name: "a single term no candidate carries is still applied",
            pods: &["", ""],
            given: &[LABEL_A],
            applied: &[LABEL_A],
        },
        TermCase {
            name: "a label with another value does not count for the term",
            pods: &["", "", "labelB=B", "labelB=BBB", "labelA=AAA", "labelA=AAA"],
            given: &[LABEL_A, LABEL_B],
            applied: &[LABEL_A, LABEL_B],
        },
        TermCase {
            name: "the most carried term comes first",
            pods: &["labelB=BBB", "labelB=BBB", "labelA=AAA"],
            given: &[LABEL_A, LABEL_B],
            applied: &[LABEL_B, LABEL_A],
        },
        TermCase {
            name: "a term no candidate carries is dropped among several",
            pods: &["labelA=AAA", "labelC=CCC"],
            given: &[LABEL_B, LABEL_C, LABEL_A],
            applied: &[LABEL_C, LABEL_A],
        },
        TermCase {
            name: "an empty value counts only pods that have the key",
            pods: &["", "", "labelA=", "labelB=BBB", "labelB=BBB"],
            given: &[("labelA", ""), LABEL_B],
            applied: &[LABEL_B, ("labelA", "")],
        },
    ];
    for case in cases {
        let label_maps: Vec<BTreeMap<String, String>> = case.pods.iter().map(|spec| labels(spec)).collect();
        let pods: Vec<&BTreeMap<String, String>> = label_maps.iter().collect();
        let candidates: Vec<usize> = (0..pods.len()).collect();
        let given = terms(case.given);
        let chosen: Vec<UpdateScatterTerm> = terms_to_apply(&candidates, &pods, &given)
            .into_iter()
            .cloned()
            .collect();
        assert_eq!(chosen, terms(case.applied), "{}", case.name);
    }
}

#[test]
fn a_term_with_an_empty_value_alone_matches_pods_without_the_key() {
    let label_maps: Vec<BTreeMap<String, String>> = ["", "", "zone=a", "zone=b", "zone=c", "zone=d"]
        .iter()
        .map(|s| labels(s))
        .collect();
    let pods: Vec<&BTreeMap<String, String>> = label_maps.iter().collect();
    // Pods 0 and 1 lack `zone`, so they are the matched ones: 0 leads, 1 goes last.
    assert_eq!(
        scatter(&[0, 1, 2, 3, 4, 5], &pods, &terms(&[("zone", "")])),
        vec![0, 2, 3, 4, 5, 1]
    );
}

#[test]
fn candidates_keep_the_order_they_come_in_within_matched_and_unmatched() {
    let label_maps: Vec<BTreeMap<String, String>> = ["", "", "", "labelA=AAA", "labelA=AAA", "labelA=AAA"]
        .iter()
        .map(|s| labels(s))
        .collect();
    let pods: Vec<&BTreeMap<String, String>> = label_maps.iter().collect();
    assert_eq!(
        scatter(&[5, 2, 4, 1, 3, 0], &pods, &terms(&[LABEL_A])),
        vec![5, 2, 1, 4, 0, 3]
    );
}

#[test]
fn an_index_outside_the_set_reads_as_an_unlabelled_pod() {
    let label_maps: Vec<BTreeMap<String, String>> = ["labelA=AAA", "labelA=AAA", ""]
        .iter()
        .map(|s| labels(s))
        .collect();
    let pods: Vec<&BTreeMap<String, String>> = label_maps.iter().collect();
    assert_eq!(
        scatter(&[0, 1, 2, 7], &pods, &terms(&[LABEL_A])),
        vec![0, 2, 7, 1]
    );
}

#[test]
fn the_density_comparison_is_made_in_single_precision_as_upstream() {
    // 2949/2948 < 2948/2947 exactly, but the two quotients are the same f32, so the
    // candidates' own split is used and no unmatched pod is put up front.
    assert_eq!(
        layout(2948, 2949, 2947, 2948),
        Layout {
            unmatched_up_front: 0,
            rounds: 2947,
            matched_per_round: 1,
            unmatched_per_round: 1,
        }
    );
}

#[test]
fn halves_round_up_when_sharing_pods_into_rounds() {
    assert_eq!(
        even_split(2, 3),
        Layout {
            unmatched_up_front: 0,
            rounds: 2,
            matched_per_round: 1,
            unmatched_per_round: 2,
        }
    );
    assert_eq!(even_split(5, 3).matched_per_round, 2);
    assert_eq!(even_split(3, 2).matched_per_round, 2);
}

fn pod_labels() -> impl Strategy<Value = BTreeMap<String, String>> {
    let value = prop::option::of(prop::sample::select(vec!["a", "b", ""]));
    (value.clone(), value).prop_map(|(zone, tier)| {
        let mut labels = BTreeMap::new();
        if let Some(zone) = zone {
            labels.insert("zone".to_string(), zone.to_string());
        }
        if let Some(tier) = tier {
            labels.insert("tier".to_string(), tier.to_string());
        }
        labels
    })
}

fn set_and_candidates() -> impl Strategy<Value = (Vec<BTreeMap<String, String>>, Vec<usize>)> {
    prop::collection::vec(pod_labels(), 0..24).prop_flat_map(|set| {
        let size = set.len();
        let candidates = prop::sample::subsequence((0..size).collect::<Vec<_>>(), 0..=size).prop_shuffle();
        (Just(set), candidates)
    })
}

proptest! {
    #[test]
    fn scattering_only_reorders_the_candidates(
        (set, candidates) in set_and_candidates(),
        term_pairs in prop::collection::vec(
            (prop::sample::select(vec!["zone", "tier"]), prop::sample::select(vec!["a", "b", ""])),
            0..4,
        ),
    ) {
        let pods: Vec<&BTreeMap<String, String>> = set.iter().collect();
        let mut scattered = scatter(&candidates, &pods, &terms(&term_pairs));
        let mut expected = candidates.clone();
        scattered.sort_unstable();
        expected.sort_unstable();
        prop_assert_eq!(scattered, expected);
    }
}
