//! Rule sets compiled to move tables, for simulating random games fast.
//!
//! With one or two tokens a seat, and no opponent blocks, what a roll lets a seat do depends
//! on its own tokens only: which tokens may move, where each move leaves them, where the
//! mover lands, whether the seat is then done. [`Compiled`] asks the engine every such
//! question once per rule set (each pair of token steps, each roll), by playing the move on
//! a board of that seat alone with the ordinary [`Game`] and [`Board`] code, and keeps the
//! answers in a table, one entry per pair of steps and roll, holding each move a random bot
//! may draw. A simulated game keeps its board as one word (two bytes a seat, turned so that
//! the seat to move comes first) and plays a roll with a table look-up, a word compare for
//! captures, and the turn rules every game uses (`game::Turn`); it is a handful of plain values,
//! which the compiler keeps in registers. Captures with start slots (GT) are played on a
//! real [`Board`]. Nothing here decides a rule: every answer comes from the engine, and the
//! tests here and in `sim::tests` check, roll by roll and game by game, that the tables play
//! the engine's games.

use std::sync::Mutex;

use super::board::{Board, Step, any_equal_byte, capture_square, equal_bytes};
use super::game::{Game, GameEnd, Turn, nth_token, random_index};
use super::rng::Rng;
use super::rules::{MAX_SEATS, OwnTokens, Rules, Seat, Token};
use super::tables::{Fast, Geometry, Tables};

/// A byte no encoded step has: "no capture" in the capture table.
const NEVER: u8 = 0xFF;

/// Encoded steps run `0..STEPS` at most (a rule set with a longer route is not compiled).
const STEPS: usize = 64;

/// What a roll lets a seat do, for one pair of token steps and one roll: the `k`-th
/// possible move (`k` as a random bot draws it, see [`random_index`]) in bits `32 * k..`,
/// each half laid out as below. With one possible move both halves hold it; with none, both
/// leave the seat as it was.
type Entry = u64;

/// An entry half: bits 0–15, the seat's two encoded steps after the move.
const NEXT_BITS: u32 = 0xFFFF;
/// An entry half: bits 16–22, the encoded step the mover lands on when the move can capture
/// there, or [`STEPS`] when it cannot (an index into [`Compiled::capture`]).
const LAND_SHIFT: u32 = 16;
/// An entry half: the move brings the seat's last token home.
const FINISHED: u32 = 1 << 24;
/// An entry half: the move brings a token home.
const HOME: u32 = 1 << 25;
/// An entry half: bits 26–27, how many moves the roll offers (0, 1 or 2).
const COUNT_SHIFT: u32 = 26;

/// A rule set compiled to tables (see the module documentation).
pub struct Compiled {
    rules: Rules,
    /// The most negative step a token takes (a step is stored as `step - min_step`).
    min_step: Step,
    /// `entries[(e0 * STEPS + e1) * 6 + roll - 1]` for encoded steps `e0`, `e1` (a fixed
    /// size, so that masked indices need no bounds test; see [`Entry`]).
    entries: Box<[Entry; STEPS * STEPS * 6]>,
    /// `capture[seat][land]`: the board word a capture on that landing step compares with:
    /// byte `2 * other + token` holds the encoded step at which that token would be taken
    /// ([`NEVER`] where none would), and the word is rotated right by two bytes a seat
    /// before `seat`, as [`CompiledGame`] keeps its board when `seat` is to move.
    capture: [[u64; 2 * STEPS]; MAX_SEATS],
    /// The encoded yard step a captured token goes back to, when every yard token stands
    /// on the same step (no start slots): a capture then needs no real board.
    yard: Option<u8>,
}

static CACHE: Mutex<Vec<(Rules, &'static Compiled)>> = Mutex::new(Vec::new());

/// The most rule sets compiled in one process (about 200 KB each, kept for the process);
/// simulations of further rule sets run the engine's game directly.
const MAX_COMPILED: usize = 16;

impl Compiled {
    /// The compiled tables of `rules`, when the rule set fits them (at most two tokens a
    /// seat, no blocks) and fewer than `MAX_COMPILED` (16) other rule sets were compiled; built
    /// on first use and kept for the process.
    pub fn of(rules: &Rules) -> Option<&'static Compiled> {
        if rules.tokens > 2 || rules.own_tokens == OwnTokens::Block || rules.validate().is_err() {
            return None;
        }
        let mut cache = CACHE
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((_, c)) = cache.iter().find(|(r, _)| r == rules) {
            return Some(c);
        }
        if cache.len() >= MAX_COMPILED {
            return None;
        }
        let c: &'static Compiled = Box::leak(Box::new(Compiled::build(rules)?));
        cache.push((*rules, c));
        Some(c)
    }

    /// Ask the engine every question the tables answer.
    fn build(rules: &Rules) -> Option<Compiled> {
        let min_step = if rules.yard_slots { -2 } else { -1 };
        let len = rules.finish_step as i16 - min_step as i16 + 1;
        if !(1..=STEPS as i16).contains(&len) {
            return None;
        }
        let len = len as u8;
        let geo = Fast {
            rules,
            tables: Tables::of(rules),
        };
        let encode = |s: Step| (s - min_step) as u8;
        let [first, second, ..] = Seat::ALL;
        let [p, q, ..] = [0, 1, 2, 3].map(Token::wrapping);
        let mut alone = Game::new(*rules, &[first], 0).ok()?;
        // Built on the heap: the table is larger than some threads' stacks.
        let mut entries: Box<[Entry; STEPS * STEPS * 6]> = vec![0; STEPS * STEPS * 6]
            .into_boxed_slice()
            .try_into()
            .ok()?;
        for e0 in 0..len {
            for e1 in 0..len {
                let steps = [e0 as Step + min_step, e1 as Step + min_step];
                for (t, &s) in rules.all_tokens().zip(&steps) {
                    alone.board.set_step(first, t, s);
                }
                for roll in 1..=6u8 {
                    let mask = alone.movable_in(&geo, first, roll);
                    let count = mask.count_ones();
                    let mut halves =
                        [e0 as u32 | (e1 as u32) << 8 | (STEPS as u32) << LAND_SHIFT; 2];
                    for (k, half) in halves.iter_mut().enumerate() {
                        // The token a draw of `k` moves (with one move, both draws move it).
                        if count == 0 {
                            continue;
                        }
                        let t = nth_token(mask, (k as u32).min(count - 1));
                        let mut board = alone.board;
                        let out = board.apply(&geo, first, t, roll);
                        let next = encode(board.step(first, p)) as u32
                            | (encode(board.step(first, q)) as u32) << 8;
                        // Whether the move can capture at all (which squares, the seat decides:
                        // that part is in the capture table).
                        let can = Seat::ALL
                            .into_iter()
                            .any(|s| capture_square(&geo, s, out.from, out.to).is_some());
                        let land = if can { encode(out.to) } else { STEPS as u8 };
                        *half = next
                            | (land as u32) << LAND_SHIFT
                            | if board.is_finished(rules, first) {
                                FINISHED
                            } else {
                                0
                            }
                            | if out.reached_home { HOME } else { 0 };
                    }
                    let count = (count as u64) << COUNT_SHIFT;
                    entries[(e0 as usize * STEPS + e1 as usize) * 6 + roll as usize - 1] =
                        (halves[0] as u64 | (halves[1] as u64) << 32) | count | count << 32;
                }
            }
        }
        let capture = Seat::ALL.map(|seat| {
            std::array::from_fn(|land| {
                let land = land as u8;
                let mut word = [NEVER; 8];
                // Rows are looked up only for moves that moved: any other step will do as
                // the move's start.
                let to = land as Step + min_step;
                let square = (land < len)
                    .then(|| capture_square(&geo, seat, Step::MIN, to))
                    .flatten();
                if let Some(square) = square {
                    // The steps the board compares with on that square: every token of the
                    // other seats.
                    let steps = geo.square_steps(square);
                    for other in Seat::ALL.into_iter().filter(|&o| o != seat) {
                        for t in rules.all_tokens() {
                            let step = steps[4 * other.index() + t.index()];
                            if step != Step::MIN {
                                word[2 * other.index() + t.index()] = encode(step);
                            }
                        }
                    }
                }
                // Rotated like a compiled game's board word when `seat` is to move.
                u64::from_le_bytes(word).rotate_right(16 * seat.index() as u32)
            })
        });
        // Without start slots, a captured token goes to the one yard step: ask the engine
        // where, with a token of seat 1 captured by seat 0.
        let yard = (!rules.yard_slots).then(|| {
            let mut b = alone.board;
            b.set_step(second, p, rules.first_track_step);
            b.capture(rules, 1 << 4, &mut [0; MAX_SEATS]);
            encode(b.step(second, p))
        });
        Some(Compiled {
            rules: *rules,
            min_step,
            entries,
            capture,
            yard,
        })
    }
}

/// A game in play over [`Compiled`] tables: the [`Turn`] (whose turn, 6s, extra rolls,
/// ranking), the die, and the board as one word, two bytes a seat. All plain values, so
/// that a simulation keeps the whole game in registers.
#[derive(Clone, Copy)]
pub(crate) struct CompiledGame {
    /// Whose turn it is, 6s, extra rolls, seats done and their ranking.
    turn: Turn,
    /// The die.
    rng: Rng,
    /// The board word (byte `2 * seat + token`: the token's encoded step), rotated right by
    /// two bytes per seat before the current one: the current seat's tokens come first.
    rotated: u64,
    /// The seats that play.
    playing: u8,
}

impl CompiledGame {
    /// The game `start` (which must use the compiled rules and wait for a roll).
    pub(crate) fn new(c: &Compiled, start: &Game) -> CompiledGame {
        CompiledGame {
            turn: start.turn,
            rng: start.rng,
            rotated: pack(c, &start.board).rotate_right(16 * start.turn.current().index() as u32),
            playing: start.board.seat_mask(),
        }
    }

    /// The board word (byte `2 * seat + token`: the token's encoded step).
    #[inline(always)]
    fn steps(&self) -> u64 {
        self.rotated
            .rotate_left(16 * self.turn.current().index() as u32)
    }

    /// The die.
    pub(crate) fn rng_mut(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// The game as the engine holds it, given the game it started as (the tests compare
    /// it with the engine's).
    #[cfg(test)]
    pub(crate) fn game(&self, c: &Compiled, start: &Game) -> Game {
        let mut g = *start;
        g.turn = self.turn;
        g.rng = self.rng;
        g.board = unpack(c, self.playing, self.steps());
        g
    }

    /// One roll of the die and, when it allows one, a random move, the choice drawn from
    /// `choice` exactly as [`Game::random_move`] draws it. `g` is the compiled rule set's
    /// geometry (the presets' compile-time rules fold the turn code). Returns the number of
    /// tokens captured.
    #[inline(always)]
    pub(crate) fn step<G: Geometry>(&mut self, g: &G, c: &Compiled, choice: &mut Rng) -> u32 {
        let rules = g.rules();
        let seat = self.turn.current().index();
        let value = self.rng.die();
        let captured = if self.turn.begin_roll(rules, self.playing, value) {
            self.roll(rules, c, seat, value, choice)
        } else {
            0
        };
        // The turn may have passed: the new current seat's tokens come first.
        let turned = (self.turn.current().index() as u32).wrapping_sub(seat as u32) & 3;
        self.rotated = self.rotated.rotate_right(16 * turned);
        captured
    }

    /// [`CompiledGame::step`] once the roll `value` of `seat` stands.
    #[inline(always)]
    fn roll(
        &mut self,
        rules: &Rules,
        c: &Compiled,
        seat: usize,
        value: u8,
        choice: &mut Rng,
    ) -> u32 {
        let own = self.rotated as usize;
        let pair = (own & (STEPS - 1)) * STEPS + ((own >> 8) & (STEPS - 1));
        let entry = c.entries[pair * 6 + (value as usize - 1).min(5)];
        let count = (entry >> COUNT_SHIFT) as u32 & 3;
        if count == 0 {
            self.turn.cannot_move(rules, self.playing, value);
            return 0;
        }
        let k = random_index(count, choice) & 1;
        let half = (entry >> (32 * k)) as u32;
        self.rotated = (self.rotated & !0xFFFF) | (half & NEXT_BITS) as u64;
        let land = (half >> LAND_SHIFT) as usize & (2 * STEPS - 1);
        let row = c.capture[seat][land];
        let mut captured = 0;
        if any_equal_byte(self.rotated, row) {
            // The row is rotated like the board: turn the hits back to board order.
            let hit = equal_bytes(self.rotated, row).rotate_left(2 * seat as u32);
            let steps = self.capture(c, self.steps(), hit);
            self.rotated = steps.rotate_right(16 * seat as u32);
            captured = hit.count_ones();
        }
        self.turn.after_move(
            rules,
            self.playing,
            value,
            half & FINISHED != 0,
            captured != 0,
            half & HOME != 0,
        );
        captured
    }

    /// How the game ended, in plain values.
    #[inline(always)]
    pub(crate) fn end(&self) -> GameEnd {
        GameEnd::of(&self.turn)
    }

    /// Is the game over?
    #[inline(always)]
    pub(crate) fn is_over(&self) -> bool {
        self.turn.is_over()
    }

    /// The board word `steps` with the tokens of `hit` (bit `2 * seat + token`) sent to
    /// their yards.
    #[inline(always)]
    fn capture(&self, c: &Compiled, steps: u64, hit: u8) -> u64 {
        match c.yard {
            Some(yard) => {
                let bytes =
                    (0..8).fold(0u64, |m, b| m | (((hit >> b) & 1) as u64 * 0xFF) << (8 * b));
                (steps & !bytes) | (yard as u64 * 0x0101_0101_0101_0101) & bytes
            }
            None => capture_on_board(c, self.playing, steps, hit),
        }
    }
}

// The helpers below take and return plain values: a game in play must never have its
// address taken, so that the compiler can keep it in registers.

/// The board word of `board`'s first two tokens of each seat.
#[inline(always)]
fn pack(c: &Compiled, board: &Board) -> u64 {
    let mut steps = 0u64;
    for seat in Seat::ALL {
        for t in Token::first(2) {
            let e = (board.step(seat, t) - c.min_step) as u8;
            steps |= (e as u64) << (8 * (2 * seat.index() + t.index()));
        }
    }
    steps
}

/// The board of the seats `playing` with the tokens of the board word `steps`.
#[inline(always)]
fn unpack(c: &Compiled, playing: u8, steps: u64) -> Board {
    let mut b = Board::new(&c.rules, playing);
    for seat in Seat::ALL {
        for t in c.rules.all_tokens() {
            let e = (steps >> (8 * (2 * seat.index() + t.index()))) as u8;
            b.set_step(seat, t, e as Step + c.min_step);
        }
    }
    b
}

/// [`CompiledGame::capture`] played on a real board (start slots): the new board word.
#[inline(never)]
fn capture_on_board(c: &Compiled, playing: u8, steps: u64, hit: u8) -> u64 {
    let mut board = unpack(c, playing, steps);
    let mut spread = 0u16;
    for seat in Seat::ALL {
        spread |= (((hit >> (2 * seat.index())) & 3) as u16) << (4 * seat.index());
    }
    board.capture(&c.rules, spread, &mut [0; MAX_SEATS]);
    pack(c, &board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ludo::game::{Event, Phase};
    use crate::ludo::rules::Seat;
    use crate::ludo::rules::{EndCondition, Overshoot, SixBonus};
    use crate::ludo::seat::seat_list;

    /// Rule sets the tables compile: the two-token presets and option variants.
    fn variants() -> Vec<Rules> {
        let mut out = vec![Rules::CS162, Rules::GT];
        let mut r = Rules::CS162;
        r.safe_squares = true;
        r.capture_bonus = true;
        r.finish_bonus = true;
        r.six_limit = 2;
        out.push(r);
        let mut r = Rules::CS162;
        r.tokens = 1;
        r.overshoot = Overshoot::Illegal;
        r.own_tokens = OwnTokens::Share;
        r.six_bonus = SixBonus::Always;
        out.push(r);
        let mut r = Rules::GT;
        r.end = EndCondition::FullRanking;
        r.forced_entry = false;
        r.six_limit = 3;
        out.push(r);
        let mut r = Rules::STANDARD;
        r.tokens = 2;
        r.own_tokens = OwnTokens::Stack;
        r.overshoot = Overshoot::Bounce;
        out.push(r);
        out
    }

    /// Every step of the compiled game leaves the game the engine's own roll and move
    /// code leaves, for thousands of seeded random games of every variant and seating.
    #[test]
    fn compiled_games_follow_the_engine_step_by_step() {
        // Every rotation of the board word: all four seats, gaps, seat D back to A, one seat.
        let seatings: [&[Seat]; 5] = [
            &seat_list(&[0, 1, 2, 3]),
            &seat_list(&[0, 2]),
            &seat_list(&[1, 2, 3]),
            &seat_list(&[0, 3]),
            &seat_list(&[3]),
        ];
        for rules in variants() {
            let c = Compiled::of(&rules).expect("compiles");
            let geo = Fast {
                rules: &rules,
                tables: Tables::of(&rules),
            };
            for seats in seatings {
                for seed in 0..300u64 {
                    let start = Game::new(rules, seats, seed).unwrap();
                    let mut engine = start;
                    let mut compiled = CompiledGame::new(c, &start);
                    let (mut a, mut b) = (Rng::new(seed ^ 77), Rng::new(seed ^ 77));
                    let mut rolls = 0;
                    while !engine.is_over() {
                        rolls += 1;
                        assert!(rolls < 100_000, "{rules:?} seed {seed}: no end");
                        let mut captured = 0;
                        engine.roll_die().unwrap();
                        if let Phase::Move(_) = engine.phase() {
                            let mv = engine.random_move(&mut a).unwrap();
                            if let Event::Move { outcome, .. } = engine.play(mv).unwrap() {
                                captured = u32::from_le_bytes(outcome.captured).count_ones();
                            }
                        }
                        assert_eq!(compiled.step(&geo, c, &mut b), captured);
                        let got = compiled.game(c, &start);
                        assert_eq!(got, engine, "{rules:?} {seats:?} seed {seed} roll {rolls}");
                        assert_eq!(compiled.is_over(), engine.is_over());
                    }
                }
            }
        }
    }

    #[test]
    fn rule_sets_beyond_the_tables_are_not_compiled() {
        assert!(Compiled::of(&Rules::STANDARD).is_none(), "four tokens");
        let mut r = Rules::CS162;
        r.own_tokens = OwnTokens::Block;
        assert!(Compiled::of(&r).is_none(), "blocks depend on the opponents");
        assert!(std::ptr::eq(
            Compiled::of(&Rules::CS162).unwrap(),
            Compiled::of(&Rules::CS162).unwrap()
        ));
    }
}
