//! Stopping the Onitama search and perft from another thread through a `Stop` flag: a
//! requested stop ends them at once (the search still answers a legal action, perft gives
//! up), and a flag never requested changes nothing.

use std::thread;
use std::time::{Duration, Instant};

use ludogame::onitama::{Ai, Limits, Searcher, find_setup, perft, perft_until};
use ludogame::stop::Stop;

#[test]
fn a_stop_ends_an_unlimited_search_at_once() {
    let pos = find_setup("21").unwrap().position(Some(60));
    let stop = Stop::new();
    let remote = stop.clone();
    let t0 = Instant::now();
    let info = thread::scope(|s| {
        s.spawn(move || {
            thread::sleep(Duration::from_millis(200));
            remote.request();
        });
        let mut ai = Ai::new(2, 0, Limits::default()).unwrap();
        ai.analyse_until(&pos, &stop).unwrap()
    });
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    assert!(pos.is_legal(info.action));
    assert!(!info.exact);
}

#[test]
fn a_stop_requested_before_the_search_still_answers_legally() {
    let pos = find_setup("22").unwrap().position(None);
    let stop = Stop::new();
    stop.request();
    let mut searcher = Searcher::new();
    let info = searcher
        .search_until(&pos, 3, Limits::time(Duration::from_secs(86_400)), &stop)
        .unwrap();
    assert!(pos.is_legal(info.action));
    let mut ai = Ai::new(2, 3, Limits::default()).unwrap();
    assert!(pos.is_legal(ai.choose_until(&pos, &stop).unwrap()));
}

#[test]
fn a_flag_never_set_changes_nothing() {
    let pos = find_setup("21").unwrap().position(None);
    let idle = Stop::new();
    let mut a = Searcher::new();
    let mut b = Searcher::new();
    assert_eq!(
        a.search(&pos, 5, Limits::nodes(20_000)),
        b.search_until(&pos, 5, Limits::nodes(20_000), &idle)
    );
    for depth in 0..=4 {
        assert_eq!(perft_until(&pos, depth, &idle), Some(perft(&pos, depth)));
    }
}

#[test]
fn a_stop_ends_perft() {
    let pos = find_setup("21").unwrap().position(Some(60));
    let stop = Stop::new();
    stop.request();
    assert_eq!(perft_until(&pos, 30, &stop), None);
    assert_eq!(perft_until(&pos, 1, &stop), Some(perft(&pos, 1)));
    let fresh = Stop::new();
    let far = fresh.clone();
    let t0 = Instant::now();
    let n = thread::scope(|s| {
        s.spawn(move || {
            thread::sleep(Duration::from_millis(100));
            far.request();
        });
        perft_until(&pos, 30, &fresh)
    });
    assert_eq!(n, None);
    assert!(t0.elapsed() < Duration::from_secs(5));
}
