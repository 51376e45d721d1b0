//! The search on several threads (Lazy SMP on one shared transposition table) and pondering:
//! a search on two threads answers legally, finds the forced wins a search on one finds,
//! keeps to a node budget counted over its threads and stops when asked; one thread is the
//! deterministic search; a pondering search waits for its ponderhit before its time runs,
//! and under a node budget answers as the plain search.

mod common;

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use common::Rng;
use ludogame::onitama::{
    Ai, AiSettings, Limits, MATE_BOUND, PonderHit, Position, Searcher, Status, find_setup,
};
use ludogame::stop::Stop;

/// Can the side to move force a win within `k` of its own plies?
fn forced_win(pos: &Position, k: u32) -> bool {
    if pos.status() != Status::Ongoing {
        return false;
    }
    if pos.has_winning_move() {
        return true;
    }
    k > 1
        && pos.plies_left() >= 3
        && pos.legal_actions().iter().any(|&a| {
            let q = pos.after(a);
            q.status() == Status::Ongoing
                && !q.has_winning_move()
                && q.legal_actions()
                    .iter()
                    .all(|&b| forced_win(&q.after(b), k - 1))
        })
}

/// Positions of standard deals after seeded random plies (both rule sets' searches share
/// the code; the standard game has the longer lines), with a forced win in two of the
/// mover's plies but none at once.
fn forced_positions(seed: u64, want: usize) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut found = Vec::new();
    let mut deal = 0;
    while found.len() < want && deal < 2_000 {
        deal += 1;
        let mut pos = Position::standard_deal(rng.next_u64(), 1000);
        for _ in 0..60 {
            if pos.status() != Status::Ongoing {
                break;
            }
            if !pos.has_winning_move() && forced_win(&pos, 2) {
                found.push(pos);
                break;
            }
            let list = pos.legal_actions();
            pos = pos.after(list.as_slice()[rng.below(list.len() as u64) as usize]);
        }
    }
    assert_eq!(found.len(), want);
    found
}

fn ai(threads: usize, limits: Limits) -> Ai {
    let mut ai = Ai::new(2, 1, limits).unwrap();
    ai.set_threads(threads).unwrap();
    ai
}

#[test]
fn two_threads_find_the_forced_wins_of_one() {
    for pos in forced_positions(11, 12) {
        let one = ai(1, Limits::depth(4)).analyse(&pos).unwrap();
        let two = ai(2, Limits::depth(4)).analyse(&pos).unwrap();
        assert!(pos.is_legal(two.action), "{pos}");
        assert!(one.score > MATE_BOUND, "{pos}: one thread {one:?}");
        assert!(two.score > MATE_BOUND, "{pos}: two threads {two:?}");
        // the action leaves the opponent no escape: every reply allows a win at once
        let q = pos.after(two.action);
        assert!(
            q.legal_actions()
                .iter()
                .all(|&b| q.after(b).has_winning_move()),
            "{pos}: {}",
            two.action
        );
    }
}

#[test]
fn a_node_budget_counts_every_thread() {
    let pos = Position::standard_deal(5, 1000);
    for budget in [5_000u64, 50_000] {
        let info = ai(2, Limits::nodes(budget)).analyse(&pos).unwrap();
        assert!(pos.is_legal(info.action));
        // the helper publishes its count every 1024 nodes, and sees the end within 1024
        assert!(
            info.nodes >= budget && info.nodes <= budget + 4 * 1024,
            "{budget}: {} nodes",
            info.nodes
        );
    }
}

#[test]
fn one_thread_is_the_deterministic_search() {
    let pos = find_setup("23").unwrap().position(None);
    let plain = Searcher::new().search(&pos, 9, Limits::nodes(20_000));
    let mut s = Searcher::new();
    s.set_threads(3);
    s.set_threads(1);
    assert_eq!(s.threads(), 1);
    assert_eq!(s.search(&pos, 9, Limits::nodes(20_000)), plain);
    // after a search on two threads, one thread again answers as before
    s.set_threads(2);
    let two = s.search(&pos, 9, Limits::nodes(20_000)).unwrap();
    assert!(pos.is_legal(two.action));
    s.set_threads(1);
    assert_eq!(s.search(&pos, 9, Limits::nodes(20_000)), plain);
}

#[test]
fn a_stop_ends_a_search_on_threads() {
    let pos = Position::standard_deal(8, 1000);
    let stop = Stop::new();
    let remote = stop.clone();
    let info = thread::scope(|s| {
        s.spawn(move || {
            thread::sleep(Duration::from_millis(200));
            remote.request();
        });
        ai(2, Limits::default()).analyse_until(&pos, &stop).unwrap()
    });
    assert!(pos.is_legal(info.action));
    assert!(!info.exact);
}

#[test]
fn threads_are_1_to_the_most() {
    let mut a = ai(1, Limits::default());
    assert!(a.set_threads(0).is_err());
    assert!(a.set_threads(AiSettings::MAX_THREADS + 1).is_err());
    assert_eq!(a.threads(), 1, "a refused number changes nothing");
    a.set_threads(AiSettings::MAX_THREADS).unwrap();
    assert_eq!(a.threads(), AiSettings::MAX_THREADS);
}

#[test]
fn pondering_under_a_node_budget_answers_as_the_plain_search() {
    let pos = Position::standard_deal(2, 1000);
    let limits = Limits::nodes(30_000);
    let plain = Ai::new(2, 4, limits).unwrap().analyse(&pos).unwrap();
    let hit = PonderHit::new();
    let pondered = Ai::new(2, 4, limits)
        .unwrap()
        .analyse_pondering(&pos, &Stop::new(), &hit)
        .unwrap();
    assert_eq!(
        pondered, plain,
        "a node budget counts from the start, the flag or not"
    );
}

#[test]
fn a_pondering_search_runs_past_its_time_until_the_ponderhit() {
    let pos = Position::standard_deal(6, 1000);
    let hit = PonderHit::new();
    let (tx, rx) = mpsc::channel();
    let flag = hit.clone();
    let worker = thread::spawn(move || {
        let mut ai = Ai::new(2, 0, Limits::time(Duration::from_millis(20))).unwrap();
        let info = ai.analyse_pondering(&pos, &Stop::new(), &flag).unwrap();
        tx.send(info).unwrap();
    });
    // 20 ms of budget, but no ponderhit yet: still searching long after
    assert!(
        rx.recv_timeout(Duration::from_millis(500)).is_err(),
        "the pondering search ended before its ponderhit"
    );
    hit.request();
    let info = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the search ends once its time has run from the ponderhit");
    worker.join().unwrap();
    assert!(pos.is_legal(info.action));
    // it went on from what it had found: deeper than a search of 20 ms from scratch
    assert!(info.depth >= 6, "{info:?}");
}

#[test]
fn a_stop_ends_a_pondering_search() {
    let pos = Position::standard_deal(7, 1000);
    let stop = Stop::new();
    let remote = stop.clone();
    let info = thread::scope(|s| {
        s.spawn(move || {
            thread::sleep(Duration::from_millis(100));
            remote.request();
        });
        Ai::new(2, 0, Limits::time(Duration::from_millis(10)))
            .unwrap()
            .analyse_pondering(&pos, &stop, &PonderHit::new())
            .unwrap()
    });
    assert!(pos.is_legal(info.action));
}
