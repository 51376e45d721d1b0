//! Rust-only simulation throughput, random bots, 4 players:
//! `cargo run --release --example sim_speed [games] [cs162|standard|gt|engine]`.
//! The `engine` lines time the engine's own game loop (heuristic bots, and random bots
//! under rules too large for the compiled tables).
use std::time::Instant;

use ludogame::ludo::policy::Bot;
use ludogame::ludo::rules::Rules;
use ludogame::ludo::sim::SimConfig;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000);
    let only = std::env::args().nth(2);
    let mut four_tokens = Rules::CS162;
    four_tokens.tokens = 4;
    let heuristic = vec![Bot::Cs162, Bot::Safe, Bot::Aggressive, Bot::Cs162];
    for (name, rules, bots, n) in [
        ("cs162", Rules::CS162, vec![Bot::Random; 4], games),
        ("standard", Rules::STANDARD, vec![Bot::Random; 4], games / 4),
        ("gt", Rules::GT, vec![Bot::Random; 4], games / 4),
        ("engine/4t", four_tokens, vec![Bot::Random; 4], games / 10),
        ("engine/bots", Rules::CS162, heuristic, games / 10),
    ] {
        if only
            .as_deref()
            .is_some_and(|o| !name.split('/').any(|part| part == o))
        {
            continue;
        }
        let c = SimConfig {
            rules,
            seats: vec![0, 1, 2, 3],
            bots,
            seed: 1,
        };
        let mut best = f64::MAX;
        let mut r = None;
        for _ in 0..3 {
            let t = Instant::now();
            let res = c.run(0, n, 1);
            best = best.min(t.elapsed().as_secs_f64());
            r = Some(res);
        }
        let r = r.unwrap();
        let rolls: u64 = r.rolls.iter().map(|&x| x as u64).sum();
        println!(
            "{name:9} {:>10.0} games/s  {:.1} rolls/game  {:.1} ns/roll",
            n as f64 / best,
            rolls as f64 / n as f64,
            best * 1e9 / rolls as f64
        );
    }
}
