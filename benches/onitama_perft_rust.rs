//! Perft speed of the Rust engine (no Python): the wall variant's case1 start and, with
//! `standard`, the four card sets of the community perft table (TangilJ/Onitama).
//!
//! ```text
//! cargo bench --bench onitama_perft_rust -- wall [depth=6] [rounds=3]
//! cargo bench --bench onitama_perft_rust -- standard [depth=7] [rounds=1] [set=1-4, all]
//! ```
//!
//! Prints the count, the best time of the rounds and the leaves per second; `standard`
//! also checks each count against the table (the deep rows the tests leave out) and
//! exits non-zero on a disagreement. The table's first-named hand is blue, player A.

use std::time::Instant;

use ludogame::onitama::{Card, Player, Position, find_setup, perft};

include!("../tests/common/onitama_standard_perft.rs");

fn standard(depth: u32, rounds: u32, only: Option<usize>) {
    let mut ok = true;
    for (k, (names, first, counts)) in TABLE.into_iter().enumerate() {
        if only.is_some_and(|n| n != k + 1) {
            continue;
        }
        let cards = names.map(|n| Card::standard(n).expect("a base card"));
        let pos = Position::standard_start(cards, first, 1000).expect("a valid start");
        let (count, best) = timed(&pos, depth, rounds);
        let want = counts.get(depth as usize - 1);
        let verdict = match want {
            Some(&w) if w == count => "agrees",
            Some(_) => "DISAGREES",
            None => "not in the table",
        };
        ok &= verdict != "DISAGREES";
        println!(
            "standard {} perft({depth}) = {count} ({verdict})  {best:.3} s  {:.0} M leaves/s",
            names.join(","),
            count as f64 / best / 1e6
        );
    }
    if !ok {
        std::process::exit(1);
    }
}

/// The count and the best time of `rounds` runs.
fn timed(pos: &Position, depth: u32, rounds: u32) -> (u64, f64) {
    let mut best = f64::INFINITY;
    let mut count = 0;
    for _ in 0..rounds.max(1) {
        let t0 = Instant::now();
        count = perft(pos, depth);
        best = best.min(t0.elapsed().as_secs_f64());
    }
    (count, best)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mode = args.first().map_or("wall", String::as_str);
    let arg = |i: usize, default: u32| args.get(i).and_then(|d| d.parse().ok()).unwrap_or(default);
    if mode == "standard" {
        let only = args.get(3).and_then(|n| n.parse().ok());
        standard(arg(1, 7).max(1), arg(2, 1), only);
        return;
    }
    assert_eq!(mode, "wall", "the mode is 'wall' or 'standard'");
    let (depth, rounds) = (arg(1, 6), arg(2, 3));
    let pos = find_setup("1").expect("setup 1").position(None);
    let (count, best) = timed(&pos, depth, rounds);
    println!(
        "wall case1 perft({depth}) = {count}  {best:.3} s  {:.0} M leaves/s",
        count as f64 / best / 1e6
    );
}
