//! `perft.json` reproduced: perft (winning move = 1 leaf) to depth 4, the exact-length
//! convention to depth 4, the depth-3 divide, and the same counts through make/unmake.
//! Depth 5 and the timing run are `#[ignore]`d: `cargo test --release -- --ignored`.

mod common;

use common::json::Golden;

use std::collections::BTreeMap;
use std::time::Instant;

use common::json::Json;
use common::{Key, key_of_action, key_of_json, load, position_of, setup};
use ludogame::onitama::perft::{PerftTiming, time_perft};
use ludogame::onitama::{Position, perft, perft_divide, perft_exact, perft_make_unmake};

/// `(setup id, position, perft rows, exact-length rows, divide rows)` of every setup.
fn cases() -> Vec<(String, Position, Json)> {
    let setups = load("setups.json");
    let data = load("perft.json");
    data.at("setups")
        .array()
        .iter()
        .map(|c| {
            let id = c.at("setup_id").str().to_owned();
            let pos = position_of(&setup(&setups, &id));
            assert_eq!(pos.side(), common::player_of(c.at("to_move")));
            (id, pos, c.clone())
        })
        .collect()
}

fn rows(c: &Json, key: &str) -> Vec<(u32, u64)> {
    c.at(key)
        .array()
        .iter()
        .map(|r| (r.at("depth").int() as u32, r.at("count").int() as u64))
        .collect()
}

#[test]
fn perft_to_depth_4() {
    let cases = cases();
    assert_eq!(cases.len(), 4);
    for (id, pos, c) in &cases {
        for (depth, count) in rows(c, "perft") {
            if depth <= 4 {
                assert_eq!(perft(pos, depth), count, "{id} perft({depth})");
            }
        }
    }
}

#[test]
fn exact_length_convention_to_depth_4() {
    for (id, pos, c) in &cases() {
        for (depth, count) in rows(c, "perft_exact_length_convention") {
            if depth <= 4 {
                assert_eq!(perft_exact(pos, depth), count, "{id} exact({depth})");
            }
        }
    }
}

#[test]
fn make_unmake_gives_the_same_counts() {
    for (id, pos, c) in &cases() {
        for (depth, count) in rows(c, "perft") {
            if depth <= 4 {
                assert_eq!(
                    perft_make_unmake(pos, depth),
                    count,
                    "{id} make/unmake({depth})"
                );
            }
        }
    }
}

#[test]
fn divide_at_depth_3() {
    for (id, pos, c) in &cases() {
        let want: BTreeMap<Key, u64> = c
            .at("divide_depth3")
            .at("rows")
            .array()
            .iter()
            .map(|r| (key_of_json(r), r.at("count").int() as u64))
            .collect();
        let got: BTreeMap<Key, u64> = perft_divide(pos, 3)
            .into_iter()
            .map(|(a, n)| (key_of_action(a), n))
            .collect();
        assert_eq!(got, want, "{id}");
    }
}

fn report(what: &str, t: PerftTiming) {
    println!(
        "{what}: {} actions in {:.3} s = {:.1} M actions/s",
        t.count,
        t.elapsed.as_secs_f64(),
        t.per_second() / 1e6
    );
}

#[test]
#[ignore = "depth 5 of every setup: run in release with --ignored"]
fn perft_depth_5() {
    for (id, pos, c) in &cases() {
        for (depth, count) in rows(c, "perft") {
            if depth == 5 {
                let t0 = Instant::now();
                assert_eq!(perft(pos, 5), count, "{id} perft(5)");
                println!(
                    "{id}: perft(5) = {count} in {:.3} s",
                    t0.elapsed().as_secs_f64()
                );
            }
        }
        for (depth, count) in rows(c, "perft_exact_length_convention") {
            if depth == 5 {
                assert_eq!(perft_exact(pos, 5), count, "{id} exact(5)");
            }
        }
    }
}

#[test]
#[ignore = "timing: run in release with --ignored --nocapture"]
fn bench_perft_case21_depth_5() {
    let (_, pos, _) = cases().into_iter().find(|(id, ..)| id == "case21").unwrap();
    let bulk = time_perft(perft, &pos, 5);
    assert_eq!(bulk.count, 67_139_988);
    report("case21 perft(5), copy-make, bulk-counted last ply", bulk);
    let full = time_perft(perft_make_unmake, &pos, 5);
    assert_eq!(full.count, 67_139_988);
    report("case21 perft(5), make/unmake of every action", full);
}
