//! The search's transposition table: entries packed in 16 bytes, keyed on
//! [`Position::hash_key`](crate::onitama::Position::hash_key) mixed with the search
//! generation, and mate scores stored relative to the node.

use super::{MATE_BOUND, mix};

/// One entry of the transposition table: the key (mixed with the search generation, so
/// entries of earlier searches never match) and the packed data.
#[derive(Clone, Copy, Default)]
struct Entry {
    check: u64,
    data: u64,
}

pub(super) const EXACT: u8 = 0;
pub(super) const LOWER: u8 = 1;
pub(super) const UPPER: u8 = 2;
pub(super) const NO_MOVE: u16 = u16::MAX;

/// Table size: 2^19 entries of 16 bytes (8 MiB).
pub(super) const TT_BITS: u32 = 19;

/// The table: 2^[`TT_BITS`] entries, always replaced. Entries stored by an earlier search
/// (another `generation`) never match.
pub(super) struct Table {
    entries: Vec<Entry>,
}

impl Table {
    /// An empty table.
    pub(super) fn new() -> Table {
        Table {
            entries: vec![Entry::default(); 1 << TT_BITS],
        }
    }

    /// The entry of `key` stored in this `generation`: best move, score, depth and flag.
    pub(super) fn probe(&self, key: u64, generation: u64) -> Option<(u16, i32, i32, u8)> {
        let e = self.entries[(key as usize) & ((1 << TT_BITS) - 1)];
        if e.check != key ^ mix(generation) {
            return None;
        }
        let best = e.data as u16;
        let score = (e.data >> 16) as u16 as i16 as i32;
        let depth = ((e.data >> 32) & 0xFF) as i32;
        let flag = ((e.data >> 40) & 0xFF) as u8;
        Some((best, score, depth, flag))
    }

    /// Store what a search of `key` found (in this `generation`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &mut self,
        key: u64,
        generation: u64,
        best: u16,
        score: i32,
        depth: i32,
        flag: u8,
    ) {
        let data = best as u64
            | ((score as i16 as u16 as u64) << 16)
            | ((depth.clamp(0, 255) as u64) << 32)
            | ((flag as u64) << 40);
        let check = key ^ mix(generation);
        self.entries[(key as usize) & ((1 << TT_BITS) - 1)] = Entry { check, data };
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
