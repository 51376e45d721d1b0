//! Seeded strength tests: every bot plays a short two-player match whose exact number of
//! wins is pinned. A fixed seed makes a match exact, so any change of a bot's choices (or
//! of the dice, the rules or the simulation) moves the count; issue #22's regression
//! (mcts:200 from 0.564 to 0.523 against cs162) went unnoticed for want of such a test.
//!
//! Each match is the first pairing of a tournament: `tournament_wins(rules, a, b, games,
//! seed)` is the wins column of `a` that
//!
//! ```text
//! ludo tournament --rules RULES --bots A,B --games GAMES --seed SEED
//! ```
//!
//! prints (`benches/strength.py` and the README's tables come from the same games), so that
//! command re-measures a pinned figure. A count that moves for a good reason (a bot made
//! stronger on purpose, a new dice stream) is measured again with it and updated here, in
//! the commit that moves it, with the old and new figures in its message.

use super::*;
use crate::ludo::sim::SimConfig;

/// The wins of `a` in the first pairing of `ludo tournament --rules RULES --bots a,b
/// --games games --seed seed`: `games / 2` games with `a` first (seat A) on seed `seed`,
/// the rest with `b` first on seed `seed + 1` (as `LudoGame.sim.tournament` plays them).
fn tournament_wins(rules: Rules, a: Bot, b: Bot, games: u64, seed: u64) -> u64 {
    let mut wins = 0;
    for (seating, bots) in [[a, b], [b, a]].into_iter().enumerate() {
        let n = if seating == 0 {
            games / 2
        } else {
            games - games / 2
        };
        let config = SimConfig {
            rules,
            seats: vec![0, 2],
            bots: bots.to_vec(),
            seed: seed + seating as u64,
        };
        let r = config.run(0, n, 1);
        assert_eq!((r.games, r.unfinished), (n, 0), "{a} against {b}");
        wins += r.wins[if seating == 0 { 0 } else { 2 }];
    }
    wins
}

/// Checks that `bot` wins exactly `want` of `games` games against `opponent` under `rules`
/// from `seed`, and names the command that measures it again.
fn pin(rules: Rules, bot: &str, opponent: &str, games: u64, seed: u64, want: u64) {
    let (a, b) = (bot.parse().unwrap(), opponent.parse().unwrap());
    let got = tournament_wins(rules, a, b, games, seed);
    assert_eq!(
        got,
        want,
        "{bot} won {got} of {games} against {opponent} ({:.3}), pinned {want} ({:.3}); \
         measured by: ludo tournament --rules {} --bots {bot},{opponent} --games {games} \
         --seed {seed}",
        got as f64 / games as f64,
        want as f64 / games as f64,
        rules.name(),
    );
}

/// random wins 99 of 400 (0.247) against cs162 under cs162 rules:
/// `ludo tournament --rules cs162 --bots random,cs162 --games 400 --seed 5`.
#[test]
fn random() {
    pin(Rules::CS162, "random", "cs162", 400, 5, 99);
}

/// cs162 wins 293 of 400 (0.733) against random under cs162 rules:
/// `ludo tournament --rules cs162 --bots cs162,random --games 400 --seed 5`.
#[test]
fn cs162() {
    pin(Rules::CS162, "cs162", "random", 400, 5, 293);
}

/// aggressive wins 131 of 400 (0.328) against cs162 under cs162 rules:
/// `ludo tournament --rules cs162 --bots aggressive,cs162 --games 400 --seed 5`.
#[test]
fn aggressive() {
    pin(Rules::CS162, "aggressive", "cs162", 400, 5, 131);
}

/// safe wins 143 of 400 (0.357) against cs162 under cs162 rules:
/// `ludo tournament --rules cs162 --bots safe,cs162 --games 400 --seed 5`.
#[test]
fn safe() {
    pin(Rules::CS162, "safe", "cs162", 400, 5, 143);
}

/// expectimax:1 wins 209 of 400 (0.522) against cs162 under cs162 rules:
/// `ludo tournament --rules cs162 --bots expectimax:1,cs162 --games 400 --seed 5`.
#[test]
fn expectimax_1() {
    pin(Rules::CS162, "expectimax:1", "cs162", 400, 5, 209);
}

/// expectimax:2 wins 216 of 400 (0.540) against cs162 under cs162 rules:
/// `ludo tournament --rules cs162 --bots expectimax:2,cs162 --games 400 --seed 5`.
#[test]
fn expectimax_2() {
    pin(Rules::CS162, "expectimax:2", "cs162", 400, 5, 216);
}

/// expectimax:3 wins 115 of 200 (0.575) against cs162 under cs162 rules:
/// `ludo tournament --rules cs162 --bots expectimax:3,cs162 --games 200 --seed 5`.
#[test]
fn expectimax_3() {
    pin(Rules::CS162, "expectimax:3", "cs162", 200, 5, 115);
}

/// expectimax:4 wins 24 of 40 (0.600) against cs162 under cs162 rules:
/// `ludo tournament --rules cs162 --bots expectimax:4,cs162 --games 40 --seed 5`.
#[test]
fn expectimax_4() {
    pin(Rules::CS162, "expectimax:4", "cs162", 40, 5, 24);
}

/// expectimax:5 wins 6 of 10 (0.600) against cs162 under cs162 rules:
/// `ludo tournament --rules cs162 --bots expectimax:5,cs162 --games 10 --seed 5`.
#[test]
fn expectimax_5() {
    pin(Rules::CS162, "expectimax:5", "cs162", 10, 5, 6);
}

/// mcts:200 wins 236 of 400 (0.590) against cs162 under cs162 rules:
/// `ludo tournament --rules cs162 --bots mcts:200,cs162 --games 400 --seed 5`.
/// (Issue #22's regressed race estimate won 205; the same command with 2000 games
/// gives 1127, 0.564, as at 8bd1a24, where the strength tables were measured.)
#[test]
fn mcts_200() {
    pin(Rules::CS162, "mcts:200", "cs162", 400, 5, 236);
}

/// mcts wins 27 of 40 (0.675) against cs162 under cs162 rules:
/// `ludo tournament --rules cs162 --bots mcts,cs162 --games 40 --seed 5`.
/// (`mcts` is `mcts:1000`; issue #22's regressed race estimate won 25.)
#[test]
fn mcts_default() {
    pin(Rules::CS162, "mcts", "cs162", 40, 5, 27);
}

/// aggressive wins 114 of 200 (0.570) against safe under standard rules:
/// `ludo tournament --rules standard --bots aggressive,safe --games 200 --seed 5`.
#[test]
fn standard_heuristics() {
    pin(Rules::STANDARD, "aggressive", "safe", 200, 5, 114);
}

/// expectimax:1 wins 147 of 200 (0.735) against cs162 under standard rules:
/// `ludo tournament --rules standard --bots expectimax:1,cs162 --games 200 --seed 5`.
#[test]
fn standard_expectimax() {
    pin(Rules::STANDARD, "expectimax:1", "cs162", 200, 5, 147);
}

/// mcts:50 wins 70 of 100 (0.700) against cs162 under standard rules:
/// `ludo tournament --rules standard --bots mcts:50,cs162 --games 100 --seed 5`.
#[test]
fn standard_mcts() {
    pin(Rules::STANDARD, "mcts:50", "cs162", 100, 5, 70);
}

/// aggressive wins 96 of 200 (0.480) against safe under gt rules:
/// `ludo tournament --rules gt --bots aggressive,safe --games 200 --seed 5`.
#[test]
fn gt_heuristics() {
    pin(Rules::GT, "aggressive", "safe", 200, 5, 96);
}

/// expectimax:1 wins 129 of 200 (0.645) against cs162 under gt rules:
/// `ludo tournament --rules gt --bots expectimax:1,cs162 --games 200 --seed 5`.
#[test]
fn gt_expectimax() {
    pin(Rules::GT, "expectimax:1", "cs162", 200, 5, 129);
}

/// mcts:50 wins 73 of 100 (0.730) against cs162 under gt rules:
/// `ludo tournament --rules gt --bots mcts:50,cs162 --games 100 --seed 5`.
#[test]
fn gt_mcts() {
    pin(Rules::GT, "mcts:50", "cs162", 100, 5, 73);
}
