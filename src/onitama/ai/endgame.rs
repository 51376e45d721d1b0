//! Endgame tables of standard Onitama ([`EndgameTable`]): every position of five given
//! cards with at most a given number of pieces on the board (the two masters included),
//! solved by retrograde analysis. A position is won, lost or drawn for the side to move;
//! a won or lost one also has its *distance*: the plies to the winning ply under best play,
//! the winner winning as fast as it can and the loser holding out as long as it can (1: the
//! side to move wins at once; 2: whatever it plays, the opponent wins at once).
//!
//! **What a position is.** Standard Onitama is the same game seen from either side (the
//! board turned half a turn, the colours and the hands swapped), so a table keeps each
//! position once, from the side to move's view: its master and students, the opponent's
//! master and students, which two of the five cards it holds, which two the opponent
//! holds and which is the side card (30 ways). The ply limit is not part of it: a table
//! solves the game without one, and [`EndgameTable::score`] turns a distance into the
//! score of a game with `n` plies left (a win or loss further away than `n` plies is a
//! tie there, as neither side can force more).
//!
//! **The index.** Positions are grouped in *classes* by the students of each side (the
//! mover's `s`, the opponent's `o`). In a class, a position's index is, from the most to the
//! least significant: the two masters (25 × 24), the mover's students (a combination of the
//! 23 other squares, by its colexicographic rank), the opponent's (of the `23 - s` squares
//! left) and the cards (30; innermost, so that the positions a move is undone to often
//! share a cache line). One byte a position: 0 a draw, an odd `d` a win in `d` plies, an
//! even `d` a loss in `d` plies, 255 no position (a master on its winning square: the game
//! is over there).
//!
//! **The build.** Classes are solved by the number of students in all, fewest first (a
//! capture leads to a class with one student less, solved before). For each number, every
//! position gets the count of its actions, and those with a winning action the distance 1.
//! Then level by level (`d = 1, 2, ...`), each position at distance `d` is taken back one
//! ply, to every position with an action leading to it (the opponent's move undone with
//! the card that is now the side card, from either of the two cards the opponent holds
//! having been the side card; a capture undone when the position is of the class below; a
//! card played without a move when the mover had no pawn move): one at a loss in `d` makes
//! that position a win in `d + 1` (if it has none yet); one at a win in `d` takes one from
//! that position's count of actions, and the last makes it a loss in `d + 1`. What is
//! left when no level adds anything is drawn. A level's positions are shared among the
//! build's threads; its updates are all of one kind (wins, or counts taken down), so their
//! order does not matter and the table is the same on any number of threads.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, Ordering::Relaxed};
use std::time::Instant;

use super::{AiSettings, MATE};
use crate::onitama::card::Card;
use crate::onitama::error::OnitamaError;
use crate::onitama::position::{Position, Status};
use crate::onitama::square::Player;
use crate::stop::Stop;

/// The most students of a side (an army is a master and four students).
const MAX_STUDENTS: usize = 4;
/// A table slot that is no position.
const NONE: u8 = u8::MAX;
/// The longest distance a table stores, in plies.
pub const MAX_DISTANCE: u32 = 254;
/// The mover's winning square (a3) and the opponent's (e3), in the mover's view.
const GOAL: u32 = 2;
const THEIR_GOAL: u32 = 22;
/// The number of ways to place the five cards (side card, then the mover's two).
const DEALS: usize = 30;
/// The number of ways to place the two masters.
const MASTERS: usize = 25 * 24;

/// `BINOM[n][k]` = n choose k, for n up to 25 and k up to [`MAX_STUDENTS`].
const BINOM: [[u32; MAX_STUDENTS + 1]; 26] = {
    let mut t = [[0u32; MAX_STUDENTS + 1]; 26];
    let mut n = 0;
    while n < 26 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= MAX_STUDENTS {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// A square mask seen from the other side (the board turned half a turn).
#[inline]
fn turn(mask: u32) -> u32 {
    mask.reverse_bits() >> 7
}

/// The colexicographic rank of the set `mask` among the sets of as many squares outside
/// `holes`.
#[inline]
fn rank(mut mask: u32, holes: u32) -> u32 {
    let mut r = 0;
    let mut k = 1;
    while mask != 0 {
        let sq = mask.trailing_zeros();
        mask &= mask - 1;
        let p = sq - (holes & ((1 << sq) - 1)).count_ones();
        r += BINOM[p as usize][k];
        k += 1;
    }
    r
}

/// The next set of as many bits in numeric (= colexicographic) order (Gosper's hack).
#[inline]
fn next_combination(x: u32) -> u32 {
    let c = x & x.wrapping_neg();
    let r = x + c;
    (((r ^ x) >> 2) / c) | r
}

/// The squares of `compact` (a set of indices into `free`).
#[inline]
fn expand(mut compact: u32, free: &[u8]) -> u32 {
    let mut m = 0;
    while compact != 0 {
        m |= 1 << free[compact.trailing_zeros() as usize];
        compact &= compact - 1;
    }
    m
}

/// The squares not in `holes`, in order.
#[inline]
fn free_squares(holes: u32) -> [u8; 25] {
    let mut free = [0u8; 25];
    let mut m = !holes & ((1 << 25) - 1);
    let mut n = 0;
    while m != 0 {
        free[n] = m.trailing_zeros() as u8;
        m &= m - 1;
        n += 1;
    }
    free
}

/// A position in the mover's view: the masters' squares, the students' masks, the cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rel {
    master: u32,
    their_master: u32,
    students: u32,
    their_students: u32,
    deal: usize,
}

/// Where the five cards are: the mover's two and the opponent's two (masks of card
/// indices), and the side card's index.
#[derive(Clone, Copy, Debug, Default)]
struct Deal {
    hand: u8,
    theirs: u8,
    side: u8,
}

/// The card geometry of one table: each card's moves, and the deals with their
/// transitions.
struct Geometry {
    /// `moves[k][sq]`: the squares the mover reaches from `sq` with card `k`.
    moves: [[u32; 25]; 5],
    /// `reach[k][sq]`: the squares from which the mover reaches `sq` with card `k`.
    reach: [[u32; 25]; 5],
    deals: [Deal; DEALS],
    /// `deal_of[side][hand mask]`.
    deal_of: [[u8; 32]; 5],
    /// `before[d][j]`: the deal, in the last mover's view, before it played the side card,
    /// card `j` of the opponent's hand having been the side card then.
    before: [[u8; 5]; DEALS],
}

impl Geometry {
    fn new(cards: &[Card; 5]) -> Geometry {
        let mut moves = [[0u32; 25]; 5];
        let mut reach = [[0u32; 25]; 5];
        for (k, card) in cards.iter().enumerate() {
            for from in 0..25i32 {
                let (r, c) = (from / 5, from % 5);
                for (dr, dc) in card.moves_for(Player::A) {
                    let (tr, tc) = (r + dr as i32, c + dc as i32);
                    if (0..5).contains(&tr) && (0..5).contains(&tc) {
                        let to = tr * 5 + tc;
                        moves[k][from as usize] |= 1 << to;
                        reach[k][to as usize] |= 1 << from;
                    }
                }
            }
        }
        let mut deals = [Deal::default(); DEALS];
        let mut deal_of = [[u8::MAX; 32]; 5];
        let mut n = 0;
        for side in 0..5u8 {
            for hand in 0..32u8 {
                if hand.count_ones() == 2 && hand & (1 << side) == 0 {
                    deals[n] = Deal {
                        hand,
                        theirs: 31 ^ hand ^ (1 << side),
                        side,
                    };
                    deal_of[side as usize][hand as usize] = n as u8;
                    n += 1;
                }
            }
        }
        let mut before = [[u8::MAX; 5]; DEALS];
        for (d, deal) in deals.iter().enumerate() {
            for k in 0..5 {
                if deal.theirs & (1 << k) != 0 {
                    let hand = deal.theirs ^ (1 << k) | (1 << deal.side);
                    before[d][k] = deal_of[k][hand as usize];
                }
            }
        }
        Geometry {
            moves,
            reach,
            deals,
            deal_of,
            before,
        }
    }

    /// The number of pawn moves of the mover with card `k` (its pieces `own`).
    #[inline]
    fn card_moves(&self, k: usize, own: u32) -> u32 {
        let mut n = 0;
        let mut pieces = own;
        while pieces != 0 {
            let sq = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            n += (self.moves[k][sq] & !own).count_ones();
        }
        n
    }

    /// Does card `k` give the mover (its pieces `own`, its master on `master`) a win at
    /// once: a piece onto the opponent's master, or its master onto its goal?
    #[inline]
    fn card_wins(&self, k: usize, own: u32, master: u32, their_master: u32) -> bool {
        self.reach[k][their_master as usize] & own != 0
            || (own & (1 << GOAL) == 0 && self.reach[k][GOAL as usize] & (1 << master) != 0)
    }

    /// The number of pawn moves of the mover.
    #[inline]
    fn pawn_moves(&self, p: &Rel) -> u32 {
        let own = p.students | (1 << p.master);
        let hand = self.deals[p.deal].hand;
        (0..5)
            .filter(|k| hand & (1 << k) != 0)
            .map(|k| self.card_moves(k, own))
            .sum()
    }

    /// The positions, in their mover's view, with an action leading to `p`: the opponent's
    /// last move undone (with the card that is now the side card; either card of its hand
    /// having been the side card before), with one of the mover's students put back on the
    /// square it moved to when `capture`, or, without a capture, the card played without
    /// a move by an opponent that had no pawn move.
    fn take_back(&self, p: &Rel, capture: bool, found: &mut Vec<Rel>) {
        let deal = self.deals[p.deal];
        let occupied = (1 << p.master) | (1 << p.their_master) | p.students | p.their_students;
        let x = deal.side as usize;
        let mut pieces = p.their_students | (1 << p.their_master);
        while pieces != 0 {
            let t = pieces.trailing_zeros();
            pieces &= pieces - 1;
            let mut sources = self.moves[x][t as usize] & !occupied;
            while sources != 0 {
                let f = sources.trailing_zeros();
                sources &= sources - 1;
                let (their_master, their_students) = if t == p.their_master {
                    if f == THEIR_GOAL {
                        continue;
                    }
                    (f, p.their_students)
                } else {
                    (p.their_master, p.their_students ^ (1 << t) ^ (1 << f))
                };
                let students = if capture {
                    p.students | (1 << t)
                } else {
                    p.students
                };
                for j in 0..5 {
                    if deal.theirs & (1 << j) != 0 {
                        found.push(Rel {
                            master: 24 - their_master,
                            their_master: 24 - p.master,
                            students: turn(their_students),
                            their_students: turn(students),
                            deal: self.before[p.deal][j] as usize,
                        });
                    }
                }
            }
        }
        if !capture {
            for j in 0..5 {
                if deal.theirs & (1 << j) != 0 {
                    let q = Rel {
                        master: 24 - p.their_master,
                        their_master: 24 - p.master,
                        students: turn(p.their_students),
                        their_students: turn(p.students),
                        deal: self.before[p.deal][j] as usize,
                    };
                    if self.pawn_moves(&q) == 0 {
                        found.push(q);
                    }
                }
            }
        }
    }
}

/// The shape of a class of a table: the positions with `s` students of the mover and `o`
/// of the opponent.
#[derive(Clone, Copy, Debug)]
struct Shape {
    s: usize,
    o: usize,
    /// Combinations of the mover's students and of the opponent's.
    own: usize,
    other: usize,
}

impl Shape {
    fn new(s: usize, o: usize) -> Shape {
        Shape {
            s,
            o,
            own: BINOM[23][s] as usize,
            other: BINOM[23 - s][o] as usize,
        }
    }

    fn len(&self) -> usize {
        MASTERS * self.own * self.block()
    }

    /// The positions of a block: those that differ only in the opponent's students and
    /// the cards.
    fn block(&self) -> usize {
        self.other * DEALS
    }

    #[inline]
    fn index(&self, p: &Rel) -> usize {
        let pair = p.master * 24 + p.their_master - (p.their_master > p.master) as u32;
        let masters = (1 << p.master) | (1 << p.their_master);
        let own = rank(p.students, masters) as usize;
        let other = rank(p.their_students, masters | p.students) as usize;
        ((pair as usize * self.own + own) * self.other + other) * DEALS + p.deal
    }

    /// Call `f(start, master, their master, students)` for each block of positions, in
    /// index order (the block's positions from `start` on).
    fn blocks(&self, mut f: impl FnMut(usize, u32, u32, u32)) {
        let mut start = 0;
        for master in 0..25u32 {
            for their_master in 0..25u32 {
                if their_master == master {
                    continue;
                }
                let free = free_squares((1 << master) | (1 << their_master));
                let mut c = (1u32 << self.s) - 1;
                for _ in 0..self.own {
                    f(start, master, their_master, expand(c, &free));
                    start += self.block();
                    if self.s > 0 {
                        c = next_combination(c);
                    }
                }
            }
        }
    }

    /// Call `f(offset, their students)` for each set of the opponent's students of a block,
    /// in index order (`offset` of its first position, the cards' 30 following;
    /// `holes`: the squares of the masters and of the mover's students).
    #[inline]
    fn block_students(&self, holes: u32, mut f: impl FnMut(usize, u32)) {
        let free = free_squares(holes);
        let mut c = (1u32 << self.o) - 1;
        for i in 0..self.other {
            f(i * DEALS, expand(c, &free));
            if self.o > 0 {
                c = next_combination(c);
            }
        }
    }
}

/// One class of a table: its shape and a value a position.
struct Class {
    shape: Shape,
    values: Vec<u8>,
}

/// A position's cell while its class is solved: the value in the low byte, the count of
/// its actions not yet known to lose in the high byte. Atomic, so that the threads of a
/// build update the cells of one class together (see [`EndgameTable::level`]).
type Cell = AtomicU16;

/// What a table says of a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableValue {
    /// It wins, its winning ply the given one from now (1: at once).
    Win(u32),
    /// It loses, the opponent's winning ply the given one from now (2: the opponent wins
    /// with its first reply).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl TableValue {
    /// The value in a word and a distance: `("win", d)`, `("loss", d)` or `("draw", 0)`.
    pub fn as_pair(self) -> (&'static str, u32) {
        match self {
            TableValue::Win(d) => ("win", d),
            TableValue::Loss(d) => ("loss", d),
            TableValue::Draw => ("draw", 0),
        }
    }
}

/// The positions of one class of a table, by their value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassCounts {
    /// Students of the side to move.
    pub mover_students: u32,
    /// Students of the opponent.
    pub opponent_students: u32,
    /// Positions (the side to move's view; each is also the position of the other colour
    /// to move, turned half a turn).
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
    /// The longest distance of a win, in plies (0: none).
    pub longest_win: u32,
    /// The longest distance of a loss, in plies (0: none).
    pub longest_loss: u32,
}

impl ClassCounts {
    /// Every count by its field's name, in the order of the fields.
    pub fn named(&self) -> [(&'static str, u64); 8] {
        [
            ("mover_students", u64::from(self.mover_students)),
            ("opponent_students", u64::from(self.opponent_students)),
            ("positions", self.positions),
            ("wins", self.wins),
            ("losses", self.losses),
            ("draws", self.draws),
            ("longest_win", u64::from(self.longest_win)),
            ("longest_loss", u64::from(self.longest_loss)),
        ]
    }
}

/// An endgame table: every standard position of five cards with at most
/// [`EndgameTable::pieces`] pieces, solved (see the [module docs](self)).
pub struct EndgameTable {
    cards: [Card; 5],
    pieces: u32,
    geometry: Geometry,
    /// The classes, at `s * (MAX_STUDENTS + 1) + o` (`None`: not covered).
    classes: Vec<Option<Class>>,
    seconds: f64,
}

/// `EndgameTable of Tiger, Crab, ... with at most 3 pieces: 1234 bytes`.
impl std::fmt::Display for EndgameTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self.cards.iter().map(|c| c.to_string()).collect();
        let (names, pieces, bytes) = (names.join(", "), self.pieces, self.bytes());
        write!(
            f,
            "EndgameTable of {names} with at most {pieces} pieces: {bytes} bytes"
        )
    }
}

impl std::fmt::Debug for EndgameTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EndgameTable")
            .field("cards", &self.cards)
            .field("pieces", &self.pieces)
            .field("bytes", &self.bytes())
            .finish()
    }
}

/// Two tables are equal when they have the same cards in the same order, the same pieces
/// and the same values (the build time aside).
impl PartialEq for EndgameTable {
    fn eq(&self, other: &EndgameTable) -> bool {
        self.cards == other.cards
            && self.pieces == other.pieces
            && self
                .classes
                .iter()
                .zip(&other.classes)
                .all(|(a, b)| a.as_ref().map(|c| &c.values) == b.as_ref().map(|c| &c.values))
    }
}

/// The classes `(s, o)` a table of `pieces` pieces covers.
fn covered(pieces: u32) -> impl Iterator<Item = (usize, usize)> {
    let students = pieces.saturating_sub(2) as usize;
    (0..=MAX_STUDENTS).flat_map(move |s| {
        (0..=MAX_STUDENTS)
            .filter(move |&o| s + o <= students)
            .map(move |o| (s, o))
    })
}

impl EndgameTable {
    /// The most pieces a table can cover: both whole armies.
    pub const MAX_PIECES: u32 = 2 + 2 * MAX_STUDENTS as u32;

    /// The fewest: the two masters alone.
    pub const MIN_PIECES: u32 = 2;

    /// The bytes of a table of `pieces` pieces (one a position).
    pub fn bytes_for(pieces: u32) -> u64 {
        covered(pieces)
            .map(|(s, o)| Shape::new(s, o).len() as u64)
            .sum()
    }

    /// The most memory its build takes: the table, and two bytes more a position of the
    /// classes being solved (those of the most students in all, at the end: two bytes a
    /// position while they are solved, then copied into one).
    pub fn build_bytes_for(pieces: u32) -> u64 {
        let students = pieces.saturating_sub(2) as usize;
        let top: u64 = covered(pieces)
            .filter(|&(s, o)| s + o == students)
            .map(|(s, o)| Shape::new(s, o).len() as u64)
            .sum();
        Self::bytes_for(pieces) + 2 * top
    }

    /// Solve every standard position of `cards` (five different cards) with at most
    /// `pieces` pieces on the board, masters included ([`Self::MIN_PIECES`] to
    /// [`Self::MAX_PIECES`]), refusing a build that would take more than `max_bytes` of
    /// memory ([`EndgameTable::build_bytes_for`]), on `threads` threads (1 to
    /// [`AiSettings::MAX_THREADS`]; the table is the same on any number). `Ok(None)` once
    /// `stop` is requested (polled between blocks of positions).
    pub fn build(
        cards: [Card; 5],
        pieces: u32,
        max_bytes: u64,
        threads: usize,
        stop: &Stop,
    ) -> Result<Option<EndgameTable>, OnitamaError> {
        for i in 0..5 {
            for j in i + 1..5 {
                if cards[i] == cards[j] {
                    return Err(OnitamaError::BadCard(format!(
                        "an endgame table is of five different cards, but {} is there twice",
                        cards[i]
                    )));
                }
            }
        }
        if !(Self::MIN_PIECES..=Self::MAX_PIECES).contains(&pieces) {
            return Err(OnitamaError::BadAi(format!(
                "an endgame table covers {} to {} pieces, not {pieces}",
                Self::MIN_PIECES,
                Self::MAX_PIECES
            )));
        }
        if !(1..=AiSettings::MAX_THREADS).contains(&threads) {
            return Err(OnitamaError::BadAi(format!(
                "an endgame table is built on 1 to {} threads, not {threads}",
                AiSettings::MAX_THREADS
            )));
        }
        let need = Self::build_bytes_for(pieces);
        if need > max_bytes {
            return Err(OnitamaError::BadAi(format!(
                "an endgame table of {pieces} pieces takes {need} bytes to build, more than \
                 the {max_bytes} allowed"
            )));
        }
        let started = Instant::now();
        let mut classes: Vec<Option<Class>> = (0..(MAX_STUDENTS + 1) * (MAX_STUDENTS + 1))
            .map(|_| None)
            .collect();
        for (s, o) in covered(pieces) {
            classes[s * (MAX_STUDENTS + 1) + o] = Some(Class {
                shape: Shape::new(s, o),
                values: Vec::new(),
            });
        }
        let mut table = EndgameTable {
            cards,
            pieces,
            geometry: Geometry::new(&cards),
            classes,
            seconds: 0.0,
        };
        for students in 0..=pieces as usize - 2 {
            if !table.solve(students, threads, stop)? {
                return Ok(None);
            }
        }
        table.seconds = started.elapsed().as_secs_f64();
        Ok(Some(table))
    }

    /// [`EndgameTable::build`] for the five cards of `pos`, a standard position (the wall
    /// variant has no tables: an [`OnitamaError::BadAi`]).
    pub fn build_for(
        pos: &Position,
        pieces: u32,
        max_bytes: u64,
        threads: usize,
        stop: &Stop,
    ) -> Result<Option<EndgameTable>, OnitamaError> {
        if !pos.is_standard() {
            let text = "endgame tables are of standard Onitama; this game is the wall variant";
            return Err(OnitamaError::BadAi(text.into()));
        }
        Self::build(pos.cards(), pieces, max_bytes, threads, stop)
    }

    /// Is `pos` a standard position of this table's five cards (in any places)? It may
    /// have more pieces than the table covers.
    pub fn fits(&self, pos: &Position) -> bool {
        let (mut mine, mut theirs) = (self.cards, pos.cards());
        mine.sort();
        theirs.sort();
        pos.is_standard() && mine == theirs
    }

    /// The five cards.
    pub fn cards(&self) -> [Card; 5] {
        self.cards
    }

    /// The most pieces of a position covered, masters included.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// The table's size in bytes (one a position).
    pub fn bytes(&self) -> u64 {
        self.classes
            .iter()
            .flatten()
            .map(|c| c.values.len() as u64)
            .sum()
    }

    /// The seconds its build took.
    pub fn build_seconds(&self) -> f64 {
        self.seconds
    }

    fn class_id(s: usize, o: usize) -> usize {
        s * (MAX_STUDENTS + 1) + o
    }

    fn class(&self, s: usize, o: usize) -> Option<&Class> {
        if s > MAX_STUDENTS || o > MAX_STUDENTS {
            return None;
        }
        self.classes[Self::class_id(s, o)].as_ref()
    }

    /// Solve the classes of `students` students in all, on `threads` threads. `Ok(false)`:
    /// stopped.
    fn solve(
        &mut self,
        students: usize,
        threads: usize,
        stop: &Stop,
    ) -> Result<bool, OnitamaError> {
        let ids: Vec<usize> = (0..=students)
            .filter(|&s| s <= MAX_STUDENTS && students - s <= MAX_STUDENTS)
            .map(|s| Self::class_id(s, students - s))
            .filter(|&id| self.classes[id].is_some())
            .collect();
        // The cells of the classes being solved: the counts of actions, the wins at once.
        let mut cells: Vec<Vec<Cell>> = (0..self.classes.len()).map(|_| Vec::new()).collect();
        let top = AtomicU8::new(0);
        for &id in &ids {
            let geo = &self.geometry;
            let shape = self.classes[id].as_ref().expect("covered").shape;
            let cell: Vec<Cell> = (0..shape.len()).map(|_| Cell::new(NONE as u16)).collect();
            shape.blocks(|start, master, their_master, students| {
                if master == GOAL || their_master == THEIR_GOAL {
                    return;
                }
                let own = students | (1 << master);
                // neither depends on the opponent's students (a capture is a move)
                let n: [u32; 5] = std::array::from_fn(|k| geo.card_moves(k, own));
                let wins: [bool; 5] =
                    std::array::from_fn(|k| geo.card_wins(k, own, master, their_master));
                let holes = (1 << master) | (1 << their_master) | students;
                shape.block_students(holes, |offset, _| {
                    let first = start + offset;
                    for (deal, c) in cell[first..first + DEALS].iter().enumerate() {
                        let hand = geo.deals[deal].hand;
                        let (a, b) = (
                            hand.trailing_zeros() as usize,
                            7 - hand.leading_zeros() as usize,
                        );
                        c.store(
                            if wins[a] || wins[b] {
                                top.store(1, Relaxed);
                                1
                            } else {
                                let moves = n[a] + n[b];
                                (if moves == 0 { 2 } else { moves as u16 }) << 8
                            },
                            Relaxed,
                        );
                    }
                });
            });
            cells[id] = cell;
            if stop.requested() {
                return Ok(false);
            }
        }
        // The classes of one student less whose captures were undone into these: those
        // where the mover has fewer than the most students.
        let below: Vec<usize> = (0..students)
            .filter(|&s| s < MAX_STUDENTS && students - 1 - s <= MAX_STUDENTS)
            .map(|s| Self::class_id(s, students - 1 - s))
            .filter(|&id| self.classes[id].is_some())
            .collect();
        let below_top = below
            .iter()
            .flat_map(|&id| self.classes[id].as_ref().expect("covered").values.iter())
            .filter(|&&v| v != NONE)
            .max()
            .copied()
            .unwrap_or(0);
        let mut d = 1u8;
        while d <= top.load(Relaxed).max(below_top) {
            if d as u32 >= MAX_DISTANCE {
                return Err(OnitamaError::BadAi(format!(
                    "a position of these cards is won in more than {MAX_DISTANCE} plies: \
                     beyond what a table stores"
                )));
            }
            for &id in ids.iter().chain(&below) {
                let capture = !ids.contains(&id);
                let stopped = AtomicBool::new(false);
                std::thread::scope(|scope| {
                    for part in 1..threads {
                        let (cells, top, stopped) = (&cells, &top, &stopped);
                        let me = &*self;
                        scope.spawn(move || {
                            me.level(id, d, capture, cells, top, (part, threads), stop, stopped)
                        });
                    }
                    self.level(id, d, capture, &cells, &top, (0, threads), stop, &stopped);
                });
                if stopped.load(Relaxed) {
                    return Ok(false);
                }
            }
            d += 1;
        }
        for &id in &ids {
            let cell = std::mem::take(&mut cells[id]);
            let class = self.classes[id].as_mut().expect("covered");
            class.values = cell.iter().map(|c| c.load(Relaxed) as u8).collect();
        }
        Ok(true)
    }

    /// Take every position of class `id` at distance `d` back one ply (`capture`: undoing
    /// a capture of one of the mover's students, into the class above; the class is then
    /// solved, its values in the table, else its values are in `cells`), and update those
    /// positions' `cells`: the blocks of the master squares numbered `part.0` modulo
    /// `part.1` (the threads of a build each take a part). In a level every update is of one
    /// kind (a win in `d + 1`, or one action less), so the order of the threads' updates
    /// does not change the result. Sets `stopped` once `stop` is requested.
    #[allow(clippy::too_many_arguments)]
    fn level(
        &self,
        id: usize,
        d: u8,
        capture: bool,
        cells: &[Vec<Cell>],
        top: &AtomicU8,
        part: (usize, usize),
        stop: &Stop,
        stopped: &AtomicBool,
    ) {
        let shape = self.classes[id].as_ref().expect("covered").shape;
        let mut block = vec![0u8; shape.block()];
        let mut hits: Vec<Rel> = Vec::new();
        let mut found: Vec<Rel> = Vec::with_capacity(256);
        shape.blocks(|start, master, their_master, students| {
            if (master * 25 + their_master) as usize % part.1 != part.0 || stopped.load(Relaxed) {
                return;
            }
            let range = start..start + shape.block();
            // the block's values, if one is at distance d
            let any = if capture {
                let values = &self.classes[id].as_ref().expect("covered").values[range];
                values.contains(&d) && {
                    block.copy_from_slice(values);
                    true
                }
            } else {
                let c = &cells[id][range];
                block
                    .iter_mut()
                    .zip(c)
                    .for_each(|(b, c)| *b = c.load(Relaxed) as u8);
                block.contains(&d)
            };
            if !any {
                return;
            }
            let holes = (1 << master) | (1 << their_master) | students;
            hits.clear();
            shape.block_students(holes, |offset, their_students| {
                for (deal, &v) in block[offset..offset + DEALS].iter().enumerate() {
                    if v == d {
                        hits.push(Rel {
                            master,
                            their_master,
                            students,
                            their_students,
                            deal,
                        });
                    }
                }
            });
            for p in &hits {
                found.clear();
                self.geometry.take_back(p, capture, &mut found);
                for q in found.iter() {
                    self.update(q, d, cells, top);
                }
            }
            if stop.requested() {
                stopped.store(true, Relaxed);
            }
        });
    }

    /// One position `q` with an action leading to a position at distance `d`: a win in
    /// `d + 1` if that one is lost, else one action less, and a loss in `d + 1` with the
    /// last (unless `q` is solved already).
    #[inline]
    fn update(&self, q: &Rel, d: u8, cells: &[Vec<Cell>], top: &AtomicU8) {
        let id = Self::class_id(
            q.students.count_ones() as usize,
            q.their_students.count_ones() as usize,
        );
        let shape = self.classes[id]
            .as_ref()
            .expect("a class being solved")
            .shape;
        let c = &cells[id][shape.index(q)];
        if c.load(Relaxed) as u8 != 0 {
            return;
        }
        let solved = if d % 2 == 0 {
            true
        } else {
            // the count reached 0 with this action: its last, every one a win for the other
            c.fetch_sub(1 << 8, Relaxed) >> 8 == 1
        };
        if solved {
            c.fetch_or((d + 1) as u16, Relaxed);
            top.fetch_max(d + 1, Relaxed);
        }
    }

    /// The table's value of `pos`, if it covers it: a standard position of its five cards
    /// (in any places), still going, with at most [`EndgameTable::pieces`] pieces.
    pub fn probe(&self, pos: &Position) -> Option<TableValue> {
        if !pos.is_standard() || pos.status() != Status::Ongoing {
            return None;
        }
        let (me, them) = (pos.side(), pos.side().other());
        let s = pos.soldiers(me).count_ones() as usize;
        let o = pos.soldiers(them).count_ones() as usize;
        if 2 + (s + o) as u32 > self.pieces {
            return None;
        }
        let class = self.class(s, o)?;
        let mut idx = [0u8; 5];
        for (i, c) in pos.cards().iter().enumerate() {
            idx[i] = self.cards.iter().position(|k| k == c)? as u8;
        }
        let (hand, side) = match me {
            Player::A => ((1u8 << idx[0]) | (1 << idx[1]), idx[4]),
            Player::B => ((1u8 << idx[2]) | (1 << idx[3]), idx[4]),
        };
        let deal = self.geometry.deal_of[side as usize][hand as usize] as usize;
        let sq = |p: Player| pos.pawns(p) & !pos.soldiers(p);
        let rel = match me {
            Player::A => Rel {
                master: sq(me).trailing_zeros(),
                their_master: sq(them).trailing_zeros(),
                students: pos.soldiers(me),
                their_students: pos.soldiers(them),
                deal,
            },
            Player::B => Rel {
                master: 24 - sq(me).trailing_zeros(),
                their_master: 24 - sq(them).trailing_zeros(),
                students: turn(pos.soldiers(me)),
                their_students: turn(pos.soldiers(them)),
                deal,
            },
        };
        Some(match class.values[class.shape.index(&rel)] {
            0 => TableValue::Draw,
            NONE => return None,
            d if d % 2 == 1 => TableValue::Win(d as u32),
            d => TableValue::Loss(d as u32),
        })
    }

    /// The search's score of `pos` at `ply` plies from the root, if the table covers it:
    /// `MATE - ply - d` for a win in `d` plies, its negation for a loss, 0 for a draw, and
    /// 0 for a win or loss further away than the plies left (the game ends in a tie
    /// before: neither side can force a win within them).
    #[inline]
    pub fn score(&self, pos: &Position, ply: usize) -> Option<i32> {
        let left = pos.plies_left() as u32;
        Some(match self.probe(pos)? {
            TableValue::Win(d) if d <= left => MATE - ply as i32 - d as i32,
            TableValue::Loss(d) if d <= left => -(MATE - ply as i32 - d as i32),
            _ => 0,
        })
    }

    /// Could `pos` be in the table by its pieces alone (a standard position with at most
    /// [`EndgameTable::pieces`] pieces)? A cheap test before [`EndgameTable::score`].
    #[inline]
    pub fn may_cover(&self, pos: &Position) -> bool {
        pos.is_standard()
            && (pos.pawns(Player::A) | pos.pawns(Player::B)).count_ones() <= self.pieces
    }

    /// The counts of each class: positions, wins, losses, draws, the longest distances.
    pub fn counts(&self) -> Vec<ClassCounts> {
        self.classes
            .iter()
            .flatten()
            .map(|class| {
                let mut c = ClassCounts {
                    mover_students: class.shape.s as u32,
                    opponent_students: class.shape.o as u32,
                    ..ClassCounts::default()
                };
                for &v in &class.values {
                    match v {
                        NONE => continue,
                        0 => c.draws += 1,
                        d if d % 2 == 1 => {
                            c.wins += 1;
                            c.longest_win = c.longest_win.max(d as u32);
                        }
                        d => {
                            c.losses += 1;
                            c.longest_loss = c.longest_loss.max(d as u32);
                        }
                    }
                    c.positions += 1;
                }
                c
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::onitama::Game;

    #[test]
    fn a_table_is_built_for_a_standard_game_and_fits_its_cards() {
        let standard = *Game::standard(None, None, Some(3), None, None)
            .unwrap()
            .position();
        let table = EndgameTable::build_for(&standard, 2, u64::MAX, 1, &Stop::new());
        let table = table.unwrap().expect("not stopped");
        assert!(table.fits(&standard));
        let wall = *Game::from_setup("21", None).unwrap().position();
        assert!(!table.fits(&wall));
        let e = EndgameTable::build_for(&wall, 2, u64::MAX, 1, &Stop::new()).unwrap_err();
        assert!(
            e.to_string().contains("this game is the wall variant"),
            "{e}"
        );
        let shown = table.to_string();
        let first = table.cards()[0].to_string();
        assert!(
            shown.starts_with(&format!("EndgameTable of {first}, ")),
            "{shown}"
        );
        assert!(shown.ends_with(&format!("at most 2 pieces: {} bytes", table.bytes())));
        let counts = table.counts();
        let named = counts[0].named();
        assert_eq!(named[2], ("positions", counts[0].positions));
        assert_eq!(named.map(|(n, _)| n).len(), 8);
    }

    #[test]
    fn a_value_reads_as_a_word_and_a_distance() {
        assert_eq!(TableValue::Win(3).as_pair(), ("win", 3));
        assert_eq!(TableValue::Loss(2).as_pair(), ("loss", 2));
        assert_eq!(TableValue::Draw.as_pair(), ("draw", 0));
    }
}
