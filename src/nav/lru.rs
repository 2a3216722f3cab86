//! The one least-recently-used store every route cache is kept in: the waypoint route
//! caches ([`super::routing::RouteCaches`]), the area caches
//! ([`crate::aas::route::AreaCaches`]) and the compiled bots' goal answers. Entries are
//! stamped with a use clock that only the store's own lookups advance, so what is evicted
//! depends on the order of lookups alone, never on the wall clock or the thread count.
//!
//! Entry point: [`Lru`].

use std::collections::BTreeMap;

/// Values by key, each with the clock of its last use.
#[derive(Clone, Debug)]
pub struct Lru<K, V> {
    entries: BTreeMap<K, (V, u64)>,
    clock: u64,
}

impl<K: Ord + Copy, V> Default for Lru<K, V> {
    fn default() -> Self {
        Lru {
            entries: BTreeMap::new(),
            clock: 0,
        }
    }
}

impl<K: Ord + Copy, V> Lru<K, V> {
    /// Empty.
    pub fn new() -> Self {
        Self::default()
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when none is held.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether `key` is held.
    pub fn contains(&self, key: &K) -> bool {
        self.entries.contains_key(key)
    }

    /// The value of `key`, without counting it as used.
    pub fn peek(&self, key: &K) -> Option<&V> {
        self.entries.get(key).map(|e| &e.0)
    }

    /// Every value, in key order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.values().map(|e| &e.0)
    }

    /// A lookup: advances the use clock and, where `key` is held, marks it used now and
    /// returns its value. A value inserted after a miss is stamped with the same clock.
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        self.clock += 1;
        let clock = self.clock;
        self.entries.get_mut(key).map(|e| {
            e.1 = clock;
            &mut e.0
        })
    }

    /// Holds `value` for `key`, used as of the last lookup.
    pub fn insert(&mut self, key: K, value: V) {
        self.entries.insert(key, (value, self.clock));
    }

    /// The least recently used key other than `keep` (ties: the least key).
    fn oldest(&self, keep: Option<K>) -> Option<K> {
        self.entries
            .iter()
            .filter(|(k, _)| Some(**k) != keep)
            .min_by_key(|(k, e)| (e.1, **k))
            .map(|(k, _)| *k)
    }

    /// Evicts least recently used first until the values' `bytes` total at most `cap` —
    /// never `keep` (the one just asked for), and never the last one. Returns how many went.
    pub fn evict_to_bytes(&mut self, keep: K, cap: usize, bytes: impl Fn(&V) -> usize) -> u64 {
        let mut total: usize = self.values().map(&bytes).sum();
        let mut evicted = 0;
        while total > cap && self.entries.len() > 1 {
            let Some(k) = self.oldest(Some(keep)) else {
                break;
            };
            if let Some((v, _)) = self.entries.remove(&k) {
                total -= bytes(&v);
            }
            evicted += 1;
        }
        evicted
    }

    /// Evicts least recently used first until fewer than `max` are held (room for one more).
    pub fn make_room(&mut self, max: usize) {
        while self.entries.len() >= max {
            let Some(k) = self.oldest(None) else {
                return;
            };
            self.entries.remove(&k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicts_the_least_recently_used_but_the_one_kept() {
        let mut l: Lru<u32, usize> = Lru::new();
        for k in 0..4 {
            assert!(l.get_mut(&k).is_none());
            l.insert(k, 10);
        }
        // 0 used again: 1 is now the oldest.
        assert_eq!(l.get_mut(&0).copied(), Some(10));
        assert_eq!(l.evict_to_bytes(1, 25, |v| *v), 2);
        assert!(l.contains(&1) && l.contains(&0) && !l.contains(&2) && !l.contains(&3));
        // Never the last one, whatever the cap.
        let mut one: Lru<u32, usize> = Lru::new();
        one.get_mut(&7);
        one.insert(7, 100);
        assert_eq!(one.evict_to_bytes(7, 0, |v| *v), 0);
        assert_eq!(one.len(), 1);
    }

    #[test]
    fn makes_room_oldest_first() {
        let mut l: Lru<u32, ()> = Lru::new();
        for k in [5, 3, 9] {
            l.get_mut(&k);
            l.insert(k, ());
        }
        l.get_mut(&5);
        l.make_room(3);
        assert_eq!(l.len(), 2);
        assert!(!l.contains(&3), "3 was the least recently used");
        l.make_room(1);
        assert!(l.is_empty());
        assert!(l.peek(&5).is_none());
    }
}
