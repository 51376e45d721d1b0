//! The static evaluation ([`evaluate`]): a weighted sum of features of the position
//! ([`features`]) for the side to move, with one set of weights per rule set
//! ([`weights`]), fitted to the outcomes of self-play games (`examples/onitama_tune.rs`).
//!
//! The features, each counted for the side to move minus the same count for the opponent
//! unless said otherwise (see the `F_*` indices):
//!
//! - [`F_TEMPO`]: 1 (having the move);
//! - [`F_SOLDIER`] + k (15 of them): soldiers on the squares of class k, a square's class
//!   being its row counted from the owner's back row (0..5) times 3 plus its distance from
//!   the nearer side edge (0..3), so the table is the same for both sides and both wings;
//! - [`F_GENERAL`] + k (15): the general on a square of class k;
//! - [`F_MOBILITY`]: pawn moves the two hand cards give (targets not own pawns, not the
//!   wall);
//! - [`F_GENERAL_MOBILITY`]: of those, the general's;
//! - [`F_HITS`]: opponent soldiers those moves attack;
//! - [`F_THREATENED`] (the mover's only): 1 when the opponent threatens a win at once (the
//!   mover must spend its ply parrying);
//! - [`F_BASE_THREAT`] (the mover's only): 1 when that threat is the opponent's general
//!   reaching the mover's base;
//! - [`F_ESCAPES`] (the mover's only): squares next to the mover's general the opponent
//!   reaches;
//! - [`F_WALL`] (the mover's only): 1 when the wall stands next to the opponent's general;
//! - [`F_CARD`] + k (16): the hand cards' offsets of class k, an offset's class being its
//!   row step in the holder's view (−2..=2, negative forward) plus 2, times 3, plus its
//!   column step's size (0..=2); class 15 holds every longer offset;
//! - [`F_TABLE`] + …: the card tables, piece-square tables per card (one of
//!   [`ALL_CARDS`]) in four blocks ([`Block`]): a side's pieces under each card of its own
//!   hand, under each card of the opponent's hand, and, for the side to move and for
//!   the opponent, under the side card (the card the mover takes next). Each piece counts
//!   at its square in the owner's view (row 0 its back row, column 0 its left), twice:
//!   weighted by the game's phase `p` (0..=6, the pieces on the board less 4) and by
//!   `6 − p`, so that each table blends a middle-game and an end-game value. A card and
//!   its mirror image share one table, mirrored (see [`table_feature`]);
//! - [`F_FREE_TARGETS`], [`F_ANY_FREE_TARGET`] (the mover's only): opponent soldiers the
//!   mover's moves attack that no opponent move covers (a piece covers the squares its
//!   hand cards take it to, were they free), their number and whether there is one;
//! - [`F_HANGING`], [`F_ANY_HANGING`] (the mover's only): the same for the mover's
//!   soldiers under the opponent's attack;
//! - [`F_MOVER_HITS`] (the mover's only): [`F_HITS`]'s count for the side to move alone;
//! - [`F_DEFENDED`]: soldiers an own piece covers.
//!
//! The weights are in units of 1/[`WEIGHT_SCALE`]: the evaluation is the dot product
//! divided by it, rounded down.

use std::sync::{Arc, LazyLock};

use crate::onitama::card::{ALL_CARDS, Card};
use crate::onitama::movegen::{STEPS, card_step};
use crate::onitama::position::{Position, Variant};
use crate::onitama::square::{BOARD_MASK, Player, shift};

/// Having the move.
pub const F_TEMPO: usize = 0;
/// The first of the 15 soldier square classes.
pub const F_SOLDIER: usize = 1;
/// The first of the 15 general square classes.
pub const F_GENERAL: usize = 16;
/// Pawn moves of the hand cards.
pub const F_MOBILITY: usize = 31;
/// General moves of the hand cards.
pub const F_GENERAL_MOBILITY: usize = 32;
/// Opponent soldiers attacked.
pub const F_HITS: usize = 33;
/// The opponent threatens a win at once (the mover's only).
pub const F_THREATENED: usize = 34;
/// The opponent's general threatens the mover's base (the mover's only).
pub const F_BASE_THREAT: usize = 35;
/// Squares next to the mover's general the opponent reaches (the mover's only).
pub const F_ESCAPES: usize = 36;
/// The wall next to the opponent's general (the mover's only).
pub const F_WALL: usize = 37;
/// The first of the 16 card offset classes.
pub const F_CARD: usize = 38;
/// The first of the card tables' features (see [`table_feature`]).
pub const F_TABLE: usize = 54;
/// Opponent soldiers the mover attacks that no opponent piece covers (the mover's only).
pub const F_FREE_TARGETS: usize = F_TABLE + Block::ALL.len() * BLOCK_SIZE;
/// 1 when there is at least one such soldier (the mover's only).
pub const F_ANY_FREE_TARGET: usize = F_FREE_TARGETS + 1;
/// The mover's soldiers the opponent attacks that no piece of the mover covers (the
/// mover's only).
pub const F_HANGING: usize = F_FREE_TARGETS + 2;
/// 1 when there is at least one such soldier (the mover's only).
pub const F_ANY_HANGING: usize = F_FREE_TARGETS + 3;
/// Opponent soldiers the mover attacks (the mover's only: with [`F_HITS`], attacks
/// count differently for the side to move).
pub const F_MOVER_HITS: usize = F_FREE_TARGETS + 4;
/// Soldiers an own piece covers (could move to, were the square free).
pub const F_DEFENDED: usize = F_FREE_TARGETS + 5;
/// The number of features.
pub const N_FEATURES: usize = F_DEFENDED + 1;
/// The weights' unit: a weight of `WEIGHT_SCALE` is one evaluation unit.
pub const WEIGHT_SCALE: i32 = 16;
/// How many features one card's table has: 2 pieces × 25 squares × 2 phases.
const TABLE_SIZE: usize = 100;
/// How many features one block of tables has.
const BLOCK_SIZE: usize = ALL_CARDS.len() * TABLE_SIZE;

/// The blocks of card tables: whose pieces count under which card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    /// Each side's pieces under each card of its own hand.
    Hand = 0,
    /// Each side's pieces under each card of the opponent's hand.
    OpponentHand = 1,
    /// The side to move's pieces under the side card.
    MoverNext = 2,
    /// The opponent's pieces under the side card.
    OpponentNext = 3,
}

impl Block {
    /// The four blocks, in feature order.
    pub const ALL: [Block; 4] = [
        Block::Hand,
        Block::OpponentHand,
        Block::MoverNext,
        Block::OpponentNext,
    ];
}

/// One weight per feature, in 1/[`WEIGHT_SCALE`] evaluation units (a soldier is about
/// 100 units).
pub type Weights = [i32; N_FEATURES];

/// For each of [`ALL_CARDS`], the card whose table it uses and how it reads it: 0 as is,
/// 1 mirrored (the card is the mirror image of that one), 2 folded onto its left half (a
/// symmetric card).
const TABLE_OF: [(u8, u8); 32] = {
    let mut t = [(0u8, 0u8); 32];
    let mut i = 0;
    while i < 32 {
        let Some(j) = ALL_CARDS[i].mirrored().index() else {
            panic!("the standard cards are closed under mirroring");
        };
        t[i] = if i < j {
            (i as u8, 0)
        } else if i > j {
            (j as u8, 1)
        } else {
            (i as u8, 2)
        };
        i += 1;
    }
    t
};

/// For each way of reading a table (see [`TABLE_OF`]), each owner-view square's index in
/// the table (row × 5 + column, the column mirrored or folded as the way says).
const SQUARE_OF: [[u8; 25]; 3] = {
    let mut t = [[0u8; 25]; 3];
    let mut s = 0;
    while s < 25 {
        let (r, c) = (s / 5, s % 5);
        t[0][s] = s as u8;
        t[1][s] = (r * 5 + 4 - c) as u8;
        t[2][s] = (r * 5 + if c < 4 - c { c } else { 4 - c }) as u8;
        s += 1;
    }
    t
};

/// The middle-game feature of block `block`'s table of `ALL_CARDS[card]` for a piece
/// (`general` or a soldier) on the owner-view square `square` (row from the owner's back
/// row × 5 + column from its left); the end-game feature is the next one. A card and its
/// mirror image share the table of the one first in [`ALL_CARDS`], the other reading it
/// with the columns mirrored; a symmetric card's squares right of the centre read the
/// left's.
pub fn table_feature(block: Block, card: usize, general: bool, square: usize) -> usize {
    let (table, how) = TABLE_OF[card];
    let at = SQUARE_OF[how as usize][square] as usize;
    F_TABLE
        + block as usize * BLOCK_SIZE
        + table as usize * TABLE_SIZE
        + (general as usize * 25 + at) * 2
}

/// Player `p`'s pieces in `block`'s table of `card` (when it is one of [`ALL_CARDS`]),
/// counted `mg` and `eg` (the phase weights, signed).
#[inline(always)]
fn table_terms<S: Sink>(
    pos: &Position,
    sink: &mut S,
    p: Player,
    block: Block,
    card: Card,
    mg: i32,
    eg: i32,
) {
    let Some(card) = card.index() else {
        return;
    };
    let i = p.index();
    for (mut pieces, general) in [(pos.soldiers[i], false), (pos.generals[i], true)] {
        while pieces != 0 {
            let f = table_feature(
                block,
                card,
                general,
                owner_square(p, pieces.trailing_zeros()),
            );
            pieces &= pieces - 1;
            sink.add(f, mg);
            sink.add(f + 1, eg);
        }
    }
}

/// The weights of the evaluation before it was fitted (issue #24's first search), kept as
/// the tuner's reference: 100 a soldier anywhere, `3 (8 - d)²` for a general `d` steps
/// (Manhattan) from the opponent's base, 3 a pawn move and 2 more a general move, 40 an
/// attacked soldier, −120 parrying a threat and −40 more when it is the general's, −4 an
/// escape square attacked, +6 the wall next to the opponent's general, +10 the move; no
/// card tables.
pub static HAND_WEIGHTS: Weights = scaled(&{
    let mut w = [0; F_TABLE];
    w[F_TEMPO] = 10;
    let mut k = 0;
    while k < 15 {
        w[F_SOLDIER + k] = 100;
        // Class k is (row from own back row, distance from the nearer edge); the target
        // base is at (4, 2).
        let d = (4 - (k / 3) as i32) + (2 - (k % 3) as i32);
        w[F_GENERAL + k] = 3 * (8 - d) * (8 - d);
        k += 1;
    }
    w[F_MOBILITY] = 3;
    w[F_GENERAL_MOBILITY] = 2;
    w[F_HITS] = 40;
    w[F_THREATENED] = -120;
    w[F_BASE_THREAT] = -40;
    w[F_ESCAPES] = -4;
    w[F_WALL] = 6;
    w
});

/// The weights `w` of the first `M` features, the rest 0 (weights fitted before the
/// later features existed).
const fn padded<const M: usize>(w: &[i32; M]) -> Weights {
    let mut out = [0; N_FEATURES];
    let mut i = 0;
    while i < M {
        out[i] = w[i];
        i += 1;
    }
    out
}

/// Weights in whole evaluation units for the features before the card tables, as
/// [`Weights`] (the tables' weights 0).
const fn scaled(units: &[i32; F_TABLE]) -> Weights {
    let mut w = [0; N_FEATURES];
    let mut i = 0;
    while i < F_TABLE {
        w[i] = units[i] * WEIGHT_SCALE;
        i += 1;
    }
    w
}

/// The weights of standard Onitama without card tables (the tables' weights 0), fitted by `cargo run --release --example onitama_tune --
/// --rules standard --games 20000 --nodes 2000 --start hand` (self-play with
/// [`HAND_WEIGHTS`]).
pub static STANDARD_WEIGHTS_NO_TABLES: Weights = scaled(&[
    34, 111, 121, 126, 141, 162, 165, 142, 157, 165, 122, 144, 150, 118, 136, 117, -19, 25, 50, 34,
    59, 59, 66, 93, 88, 94, 141, 171, 63, 128, 192, 2, 2, 8, -65, -232, -6, 6, 14, 24, 0, -3, 0, 3,
    0, 0, 0, -3, -4, 0, 12, 0, 0, 0,
]);

/// The weights of standard Onitama, card tables included, fitted by
/// `examples/onitama_tune.rs` to 110,000 self-play games: 30,000 of
/// [`STANDARD_WEIGHTS_NO_TABLES`], 40,000 of the first card tables (one block) and 40,000
/// of the four blocks; the commands are in `weights/standard.in`.
pub static STANDARD_WEIGHTS: Weights = padded(&include!("weights/standard.in"));

/// The weights of the wall variant, fitted by `cargo run --release --example onitama_tune --
/// --rules wall --games 6000 --nodes 2000 --start hand` (self-play with [`HAND_WEIGHTS`]).
pub static WALL_WEIGHTS: Weights = scaled(&[
    51, -18, -22, -30, 40, 86, 84, 75, 81, 108, 94, 74, 98, 81, 61, 83, 132, 88, 188, -8, 89, 100,
    -89, 13, 34, -61, 157, 172, 67, 173, 192, 0, 17, -29, -260, -617, -1, 18, 199, 0, 0, 6, 5, 26,
    0, -5, -14, -3, -5, 0, 0, 0, 0, 0,
]);

/// The weights of `rules`' evaluation.
pub fn weights(rules: Variant) -> &'static Weights {
    match rules {
        Variant::Wall => &WALL_WEIGHTS,
        Variant::Standard => &STANDARD_WEIGHTS,
    }
}

/// Where [`terms`] sends each feature's count: a score (the evaluation) or a vector (the
/// features), so both come from one piece of code.
trait Sink {
    fn add(&mut self, feature: usize, count: i32);

    /// A hand card's offsets by class (see [`F_CARD`]), with the sign `sign`.
    #[inline(always)]
    fn card(&mut self, card: Card, sign: i32)
    where
        Self: Sized,
    {
        card_classes(self, card, sign);
    }

    /// Player `p`'s pieces by square class ([`F_SOLDIER`], [`F_GENERAL`]), with the sign
    /// `sign`.
    #[inline(always)]
    fn squares(&mut self, pos: &Position, p: Player, sign: i32)
    where
        Self: Sized,
    {
        let i = p.index();
        let mut soldiers = pos.soldiers[i];
        while soldiers != 0 {
            let s = soldiers.trailing_zeros();
            soldiers &= soldiers - 1;
            self.add(F_SOLDIER + class(p, s), sign);
        }
        let g = pos.generals[i];
        if g != 0 {
            self.add(F_GENERAL + class(p, g.trailing_zeros()), sign);
        }
    }

    /// Player `p`'s pieces in its five card tables (`cards`: block and card, the side card
    /// last), at phase `phase`, with the sign `sign`.
    #[inline(always)]
    fn tables(
        &mut self,
        pos: &Position,
        p: Player,
        cards: &[(Block, Card); 5],
        phase: i32,
        sign: i32,
    ) where
        Self: Sized,
    {
        let (mg, eg) = (sign * phase, sign * (6 - phase));
        for &(block, card) in cards {
            table_terms(pos, self, p, block, card, mg, eg);
        }
    }
}

struct Score<'a> {
    w: &'a Weights,
    s: i32,
}

impl Sink for Score<'_> {
    #[inline(always)]
    fn add(&mut self, feature: usize, count: i32) {
        self.s += self.w[feature] * count;
    }
}

impl Sink for Weights {
    #[inline(always)]
    fn add(&mut self, feature: usize, count: i32) {
        self[feature] += count;
    }
}

/// What one side's two cards reach: every target square (not own pawn, not the wall) of
/// any pawn, of the general alone, the number of pawn moves; the cards' offset classes go
/// to `sink` with the sign `sign`.
#[derive(Debug, PartialEq)]
struct Reach {
    any: u32,
    general: u32,
    moves: u32,
    /// Every square a piece's move lands on, were it free (own pieces included).
    cover: u32,
}

#[inline(always)]
fn reach<S: Sink>(pos: &Position, p: Player, sink: &mut S, sign: i32) -> Reach {
    let i = p.index();
    let own_g = pos.generals[i];
    let own = own_g | pos.soldiers[i];
    let free = !(own | (1 << pos.wall)) & BOARD_MASK;
    let mut r = Reach {
        any: 0,
        general: 0,
        moves: 0,
        cover: 0,
    };
    for k in 0..2 {
        let card = pos.cards[2 * i + k];
        sink.card(card, sign);
        match card.index() {
            Some(c) => r.add_steps(&STEPS[c][i], own, own_g, free),
            None => r.add_pattern(card, i, own, own_g, free),
        }
    }
    r
}

impl Reach {
    /// Add the moves of one card's offsets read from [`STEPS`] (`own`, `own_g`: the
    /// player's pieces and general; `free`: the squares it may move to).
    #[inline(always)]
    fn add_steps(&mut self, steps: &[(u32, u32, u32); 4], own: u32, own_g: u32, free: u32) {
        for &(ok, left, right) in steps {
            let all = ((own & ok) << left) >> right;
            self.cover |= all;
            let t = all & free;
            self.any |= t;
            self.moves += t.count_ones();
            self.general |= ((own_g & ok) << left) >> right & free;
        }
    }

    /// [`Reach::add_steps`] worked out from `card`'s pattern for player `i` (any card).
    #[inline(always)]
    fn add_pattern(&mut self, card: Card, i: usize, own: u32, own_g: u32, free: u32) {
        let mut xs = card.xmask();
        while xs != 0 {
            let (ok, delta) = card_step(card, xs.trailing_zeros(), i);
            xs &= xs - 1;
            let all = shift(own & ok, delta);
            self.cover |= all;
            let t = all & free;
            self.any |= t;
            self.moves += t.count_ones();
            self.general |= shift(own_g & ok, delta) & free;
        }
    }
}

/// `card`'s offsets by class, sent to `sink` with the sign `sign`.
#[inline(always)]
fn card_classes<S: Sink>(sink: &mut S, card: Card, sign: i32) {
    let mut xs = card.xmask();
    while xs != 0 {
        let b = xs.trailing_zeros();
        xs &= xs - 1;
        sink.add(F_CARD + offset_class(card, b), sign);
    }
}

/// The class of the offset of bit `b` of `card`'s pattern (see [`F_CARD`]).
#[inline(always)]
fn offset_class(card: Card, b: u32) -> usize {
    let o = card.o_index() as i32;
    let (pr, pc) = (b as i32 / 5 - o / 5, b as i32 % 5 - o % 5);
    if pr.abs() <= 2 && pc.abs() <= 2 {
        ((pr + 2) * 3 + pc.abs()) as usize
    } else {
        15
    }
}

/// `OWNER_SQUARE[p][s]`: square `s` (0..25) in player `p`'s view (row from its back row
/// × 5 + column from its left).
static OWNER_SQUARE: [[u8; 25]; 2] = {
    let mut t = [[0u8; 25]; 2];
    let mut s = 0;
    while s < 25 {
        let a = 20 - s / 5 * 5 + s % 5;
        t[0][s] = a as u8;
        t[1][s] = (24 - a) as u8;
        s += 1;
    }
    t
};

/// Square `s` (0..25) in player `p`'s view: row from its back row × 5 + column from its
/// left.
#[inline(always)]
fn owner_square(p: Player, s: u32) -> usize {
    OWNER_SQUARE[p.index()][s as usize % 25] as usize
}

/// The square class of an owner-view square `v` (see the module docs).
const fn view_class(v: usize) -> usize {
    let c = v % 5;
    v / 5 * 3 + if c < 4 - c { c } else { 4 - c }
}

/// The square class of square `s` (0..25) for player `p` (see the module docs).
#[inline(always)]
fn class(p: Player, s: u32) -> usize {
    view_class(owner_square(p, s))
}

fn chebyshev(a: u32, b: u32) -> u32 {
    (a / 5).abs_diff(b / 5).max((a % 5).abs_diff(b % 5))
}

/// Every feature's count of `pos`, sent to `sink`.
#[inline(always)]
fn terms<S: Sink>(pos: &Position, sink: &mut S) {
    let me = pos.side();
    let them = me.other();
    let (mi, ti) = (me.index(), them.index());
    let rm = reach(pos, me, sink, 1);
    let rt = reach(pos, them, sink, -1);
    let pieces =
        (pos.generals[0] | pos.generals[1] | pos.soldiers[0] | pos.soldiers[1]).count_ones() as i32;
    let phase = (pieces - 4).clamp(0, 6);
    for (p, r, other, sign) in [(me, &rm, them, 1), (them, &rt, me, -1)] {
        let i = p.index();
        let (o, next) = if sign == 1 {
            (ti, Block::MoverNext)
        } else {
            (mi, Block::OpponentNext)
        };
        let cards = [
            (Block::Hand, pos.cards[2 * i]),
            (Block::Hand, pos.cards[2 * i + 1]),
            (Block::OpponentHand, pos.cards[2 * o]),
            (Block::OpponentHand, pos.cards[2 * o + 1]),
            (next, pos.cards[4]),
        ];
        sink.tables(pos, p, &cards, phase, sign);
        sink.squares(pos, p, sign);
        sink.add(F_MOBILITY, sign * r.moves as i32);
        sink.add(F_GENERAL_MOBILITY, sign * r.general.count_ones() as i32);
        let hit = r.any & pos.soldiers[other.index()];
        sink.add(F_HITS, sign * hit.count_ones() as i32);
    }
    let gm = pos.generals[mi];
    if rt.any & gm != 0 || rt.general & them.target_base().bit() != 0 {
        sink.add(F_THREATENED, 1);
    }
    if gm != 0 {
        let near = neighbours(gm.trailing_zeros());
        sink.add(F_ESCAPES, (near & rt.any).count_ones() as i32);
    }
    let gt = pos.generals[ti];
    if gt != 0 && rt.general & me.base().bit() != 0 {
        sink.add(F_BASE_THREAT, 1);
    }
    if gt != 0 && pos.wall < 25 && chebyshev(pos.wall as u32, gt.trailing_zeros()) == 1 {
        sink.add(F_WALL, 1);
    }
    let (mine, theirs) = (pos.soldiers[mi], pos.soldiers[ti]);
    let hits = rm.any & theirs;
    sink.add(F_MOVER_HITS, hits.count_ones() as i32);
    let free_targets = hits & !rt.cover;
    sink.add(F_FREE_TARGETS, free_targets.count_ones() as i32);
    sink.add(F_ANY_FREE_TARGET, (free_targets != 0) as i32);
    let hanging = rt.any & mine & !rm.cover;
    sink.add(F_HANGING, hanging.count_ones() as i32);
    sink.add(F_ANY_HANGING, (hanging != 0) as i32);
    sink.add(
        F_DEFENDED,
        (mine & rm.cover).count_ones() as i32 - (theirs & rt.cover).count_ones() as i32,
    );
    sink.add(F_TEMPO, 1);
}

/// The static evaluation, in centipawn-like units, for the side to move (which is assumed
/// unable to win at once; the search checks that first): the dot product of
/// [`features`] and the [`weights`] of the position's rule set, divided by
/// [`WEIGHT_SCALE`] (rounded down).
pub fn evaluate(pos: &Position) -> i32 {
    engine_evaluator(pos.rules()).evaluate(pos)
}

/// The [`Evaluator`] of `rules`' [`weights`], built once and shared.
pub fn engine_evaluator(rules: Variant) -> Arc<Evaluator> {
    static ENGINE: LazyLock<[Arc<Evaluator>; 2]> = LazyLock::new(|| {
        [
            Arc::new(Evaluator::new(weights(Variant::Wall))),
            Arc::new(Evaluator::new(weights(Variant::Standard))),
        ]
    });
    Arc::clone(&ENGINE[(rules == Variant::Standard) as usize])
}

/// [`evaluate`] with the weights `w`.
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let mut score = Score { w, s: 0 };
    terms(pos, &mut score);
    score.s.div_euclid(WEIGHT_SCALE)
}

/// One blended table row: a card's values for the soldier (0..25) and the general
/// (25..50) on each owner-view square, at one phase.
type Row = [i32; 50];

/// An evaluation with its weights laid out for speed: each card table unfolded for every
/// card (no mirroring left to do) and blended for every phase, so that a piece costs one
/// load per table; the square classes' weights ([`F_SOLDIER`], [`F_GENERAL`]) are added
/// to the side card's rows (each side's pieces are counted under the side card once).
/// [`Evaluator::evaluate`] equals [`evaluate_with`] of its weights.
pub struct Evaluator {
    w: Box<Weights>,
    /// For each of [`ALL_CARDS`], the sum of its offsets' class weights.
    cards: [i32; ALL_CARDS.len()],
    /// Row `(phase × 4 + block) × 32 + card`.
    rows: Box<[Row]>,
    /// The side card's row when it is not one of [`ALL_CARDS`]: the square classes only.
    classes: Row,
}

/// The row of no table (a card not in [`ALL_CARDS`]).
static NO_ROW: Row = [0; 50];

/// Is `block` one of the side card's (whose rows hold the square classes' weights too)?
fn is_side_card(block: Block) -> bool {
    matches!(block, Block::MoverNext | Block::OpponentNext)
}

impl Evaluator {
    /// The evaluator of the weights `w`.
    pub fn new(w: &Weights) -> Evaluator {
        let classes: Row = std::array::from_fn(|k| {
            let first = if k >= 25 { F_GENERAL } else { F_SOLDIER };
            w[first + view_class(k % 25)]
        });
        let mut rows = vec![[0; 50]; 7 * Block::ALL.len() * ALL_CARDS.len()].into_boxed_slice();
        for phase in 0..7 {
            for block in Block::ALL {
                for card in 0..ALL_CARDS.len() {
                    let row = &mut rows[(phase * 4 + block as usize) * 32 + card];
                    for (k, v) in row.iter_mut().enumerate() {
                        let f = table_feature(block, card, k >= 25, k % 25);
                        *v = w[f] * phase as i32 + w[f + 1] * (6 - phase as i32);
                        if is_side_card(block) {
                            *v += classes[k];
                        }
                    }
                }
            }
        }
        let cards = std::array::from_fn(|c| {
            let mut sum = Score { w, s: 0 };
            card_classes(&mut sum, ALL_CARDS[c], 1);
            sum.s
        });
        Evaluator {
            w: Box::new(*w),
            cards,
            rows,
            classes,
        }
    }

    /// [`evaluate_with`] of `pos` and this evaluator's weights.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        summed(pos, Fast { ev: self, s: 0 })
    }
}

/// A [`Sink`] that sums a score.
trait Total: Sink {
    /// The score summed, in weight units.
    fn total(&self) -> i32;
}

/// The score `sink` sums over the features of `pos`, in evaluation units. Compiled for
/// CPUs with POPCNT too (every x86-64 CPU since 2008, but not the x86-64 baseline the crate
/// is built for), chosen at run time: the features' counts are one instruction each instead
/// of a dozen, the same results.
#[inline(always)]
fn summed<S: Total>(pos: &Position, sink: S) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: this CPU has the POPCNT instruction.
        return unsafe { summed_popcnt(pos, sink) };
    }
    summed_here(pos, sink)
}

/// [`summed`] with POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn summed_popcnt<S: Total>(pos: &Position, sink: S) -> i32 {
    summed_here(pos, sink)
}

#[inline(always)]
fn summed_here<S: Total>(pos: &Position, mut sink: S) -> i32 {
    terms(pos, &mut sink);
    sink.total().div_euclid(WEIGHT_SCALE)
}

/// An [`Evaluator`] specialised to one game's five cards (all of [`ALL_CARDS`]): a side's
/// five card tables summed ahead for every way the five cards can lie (its hand, the side
/// card, whether it is to move) and every phase, so that a piece costs one load instead of
/// five. [`CardSetEvaluator::evaluate`] equals [`Evaluator::evaluate`] on every position;
/// a position with other cards or of other rules is handed to the evaluator it was built
/// from.
pub struct CardSetEvaluator {
    ev: Arc<Evaluator>,
    /// The rules of the evaluator's positions.
    rules: Variant,
    /// For each of [`ALL_CARDS`], its place (0..5) in the set plus 1, 0 when not in it.
    local: [u8; ALL_CARDS.len()],
    /// Row `((mover × 7 + phase) × 5 + a) × 25 + b × 5 + s`: a side's five tables summed
    /// (the side card's with the square classes), for hand cards `a`, `b` and side card
    /// `s` (places in the set), `mover` 1 for the side to move.
    rows: Box<[Row]>,
}

impl CardSetEvaluator {
    /// `ev`'s evaluation of the positions of `pos`'s rules dealt its five cards; `None`
    /// when one of them is not one of [`ALL_CARDS`] or two are the same.
    pub fn new(ev: Arc<Evaluator>, pos: &Position) -> Option<CardSetEvaluator> {
        let mut set = [0usize; 5];
        let mut local = [0u8; ALL_CARDS.len()];
        for (k, card) in pos.cards.iter().enumerate() {
            let c = card.index()?;
            if local[c] != 0 {
                return None;
            }
            local[c] = k as u8 + 1;
            set[k] = c;
        }
        let mut rows = vec![[0; 50]; 2 * 7 * 125].into_boxed_slice();
        for mover in 0..2 {
            let next = if mover == 1 {
                Block::MoverNext
            } else {
                Block::OpponentNext
            };
            for phase in 0..7 {
                let row =
                    |block: Block, k: usize| &ev.rows[(phase * 4 + block as usize) * 32 + set[k]];
                for a in 0..5 {
                    for b in 0..5 {
                        for side in 0..5 {
                            if a == b || a == side || b == side {
                                continue;
                            }
                            let mut theirs = (0..5).filter(|&k| k != a && k != b && k != side);
                            let (c, d) = (theirs.next().unwrap_or(0), theirs.next().unwrap_or(0));
                            let parts = [
                                row(Block::Hand, a),
                                row(Block::Hand, b),
                                row(Block::OpponentHand, c),
                                row(Block::OpponentHand, d),
                                row(next, side),
                            ];
                            let out = &mut rows[((mover * 7 + phase) * 5 + a) * 25 + b * 5 + side];
                            for (k, v) in out.iter_mut().enumerate() {
                                *v = parts.iter().map(|r| r[k]).sum();
                            }
                        }
                    }
                }
            }
        }
        Some(CardSetEvaluator {
            rules: pos.rules(),
            ev,
            local,
            rows,
        })
    }

    /// Are `pos`'s five cards this evaluator's, and its rules?
    #[inline]
    pub fn covers(&self, pos: &Position) -> bool {
        let mut seen = 0u32;
        for card in pos.cards {
            match card.index().map(|i| self.local[i]) {
                Some(place) if place != 0 => seen |= 1 << place,
                _ => return false,
            }
        }
        seen == 0b11_1110 && pos.rules() == self.rules
    }

    /// [`Evaluator::evaluate`] of `pos`.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        if self.covers(pos) {
            self.evaluate_covered(pos)
        } else {
            self.ev.evaluate(pos)
        }
    }

    /// [`CardSetEvaluator::evaluate`] of a position it [covers](CardSetEvaluator::covers).
    #[inline]
    pub(super) fn evaluate_covered(&self, pos: &Position) -> i32 {
        debug_assert!(self.covers(pos), "not this evaluator's cards: {pos}");
        let fast = Fast { ev: &self.ev, s: 0 };
        summed(pos, Summed { fast, set: self })
    }
}

/// The [`Sink`] of [`CardSetEvaluator::evaluate`] (whose positions' cards are all in its
/// set).
struct Summed<'a> {
    fast: Fast<'a>,
    set: &'a CardSetEvaluator,
}

impl Sink for Summed<'_> {
    #[inline(always)]
    fn add(&mut self, feature: usize, count: i32) {
        self.fast.add(feature, count);
    }

    #[inline(always)]
    fn card(&mut self, card: Card, sign: i32) {
        self.fast.card(card, sign);
    }

    /// Counted in [`Summed::tables`] (the side card's rows).
    #[inline(always)]
    fn squares(&mut self, _pos: &Position, _p: Player, _sign: i32) {}

    #[inline(always)]
    fn tables(
        &mut self,
        pos: &Position,
        p: Player,
        cards: &[(Block, Card); 5],
        phase: i32,
        sign: i32,
    ) {
        let place = |k: usize| {
            let c = cards[k].1.index().unwrap_or(0) % ALL_CARDS.len();
            (self.set.local[c] as usize).saturating_sub(1) % 5
        };
        let mover = (sign == 1) as usize;
        let at = ((mover * 7 + phase as usize % 7) * 5 + place(0)) * 25 + place(1) * 5 + place(4);
        self.fast.s += sign * on_rows(pos, p, [&self.set.rows[at]]);
    }
}

/// The [`Sink`] of [`Evaluator::evaluate`].
struct Fast<'a> {
    ev: &'a Evaluator,
    s: i32,
}

impl Total for Fast<'_> {
    fn total(&self) -> i32 {
        self.s
    }
}

impl Total for Summed<'_> {
    fn total(&self) -> i32 {
        self.fast.s
    }
}

impl Sink for Fast<'_> {
    #[inline(always)]
    fn add(&mut self, feature: usize, count: i32) {
        self.s += self.ev.w[feature] * count;
    }

    #[inline(always)]
    fn card(&mut self, card: Card, sign: i32) {
        match card.index() {
            Some(c) => self.s += sign * self.ev.cards[c],
            None => card_classes(self, card, sign),
        }
    }

    /// Counted in [`Fast::tables`] (the side card's rows).
    #[inline(always)]
    fn squares(&mut self, _pos: &Position, _p: Player, _sign: i32) {}

    #[inline(always)]
    fn tables(
        &mut self,
        pos: &Position,
        p: Player,
        cards: &[(Block, Card); 5],
        phase: i32,
        sign: i32,
    ) {
        let base = phase as usize * 4 * 32;
        let row = |k: usize| -> &Row {
            let (block, card) = cards[k];
            match card.index() {
                Some(c) => &self.ev.rows[base + block as usize * 32 + c],
                None if is_side_card(block) => &self.ev.classes,
                None => &NO_ROW,
            }
        };
        // Not `cards.map`: its closure was not inlined into the POPCNT build.
        let rows = [row(0), row(1), row(2), row(3), row(4)];
        self.s += sign * on_rows(pos, p, rows);
    }
}

/// The sum over player `p`'s pieces of `rows`' values at each one's owner-view square (a
/// soldier's in 0..25, the general's in 25..50).
#[inline(always)]
fn on_rows<const N: usize>(pos: &Position, p: Player, rows: [&Row; N]) -> i32 {
    #[inline(always)]
    fn at<const N: usize>(rows: &[&Row; N], s: usize) -> i32 {
        let mut v = 0;
        for row in rows {
            v += row[s];
        }
        v
    }
    let i = p.index();
    let mut sum = 0;
    let mut soldiers = pos.soldiers[i];
    while soldiers != 0 {
        sum += at(&rows, owner_square(p, soldiers.trailing_zeros()));
        soldiers &= soldiers - 1;
    }
    let g = pos.generals[i];
    if g != 0 {
        sum += at(&rows, 25 + owner_square(p, g.trailing_zeros()));
    }
    sum
}

/// The features of `pos` for the side to move (see the module docs), whose dot product
/// with a [`Weights`], divided by [`WEIGHT_SCALE`], is [`evaluate_with`].
pub fn features(pos: &Position) -> [i32; N_FEATURES] {
    let mut f = [0; N_FEATURES];
    terms(pos, &mut f);
    f
}

/// The up to eight squares around square `s`.
fn neighbours(s: u32) -> u32 {
    /// `AROUND[s]`: the squares one king step from `s`.
    static AROUND: [u32; 25] = {
        let mut t = [0u32; 25];
        let mut s = 0;
        while s < 25 {
            let (r, c) = (s as i32 / 5, s as i32 % 5);
            let mut dr = -1;
            while dr <= 1 {
                let mut dc = -1;
                while dc <= 1 {
                    let (nr, nc) = (r + dr, c + dc);
                    if (dr != 0 || dc != 0) && 0 <= nr && nr < 5 && 0 <= nc && nc < 5 {
                        t[s] |= 1 << (nr * 5 + nc);
                    }
                    dc += 1;
                }
                dr += 1;
            }
            s += 1;
        }
        t
    };
    AROUND[s as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of the 32 cards' offsets moves what their patterns move, for both players
    /// and any pieces.
    #[test]
    fn steps_move_as_the_patterns() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32 & BOARD_MASK
        };
        for (c, &card) in ALL_CARDS.iter().enumerate() {
            for (i, steps) in STEPS[c].iter().enumerate() {
                for _ in 0..200 {
                    let own = next() & next();
                    let own_g = own & own.wrapping_neg();
                    let free = !own & next() & BOARD_MASK;
                    let blank = || Reach {
                        any: 0,
                        general: 0,
                        moves: 0,
                        cover: 0,
                    };
                    let (mut a, mut b) = (blank(), blank());
                    a.add_steps(steps, own, own_g, free);
                    b.add_pattern(card, i, own, own_g, free);
                    assert_eq!(a, b, "card {c}, player {i}, pieces {own:#x}");
                }
            }
        }
    }
}
