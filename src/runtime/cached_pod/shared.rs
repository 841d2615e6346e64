//! What the pod cache's records share: equal strings (label keys and values, node names,
//! images) and equal parts of a spec (a workload's containers, the tolerations every pod
//! gets) are held once, however many pods carry them. At 10,000 pods of 100 CloneSets most
//! of a record's text is one of a few hundred distinct values; held per pod, the labels
//! alone cost a kilobyte a pod (a `BTreeMap` leaf has eleven slots).
//!
//! Invariants:
//! - Sharing never changes a value: [`Text::of`] reads back as the text it was given and
//!   [`shared`] as the value.
//! - A table holds weak references only: a value lives as long as a record holds it, and
//!   a table drops its dead entries whenever it has doubled since it last did (amortized
//!   constant work per insert, never more than twice the live entries plus a floor). A
//!   dead value's own allocation (a weak reference keeps it, not what it owns) is freed
//!   at that sweep.
//! - Two different values whose hashes collide are both correct; the later one takes the
//!   slot and only the sharing is lost.
use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};
use std::fmt::{self, Debug};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, LazyLock, Mutex, Weak};

use serde::Deserialize;
use serde::de::{Deserializer, Error, MapAccess, Visitor};

/// Entries a table keeps before its first sweep of dead ones.
const SWEEP_FLOOR: usize = 1024;

/// Shared values by the hash of their content.
pub(super) struct Table<T: ?Sized> {
    slots: Mutex<Slots<T>>,
}

struct Slots<T: ?Sized> {
    by_hash: HashMap<u64, Weak<T>>,
    /// Entries left by the last sweep.
    swept_to: usize,
}

impl<T: ?Sized + PartialEq> Table<T> {
    pub(super) fn new() -> Self {
        Self {
            slots: Mutex::new(Slots {
                by_hash: HashMap::new(),
                swept_to: 0,
            }),
        }
    }

    /// The held value equal to `value` (whose content hashes to `hash`), or `value` itself,
    /// which is then held for the next.
    fn share<V: Borrow<T> + Into<Arc<T>>>(&self, hash: u64, value: V) -> Arc<T> {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(held) = slots.by_hash.get(&hash).and_then(Weak::upgrade)
            && *held == *value.borrow()
        {
            return held;
        }
        let made: Arc<T> = value.into();
        slots.by_hash.insert(hash, Arc::downgrade(&made));
        if slots.by_hash.len() >= 2 * slots.swept_to.max(SWEEP_FLOOR) {
            slots.by_hash.retain(|_, held| held.strong_count() > 0);
            slots.swept_to = slots.by_hash.len();
        }
        made
    }

    #[cfg(test)]
    fn entries(&self) -> usize {
        self.slots.lock().unwrap_or_else(|e| e.into_inner()).by_hash.len()
    }
}

/// A shared string (see the module).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Text(Arc<str>);

static TEXTS: LazyLock<Table<str>> = LazyLock::new(Table::new);

impl Text {
    pub(super) fn of(text: &str) -> Self {
        let mut hasher = DefaultHasher::new();
        text.hash(&mut hasher);
        Self(TEXTS.share(hasher.finish(), text))
    }

    pub(super) fn as_str(&self) -> &str {
        &self.0
    }
}

impl Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Debug::fmt(self.as_str(), f)
    }
}

impl Default for Text {
    fn default() -> Self {
        Self::of("")
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Read;
        impl Visitor<'_> for Read {
            type Value = Text;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: Error>(self, text: &str) -> Result<Text, E> {
                Ok(Text::of(text))
            }
        }
        deserializer.deserialize_str(Read)
    }
}

/// `text` shared.
pub(super) fn text(text: Option<String>) -> Option<Text> {
    text.as_deref().map(Text::of)
}

/// `text` as the API's string.
pub(super) fn string(text: &Option<Text>) -> Option<String> {
    text.as_ref().map(|t| t.as_str().to_string())
}

/// A string map (labels, annotations) as pairs of shared strings, in key order: what a
/// `BTreeMap<String, String>` holds, without its node slack or a copy of each string.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Pairs(Box<[(Text, Text)]>);

impl Pairs {
    pub(super) fn of(map: BTreeMap<String, String>) -> Self {
        Self(map.iter().map(|(k, v)| (Text::of(k), Text::of(v))).collect())
    }

    /// The value of `key`, found without building the map.
    pub(super) fn get(&self, key: &str) -> Option<&str> {
        self.0
            .binary_search_by(|(k, _)| k.as_str().cmp(key))
            .ok()
            .map(|i| self.0[i].1.as_str())
    }

    pub(super) fn map(&self) -> BTreeMap<String, String> {
        self.0
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), v.as_str().to_string()))
            .collect()
    }
}

impl<'de> Deserialize<'de> for Pairs {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Read;
        impl<'de> Visitor<'de> for Read {
            type Value = Pairs;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Pairs, A::Error> {
                let mut pairs: Vec<(Text, Text)> = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some(pair) = map.next_entry::<Text, Text>()? {
                    pairs.push(pair);
                }
                // As a map reads it: in key order, the last of a repeated key kept.
                pairs.reverse();
                pairs.sort_by(|a, b| a.0.cmp(&b.0));
                pairs.dedup_by(|next, kept| next.0 == kept.0);
                Ok(Pairs(pairs.into_boxed_slice()))
            }
        }
        deserializer.deserialize_map(Read)
    }
}

/// `value` shared: equal values (by `PartialEq`, found by the hash of their `Debug` text,
/// which every API type has where `Hash` is rare) are held once, in `table`.
pub(super) fn shared<T: ?Sized + Debug + PartialEq>(table: &Table<T>, value: Box<T>) -> Arc<T> {
    let mut hasher = DefaultHasher::new();
    fmt::write(&mut HashWriter(&mut hasher), format_args!("{value:?}")).expect("hashing never fails");
    table.share(hasher.finish(), value)
}

/// A kind of value records share, and the table that holds it.
pub(super) trait Shareable: Debug + PartialEq + Send + Sync + 'static {
    fn table() -> &'static Table<Self>;
}

/// Declares, for each kind of value records share, its table.
macro_rules! shareable {
    ($($table:ident: $kind:ty),* $(,)?) => {$(
        static $table: std::sync::LazyLock<$crate::runtime::cached_pod::shared::Table<$kind>> =
            std::sync::LazyLock::new($crate::runtime::cached_pod::shared::Table::new);
        impl $crate::runtime::cached_pod::shared::Shareable for $kind {
            fn table() -> &'static $crate::runtime::cached_pod::shared::Table<Self> {
                &$table
            }
        }
    )*};
}
pub(super) use shareable;

/// A shared value of a record: read from JSON as the value, then shared (see [`shared`]).
#[derive(Debug)]
pub(super) struct Shared<T: ?Sized>(Arc<T>);

impl<T: ?Sized + Shareable> Shared<T> {
    pub(super) fn of(value: Box<T>) -> Self {
        Self(shared(T::table(), value))
    }
}

impl<T: ?Sized> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

impl<T: ?Sized + PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || *self.0 == *other.0
    }
}

impl<T: ?Sized> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// No items.
impl<T> Default for Shared<[T]> {
    fn default() -> Self {
        Self(Arc::from(Vec::new()))
    }
}

impl<'de, T: ?Sized + Shareable> Deserialize<'de> for Shared<T>
where
    Box<T>: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Self::of(Box::<T>::deserialize(deserializer)?))
    }
}

/// Feeds formatted text to a hasher (no string is built).
struct HashWriter<'a>(&'a mut DefaultHasher);

impl fmt::Write for HashWriter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_are_held_once_and_read_back_unchanged() {
        let a = Text::of("apps.kruise.io/cloneset-instance-id");
        let b = Text::of(&String::from("apps.kruise.io/cloneset-instance-id"));
        assert!(Arc::ptr_eq(&a.0, &b.0));
        assert_eq!(b.as_str(), "apps.kruise.io/cloneset-instance-id");
        assert_ne!(Text::of("a"), Text::of("b"));
    }

    #[test]
    fn equal_values_are_held_once() {
        let table: Table<[u32]> = Table::new();
        let a = shared(&table, vec![1, 2].into_boxed_slice());
        let b = shared(&table, vec![1, 2].into_boxed_slice());
        let c = shared(&table, vec![2, 1].into_boxed_slice());
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(*c, [2, 1]);
    }

    /// A collision (forced: one hash for all) loses the sharing, never a value.
    #[test]
    fn a_collision_keeps_both_values() {
        let table: Table<str> = Table::new();
        let a = table.share(7, "a");
        let b = table.share(7, "b");
        let a_again = table.share(7, "a");
        assert_eq!((&*a, &*b, &*a_again), ("a", "b", "a"));
    }

    #[test]
    fn dead_entries_are_swept_as_the_table_grows() {
        let table: Table<[u32]> = Table::new();
        let kept = shared(&table, vec![0].into_boxed_slice());
        for i in 1..10 * SWEEP_FLOOR as u32 {
            drop(shared(&table, vec![i].into_boxed_slice()));
        }
        assert!(table.entries() < 2 * SWEEP_FLOOR, "{} entries", table.entries());
        assert!(Arc::ptr_eq(&kept, &shared(&table, vec![0].into_boxed_slice())));
    }

    #[test]
    fn pairs_read_as_a_map_reads_them() {
        let read: Pairs =
            serde_json::from_slice(br#"{ "b": "2", "a": "1", "b": "3", "c": "\"q\"" }"#).expect("test input");
        let map: BTreeMap<String, String> =
            serde_json::from_slice(br#"{ "b": "2", "a": "1", "b": "3", "c": "\"q\"" }"#).expect("test input");
        assert_eq!(read.map(), map);
        assert_eq!(Pairs::of(map.clone()).map(), map);
        assert_eq!(Pairs::of(map), read);
    }
}
