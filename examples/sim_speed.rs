//! Rust-only simulation throughput, random bots, 4 players:
//! `cargo run --release --example sim_speed [games] [cs162|standard|gt]`.
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
    for (name, rules) in [
        ("cs162", Rules::CS162),
        ("standard", Rules::STANDARD),
        ("gt", Rules::GT),
    ] {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let c = SimConfig {
            rules,
            seats: vec![0, 1, 2, 3],
            bots: vec![Bot::Random; 4],
            seed: 1,
        };
        let n = if name == "cs162" { games } else { games / 4 };
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
