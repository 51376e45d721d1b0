//! The search's transposition table: entries packed in 16 bytes, keyed on
//! [`Position::hash_key`](crate::onitama::Position::hash_key) mixed with the search
//! generation, and mate scores stored relative to the node.
//!
//! The threads of a search (Lazy SMP) share one table without locks: an entry is two
//! atomic words (relaxed loads and stores, so no data race), the key word stored xor-ed
//! with the data word. A store racing with another store of the same entry can leave the
//! key word of one and the data word of the other: the xor then no longer gives the key,
//! and the torn entry is simply not found.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::{MATE_BOUND, mix};

/// One entry of the transposition table: the key (mixed with a tag, so that entries of
/// another tag never match) xor the packed data, and the packed data.
#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

impl Entry {
    /// The entry's key (mixed with its tag) and data, as one consistent pair or a torn one
    /// (whose key then matches nothing).
    #[inline]
    fn load(&self) -> (u64, u64) {
        let data = self.data.load(Relaxed);
        (self.check.load(Relaxed) ^ data, data)
    }

    #[inline]
    fn store(&self, check: u64, data: u64) {
        self.check.store(check ^ data, Relaxed);
        self.data.store(data, Relaxed);
    }
}

pub(super) const EXACT: u8 = 0;
pub(super) const LOWER: u8 = 1;
pub(super) const UPPER: u8 = 2;
pub(super) const NO_MOVE: u16 = u16::MAX;

/// Table size: 2^19 entries of 16 bytes (8 MiB), in buckets of two.
pub(super) const TT_BITS: u32 = 19;

/// Two entries, aligned so that a bucket never straddles two cache lines (a probe reads
/// both: one memory access, not two).
#[derive(Default)]
#[repr(align(32))]
struct Bucket([Entry; 2]);

/// The table: 2^[`TT_BITS`] entries in buckets of two, a position's bucket chosen by its
/// key. The first entry of a bucket keeps the deepest search of this search (it is
/// replaced by one at least as deep, or when an earlier search stored it), the second
/// takes whatever the first does not. An entry is found only with the `tag` it was stored
/// with: a search's own generation (entries of earlier searches never match), or a tag
/// that searches share. The table is shared by the threads of a search (see the module
/// docs): stores take `&self`.
pub(super) struct Table {
    buckets: Vec<Bucket>,
}

/// The byte of `data` holding the generation of the search that stored the entry.
const AGE_SHIFT: u32 = 48;

impl Table {
    /// An empty table.
    pub(super) fn new() -> Table {
        Table {
            buckets: (0..1 << (TT_BITS - 1)).map(|_| Bucket::default()).collect(),
        }
    }

    /// Entry `i` (bucket `i / 2`).
    #[inline]
    fn entry(&self, i: usize) -> &Entry {
        &self.buckets[i >> 1].0[i & 1]
    }

    /// The index of the first entry of `key`'s bucket.
    #[inline]
    fn bucket(key: u64) -> usize {
        (key as usize) & ((1 << TT_BITS) - 2)
    }

    /// The entry of `key` stored with `tag`: best move, score, depth and flag.
    #[inline]
    pub(super) fn probe(&self, key: u64, tag: u64) -> Option<(u16, i32, i32, u8)> {
        let check = key ^ mix(tag);
        let b = Self::bucket(key);
        let data = match (self.entry(b).load(), self.entry(b + 1).load()) {
            ((k, data), _) if k == check => data,
            (_, (k, data)) if k == check => data,
            _ => return None,
        };
        let best = data as u16;
        let score = (data >> 16) as u16 as i16 as i32;
        let depth = ((data >> 32) & 0xFF) as i32;
        let flag = ((data >> 40) & 0xFF) as u8;
        Some((best, score, depth, flag))
    }

    /// Store what the search of this `generation` found for `key`, under `tag`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn store(
        &self,
        key: u64,
        tag: u64,
        generation: u64,
        best: u16,
        score: i32,
        depth: i32,
        flag: u8,
    ) {
        let depth = depth.clamp(0, 255) as u64;
        let age = generation as u8 as u64;
        let data = best as u64
            | ((score as i16 as u16 as u64) << 16)
            | (depth << 32)
            | ((flag as u64) << 40)
            | (age << AGE_SHIFT);
        let check = key ^ mix(tag);
        let b = Self::bucket(key);
        let (first_check, first) = self.entry(b).load();
        let first_depth = (first >> 32) & 0xFF;
        let first_age = (first >> AGE_SHIFT) & 0xFF;
        let slot = if first_check == check || first_age != age || depth >= first_depth {
            b
        } else {
            b + 1
        };
        self.entry(slot).store(check, data);
    }
}

pub(super) fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub(super) fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys of one bucket: the same low bits, different high bits.
    fn same_bucket(k: u64) -> u64 {
        (k << TT_BITS) | 6
    }

    #[test]
    fn a_deep_entry_survives_shallow_stores_of_its_bucket() {
        let t = Table::new();
        let (deep, a, b) = (same_bucket(1), same_bucket(2), same_bucket(3));
        t.store(deep, 1, 1, 7, 50, 9, EXACT);
        t.store(a, 1, 1, 8, 10, 2, LOWER);
        assert_eq!(t.probe(deep, 1), Some((7, 50, 9, EXACT)));
        assert_eq!(t.probe(a, 1), Some((8, 10, 2, LOWER)));
        // the second entry takes the next shallow store; the deep one stays
        t.store(b, 1, 1, 9, -5, 3, UPPER);
        assert_eq!(t.probe(a, 1), None);
        assert_eq!(t.probe(b, 1), Some((9, -5, 3, UPPER)));
        assert_eq!(t.probe(deep, 1), Some((7, 50, 9, EXACT)));
        // a deeper store takes the first entry; a store of a key already there replaces it
        t.store(a, 1, 1, 10, 1, 12, EXACT);
        assert_eq!(t.probe(a, 1), Some((10, 1, 12, EXACT)));
        assert_eq!(t.probe(deep, 1), None);
        t.store(a, 1, 1, 11, 2, 1, LOWER);
        assert_eq!(t.probe(a, 1), Some((11, 2, 1, LOWER)));
    }

    #[test]
    fn entries_of_an_earlier_search_never_match_and_are_replaced_first() {
        let t = Table::new();
        let (old, new) = (same_bucket(4), same_bucket(5));
        t.store(old, 1, 1, 3, 40, 20, EXACT);
        assert_eq!(t.probe(old, 2), None);
        t.store(new, 2, 2, 4, 30, 1, EXACT);
        assert_eq!(t.probe(new, 2), Some((4, 30, 1, EXACT)));
        assert_eq!(t.probe(old, 1), None, "the deep entry of search 1 gave way");
    }

    #[test]
    fn entries_under_a_shared_tag_outlive_their_search_but_give_way_first() {
        let t = Table::new();
        let (k, other) = (same_bucket(6), same_bucket(7));
        t.store(k, 99, 1, 3, 40, 20, EXACT);
        assert_eq!(t.probe(k, 99), Some((3, 40, 20, EXACT)));
        assert_eq!(t.probe(k, 1), None, "a search's own tag does not see it");
        // search 2, same tag: finds it; its shallow store replaces the older deep entry
        t.store(other, 99, 2, 4, 5, 1, UPPER);
        assert_eq!(t.probe(other, 99), Some((4, 5, 1, UPPER)));
        assert_eq!(t.probe(k, 99), None);
    }

    #[test]
    fn a_torn_entry_matches_no_key() {
        let t = Table::new();
        let (a, b) = (same_bucket(8), same_bucket(9));
        t.store(a, 1, 1, 3, 40, 20, EXACT);
        t.store(b, 1, 1, 4, -7, 2, LOWER); // shallower: the bucket's second entry
        let slot = Table::bucket(a);
        // a's key word with b's data word, as two racing stores of one entry can leave it
        let data_b = t.entry(slot + 1).data.load(Relaxed);
        t.entry(slot).data.store(data_b, Relaxed);
        assert_eq!(t.probe(a, 1), None);
        assert_eq!(
            t.probe(b, 1),
            Some((4, -7, 2, LOWER)),
            "b's own entry is whole"
        );
    }

    #[test]
    fn one_table_is_shared_by_threads() {
        let t = std::sync::Arc::new(Table::new());
        std::thread::scope(|s| {
            for k in 0..4u64 {
                let t = &t;
                s.spawn(move || {
                    for i in 0..10_000u64 {
                        t.store(
                            same_bucket(i % 64),
                            1,
                            1,
                            k as u16,
                            i as i32 % 100,
                            5,
                            EXACT,
                        );
                        if let Some((best, score, depth, flag)) = t.probe(same_bucket(i % 64), 1) {
                            // whatever thread stored it, an entry found is whole
                            assert!(best < 4 && (0..100).contains(&score));
                            assert_eq!((depth, flag), (5, EXACT));
                        }
                    }
                });
            }
        });
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let s = MATE_BOUND + 10;
        assert_eq!(from_tt(to_tt(s, 4), 4), s);
        assert_eq!(from_tt(to_tt(s, 4), 2), s + 2);
        assert_eq!(from_tt(to_tt(-s, 4), 2), -s - 2);
        assert_eq!(from_tt(to_tt(17, 4), 2), 17);
    }
}
