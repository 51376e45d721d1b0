//! The static evaluation ([`evaluate`]): material, general advancement and safety,
//! mobility and the wall, for the side to move.

use crate::onitama::position::Position;
use crate::onitama::square::{BOARD_MASK, Player, SOURCE_OK, shift};

/// What one side's two cards reach: every target square (not own pawn, not the wall) of
/// any pawn, of the general alone, the number of pawn moves, and the opponent pawns hit.
struct Reach {
    any: u32,
    general: u32,
    moves: u32,
}

fn reach(pos: &Position, p: Player) -> Reach {
    let i = p.index();
    let own_g = pos.generals[i];
    let own = own_g | pos.soldiers[i];
    let free = !(own | (1 << pos.wall)) & BOARD_MASK;
    let sign = if i == 0 { 1 } else { -1 };
    let mut r = Reach {
        any: 0,
        general: 0,
        moves: 0,
    };
    for k in 0..2 {
        let card = pos.cards[2 * i + k];
        let o = card.o_index() as i32;
        let (or, oc) = (o / 5, o % 5);
        let mut xs = card.xmask();
        while xs != 0 {
            let b = xs.trailing_zeros() as i32;
            xs &= xs - 1;
            let (dr, dc) = (sign * (b / 5 - or), sign * (b % 5 - oc));
            let ok = SOURCE_OK[(dr + 4) as usize][(dc + 4) as usize];
            let delta = dr * 5 + dc;
            let t = shift(own & ok, delta) & free;
            r.any |= t;
            r.moves += t.count_ones();
            r.general |= shift(own_g & ok, delta) & free;
        }
    }
    r
}

/// The row and column distances between squares `a` and `b` (0..25, row-major).
fn deltas(a: u32, b: u32) -> (i32, i32) {
    let d = |x: u32, y: u32| (x as i32 - y as i32).abs();
    (d(a / 5, b / 5), d(a % 5, b % 5))
}

fn manhattan(a: u32, b: u32) -> i32 {
    let (dr, dc) = deltas(a, b);
    dr + dc
}

fn chebyshev(a: u32, b: u32) -> i32 {
    let (dr, dc) = deltas(a, b);
    dr.max(dc)
}

/// The static evaluation, in centipawn-like units, for the side to move (which is assumed
/// unable to win at once; the search checks that first). For each side (the opponent's
/// terms subtracted): 100 per soldier; `3 (8 - d)²` for its general `d` steps (Manhattan)
/// from the opponent's base; 3 per pawn move and 2 more per general move its two cards
/// give; 40 per opponent soldier those moves attack. Then, for the mover: −120 when the
/// opponent threatens a win at once (the mover must spend its ply parrying), −40 more when
/// that threat is the opponent's general reaching the mover's base, −4 per square next to
/// the mover's general the opponent reaches, +6 for the wall next to the opponent's
/// general (the mover steps the wall next), and +10 for having the move.
pub fn evaluate(pos: &Position) -> i32 {
    let me = pos.side();
    let them = me.other();
    let (mi, ti) = (me.index(), them.index());
    let mut score = 0;
    let rm = reach(pos, me);
    let rt = reach(pos, them);
    for (p, r, other, sign) in [(me, &rm, them, 1), (them, &rt, me, -1)] {
        let i = p.index();
        let mut s = 100 * pos.soldiers[i].count_ones() as i32;
        let g = pos.generals[i];
        if g != 0 {
            let d = manhattan(g.trailing_zeros(), p.target_base().index() as u32);
            s += (8 - d) * (8 - d) * 3;
        }
        s += 3 * r.moves as i32;
        s += 2 * r.general.count_ones() as i32;
        let hit = r.any & pos.soldiers[other.index()];
        s += 40 * hit.count_ones() as i32;
        score += sign * s;
    }
    // The opponent's winning threat: the mover must spend its ply parrying it.
    let gm = pos.generals[mi];
    let base_m = me.base().bit();
    if rt.any & gm != 0 || rt.general & them.target_base().bit() != 0 {
        score -= 120;
    }
    // Squares next to the mover's general the opponent reaches (its escape squares).
    if gm != 0 {
        let near = neighbours(gm.trailing_zeros());
        score -= 4 * (near & rt.any).count_ones() as i32;
    }
    // The opponent's general near the mover's base.
    let gt = pos.generals[ti];
    if gt != 0 && rt.general & base_m != 0 {
        score -= 40;
    }
    if gt != 0 && pos.wall < 25 && chebyshev(pos.wall as u32, gt.trailing_zeros()) == 1 {
        score += 6;
    }
    score + 10
}

/// The up to eight squares around square `s`.
fn neighbours(s: u32) -> u32 {
    let (r, c) = ((s / 5) as i32, (s % 5) as i32);
    let mut m = 0;
    for dr in -1..=1 {
        for dc in -1..=1 {
            let (nr, nc) = (r + dr, c + dc);
            if (dr, dc) != (0, 0) && (0..5).contains(&nr) && (0..5).contains(&nc) {
                m |= 1 << (nr * 5 + nc);
            }
        }
    }
    m
}
