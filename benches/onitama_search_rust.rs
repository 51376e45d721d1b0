//! Search speed of the Rust engine (no Python): the level-2 AI on the tournament setups
//! 21, 22 and 23 (the wall variant) or, with `standard`, on the first standard deals, under a
//! node budget (deterministic: the same nodes on every machine).
//!
//! ```text
//! cargo bench --bench onitama_search_rust -- [nodes=1000000] [standard[=6]]
//! ```
//!
//! Prints, for each position, the action, score, depth and nodes searched, the time and the
//! nodes per second, and the expected line.

use std::time::Instant;

use ludogame::onitama::{Ai, Game, Limits, Position, find_setup};

fn main() {
    let mut nodes: u64 = 1_000_000;
    let mut deals: Option<u64> = None;
    for arg in std::env::args().skip(1) {
        if let Some(v) = arg.strip_prefix("nodes=") {
            nodes = v.parse().expect("nodes=N with N a whole number");
        } else if arg == "standard" {
            deals = Some(6);
        } else if let Some(v) = arg.strip_prefix("standard=") {
            deals = Some(v.parse().expect("standard=N with N a whole number"));
        }
    }
    let positions: Vec<(String, Position)> = match deals {
        Some(n) => (0..n)
            .map(|seed| {
                let game = Game::standard(None, None, Some(seed), None, None).expect("a deal");
                (format!("deal {seed}"), *game.position())
            })
            .collect(),
        None => ["21", "22", "23"]
            .iter()
            .map(|id| {
                let setup = find_setup(id).expect("a tournament setup");
                (format!("setup {id}"), setup.position(None))
            })
            .collect(),
    };
    for (name, pos) in positions {
        let mut ai = Ai::new(2, 0, Limits::nodes(nodes)).expect("level 2");
        let t0 = Instant::now();
        let info = ai.analyse(&pos).expect("the position is not over");
        let dt = t0.elapsed();
        let pv: Vec<String> = info.pv.iter().map(|a| a.to_string()).collect();
        println!(
            "{name}: {} score {} depth {} nodes {} in {dt:.2?} ({:.0} nodes/s) pv {}",
            info.action,
            info.score,
            info.depth,
            info.nodes,
            info.nodes as f64 / dt.as_secs_f64(),
            pv.join(", ")
        );
    }
}
