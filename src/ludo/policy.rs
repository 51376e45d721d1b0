//! Bots: who picks which move. Rules stay in [`Game`]; a bot only looks at the legal moves
//! and chooses. Every bot is deterministic for a given random-number state.
//!
//! - `random`: uniform among the legal moves;
//! - `cs162`: the assignment's four priority rules (D9), generalised to any rule set;
//! - `aggressive` / `safe`: hand-tuned one-move heuristics (captures first / safety first);
//! - `expectimax(depth)`: search over the next `depth` dice rolls, opponents assumed to play
//!   against the searching player;
//! - `mcts(playouts)`: Monte Carlo tree search with explicit dice nodes, a budget of tree
//!   iterations ("playouts"), and a race estimate fitted to exact CS162 values at the leaves.

use super::board::{Board, MoveOutcome, in_yard};
use super::error::LudoError;
use super::game::{Game, Move, MoveList, Phase};
use super::rng::Rng;
use super::rules::{MAX_SEATS, MAX_TOKENS, Seat};
use super::tables::Geometry;
use crate::stop::Stop;

/// A built-in bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bot {
    /// Uniformly random legal move.
    Random,
    /// The CS162 priority rule (D9), for any rule set.
    Cs162,
    /// Captures first, then bringing tokens home, entering, and running ahead.
    Aggressive,
    /// Avoids squares opponents can hit; captures only when it stays safe.
    Safe,
    /// Expectimax over the next `depth` dice rolls.
    Expectimax {
        /// Rolls looked ahead (1–4 are practical).
        depth: u8,
    },
    /// Monte Carlo tree search with this many playouts (tree iterations) per move.
    Mcts {
        /// Playouts per decision: each one walks down the tree, expands one dice node and
        /// scores the new positions.
        playouts: u32,
    },
}

impl Bot {
    /// A bot by name: `random`, `cs162`, `aggressive`, `safe`, `expectimax` (depth 2),
    /// `expectimax:3`, `mcts` (1000 playouts), `mcts:5000`.
    pub fn from_name(name: &str) -> Result<Bot, LudoError> {
        let (base, arg) = match name.split_once(':') {
            Some((b, a)) => (b, Some(a)),
            None => (name, None),
        };
        let number = |default: u32, max: u32| -> Result<u32, LudoError> {
            match arg {
                None => Ok(default),
                Some(a) => match a.parse::<u32>() {
                    Ok(v) if (1..=max).contains(&v) => Ok(v),
                    _ => Err(LudoError::InvalidBot(format!(
                        "'{name}': the parameter must be a number from 1 to {max}"
                    ))),
                },
            }
        };
        let bot = match base.to_ascii_lowercase().as_str() {
            "random" => Bot::Random,
            "cs162" => Bot::Cs162,
            "aggressive" => Bot::Aggressive,
            "safe" => Bot::Safe,
            "expectimax" => Bot::Expectimax {
                depth: number(2, 5)? as u8,
            },
            "mcts" => Bot::Mcts {
                playouts: number(1000, MAX_PLAYOUTS)?,
            },
            _ => {
                return Err(LudoError::InvalidBot(format!(
                    "unknown bot '{name}': expected random, cs162, aggressive, safe, expectimax[:depth] or mcts[:playouts]"
                )));
            }
        };
        if arg.is_some() && !matches!(bot, Bot::Expectimax { .. } | Bot::Mcts { .. }) {
            return Err(LudoError::InvalidBot(format!(
                "'{name}': this bot takes no parameter"
            )));
        }
        Ok(bot)
    }

    /// The bot's name, as [`Bot::from_name`] reads it.
    pub fn name(&self) -> String {
        match self {
            Bot::Random => "random".into(),
            Bot::Cs162 => "cs162".into(),
            Bot::Aggressive => "aggressive".into(),
            Bot::Safe => "safe".into(),
            Bot::Expectimax { depth } => format!("expectimax:{depth}"),
            Bot::Mcts { playouts } => format!("mcts:{playouts}"),
        }
    }

    /// Does the bot search (and so may take long, and honour a stop)?
    pub fn searches(&self) -> bool {
        matches!(self, Bot::Expectimax { .. } | Bot::Mcts { .. })
    }

    /// The bot's move in `game`, which must wait for a move (`None` otherwise).
    pub fn choose(&self, game: &Game, rng: &mut Rng) -> Option<Move> {
        self.choose_until(game, rng, None)
    }

    /// [`Bot::choose`] that honours `stop`: a search asked to stop returns at once with the
    /// best move it has found so far (the caller decides whether to use it).
    pub fn choose_until(&self, game: &Game, rng: &mut Rng, stop: Option<&Stop>) -> Option<Move> {
        if *self == Bot::Random {
            return game.random_move(rng);
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            return None;
        }
        if moves.len() == 1 {
            return moves.iter().next();
        }
        Some(match self {
            // Answered from the move mask above; kept for a complete match.
            Bot::Random => nth(&moves, rng.below(moves.len() as u32) as usize),
            Bot::Cs162 => cs162_move(game, &moves),
            Bot::Aggressive => best_by(game, &moves, aggressive_score),
            Bot::Safe => best_by(game, &moves, safe_score),
            Bot::Expectimax { depth } => expectimax_move(game, &moves, *depth, stop),
            Bot::Mcts { playouts } => mcts_search(game, *playouts, UCB_C, &WEIGHTS, stop),
        })
    }
}

fn nth(moves: &MoveList, i: usize) -> Move {
    moves.iter().nth(i).unwrap_or_else(|| {
        moves.iter().next().unwrap_or(Move {
            seat: 0,
            token: 0,
            roll: 0,
        })
    })
}

/// The CS162 priority rule (D9) over the tokens in `allowed` (a bit mask of tokens that
/// can move): (1) with the entering roll, the first yard token; (2) a home-column token
/// that reaches home exactly; (3) the first token whose move captures; (4) the token with
/// the lowest step count, the first on a tie.
pub fn priority_token<G: Geometry + ?Sized>(
    geometry: &G,
    board: &Board,
    seat: Seat,
    roll: u8,
    allowed: u8,
) -> Option<usize> {
    let rules = geometry.rules();
    let n = rules.tokens as usize;
    let steps = &board.seat_steps(seat)[..n];
    let ok = |t: usize| allowed & (1 << t) != 0;
    if roll == rules.enter_roll
        && let Some(t) = (0..n).find(|&t| ok(t) && in_yard(steps[t]))
    {
        return Some(t);
    }
    let mut landing = [None; MAX_TOKENS];
    for t in (0..n).filter(|&t| ok(t)) {
        landing[t] = board.landing(geometry, seat, t, roll);
    }
    if let Some(t) = (0..n).find(|&t| {
        rules.in_home_column(steps[t])
            && steps[t] < rules.home_step
            && landing[t].is_some_and(|to| to >= rules.home_step)
    }) {
        return Some(t);
    }
    if let Some(t) = (0..n)
        .find(|&t| landing[t].is_some_and(|to| board.captures_on(geometry, seat, steps[t], to)))
    {
        return Some(t);
    }
    (0..n)
        .filter(|&t| landing[t].is_some())
        .min_by_key(|&t| steps[t])
}

fn cs162_move(game: &Game, moves: &MoveList) -> Move {
    let first = nth(moves, 0);
    let allowed = moves.iter().fold(0u8, |m, mv| m | (1 << mv.token));
    let seat = first.seat as Seat;
    match priority_token(&game.geometry(), game.board(), seat, first.roll, allowed) {
        Some(t) => moves
            .iter()
            .find(|m| m.token as usize == t)
            .unwrap_or(first),
        None => first,
    }
}

/// How many opponent tokens stand 1–6 track squares behind `square` (could hit it next).
fn threats(game: &Game, seat: Seat, square: u8) -> u32 {
    let r = game.rules();
    if r.is_safe_square(square) {
        return 0;
    }
    let len = r.track_len as i16;
    let mut count = 0;
    for other in game.seats().filter(|&s| s != seat) {
        for t in 0..r.tokens as usize {
            let s = game.board().step(other, t);
            if let Some(sq) = r.track_square(other, s) {
                let behind = (square as i16 - sq as i16).rem_euclid(len);
                // It must also be able to get there without leaving the track first.
                if (1..=6).contains(&behind) && s as i16 + behind <= r.last_track_step as i16 {
                    count += 1;
                }
            } else if in_yard(s) {
                if r.track_square(other, 0) == Some(square) {
                    count += 1; // a token entering on its start square
                }
            } else if s < r.first_track_step {
                // A token on an off-track ready square reaches the first six track steps.
                let hits = (r.first_track_step..=s + 6)
                    .any(|step| r.track_square(other, step) == Some(square));
                count += u32::from(hits);
            }
        }
    }
    count
}

fn outcome_of(game: &Game, mv: Move) -> (Game, MoveOutcome) {
    let mut after = *game;
    let outcome = after.board.apply(
        &game.geometry(),
        mv.seat as Seat,
        mv.token as usize,
        mv.roll,
    );
    (after, outcome)
}

fn captures(o: &MoveOutcome) -> u32 {
    o.captured.iter().map(|m| m.count_ones()).sum()
}

fn aggressive_score(game: &Game, mv: Move) -> i64 {
    let r = game.rules();
    let (_, o) = outcome_of(game, mv);
    if o.to == o.from {
        return i64::MIN / 2; // a move that changes nothing (GT overshoot)
    }
    let seat = mv.seat as Seat;
    let progress = (o.to.max(0) - o.from.max(-1)) as i64;
    let mut score = 1000 * captures(&o) as i64 + progress;
    if o.reached_home {
        score += 400;
    }
    if in_yard(o.from) {
        score += 300;
    }
    // Chase: land just behind opponents (1-6 squares), ready to hit them next.
    if let Some(sq) = r.track_square(seat, o.to) {
        score += 20 * opponents_ahead(game, seat, sq) as i64;
    }
    // Run with the leading token, but not into the home stretch where it is useless.
    if o.to < r.home_step {
        score += o.to.max(0) as i64;
    }
    score
}

fn opponents_ahead(game: &Game, seat: Seat, square: u8) -> u32 {
    let r = game.rules();
    let len = r.track_len as i16;
    let mut count = 0;
    for other in game.seats().filter(|&s| s != seat) {
        for t in 0..r.tokens as usize {
            if let Some(sq) = r.track_square(other, game.board().step(other, t)) {
                let ahead = (sq as i16 - square as i16).rem_euclid(len);
                if (1..=6).contains(&ahead) {
                    count += 1;
                }
            }
        }
    }
    count
}

fn safe_score(game: &Game, mv: Move) -> i64 {
    let r = game.rules();
    let seat = mv.seat as Seat;
    let (after, o) = outcome_of(game, mv);
    if o.to == o.from {
        return i64::MIN / 2;
    }
    let danger_before = r
        .track_square(seat, o.from)
        .map_or(0, |sq| threats(game, seat, sq)) as i64;
    let danger_after = r
        .track_square(seat, o.to)
        .map_or(0, |sq| threats(&after, seat, sq)) as i64;
    let mut score = 300 * danger_before - 400 * danger_after;
    score += 250 * captures(&o) as i64;
    if o.reached_home {
        score += 500;
    }
    if r.in_home_column(o.to) && !r.in_home_column(o.from) {
        score += 200;
    }
    if in_yard(o.from) {
        score += 150;
    }
    score + (o.to.max(0) - o.from.max(0)) as i64
}

fn best_by(game: &Game, moves: &MoveList, score: fn(&Game, Move) -> i64) -> Move {
    let mut best = nth(moves, 0);
    let mut best_score = i64::MIN;
    for mv in moves.iter() {
        let s = score(game, mv);
        if s > best_score {
            best = mv;
            best_score = s;
        }
    }
    best
}

/// How good the position is for `seat`, in expected die rolls: how many more rolls the
/// best opponent needs to bring its tokens home than `seat` needs (positive is good).
pub fn evaluate(game: &Game, seat: Seat) -> f64 {
    let own = rolls_to_finish(game, seat);
    let best_other = game
        .seats()
        .filter(|&s| s != seat)
        .map(|s| rolls_to_finish(game, s))
        .fold(f64::INFINITY, f64::min);
    if best_other.is_infinite() {
        -own
    } else {
        best_other - own
    }
}

/// A rough count of the die rolls `seat` still needs to bring every token home: the
/// distance over 3.5 per token, a wait for the entering roll from the yard, a few rolls
/// for an exact finish, and the expected loss from opponents that can hit a token. A
/// ranked seat needs none (less for a better rank).
fn rolls_to_finish(game: &Game, seat: Seat) -> f64 {
    let r = game.rules();
    if let Some(rank) = game.ranking().position(|s| s == seat) {
        return -100.0 + 10.0 * rank as f64;
    }
    let exact = r.overshoot != super::rules::Overshoot::Stay;
    let mut total = 0.0;
    let mut counted = 0u8;
    for t in 0..r.tokens as usize {
        if counted & (1 << t) != 0 {
            continue;
        }
        let s = game.board().step(seat, t);
        // A stack moves as one piece: its tokens need the rolls only once.
        let piece = if in_yard(s) {
            1 << t
        } else {
            game.board().piece_mask(r, seat, t)
        };
        counted |= piece;
        if in_yard(s) {
            total += 6.0 + (r.home_step as f64 + 1.0) / 3.5;
        } else if s < r.home_step {
            let remaining = (r.home_step - s) as f64;
            total += remaining / 3.5 + if exact { 1.5 } else { 0.5 };
            if let Some(sq) = r.track_square(seat, s) {
                // Each threatening token hits with about one chance in six; the token
                // then starts again.
                let loss = (6.0 + s as f64 / 3.5) * piece.count_ones() as f64;
                total += threats(game, seat, sq).min(3) as f64 / 6.0 * loss;
            }
        }
    }
    // Tokens far apart waste rolls at the end (exact finishes) and never stack: keeping
    // them together is worth a little.
    let out: Vec<f64> = (0..r.tokens as usize)
        .map(|t| game.board().step(seat, t))
        .filter(|&s| !in_yard(s) && s < r.home_step)
        .map(f64::from)
        .collect();
    if out.len() >= 2 {
        let spread = out.iter().cloned().fold(f64::MIN, f64::max)
            - out.iter().cloned().fold(f64::MAX, f64::min);
        total += SPREAD_WEIGHT * spread / 3.5;
    }
    total
}

/// Weight of the spread between a seat's tokens in [`rolls_to_finish`].
const SPREAD_WEIGHT: f64 = 0.3;

fn expectimax_move(game: &Game, moves: &MoveList, depth: u8, stop: Option<&Stop>) -> Move {
    let seat = game.current_player();
    let mut best = nth(moves, 0);
    let mut best_value = f64::NEG_INFINITY;
    for mv in moves.iter() {
        let mut child = *game;
        if child.play(mv).is_err() {
            continue;
        }
        let v = expectimax_value(&child, seat, depth, stop);
        if stop.is_some_and(Stop::requested) {
            break;
        }
        if v > best_value + 1e-12 {
            best_value = v;
            best = mv;
        }
    }
    best
}

/// The value for `seat` of `game`, looking `rolls` dice rolls ahead (0 once `stop` is
/// requested: the search is being abandoned).
fn expectimax_value(game: &Game, seat: Seat, rolls: u8, stop: Option<&Stop>) -> f64 {
    if stop.is_some_and(Stop::requested) {
        return 0.0;
    }
    match game.phase() {
        Phase::Over => evaluate(game, seat),
        // At the horizon a pending roll is still played out one move (the mover's best by
        // the static evaluation): captures just past the horizon are not missed.
        Phase::Move(_) if rolls == 0 => best_reply(game, seat, |child| evaluate(child, seat)),
        _ if rolls == 0 => evaluate(game, seat),
        Phase::Roll => {
            let mut total = 0.0;
            for value in 1..=6 {
                let mut child = *game;
                if child.roll(value).is_ok() {
                    total += expectimax_value(&child, seat, rolls - 1, stop);
                }
            }
            total / 6.0
        }
        Phase::Move(_) => best_reply(game, seat, |child| {
            expectimax_value(child, seat, rolls, stop)
        }),
    }
}

/// The value for `seat` of the move the current player makes: the best of `value` over the
/// legal moves when `seat` moves, the worst when an opponent does (it plays against `seat`).
fn best_reply(game: &Game, seat: Seat, value: impl Fn(&Game) -> f64) -> f64 {
    let own = game.current_player() == seat;
    let mut best = if own {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    };
    for mv in game.legal_moves().iter() {
        let mut child = *game;
        if child.play(mv).is_ok() {
            let v = value(&child);
            best = if own { best.max(v) } else { best.min(v) };
        }
    }
    if best.is_finite() {
        best
    } else {
        evaluate(game, seat)
    }
}

// ---------------------------------------------------------------------------------------
// MCTS: the tree holds decision nodes (one child per distinct move) and dice nodes (one child
// per distinct roll outcome, with its probability). Each iteration walks down the tree (UCB
// at decisions, the least-visited outcome relative to its probability at dice), expands the
// dice node it reaches (every roll, and every reply to it), and scores the new positions
// with a race estimate. Values back up exactly: the expectation at dice nodes, the mover's
// best child at decision nodes. No random playouts: their noise cost more than their depth
// gave.

/// The weights of the MCTS bot's race estimate ([`race_rolls`], [`race_chance`]). Fitted
/// (least squares on the win chances of positions and on the differences between the moves
/// of decisions) to the exact win chances of two-player CS162 games, which value iteration
/// over every position gives (`src/ludo/policy/fit.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Weights {
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
pub(crate) const KNOTS: usize = 9;
/// Distances to home of the knots of [`Weights::distance`].
pub(crate) const DISTANCE_KNOTS: [i16; KNOTS] = [1, 6, 7, 12, 24, 36, 48, 57, 58];

/// The fitted weights.
pub(crate) const WEIGHTS: Weights = Weights {
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
    fn distance_cost(&self, remaining: i16) -> f64 {
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
fn hit_chance(game: &Game, seat: Seat, square: u8, w: &Weights) -> f64 {
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
fn race_rolls(game: &Game, seat: Seat, w: &Weights) -> f64 {
    let r = game.rules();
    let n = r.tokens as usize;
    let steps = &game.board().seat_steps(seat)[..n];
    let yard_cost = w.yard_wait + w.distance_cost(r.home_step as i16 + 1);
    let mut total = 0.0;
    let mut counted = 0u8;
    let mut yard = 0;
    for (t, &s) in steps.iter().enumerate() {
        if counted & (1 << t) != 0 {
            continue;
        }
        if in_yard(s) {
            counted |= 1 << t;
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
fn race_chance(own: f64, other: f64, to_roll: bool, w: &Weights) -> f64 {
    let lead = other - own + if to_roll { w.tempo } else { -w.tempo };
    let scale = w.scale + w.scale_growth * (own.max(0.0) + other.max(0.0)).sqrt();
    1.0 / (1.0 + (-lead / scale.max(0.1)).exp())
}

/// The chance that `seat` (not finished) finishes before the best of the other unfinished
/// seats: a logistic of its lead in [`race_rolls`].
#[cfg(test)]
fn win_chance(game: &Game, seat: Seat, w: &Weights) -> f64 {
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
fn leaf_values(game: &Game, w: &Weights) -> [f64; MAX_SEATS] {
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
        let other = (0..MAX_SEATS)
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

/// A node of the tree.
struct Node {
    /// A decision (move phase), a dice node (roll phase) or a finished game.
    game: Game,
    /// The estimated reward of every seat.
    value: [f64; MAX_SEATS],
    visits: u32,
    /// The node's children are `children[first..first + count]` once expanded.
    first: u32,
    count: u8,
    expanded: bool,
}

/// A child: its node, its probability (dice nodes) and the token that moves (decisions).
struct Child {
    node: u32,
    prob: f64,
    token: u8,
}

struct Tree<'w> {
    nodes: Vec<Node>,
    children: Vec<Child>,
    weights: &'w Weights,
}

/// A roll that leaves only one move (or only moves to the same position) is played at once.
fn settle(game: Game) -> Game {
    if let Phase::Move(_) = game.phase() {
        let mut only: Option<Game> = None;
        for mv in game.legal_moves().iter() {
            let mut child = game;
            let _ = child.play(mv);
            match only {
                None => only = Some(child),
                Some(o) if o == child => {}
                Some(_) => return game,
            }
        }
        if let Some(o) = only {
            return o;
        }
    }
    game
}

impl Tree<'_> {
    fn add(&mut self, game: Game) -> u32 {
        let value = match game.phase() {
            Phase::Move(_) => [0.0; MAX_SEATS], // set when expanded, right away
            _ => leaf_values(&game, self.weights),
        };
        self.nodes.push(Node {
            game,
            value,
            visits: 0,
            first: 0,
            count: 0,
            expanded: false,
        });
        self.nodes.len() as u32 - 1
    }

    fn kids(&self, at: u32) -> &[Child] {
        let node = &self.nodes[at as usize];
        &self.children[node.first as usize..node.first as usize + node.count as usize]
    }

    /// Give node `at` its children: one per distinct move at a decision, one per distinct
    /// outcome at a dice node (decision outcomes are expanded too, so that every new
    /// position is scored).
    fn expand(&mut self, at: u32) {
        let game = self.nodes[at as usize].game;
        let mut kids: [(u32, f64, u8); 6] = [(0, 0.0, 0); 6];
        let mut count = 0;
        match game.phase() {
            Phase::Over => {}
            Phase::Move(_) => {
                for mv in game.legal_moves().iter() {
                    let mut child = game;
                    let _ = child.play(mv);
                    if kids[..count]
                        .iter()
                        .any(|k| self.nodes[k.0 as usize].game == child)
                    {
                        continue;
                    }
                    if count < kids.len() {
                        kids[count] = (self.add(child), 0.0, mv.token);
                        count += 1;
                    }
                }
            }
            Phase::Roll => {
                for value in 1..=6 {
                    let mut child = game;
                    let _ = child.roll(value);
                    let child = settle(child);
                    if let Some(k) = kids[..count]
                        .iter_mut()
                        .find(|k| self.nodes[k.0 as usize].game == child)
                    {
                        k.1 += 1.0 / 6.0;
                        continue;
                    }
                    kids[count] = (self.add(child), 1.0 / 6.0, value);
                    count += 1;
                }
            }
        }
        let first = self.children.len() as u32;
        for &(node, prob, token) in &kids[..count] {
            self.children.push(Child { node, prob, token });
        }
        let node = &mut self.nodes[at as usize];
        node.first = first;
        node.count = count as u8;
        node.expanded = true;
        for &(child, _, _) in &kids[..count] {
            if let Phase::Move(_) = self.nodes[child as usize].game.phase() {
                self.expand(child);
            }
        }
        self.refresh(at);
    }

    /// A node's value from its children: the expectation at a dice node, the mover's best
    /// child at a decision.
    fn refresh(&mut self, at: u32) {
        let node = &self.nodes[at as usize];
        if node.count == 0 {
            return;
        }
        let mut value = [0.0; MAX_SEATS];
        if node.game.phase() == Phase::Roll {
            for c in self.kids(at) {
                let child = &self.nodes[c.node as usize].value;
                for (v, x) in value.iter_mut().zip(child) {
                    *v += c.prob * x;
                }
            }
        } else {
            let mover = node.game.current_player();
            let mut best = f64::NEG_INFINITY;
            for c in self.kids(at) {
                let child = &self.nodes[c.node as usize].value;
                if child[mover] > best {
                    best = child[mover];
                    value = *child;
                }
            }
        }
        self.nodes[at as usize].value = value;
    }

    /// The child to walk down to from `at` (expanded, not over), if any.
    fn select(&self, at: u32, c: f64) -> Option<u32> {
        let node = &self.nodes[at as usize];
        let mut best = (f64::NEG_INFINITY, None);
        if node.game.phase() == Phase::Roll {
            // Visit the outcomes in proportion to their probabilities.
            for k in self.kids(at) {
                let child = &self.nodes[k.node as usize];
                let score = k.prob / (child.visits as f64 + 1.0);
                if !child.game.is_over() && score > best.0 {
                    best = (score, Some(k.node));
                }
            }
        } else {
            let mover = node.game.current_player();
            let ln = (node.visits as f64 + 1.0).ln();
            for k in self.kids(at) {
                let child = &self.nodes[k.node as usize];
                let score = child.value[mover] + c * (ln / (child.visits as f64 + 1.0)).sqrt();
                if !child.game.is_over() && score > best.0 {
                    best = (score, Some(k.node));
                }
            }
        }
        best.1
    }
}

/// UCB exploration constant (rewards are win chances in [0, 1]).
const UCB_C: f64 = 0.2;

/// The largest playout budget `mcts:N` accepts.
pub const MAX_PLAYOUTS: u32 = 10_000_000;

/// The most nodes an MCTS tree grows to (176 bytes a node with its edge: about 0.7 GB); a
/// search whose tree is full stops there, as if its budget were spent.
pub const MAX_TREE_NODES: usize = 4 << 20;

/// The MCTS move in `game` (which waits for a move) after `iterations` tree iterations, or
/// fewer when the tree reaches [`MAX_TREE_NODES`] or `stop` is requested. The tree grows
/// as it is searched: nothing is reserved for the whole budget up front.
pub(crate) fn mcts_search(
    game: &Game,
    iterations: u32,
    c: f64,
    weights: &Weights,
    stop: Option<&Stop>,
) -> Move {
    let moves = game.legal_moves();
    let guess = (iterations as usize * 8 + 8).min(1 << 12);
    let mut tree = Tree {
        nodes: Vec::with_capacity(guess),
        children: Vec::with_capacity(guess),
        weights,
    };
    let root = tree.add(*game);
    tree.expand(root);
    if tree.nodes[root as usize].count > 1 {
        let mut path = Vec::new();
        for _ in 0..iterations {
            // One iteration adds at most a few dozen nodes.
            if tree.nodes.len() >= MAX_TREE_NODES || stop.is_some_and(Stop::requested) {
                break;
            }
            path.clear();
            let mut at = root;
            loop {
                path.push(at);
                if !tree.nodes[at as usize].expanded {
                    tree.expand(at);
                    break;
                }
                match tree.select(at, c) {
                    Some(next) => at = next,
                    None => break,
                }
            }
            for &i in path.iter().rev() {
                tree.nodes[i as usize].visits += 1;
                tree.refresh(i);
            }
        }
    }
    let mover = game.current_player();
    let mut best = (f64::NEG_INFINITY, None);
    for k in tree.kids(root) {
        let v = tree.nodes[k.node as usize].value[mover];
        if v > best.0 {
            best = (v, Some(k.token));
        }
    }
    best.1
        .and_then(|token| moves.iter().find(|m| m.token == token))
        .unwrap_or_else(|| nth(&moves, 0))
}

#[cfg(test)]
mod fit;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ludo::rules::Rules;

    /// Every kind of bot, searches with small budgets.
    const ALL_BOTS: [Bot; 6] = [
        Bot::Random,
        Bot::Cs162,
        Bot::Aggressive,
        Bot::Safe,
        Bot::Expectimax { depth: 1 },
        Bot::Mcts { playouts: 30 },
    ];

    fn play_out(rules: Rules, bots: [Bot; 4], seed: u64) -> Game {
        play_out_seats(rules, &[0, 1, 2, 3], bots, seed)
    }

    fn play_out_seats(rules: Rules, seats: &[Seat], bots: [Bot; 4], seed: u64) -> Game {
        let mut g = Game::new(rules, seats, seed).unwrap();
        let mut rng = Rng::new(seed ^ 0xABCD);
        let mut guard = 0;
        while !g.is_over() {
            guard += 1;
            assert!(guard < 50_000);
            match g.phase() {
                Phase::Roll => {
                    g.roll_die().unwrap();
                }
                _ => {
                    let bot = bots[g.current_player()];
                    let mv = bot.choose(&g, &mut rng).unwrap();
                    assert!(
                        g.legal_moves().contains(&mv),
                        "{} chose an illegal move",
                        bot.name()
                    );
                    g.play(mv).unwrap();
                }
            }
        }
        g
    }

    #[test]
    fn every_bot_plays_legal_moves_to_the_end() {
        for rules in [Rules::CS162, Rules::STANDARD, Rules::GT] {
            for (i, &bot) in ALL_BOTS.iter().enumerate() {
                let bots = [bot, Bot::Random, Bot::Cs162, bot];
                play_out(rules, bots, i as u64 + 1);
            }
        }
    }

    /// Every bot, alone or with others, in every player count and preset, finishes its
    /// games (a bot that picks a move which changes nothing, such as a GT token already in
    /// goal, would never end a one-player game).
    #[test]
    fn every_bot_finishes_in_every_player_count() {
        for rules in [Rules::CS162, Rules::STANDARD, Rules::GT] {
            for n in 1..=MAX_SEATS {
                let seats = rules.default_seats(n).unwrap();
                for (i, &bot) in ALL_BOTS.iter().enumerate() {
                    let g = play_out_seats(rules, &seats, [bot; 4], (n * 10 + i) as u64);
                    assert!(g.is_over(), "{} {n} players {}", rules.name(), bot.name());
                }
            }
        }
    }

    #[test]
    fn bots_are_deterministic_for_a_seed() {
        for bot in [
            Bot::Random,
            Bot::Mcts { playouts: 20 },
            Bot::Expectimax { depth: 1 },
        ] {
            let a = play_out(Rules::STANDARD, [bot; 4], 9);
            let b = play_out(Rules::STANDARD, [bot; 4], 9);
            assert_eq!(a, b);
        }
    }

    /// Wins of `a` over `b` in `games` two-player games (seats A and C, half with each first).
    fn head_to_head(rules: Rules, a: Bot, b: Bot, games: u64) -> u64 {
        let mut wins = 0;
        for i in 0..games {
            let first = i % 2 == 0;
            let bots = if first { [a, b] } else { [b, a] };
            let mut g = Game::new(rules, &[0, 2], 1000 + i).unwrap();
            let mut rng = Rng::new(i);
            while !g.is_over() {
                match g.phase() {
                    Phase::Roll => {
                        g.roll_die().unwrap();
                    }
                    _ => {
                        let bot = bots[usize::from(g.current_player() == 2)];
                        let mv = bot.choose(&g, &mut rng).unwrap();
                        g.play(mv).unwrap();
                    }
                }
            }
            wins += u64::from(g.winner() == Some(if first { 0 } else { 2 }));
        }
        wins
    }

    #[test]
    fn mcts_beats_random() {
        for rules in [Rules::CS162, Rules::GT] {
            let wins = head_to_head(rules, Bot::Mcts { playouts: 50 }, Bot::Random, 200);
            assert!(wins > 130, "{} {wins}/200", rules.name());
        }
    }

    #[test]
    fn mcts_captures_a_stack_near_its_home() {
        // C's two tokens stand stacked at their step 16 (A's step 44); A's p at 40 hits them
        // with the 4, q could run on instead.
        let mut g = Game::new(Rules::CS162, &[0, 2], 1).unwrap();
        g.set_step(0, 0, 40);
        g.set_step(0, 1, 10);
        g.set_step(2, 0, 16);
        g.set_step(2, 1, 16);
        g.roll(4).unwrap();
        assert_eq!(g.legal_moves().len(), 2);
        let mv = Bot::Mcts { playouts: 50 }
            .choose(&g, &mut Rng::new(0))
            .unwrap();
        assert_eq!(mv.token, 0);
        let mut after = g;
        after.play(mv).unwrap();
        assert!(in_yard(after.board().step(2, 0)) && in_yard(after.board().step(2, 1)));
    }

    #[test]
    fn mcts_is_deterministic_and_ignores_the_random_state() {
        let mut g = Game::new(Rules::CS162, &[0, 2], 3).unwrap();
        g.set_step(0, 0, 12);
        g.set_step(0, 1, 30);
        g.set_step(2, 0, 40);
        g.set_step(2, 1, 0);
        g.roll(4).unwrap();
        let bot = Bot::Mcts { playouts: 100 };
        let first = bot.choose(&g, &mut Rng::new(1));
        for seed in 2..6 {
            assert_eq!(bot.choose(&g, &mut Rng::new(seed)), first);
        }
    }

    #[test]
    fn win_chance_is_a_sane_race_estimate() {
        let w = &WEIGHTS;
        let start = Game::new(Rules::CS162, &[0, 2], 1).unwrap();
        let a = win_chance(&start, 0, w);
        assert!((0.45..0.6).contains(&a), "{a}");
        assert!((a + win_chance(&start, 2, w) - 1.0).abs() < 1e-9);
        // A far ahead.
        let mut g = start;
        g.set_step(0, 0, 50);
        g.set_step(0, 1, 52);
        g.set_step(2, 0, 3);
        assert!(win_chance(&g, 0, w) > 0.9);
        // The distance costs grow with the distance.
        for d in 2..70 {
            assert!(w.distance_cost(d) >= w.distance_cost(d - 1) - 0.05, "{d}");
        }
        // Every seat gets a reward in [0, 1], for any number of players.
        for rules in [Rules::CS162, Rules::STANDARD, Rules::GT] {
            let g = Game::new(rules, &[0, 1, 2, 3], 5).unwrap();
            let v = leaf_values(&g, w);
            assert!(v.iter().all(|x| (0.0..=1.0).contains(x)), "{v:?}");
        }
    }

    #[test]
    fn names_round_trip() {
        for name in [
            "random",
            "cs162",
            "aggressive",
            "safe",
            "expectimax:3",
            "mcts:500",
        ] {
            assert_eq!(Bot::from_name(name).unwrap().name(), name);
        }
        assert_eq!(
            Bot::from_name("expectimax").unwrap(),
            Bot::Expectimax { depth: 2 }
        );
        assert!(Bot::from_name("expectimax:9").is_err());
        assert!(Bot::from_name("random:3").is_err());
        assert!(Bot::from_name("alphazero").is_err());
    }

    #[test]
    fn cs162_bot_matches_the_cs162_adapter() {
        // On CS162 positions the bot's choice is the play_game priority rule's choice.
        use crate::ludo::cs162::Cs162Game;
        let mut rng = Rng::new(5);
        for _ in 0..2000 {
            let mut g = Game::new(Rules::CS162, &[0, 1, 2, 3], rng.next_u64()).unwrap();
            for _ in 0..rng.below(300) {
                if g.is_over() {
                    break;
                }
                match g.phase() {
                    Phase::Roll => {
                        g.roll_die().unwrap();
                    }
                    _ => {
                        let mv = nth(
                            &g.legal_moves(),
                            rng.below(g.legal_moves().len() as u32) as usize,
                        );
                        g.play(mv).unwrap();
                    }
                }
            }
            if let Phase::Move(roll) = g.phase() {
                let seat = g.current_player();
                let mut c = Cs162Game::new(&[0, 1, 2, 3]).unwrap();
                for s in 0..4 {
                    for t in 0..2 {
                        c.set_step(s, t, g.board().step(s, t));
                    }
                }
                let want = c.choose_token(seat, roll).unwrap();
                let got = Bot::Cs162.choose(&g, &mut rng).unwrap();
                let same_piece =
                    g.board().piece_mask(g.rules(), seat, want) & (1 << got.token) != 0;
                assert!(same_piece, "adapter {want} vs bot {}", got.token);
            }
        }
    }
}
