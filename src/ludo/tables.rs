//! Route geometry as lookup tables. The rules of a route (where a roll takes a token, which
//! track square a step stands on) are written once, as [`Rules`] methods; [`Tables`] runs
//! them for every step and roll when a rule set is first used, so a game in play reads the
//! answers instead of recomputing them. The board's functions are generic over
//! [`Geometry`], so the same code runs over plain [`Rules`] (for one-off questions) and
//! over the tables (in games, search and simulation).

use std::sync::Mutex;

use super::rules::{MAX_SEATS, MAX_TOKENS, Overshoot, Rules, Seat};
use super::seat::{Step, in_yard};

/// Answers about a rule set's routes: the board's functions ask these and nothing else.
pub trait Geometry {
    /// The rule set.
    fn rules(&self) -> &Rules;
    /// Where a token at `step` goes with `roll`, before blocks and own-token bumps; `None`
    /// when the roll cannot move it (see [`Rules::route_target`]).
    fn route_target(&self, step: Step, roll: u8) -> Option<Step>;
    /// 0-based track square of `seat`'s token at `step`, if on the track.
    fn track_square(&self, seat: Seat, step: Step) -> Option<u8>;
    /// The step at which `seat`'s tokens stand on track `square`, if their route passes it.
    fn step_on_square(&self, seat: Seat, square: u8) -> Option<Step>;
    /// Is track `square` safe? (`false` for a square off the track.)
    fn is_safe_square(&self, square: u8) -> bool;
    /// For every seat and token slot (`4 * seat + token`), the step at which that seat's
    /// tokens stand on track `square` ([`Step::MIN`], which no token has, where the seat's
    /// route does not pass it): compared with the board's steps in one go, it finds every
    /// token on the square.
    fn square_steps(&self, square: u8) -> [Step; 16];
}

/// [`Geometry::square_steps`] from [`Geometry::step_on_square`] (no steps for a square
/// off the track).
fn square_steps_of<G: Geometry + ?Sized>(g: &G, square: u8) -> [Step; 16] {
    let mut out = [Step::MIN; 16];
    if square >= g.rules().track_len {
        return out;
    }
    for (i, s) in out.iter_mut().enumerate() {
        if let Some(step) = g.step_on_square(Seat::wrapping(i / MAX_TOKENS), square) {
            *s = step;
        }
    }
    out
}

impl Geometry for Rules {
    #[inline]
    fn rules(&self) -> &Rules {
        self
    }
    #[inline]
    fn route_target(&self, step: Step, roll: u8) -> Option<Step> {
        Rules::route_target(self, step, roll)
    }
    #[inline]
    fn track_square(&self, seat: Seat, step: Step) -> Option<u8> {
        Rules::track_square(self, seat, step)
    }
    #[inline]
    fn step_on_square(&self, seat: Seat, square: u8) -> Option<Step> {
        Rules::step_on_square(self, seat, square)
    }
    #[inline]
    fn is_safe_square(&self, square: u8) -> bool {
        Rules::is_safe_square(self, square)
    }
    fn square_steps(&self, square: u8) -> [Step; 16] {
        square_steps_of(self, square)
    }
}

/// "No answer" in the step tables.
const NO_STEP: i8 = i8::MIN;
/// "Not on the track" in the square table.
const NO_SQUARE: u8 = u8::MAX;
/// Rolls up to this value are tabulated; longer moves (the CS162 `move_token`) compute.
const TABLE_ROLLS: usize = 8;

/// The answers of [`Geometry`] for every step (indexed by the step's byte, so any `i8` is
/// a valid index), roll and square of one rule set's routes.
#[derive(Clone)]
pub struct Tables {
    /// The geometry fields the tables were built from.
    key: GeometryKey,
    target: [[i8; TABLE_ROLLS]; 256],
    square: [[u8; 256]; MAX_SEATS],
    on_square: [[i8; 256]; MAX_SEATS],
    square_steps: [[i8; 16]; 256],
    safe: [bool; 256],
    /// The learning environments' observation of a token at each step (a look-up is much
    /// cheaper than the division): see [`Tables::token_features`].
    features: [[f32; 3]; 256],
}

/// The fields of [`Rules`] the route tables depend on.
#[derive(Clone, Copy, PartialEq, Eq)]
struct GeometryKey {
    track_len: u8,
    seat_offsets: [u8; MAX_SEATS],
    first_track_step: i8,
    last_track_step: i8,
    finish_step: i8,
    home_step: i8,
    enter_roll: u8,
    overshoot: Overshoot,
    safe_squares: bool,
}

impl GeometryKey {
    fn of(r: &Rules) -> GeometryKey {
        GeometryKey {
            track_len: r.track_len,
            seat_offsets: r.seat_offsets,
            first_track_step: r.first_track_step,
            last_track_step: r.last_track_step,
            finish_step: r.finish_step,
            home_step: r.home_step,
            enter_roll: r.enter_roll,
            overshoot: r.overshoot,
            safe_squares: r.safe_squares,
        }
    }
}

static CACHE: Mutex<Vec<&'static Tables>> = Mutex::new(Vec::new());

impl Tables {
    /// Build the tables of `rules` by asking its [`Geometry`] every question once.
    pub fn build(rules: &Rules) -> Tables {
        let mut t = Tables {
            key: GeometryKey::of(rules),
            target: [[NO_STEP; TABLE_ROLLS]; 256],
            square: [[NO_SQUARE; 256]; MAX_SEATS],
            on_square: [[NO_STEP; 256]; MAX_SEATS],
            square_steps: [[Step::MIN; 16]; 256],
            safe: [false; 256],
            features: [[0.0; 3]; 256],
        };
        for byte in 0..=255u8 {
            let step = byte as Step;
            for roll in 0..TABLE_ROLLS as u8 {
                if let Some(to) = rules.route_target(step, roll) {
                    t.target[byte as usize][roll as usize] = to;
                }
            }
            t.features[byte as usize] = [
                f32::from(step.max(0)) / f32::from(rules.finish_step),
                f32::from(u8::from(in_yard(step))),
                f32::from(u8::from(step >= rules.home_step)),
            ];
            for seat in Seat::ALL {
                if let Some(sq) = rules.track_square(seat, step) {
                    t.square[seat][byte as usize] = sq;
                }
            }
        }
        for sq in 0..rules.track_len {
            for seat in Seat::ALL {
                if let Some(step) = rules.step_on_square(seat, sq) {
                    t.on_square[seat][sq as usize] = step;
                }
            }
            t.safe[sq as usize] = rules.is_safe_square(sq);
            t.square_steps[sq as usize] = rules.square_steps(sq);
        }
        t
    }

    /// A token at `step` as the learning environments observe it: its progress
    /// (`max(step, 0) / finish_step`), 1 if in the yard, 1 if home.
    #[inline(always)]
    pub(crate) fn token_features(&self, step: Step) -> &[f32; 3] {
        &self.features[step as u8 as usize]
    }

    /// The shared tables of `rules` (built on first use, then kept for the process: there
    /// is one set per route geometry, a handful in all).
    pub fn of(rules: &Rules) -> &'static Tables {
        let key = GeometryKey::of(rules);
        let mut cache = CACHE
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(t) = cache.iter().find(|t| t.key == key) {
            return t;
        }
        let t: &'static Tables = Box::leak(Box::new(Tables::build(rules)));
        cache.push(t);
        t
    }
}

/// A preset's number in [`PresetGeometry`].
pub const CS162: u8 = 0;
/// A preset's number in [`PresetGeometry`].
pub const STANDARD: u8 = 1;
/// A preset's number in [`PresetGeometry`].
pub const GT: u8 = 2;

/// One of the three presets ([`CS162`], [`STANDARD`], [`GT`]) with its tables, the rule set
/// fixed when the code is compiled: every option the move code reads is then a constant, and
/// the branches on the options fold away. Simulation plays the presets with it; the code it
/// runs is the same generic code every other [`Geometry`] runs.
#[derive(Clone, Copy)]
pub struct PresetGeometry<const P: u8> {
    tables: &'static Tables,
}

impl<const P: u8> PresetGeometry<P> {
    /// The preset's rules.
    pub const RULES: Rules = match P {
        CS162 => Rules::CS162,
        STANDARD => Rules::STANDARD,
        _ => Rules::GT,
    };

    /// The preset with its shared tables.
    pub fn new() -> Self {
        PresetGeometry {
            tables: Tables::of(&Self::RULES),
        }
    }
}

impl<const P: u8> PresetGeometry<P> {
    /// The preset with `tables`, which must be the preset's own (a game's `geo`): no look-up
    /// in the shared cache.
    #[inline(always)]
    pub(crate) fn with_tables(tables: &'static Tables) -> Self {
        debug_assert!(std::ptr::eq(tables, Tables::of(&Self::RULES)));
        PresetGeometry { tables }
    }
}

impl<const P: u8> Default for PresetGeometry<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const P: u8> Geometry for PresetGeometry<P> {
    #[inline(always)]
    fn rules(&self) -> &Rules {
        match P {
            CS162 => &Rules::CS162,
            STANDARD => &Rules::STANDARD,
            _ => &Rules::GT,
        }
    }
    #[inline(always)]
    fn route_target(&self, step: Step, roll: u8) -> Option<Step> {
        self.fast().route_target(step, roll)
    }
    #[inline(always)]
    fn track_square(&self, seat: Seat, step: Step) -> Option<u8> {
        self.fast().track_square(seat, step)
    }
    #[inline(always)]
    fn step_on_square(&self, seat: Seat, square: u8) -> Option<Step> {
        self.fast().step_on_square(seat, square)
    }
    #[inline(always)]
    fn is_safe_square(&self, square: u8) -> bool {
        // Constant `false` for the presets, which have no safe squares.
        self.rules().safe_squares && self.fast().is_safe_square(square)
    }
    #[inline(always)]
    fn square_steps(&self, square: u8) -> [Step; 16] {
        self.fast().square_steps(square)
    }
}

impl<const P: u8> PresetGeometry<P> {
    #[inline(always)]
    fn fast(&self) -> Fast<'_> {
        Fast {
            rules: self.rules(),
            tables: self.tables,
        }
    }
}

/// A rule set with its tables: the [`Geometry`] games play with.
#[derive(Clone, Copy)]
pub struct Fast<'a> {
    /// The rule set.
    pub rules: &'a Rules,
    /// Its route tables.
    pub tables: &'a Tables,
}

impl Geometry for Fast<'_> {
    #[inline]
    fn rules(&self) -> &Rules {
        self.rules
    }
    #[inline]
    fn route_target(&self, step: Step, roll: u8) -> Option<Step> {
        if (roll as usize) < TABLE_ROLLS {
            let to = self.tables.target[step as u8 as usize][roll as usize];
            (to != NO_STEP).then_some(to)
        } else {
            self.rules.route_target(step, roll)
        }
    }
    #[inline]
    fn track_square(&self, seat: Seat, step: Step) -> Option<u8> {
        let sq = self.tables.square[seat][step as u8 as usize];
        (sq != NO_SQUARE).then_some(sq)
    }
    #[inline]
    fn step_on_square(&self, seat: Seat, square: u8) -> Option<Step> {
        let step = self.tables.on_square[seat][square as usize];
        (step != NO_STEP).then_some(step)
    }
    #[inline]
    fn is_safe_square(&self, square: u8) -> bool {
        self.tables.safe[square as usize]
    }
    #[inline]
    fn square_steps(&self, square: u8) -> [Step; 16] {
        self.tables.square_steps[square as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ludo::rules::{Overshoot, OwnTokens};

    fn variants() -> Vec<Rules> {
        let mut out = Vec::new();
        for base in [Rules::CS162, Rules::STANDARD, Rules::GT] {
            for overshoot in [Overshoot::Bounce, Overshoot::Stay, Overshoot::Illegal] {
                for safe in [false, true] {
                    let mut r = base;
                    r.overshoot = overshoot;
                    r.safe_squares = safe;
                    r.own_tokens = OwnTokens::Share;
                    out.push(r);
                }
            }
        }
        out
    }

    /// The tables give the same answer as the rules for every question a game can ask.
    #[test]
    fn tables_agree_with_the_rules_everywhere() {
        for r in variants() {
            let t = Tables::of(&r);
            let f = Fast {
                rules: &r,
                tables: t,
            };
            for step in i8::MIN..=i8::MAX {
                for roll in 0..=70u8 {
                    assert_eq!(
                        f.route_target(step, roll),
                        r.route_target(step, roll),
                        "{r:?} step {step} roll {roll}"
                    );
                }
                for seat in Seat::ALL {
                    assert_eq!(f.track_square(seat, step), r.track_square(seat, step));
                }
            }
            for sq in 0..r.track_len {
                assert_eq!(f.is_safe_square(sq), r.is_safe_square(sq));
                assert_eq!(f.square_steps(sq), r.square_steps(sq));
                assert_eq!(f.square_steps(u8::MAX), [Step::MIN; 16]);
                assert_eq!(r.square_steps(u8::MAX), [Step::MIN; 16]);
                assert!(!f.is_safe_square(u8::MAX) && !r.is_safe_square(u8::MAX));
                for seat in Seat::ALL {
                    assert_eq!(f.step_on_square(seat, sq), r.step_on_square(seat, sq));
                }
            }
        }
    }

    /// The observation of a token at each step is the documented one (GT's home, 40, is
    /// not its finish, 41).
    #[test]
    fn token_features() {
        for rules in [Rules::CS162, Rules::STANDARD, Rules::GT] {
            let t = Tables::of(&rules);
            for step in -1..=rules.finish_step {
                let progress = f32::from(step.max(0)) / f32::from(rules.finish_step);
                let home = f32::from(u8::from(step >= rules.home_step));
                let yard = f32::from(u8::from(step < 0));
                assert_eq!(t.token_features(step), &[progress, yard, home], "{step}");
            }
        }
        let gt = Tables::of(&Rules::GT);
        assert_eq!(gt.token_features(40)[2], 1.0);
        assert!(gt.token_features(40)[0] < 1.0);
    }

    #[test]
    fn one_table_per_geometry() {
        let a = Tables::of(&Rules::CS162);
        let mut r = Rules::CS162;
        r.six_limit = 2;
        r.tokens = 4;
        assert!(
            std::ptr::eq(a, Tables::of(&r)),
            "options off the route share"
        );
        r.overshoot = Overshoot::Illegal;
        assert!(!std::ptr::eq(a, Tables::of(&r)));
    }
}
