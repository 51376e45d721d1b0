//! Perft: counting action sequences, to check the move generator against known numbers
//! (`perft.json`) and to time it.
//!
//! Convention of `perft.json`: `perft(pos, 0) = 1`; `perft(pos, d)` is the sum over the
//! legal actions `a` of `pos` of 1 if `a` wins, else `perft(pos after a, d - 1)`. A winning
//! move is one action (no wall part) and a leaf at any depth. A position with no plies left
//! has no actions.

use std::time::{Duration, Instant};

use super::action::{Action, ActionList};
use super::position::Position;
use crate::stop::Stop;

/// The deepest perft a front end asks for (far beyond what finishes: the counts grow
/// about thirtyfold a ply).
pub const MAX_PERFT_DEPTH: u32 = 64;

/// `perft(pos, depth)` in the convention of `perft.json` (copy-make, with the last ply
/// counted in bulk by [`Position::count_actions`]). A finished position counts 0 for any
/// `depth > 0`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    // Without a stop flag the count always completes.
    perft_counted(pos, depth, None).unwrap_or(0)
}

/// [`perft`], giving up (`None`) once `stop` is requested: the flag is polled at every
/// position two or more plies from the leaves, so a stop is seen within a few
/// microseconds.
pub fn perft_until(pos: &Position, depth: u32, stop: &Stop) -> Option<u64> {
    perft_counted(pos, depth, Some(stop))
}

fn perft_counted(pos: &Position, depth: u32, stop: Option<&Stop>) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if pos.is_over() {
        return Some(0);
    }
    perft_inner(pos, depth, stop)
}

fn perft_inner(pos: &Position, depth: u32, stop: Option<&Stop>) -> Option<u64> {
    if depth == 1 {
        return Some(pos.count_actions());
    }
    if stop.is_some_and(Stop::requested) {
        return None;
    }
    let mut list = ActionList::new();
    pos.generate(&mut list);
    let mut n = 0;
    for &a in list.iter() {
        n += if a.is_win() {
            1
        } else {
            perft_inner(&pos.after(a), depth - 1, stop)?
        };
    }
    Some(n)
}

/// For each legal action of `pos`, the number of `depth`-ply sequences starting with it
/// (a winning action counts 1). The counts add up to `perft(pos, depth)`.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Action, u64)> {
    let depth = depth.max(1);
    pos.legal_actions()
        .iter()
        .map(|&a| {
            let n = if a.is_win() {
                1
            } else {
                perft(&pos.after(a), depth - 1)
            };
            (a, n)
        })
        .collect()
}

/// The number of action sequences of exactly `depth` plies (a win before the last ply
/// ends the sequence early and counts 0): `perft_exact_length_convention` in `perft.json`.
pub fn perft_exact(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_over() {
        return 0;
    }
    let mut list = ActionList::new();
    pos.generate(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    list.iter()
        .filter(|a| !a.is_win())
        .map(|&a| perft_exact(&pos.after(a), depth - 1))
        .sum()
}

/// `perft(pos, depth)` again, the slow honest way: every action, the last ply's included,
/// is made and unmade in place ([`Position::make_unchecked`] / [`Position::unmake`]); no
/// bulk counting. For checking make/unmake and timing a full make per action.
pub fn perft_make_unmake(pos: &Position, depth: u32) -> u64 {
    /// One list per ply, allocated once for the whole run.
    fn go(pos: &mut Position, depth: u32, lists: &mut [ActionList]) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (list, deeper) = lists.split_first_mut().expect("one list per ply");
        pos.generate(list);
        let mut n = 0;
        for &a in list.iter() {
            if a.is_win() {
                n += 1;
            } else {
                let undo = pos.make_unchecked(a);
                n += go(pos, depth - 1, deeper);
                pos.unmake(undo);
            }
        }
        n
    }
    if depth > 0 && pos.is_over() {
        return 0;
    }
    let mut lists: Vec<ActionList> = (0..depth).map(|_| ActionList::new()).collect();
    let mut p = *pos;
    let n = go(&mut p, depth, &mut lists);
    debug_assert_eq!(p, *pos);
    n
}

/// A timed perft run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerftTiming {
    /// The count.
    pub count: u64,
    /// Wall-clock time taken.
    pub elapsed: Duration,
}

impl PerftTiming {
    /// Counted actions per second.
    pub fn per_second(&self) -> f64 {
        self.count as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Time one call of `count(pos, depth)` (e.g. [`perft`] or [`perft_make_unmake`]).
pub fn time_perft(count: fn(&Position, u32) -> u64, pos: &Position, depth: u32) -> PerftTiming {
    let t0 = Instant::now();
    let count = count(pos, depth);
    PerftTiming {
        count,
        elapsed: t0.elapsed(),
    }
}
