//! The expectimax bot: search over the next dice rolls, scored by the race evaluation.

use super::*;

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
pub(super) fn rolls_to_finish(game: &Game, seat: Seat) -> f64 {
    let r = game.rules();
    if let Some(rank) = game.ranking().position(|s| s == seat) {
        return -100.0 + 10.0 * rank as f64;
    }
    let exact = r.overshoot != crate::ludo::rules::Overshoot::Stay;
    let mut total = 0.0;
    let mut counted = 0u8;
    for t in r.all_tokens() {
        if counted & t.bit() != 0 {
            continue;
        }
        let s = game.board().step(seat, t);
        // A stack moves as one piece: its tokens need the rolls only once.
        let piece = if in_yard(s) {
            t.bit()
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
    let out: Vec<f64> = r
        .all_tokens()
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
pub(super) const SPREAD_WEIGHT: f64 = 0.3;

pub(super) fn expectimax_move(
    game: &Game,
    moves: &MoveList,
    depth: u8,
    stop: Option<&Stop>,
) -> Move {
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
pub(super) fn expectimax_value(game: &Game, seat: Seat, rolls: u8, stop: Option<&Stop>) -> f64 {
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
pub(super) fn best_reply(game: &Game, seat: Seat, value: impl Fn(&Game) -> f64) -> f64 {
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
