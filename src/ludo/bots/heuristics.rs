//! The one-move bots: the CS162 priority rules and the aggressive and safe heuristics.

use super::*;

pub(super) fn nth(moves: &MoveList, i: usize) -> Move {
    moves
        .iter()
        .nth(i)
        .unwrap_or_else(|| moves.iter().next().unwrap_or_default())
}

/// The CS162 priority rule (D9) over the tokens in `allowed` (a bit mask of tokens that
/// can move): (1) with the entering roll, the first yard token; (2) a home-column token
/// that reaches home exactly; (3) the first token whose move captures; (4) the token with
/// the lowest step count, the first on a tie.
#[inline]
pub fn priority_token<G: Geometry + ?Sized>(
    geometry: &G,
    board: &Board,
    seat: Seat,
    roll: u8,
    allowed: u8,
) -> Option<Token> {
    let steps = board.seat_steps(seat);
    priority_rule(
        geometry.rules(),
        steps,
        roll,
        allowed,
        |t| board.landing(geometry, seat, t, roll),
        |t, to| board.captures_on(geometry, seat, steps[t], to),
    )
    .map(|(t, _)| t)
}

/// The priority rule (D9) with the rule that decided: the token and the rule's number
/// (1..=4), given where each allowed token would land (`landing`) and whether a token's
/// move to a step would capture (`captures`). The one home of the rules' order, for the
/// bot above and for the CS162 game under any reading of the open decisions.
#[inline(always)]
pub fn priority_rule(
    rules: &Rules,
    steps: [Step; MAX_TOKENS],
    roll: u8,
    allowed: u8,
    landing: impl Fn(Token) -> Option<Step>,
    captures: impl Fn(Token, Step) -> bool,
) -> Option<(Token, u8)> {
    let tokens = rules.all_tokens();
    let ok = |t: Token| allowed & t.bit() != 0;
    if roll == rules.enter_roll
        && let Some(t) = tokens.clone().find(|&t| ok(t) && in_yard(steps[t]))
    {
        return Some((t, 1));
    }
    let mut landed = [None; MAX_TOKENS];
    for t in tokens.clone().filter(|&t| ok(t)) {
        landed[t] = landing(t);
    }
    if let Some(t) = tokens.clone().find(|&t| {
        rules.in_home_column(steps[t])
            && steps[t] < rules.home_step
            && landed[t].is_some_and(|to| to >= rules.home_step)
    }) {
        return Some((t, 2));
    }
    if let Some(t) = tokens
        .clone()
        .find(|&t| landed[t].is_some_and(|to| captures(t, to)))
    {
        return Some((t, 3));
    }
    tokens
        .filter(|&t| landed[t].is_some())
        .min_by_key(|&t| steps[t])
        .map(|t| (t, 4))
}

pub(super) fn cs162_move(game: &Game, moves: &MoveList) -> Move {
    let first = nth(moves, 0);
    let allowed = moves.iter().fold(0u8, |m, mv| m | mv.token.bit());
    match priority_token(
        &game.geometry(),
        game.board(),
        first.seat,
        first.roll,
        allowed,
    ) {
        Some(t) => moves.iter().find(|m| m.token == t).unwrap_or(first),
        None => first,
    }
}

/// How many opponent tokens stand 1–6 track squares behind `square` (could hit it next).
pub(super) fn threats(game: &Game, seat: Seat, square: u8) -> u32 {
    let r = game.rules();
    if r.is_safe_square(square) {
        return 0;
    }
    let len = r.track_len as i16;
    let mut count = 0;
    for other in game.seats().filter(|&s| s != seat) {
        for t in r.all_tokens() {
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

pub(super) fn outcome_of(game: &Game, mv: Move) -> (Game, MoveOutcome) {
    let mut after = *game;
    let outcome = after
        .board
        .apply(&game.geometry(), mv.seat, mv.token, mv.roll);
    (after, outcome)
}

pub(super) fn captures(o: &MoveOutcome) -> u32 {
    o.captured.iter().map(|m| m.count_ones()).sum()
}

pub(super) fn aggressive_score(game: &Game, mv: Move) -> i64 {
    let r = game.rules();
    let (_, o) = outcome_of(game, mv);
    if o.to == o.from {
        return i64::MIN / 2; // a move that changes nothing (GT overshoot)
    }
    let seat = mv.seat;
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

pub(super) fn opponents_ahead(game: &Game, seat: Seat, square: u8) -> u32 {
    let r = game.rules();
    let len = r.track_len as i16;
    let mut count = 0;
    for other in game.seats().filter(|&s| s != seat) {
        for t in r.all_tokens() {
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

pub(super) fn safe_score(game: &Game, mv: Move) -> i64 {
    let r = game.rules();
    let seat = mv.seat;
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

pub(super) fn best_by(game: &Game, moves: &MoveList, score: fn(&Game, Move) -> i64) -> Move {
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
