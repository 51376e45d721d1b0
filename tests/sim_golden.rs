//! Golden simulation results: 2,000 seeded games for each of five configurations, summed.
//! The figures were produced by the first engine (arithmetic route geometry, before the
//! route tables and the token-mask move generation) and must not move: any optimisation of
//! the hot path has to play exactly the same games, die for die and move for move.
//!
//! The two GT figures were regenerated once, by a rules fix: a token on a goal square is out
//! of play and is never offered (before, it was offered and "moved" in place, or from the
//! first goal square to the second). GT games got shorter (388,137 rolls to 291,551 for the
//! random bots); the CS162 and standard figures did not move.

use ludogame::ludo::policy::Bot;
use ludogame::ludo::rules::Rules;
use ludogame::ludo::sim::SimConfig;

/// An FNV-style hash of the finishing orders of every game.
fn finishing_hash(finishing: &[u8]) -> u64 {
    finishing.iter().fold(0x1465_0fb0_739d_0383, |h, &x| {
        (h ^ x as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

fn check(rules: Rules, bots: Vec<Bot>, rolls: u64, captures: u64, wins: [u64; 4], hash: u64) {
    let c = SimConfig {
        rules,
        seats: vec![0, 1, 2, 3],
        bots,
        seed: 2024,
    };
    for threads in [1, 2] {
        let r = c.run(0, 2000, threads);
        assert_eq!(r.rolls.iter().map(|&x| x as u64).sum::<u64>(), rolls);
        assert_eq!(r.captures.iter().map(|&x| x as u64).sum::<u64>(), captures);
        assert_eq!(r.wins, wins);
        assert_eq!(finishing_hash(&r.finishing), hash);
        assert_eq!(r.unfinished, 0);
    }
}

#[test]
fn cs162_random_bots() {
    check(
        Rules::CS162,
        vec![Bot::Random; 4],
        438_536,
        8_488,
        [530, 484, 504, 482],
        0xb606_270e_1dae_5eff,
    );
}

#[test]
fn standard_random_bots() {
    check(
        Rules::STANDARD,
        vec![Bot::Random; 4],
        1_051_366,
        47_967,
        [526, 471, 517, 486],
        0x2375_828a_c0cc_af2d,
    );
}

#[test]
fn gt_random_bots() {
    check(
        Rules::GT,
        vec![Bot::Random; 4],
        291_551,
        13_570,
        [491, 525, 503, 481],
        0x9365_6d87_d2de_3b07,
    );
}

#[test]
fn cs162_heuristic_bots() {
    let bots = vec![Bot::Cs162, Bot::Aggressive, Bot::Safe, Bot::Random];
    check(
        Rules::CS162,
        bots,
        440_761,
        11_630,
        [840, 368, 521, 271],
        0x34f9_47ff_2806_2875,
    );
}

#[test]
fn gt_heuristic_and_search_bots() {
    let bots = vec![
        Bot::Cs162,
        Bot::Aggressive,
        Bot::Safe,
        Bot::Expectimax { depth: 1 },
    ];
    check(
        Rules::GT,
        bots,
        286_864,
        14_441,
        [322, 543, 625, 510],
        0x090d_ce22_e863_e5c3,
    );
}
