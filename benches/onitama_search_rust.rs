//! Search speed of the Rust engine (no Python): the level-2 AI on the tournament setups
//! 21, 22 and 23, under a node budget (deterministic: the same nodes on every machine).
//!
//! ```text
//! cargo bench --bench onitama_search_rust -- [nodes=1000000]
//! ```
//!
//! Prints, for each setup, the action, score, depth and nodes searched, the time and the
//! nodes per second, and the expected line.

use std::time::Instant;

use ludogame::onitama::{Ai, Limits, find_setup};

fn main() {
    let mut nodes: u64 = 1_000_000;
    for arg in std::env::args().skip(1) {
        if let Some(v) = arg.strip_prefix("nodes=") {
            nodes = v.parse().expect("nodes=N with N a whole number");
        }
    }
    for id in ["21", "22", "23"] {
        let pos = find_setup(id).expect("a tournament setup").position(None);
        let mut ai = Ai::new(2, 0, Limits::nodes(nodes)).expect("level 2");
        let t0 = Instant::now();
        let info = ai.analyse(&pos).expect("the setup is not over");
        let dt = t0.elapsed();
        let pv: Vec<String> = info.pv.iter().map(|a| a.to_string()).collect();
        println!(
            "setup {id}: {} score {} depth {} nodes {} in {dt:.2?} ({:.0} nodes/s) pv {}",
            info.action,
            info.score,
            info.depth,
            info.nodes,
            info.nodes as f64 / dt.as_secs_f64(),
            pv.join(", ")
        );
    }
}
