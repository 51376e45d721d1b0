//! Bots: who picks which move. Rules stay in [`Game`]; a bot only looks at the legal moves
//! and chooses. Every bot is deterministic for a given random-number state.
//!
//! - `random`: uniform among the legal moves;
//! - `cs162`: the assignment's four priority rules (D9), generalised to any rule set;
//! - `aggressive` / `safe`: hand-tuned one-move heuristics (captures first / safety first);
//! - `expectimax(depth)`: search over the next `depth` dice rolls, opponents assumed to play
//!   against the searching player;
//! - `mcts(playouts)`: Monte Carlo tree search with explicit dice nodes and a playout budget.

use super::board::{Board, MoveOutcome, in_yard};
use super::error::LudoError;
use super::game::{Game, Move, MoveList, Phase};
use super::rng::Rng;
use super::rules::{MAX_SEATS, MAX_TOKENS, Rules, Seat};

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
    /// Monte Carlo tree search with this many playouts per move.
    Mcts {
        /// Playouts per decision.
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
                playouts: number(1000, 10_000_000)?,
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

    /// The bot's move in `game`, which must wait for a move (`None` otherwise).
    pub fn choose(&self, game: &Game, rng: &mut Rng) -> Option<Move> {
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
            Bot::Random => nth(&moves, rng.below(moves.len() as u32) as usize), // (above)
            Bot::Cs162 => cs162_move(game, &moves),
            Bot::Aggressive => best_by(game, &moves, aggressive_score),
            Bot::Safe => best_by(game, &moves, safe_score),
            Bot::Expectimax { depth } => expectimax_move(game, &moves, *depth),
            Bot::Mcts { playouts } => mcts_move(game, *playouts, rng),
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
pub fn priority_token(
    rules: &Rules,
    board: &Board,
    seat: Seat,
    roll: u8,
    allowed: u8,
) -> Option<usize> {
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
        landing[t] = board.landing(rules, seat, t, roll);
    }
    if let Some(t) = (0..n).find(|&t| {
        rules.in_home_column(steps[t])
            && steps[t] < rules.home_step
            && landing[t].is_some_and(|to| to >= rules.home_step)
    }) {
        return Some(t);
    }
    if let Some(t) =
        (0..n).find(|&t| landing[t].is_some_and(|to| board.captures_on(rules, seat, steps[t], to)))
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
    match priority_token(game.rules(), game.board(), seat, first.roll, allowed) {
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
    let outcome = after
        .board
        .apply(&game.rules, mv.seat as Seat, mv.token as usize, mv.roll);
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

fn expectimax_move(game: &Game, moves: &MoveList, depth: u8) -> Move {
    let seat = game.current_player();
    let mut best = nth(moves, 0);
    let mut best_value = f64::NEG_INFINITY;
    for mv in moves.iter() {
        let mut child = *game;
        if child.play(mv).is_err() {
            continue;
        }
        let v = expectimax_value(&child, seat, depth);
        if v > best_value + 1e-12 {
            best_value = v;
            best = mv;
        }
    }
    best
}

/// The value for `seat` of `game`, looking `rolls` dice rolls ahead.
fn expectimax_value(game: &Game, seat: Seat, rolls: u8) -> f64 {
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
                    total += expectimax_value(&child, seat, rolls - 1);
                }
            }
            total / 6.0
        }
        Phase::Move(_) => best_reply(game, seat, |child| expectimax_value(child, seat, rolls)),
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

/// One node of the MCTS tree: a decision (children per legal move) or a dice node
/// (children per roll value).
struct Node {
    game: Game,
    visits: u32,
    /// Total reward per seat.
    reward: [f64; MAX_SEATS],
    children: Vec<(u8, usize)>,
    untried: Vec<u8>,
}

fn node_actions(game: &Game) -> Vec<u8> {
    match game.phase() {
        Phase::Roll => (1..=6).collect(),
        Phase::Move(_) => game.legal_moves().iter().map(|m| m.token).collect(),
        Phase::Over => Vec::new(),
    }
}

fn step_with(game: &Game, action: u8) -> Game {
    let mut child = *game;
    match game.phase() {
        Phase::Roll => {
            let _ = child.roll(action);
        }
        Phase::Move(roll) => {
            let _ = child.play(Move {
                seat: game.current_player() as u8,
                token: action,
                roll,
            });
        }
        Phase::Over => {}
    }
    child
}

/// The reward of a game for every seat, in [0, 1]: by rank once the game is decided for a
/// seat, otherwise from the evaluation (a logistic of the roll lead over the best opponent).
fn rewards(game: &Game) -> [f64; MAX_SEATS] {
    let seats: Vec<Seat> = game.seats().collect();
    let mut out = [0.0; MAX_SEATS];
    let n = seats.len().max(2) as f64 - 1.0;
    let ranked: Vec<Seat> = game.ranking().collect();
    for &s in &seats {
        out[s] = match ranked.iter().position(|&r| r == s) {
            Some(i) => 1.0 - i as f64 / n,
            None if game.is_over() => 0.0,
            None => 1.0 / (1.0 + (-evaluate(game, s) / ROLLOUT_SCALE).exp()),
        };
    }
    out
}

/// Rolls and moves a playout goes on for before the evaluation scores it.
const ROLLOUT_EVENTS: u32 = 16;
/// How many rolls of lead make a playout's reward about 0.73 (logistic scale).
const ROLLOUT_SCALE: f64 = 6.0;

/// Play on for a while with a fast policy (mostly the CS162 rule, sometimes random), then
/// score the position.
fn rollout(mut game: Game, rng: &mut Rng) -> [f64; MAX_SEATS] {
    for _ in 0..ROLLOUT_EVENTS {
        match game.phase() {
            Phase::Over => break,
            Phase::Roll => {
                let v = rng.die();
                let _ = game.roll(v);
            }
            Phase::Move(_) => {
                let moves = game.legal_moves();
                let mv = if rng.below(4) == 0 {
                    nth(&moves, rng.below(moves.len() as u32) as usize)
                } else {
                    cs162_move(&game, &moves)
                };
                let _ = game.play(mv);
            }
        }
    }
    rewards(&game)
}

fn mcts_move(game: &Game, playouts: u32, rng: &mut Rng) -> Move {
    let moves = game.legal_moves();
    let mut nodes = vec![Node {
        game: *game,
        visits: 0,
        reward: [0.0; MAX_SEATS],
        children: Vec::new(),
        untried: node_actions(game),
    }];
    for _ in 0..playouts {
        // Select.
        let mut path = vec![0usize];
        let mut at = 0usize;
        loop {
            let node = &nodes[at];
            if node.game.is_over() {
                break;
            }
            if !node.untried.is_empty() && node.game.phase() != Phase::Roll {
                break;
            }
            if node.game.phase() == Phase::Roll {
                // A dice node: sample the roll, expanding its child if new.
                let value = rng.die();
                if let Some(&(_, c)) = node.children.iter().find(|(a, _)| *a == value) {
                    at = c;
                    path.push(at);
                    continue;
                }
                let child_game = step_with(&node.game, value);
                let idx = nodes.len();
                nodes.push(Node {
                    game: child_game,
                    visits: 0,
                    reward: [0.0; MAX_SEATS],
                    children: Vec::new(),
                    untried: node_actions(&child_game),
                });
                nodes[at].children.push((value, idx));
                at = idx;
                path.push(at);
                continue;
            }
            let mover = node.game.current_player();
            let ln = (node.visits.max(1) as f64).ln();
            let mut best = (f64::NEG_INFINITY, at);
            for &(_, c) in &node.children {
                let ch = &nodes[c];
                let mean = ch.reward[mover] / ch.visits.max(1) as f64;
                let ucb = mean + 0.7 * (ln / ch.visits.max(1) as f64).sqrt();
                if ucb > best.0 {
                    best = (ucb, c);
                }
            }
            if best.1 == at {
                break;
            }
            at = best.1;
            path.push(at);
        }
        // Expand.
        if let Some(action) = nodes[at].untried.pop() {
            let child_game = step_with(&nodes[at].game, action);
            let idx = nodes.len();
            nodes.push(Node {
                game: child_game,
                visits: 0,
                reward: [0.0; MAX_SEATS],
                children: Vec::new(),
                untried: node_actions(&child_game),
            });
            nodes[at].children.push((action, idx));
            at = idx;
            path.push(at);
        }
        // Simulate and back up.
        let reward = rollout(nodes[at].game, rng);
        for &i in &path {
            nodes[i].visits += 1;
            for (total, r) in nodes[i].reward.iter_mut().zip(reward) {
                *total += r;
            }
        }
    }
    let root = &nodes[0];
    let best = root
        .children
        .iter()
        .max_by_key(|(_, c)| nodes[*c].visits)
        .map(|&(a, _)| a);
    match best {
        Some(token) => moves
            .iter()
            .find(|m| m.token == token)
            .unwrap_or_else(|| nth(&moves, 0)),
        None => nth(&moves, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_out(rules: Rules, bots: [Bot; 4], seed: u64) -> Game {
        let mut g = Game::new(rules, &[0, 1, 2, 3], seed).unwrap();
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
        let all = [
            Bot::Random,
            Bot::Cs162,
            Bot::Aggressive,
            Bot::Safe,
            Bot::Expectimax { depth: 1 },
            Bot::Mcts { playouts: 30 },
        ];
        for rules in [Rules::CS162, Rules::STANDARD, Rules::GT] {
            for (i, &bot) in all.iter().enumerate() {
                let bots = [bot, Bot::Random, Bot::Cs162, bot];
                play_out(rules, bots, i as u64 + 1);
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
