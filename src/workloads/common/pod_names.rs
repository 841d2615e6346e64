//! Random pod-name ids, as `generateName` would give (CloneSet instance ids, Advanced
//! DaemonSet pods): 5 characters of Kubernetes' safe alphabet, not among the ids in use.
use std::collections::BTreeSet;
use std::hash::{BuildHasher, Hasher};

/// Kubernetes' `rand.String` alphabet (no vowels, no lookalikes).
pub const ID_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// A fresh 5-character id not in `taken`.
pub fn random_id(taken: &BTreeSet<String>) -> String {
    loop {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(taken.len() as u64);
        let mut bits = hasher.finish();
        let id: String = (0..5)
            .map(|_| {
                let c = ID_ALPHABET[(bits % ID_ALPHABET.len() as u64) as usize] as char;
                bits /= ID_ALPHABET.len() as u64;
                c
            })
            .collect();
        if !taken.contains(&id) {
            return id;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_ids_avoid_taken_ones_and_use_the_alphabet() {
        let taken: BTreeSet<String> = (0..50).map(|_| random_id(&BTreeSet::new())).collect();
        let id = random_id(&taken);
        assert_eq!(id.len(), 5);
        assert!(!taken.contains(&id));
        assert!(id.bytes().all(|b| ID_ALPHABET.contains(&b)));
    }
}
