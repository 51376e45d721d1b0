//! The race estimate at the MCTS bot's leaves: fitted weights, hit chances, the rolls
//! each seat needs and the chance of winning the race. The weights, their type and
//! [`leaf_values`] are public for the tool that fits them (`examples/fit_weights.rs`).

use super::*;

/// The weights of the MCTS bot's race estimate ([`race_rolls`], [`race_chance`]). Fitted
/// (least squares on the win chances of positions and on the differences between the moves
/// of decisions) to the exact win chances of two-player CS162 games, which value iteration
/// over every position gives (`examples/fit_weights.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Rolls a yard token waits for the entering roll, on top of its distance.
    pub yard_wait: f64,
    /// Extra rolls when every token is in the yard (nothing to do with the other rolls).
    pub all_in_yard: f64,
    /// A stack of k tokens needs `1 + stack_share * (k - 1)` times one token's rolls.
    pub stack_share: f64,
    /// An opponent token waiting off the track by its first squares (where it cannot be
    /// hit): the share of their value our pieces that must still pass it may lose.
    pub guard: f64,
    /// Extra rolls for a token waiting on an off-track entry square.
    pub ready_cost: f64,
    /// The seat to roll is this many rolls ahead.
    pub tempo: f64,
    /// The win chance is a logistic of the lead over `scale + scale_growth * sqrt(rolls
    /// left for both)`.
    pub scale: f64,
    /// See `scale`.
    pub scale_growth: f64,
    /// Rolls per 3.5 steps between a seat's first and last token out (they never stack).
    pub spread: f64,
    /// Rolls a token needs from `DISTANCE_KNOTS[i]` steps before home (linear between the
    /// knots, 1/3.5 a step beyond the last).
    pub distance: [f64; KNOTS],
    /// The chance of being hit by an opponent piece `d` steps behind (1 to 12).
    pub hit: [f64; 12],
}

/// Number of knots of [`Weights::distance`].
pub const KNOTS: usize = 9;
/// Distances to home of the knots of [`Weights::distance`].
pub const DISTANCE_KNOTS: [i16; KNOTS] = [1, 6, 7, 12, 24, 36, 48, 57, 58];

/// The fitted weights (the MCTS bot's).
pub const WEIGHTS: Weights = Weights {
    yard_wait: 4.6406,
    all_in_yard: -4.9688,
    stack_share: 0.5250,
    guard: 0.0937,
    ready_cost: 2.1171,
    tempo: 0.1922,
    scale: 0.6328,
    scale_growth: 1.9578,
    spread: 0.3922,
    distance: [
        -0.1409, -0.0951, 0.4579, 1.6638, 6.3626, 10.1708, 13.4354, 15.6084, 22.0158,
    ],
    hit: [
        0.1514, 0.1361, 0.1310, 0.1267, 0.1155, 0.1160, 0.0683, 0.0563, 0.0457, 0.0382, 0.0268,
        0.0238,
    ],
};

impl Weights {
    /// Rolls a token `remaining` steps before home needs.
    pub(super) fn distance_cost(&self, remaining: i16) -> f64 {
        if remaining <= 0 {
            return 0.0;
        }
        let k = &DISTANCE_KNOTS;
        let d = &self.distance;
        if remaining <= k[0] {
            return d[0];
        }
        for i in 1..KNOTS {
            if remaining <= k[i] {
                let f = (remaining - k[i - 1]) as f64 / (k[i] - k[i - 1]) as f64;
                return d[i - 1] + f * (d[i] - d[i - 1]);
            }
        }
        d[KNOTS - 1] + (remaining - k[KNOTS - 1]) as f64 / 3.5
    }
}

/// The chance that an opponent piece hits `seat`'s piece on track `square` in its next turn
/// or so (by [`Weights::hit`], from how far behind each opponent piece stands).
pub(super) fn hit_chance(game: &Game, seat: Seat, square: u8, w: &Weights) -> f64 {
    let r = game.rules();
    if r.is_safe_square(square) {
        return 0.0;
    }
    let mut chance = 0.0;
    for other in game.seats().filter(|&s| s != seat) {
        let Some(target) = r.step_on_square(other, square) else {
            continue;
        };
        let steps = &game.board().seat_steps(other)[..r.tokens as usize];
        let mut seen_yard = false;
        for (t, &s) in steps.iter().enumerate() {
            let behind = if in_yard(s) {
                if seen_yard {
                    continue;
                }
                seen_yard = true;
                // A 6 to enter onto step 0, then the rest.
                target as i16 + 6
            } else if steps[..t].contains(&s) || s >= r.home_step {
                continue; // a stack is one piece; home tokens hit nobody
            } else {
                target as i16 - s as i16
            };
            if (1..=12).contains(&behind) {
                chance += w.hit[behind as usize - 1];
            }
        }
    }
    chance.min(0.6)
}

/// A race estimate: the die rolls `seat` (not finished) still needs to bring every token
/// home, counting waits for the entering roll, exact finishes, stacks, and the expected
/// loss to opponents that can hit a piece.
pub(super) fn race_rolls(game: &Game, seat: Seat, w: &Weights) -> f64 {
    let r = game.rules();
    let n = r.tokens as usize;
    // Only the rules' tokens: the slots past them hold yard steps, which the guard's count
    // of passing tokens below would take for tokens still to pass (issue #22).
    let steps = &game.board().seat_steps(seat)[..n];
    let yard_cost = w.yard_wait + w.distance_cost(r.home_step as i16 + 1);
    let mut total = 0.0;
    let mut counted = 0u8;
    let mut yard = 0;
    for t in r.all_tokens() {
        let s = steps[t.index()];
        if counted & t.bit() != 0 {
            continue;
        }
        if in_yard(s) {
            counted |= t.bit();
            yard += 1;
            total += yard_cost;
            continue;
        }
        let piece = game.board().piece_mask(r, seat, t);
        counted |= piece;
        if s >= r.home_step {
            continue;
        }
        let k = piece.count_ones() as f64;
        let cost = w.distance_cost((r.home_step - s) as i16);
        total += cost * (1.0 + w.stack_share * (k - 1.0));
        if let Some(square) = r.track_square(seat, s) {
            total += hit_chance(game, seat, square, w) * (yard_cost - cost) * k;
        } else if s < r.first_track_step {
            total += w.ready_cost;
        }
    }
    if yard == n {
        total += w.all_in_yard;
    }
    if r.first_track_step > 0 {
        // Opponent tokens waiting off the track by its first squares cannot be hit, and
        // our tokens still have to pass in front of them.
        for other in game.seats().filter(|&o| o != seat) {
            let waits = game.board().seat_steps(other)[..n]
                .iter()
                .any(|&s| !in_yard(s) && s < r.first_track_step);
            let zone = r
                .track_square(other, r.first_track_step)
                .and_then(|square| r.step_on_square(seat, square));
            if let (true, Some(zone)) = (waits, zone) {
                let loss = yard_cost - w.distance_cost((r.home_step - zone) as i16);
                let passing = steps.iter().filter(|&&s| s < zone + 5).count();
                total += w.guard * loss * passing as f64;
            }
        }
    }
    let out = steps.iter().filter(|&&s| !in_yard(s) && s < r.home_step);
    if let (Some(lo), Some(hi)) = (out.clone().min(), out.max())
        && hi > lo
    {
        total += w.spread * (hi - lo) as f64 / 3.5;
    }
    total
}

/// The chance that a seat with `lead` rolls over the best other unfinished seat finishes
/// first (`own` and `other` are the rolls both need; `to_roll`: it rolls next).
pub(super) fn race_chance(own: f64, other: f64, to_roll: bool, w: &Weights) -> f64 {
    let lead = other - own + if to_roll { w.tempo } else { -w.tempo };
    let scale = w.scale + w.scale_growth * (own.max(0.0) + other.max(0.0)).sqrt();
    1.0 / (1.0 + (-lead / scale.max(0.1)).exp())
}

/// The chance that `seat` (not finished) finishes before the best of the other unfinished
/// seats: a logistic of its lead in [`race_rolls`].
#[cfg(test)]
pub(super) fn win_chance(game: &Game, seat: Seat, w: &Weights) -> f64 {
    let best_other = game
        .seats()
        .filter(|&s| s != seat && !game.is_finished(s))
        .map(|s| race_rolls(game, s, w))
        .fold(f64::INFINITY, f64::min);
    if best_other.is_infinite() {
        return 1.0;
    }
    let to_roll = game.phase() != Phase::Over && game.current_player() == seat;
    race_chance(race_rolls(game, seat, w), best_other, to_roll, w)
}

/// The reward of a position for every seat, in [0, 1]: 1 for the winner down to 0 for the
/// last by rank; an unranked seat gets its race chance share of the best rank left.
pub fn leaf_values(game: &Game, w: &Weights) -> [f64; MAX_SEATS] {
    let mut out = [0.0; MAX_SEATS];
    let n = game.seats().count().max(2) as f64 - 1.0;
    let mut ranked = 0;
    for (i, s) in game.ranking().enumerate() {
        out[s] = 1.0 - i as f64 / n;
        ranked += 1;
    }
    if game.is_over() {
        return out;
    }
    let best_left = 1.0 - ranked as f64 / n;
    let mut rolls = [f64::INFINITY; MAX_SEATS];
    for s in game.seats().filter(|&s| !game.is_finished(s)) {
        rolls[s] = race_rolls(game, s, w);
    }
    for s in game.seats().filter(|&s| !game.is_finished(s)) {
        let other = Seat::ALL
            .into_iter()
            .filter(|&o| o != s)
            .map(|o| rolls[o])
            .fold(f64::INFINITY, f64::min);
        let to_roll = game.current_player() == s;
        out[s] = if other.is_infinite() {
            best_left
        } else {
            best_left * race_chance(rolls[s], other, to_roll, w)
        };
    }
    out
}
