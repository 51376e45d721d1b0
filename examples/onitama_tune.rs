//! Where the Onitama evaluation's weights (`src/onitama/ai/eval.rs`) come from: self-play
//! games of the level-2 search, and a logistic regression of their outcomes on the
//! evaluation's features (the "Texel" method).
//!
//! ```text
//! cargo run --release --example onitama_tune -- [--rules standard|wall] [--games N]
//!     [--nodes N] [--threads T] [--seed S] [--lambda L] [--start hand|engine]
//!
//! --rules    standard (random deals, alternately from the base cards and from all 32)
//!            or wall (the tournament boards, five random base cards, 20 plies); standard
//! --games    self-play games; 4000
//! --nodes    the search's node budget a move (deterministic); 2000
//! --threads  threads playing the games (the result does not depend on it); 2
//! --seed     the first game's seed (game k uses seed + k); 1
//! --lambda   the pull of each weight toward the starting weights; 0.001
//! --start    the starting weights: `hand` (HAND_WEIGHTS, the evaluation before it was
//!            fitted) or `engine` (the engine's weights for the rules); engine
//! ```
//!
//! Each game starts from its seeded opening, plays 0–3 random plies, then the search (with
//! the starting weights) plays both sides to the end. Every position of it where
//! the side to move cannot win at once (where the evaluation is used) is a sample: its
//! features and the game's outcome for the side to move (1 a win, ½ a tie, 0 a loss). The
//! last tenth of the games is held out.
//!
//! The fit: the win chance of a sample is modelled as `σ(w · features)`, and `w` minimises
//! the mean cross-entropy plus `λ/2 |w − w₀|²` (Newton's method), `w₀` being the
//! starting weights divided by `K`, where `K` is the scale that fits the starting
//! evaluation best (`σ(eval / K)`). The new weights are `K w`, so that both evaluations
//! are in the same units; the output is a Rust array to paste into `eval.rs`, with the
//! cross-entropy of both evaluations on the training and the held-out games.

use std::sync::atomic::{AtomicUsize, Ordering};

use ludogame::common::rng::splitmix64;
use ludogame::onitama::ai::eval::{HAND_WEIGHTS, N_FEATURES, Weights, features, weights};
use ludogame::onitama::ai::random_action;
use ludogame::onitama::{Card, CardSet, Limits, Player, Position, Rules, Searcher, Status};

/// The 16 base cards by name, the deck of the wall setups.
const BASE: [&str; 16] = [
    "tiger", "dragon", "frog", "rabbit", "crab", "elephant", "goose", "rooster", "monkey",
    "mantis", "horse", "ox", "crane", "boar", "eel", "cobra",
];

/// The tournament boards of the wall variant (the wall on either side).
const WALL_BOARDS: [[&str; 5]; 2] = [
    ["bbBbb", ".....", "....W", ".....", "aaAaa"],
    ["bbBbb", ".....", "W....", ".....", "aaAaa"],
];

struct Options {
    rules: Rules,
    games: usize,
    nodes: u64,
    threads: usize,
    seed: u64,
    lambda: f64,
    start: Weights,
}

fn parse_args() -> Options {
    let mut o = Options {
        rules: Rules::Standard,
        games: 4000,
        nodes: 2000,
        threads: 2,
        seed: 1,
        lambda: 0.001,
        start: HAND_WEIGHTS,
    };
    let mut start_engine = true;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        let bad = |what: &str| -> ! {
            eprintln!("onitama_tune: {what} takes a value, not {value:?}");
            std::process::exit(2)
        };
        match args[i].as_str() {
            "--rules" => {
                o.rules = match value.as_str() {
                    "standard" => Rules::Standard,
                    "wall" => Rules::Wall,
                    _ => bad("--rules (standard or wall)"),
                }
            }
            "--games" => o.games = value.parse().unwrap_or_else(|_| bad("--games")),
            "--nodes" => o.nodes = value.parse().unwrap_or_else(|_| bad("--nodes")),
            "--threads" => o.threads = value.parse().unwrap_or_else(|_| bad("--threads")),
            "--seed" => o.seed = value.parse().unwrap_or_else(|_| bad("--seed")),
            "--lambda" => o.lambda = value.parse().unwrap_or_else(|_| bad("--lambda")),
            "--start" => {
                start_engine = match value.as_str() {
                    "hand" => false,
                    "engine" => true,
                    _ => bad("--start (hand or engine)"),
                }
            }
            other => {
                eprintln!("onitama_tune: unknown option {other:?} (see the file's docs)");
                std::process::exit(2)
            }
        }
        i += 2;
    }
    o.threads = o.threads.max(1);
    if start_engine {
        o.start = *weights(o.rules);
    }
    o
}

/// The opening of game `seed`.
fn opening(rules: Rules, seed: u64) -> Position {
    match rules {
        Rules::Standard => {
            let set = if seed % 2 == 0 {
                CardSet::Base
            } else {
                CardSet::All
            };
            Position::standard_deal_from(seed, set, 1000)
        }
        Rules::Wall => {
            let mut deck: Vec<Card> = BASE.iter().map(|n| Card::standard(n).unwrap()).collect();
            let mut s = seed;
            for i in (1..deck.len()).rev() {
                s = splitmix64(s);
                deck.swap(i, (s % (i as u64 + 1)) as usize);
            }
            let board = WALL_BOARDS[(splitmix64(s) % 2) as usize];
            let cards = [deck[0], deck[1], deck[2], deck[3], deck[4]];
            Position::from_rows_with(Rules::Wall, &board, cards, Player::A, 20)
                .expect("a tournament board")
        }
    }
}

/// One game's samples (features, the outcome for the side to move) and its result.
struct GameData {
    samples: Vec<([i32; N_FEATURES], f64)>,
    winner: Option<Player>,
    plies: usize,
}

/// The self-play game of seed `seed`, `searcher` playing both sides.
fn play(searcher: &mut Searcher, rules: Rules, seed: u64, nodes: u64) -> GameData {
    let mut pos = opening(rules, seed);
    let random_plies = splitmix64(seed ^ 0x5eed) % 4;
    let mut seen: Vec<([i32; N_FEATURES], Player)> = Vec::new();
    let mut plies = 0;
    while pos.status() == Status::Ongoing {
        let action = if (plies as u64) < random_plies {
            random_action(&pos, seed.wrapping_add(plies as u64)).expect("an ongoing game")
        } else {
            if !pos.has_winning_move() {
                seen.push((features(&pos), pos.side()));
            }
            searcher
                .search(&pos, seed, Limits::nodes(nodes))
                .expect("an ongoing game")
                .action
        };
        pos = pos.after(action);
        plies += 1;
    }
    let winner = match pos.status() {
        Status::Won { winner, .. } => Some(winner),
        _ => None,
    };
    let samples = seen
        .into_iter()
        .map(|(f, side)| {
            let y = match winner {
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            (f, y)
        })
        .collect();
    GameData {
        samples,
        winner,
        plies,
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean cross-entropy of the predictions `p` (clamped away from 0 and 1).
fn cross_entropy(pairs: impl Iterator<Item = (f64, f64)>) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for (p, y) in pairs {
        let p = p.clamp(1e-9, 1.0 - 1e-9);
        sum -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        n += 1;
    }
    sum / n.max(1) as f64
}

/// The scale `K` for which `σ(score / K)` fits the samples best (golden-section search).
fn fit_scale(scores: &[(f64, f64)]) -> f64 {
    let loss = |k: f64| cross_entropy(scores.iter().map(|&(s, y)| (sigmoid(s / k), y)));
    let (mut lo, mut hi) = (10.0f64, 2000.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Solve `a x = b` (symmetric positive definite) by Gaussian elimination with pivoting.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap();
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..n {
            let f = a[r][c] / a[c][c];
            if f != 0.0 {
                let (upper, lower) = a.split_at_mut(r);
                for (x, p) in lower[0][c..].iter_mut().zip(&upper[c][c..]) {
                    *x -= f * p;
                }
                b[r] -= f * b[c];
            }
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    x
}

/// Logistic regression from `w0`, pulled toward it by `lambda` (Newton's method).
fn fit(train: &[([i32; N_FEATURES], f64)], w0: &[f64], lambda: f64) -> Vec<f64> {
    let n = train.len() as f64;
    let mut w = w0.to_vec();
    for round in 0..30 {
        let mut grad = vec![0.0; N_FEATURES];
        // Row-major, N_FEATURES × N_FEATURES; the lower triangle is summed, then mirrored.
        let mut hess = vec![0.0; N_FEATURES * N_FEATURES];
        for (f, y) in train {
            let x: Vec<f64> = f.iter().map(|&v| v as f64).collect();
            let p = sigmoid(x.iter().zip(&w).map(|(a, b)| a * b).sum());
            let (e, h) = (p - y, p * (1.0 - p));
            for i in 0..N_FEATURES {
                if x[i] == 0.0 {
                    continue;
                }
                grad[i] += e * x[i];
                let hx = h * x[i];
                for (h, xj) in hess[i * N_FEATURES..=i * N_FEATURES + i].iter_mut().zip(&x) {
                    *h += hx * xj;
                }
            }
        }
        for i in 0..N_FEATURES {
            grad[i] = grad[i] / n + lambda * (w[i] - w0[i]);
            for j in 0..i {
                hess[i * N_FEATURES + j] /= n;
                hess[j * N_FEATURES + i] = hess[i * N_FEATURES + j];
            }
            hess[i * N_FEATURES + i] = hess[i * N_FEATURES + i] / n + lambda;
        }
        let step = solve(hess.chunks(N_FEATURES).map(<[f64]>::to_vec).collect(), grad);
        let size = step.iter().map(|s| s.abs()).fold(0.0, f64::max);
        for (wi, s) in w.iter_mut().zip(&step) {
            *wi -= s;
        }
        eprintln!("  Newton step {round}: largest change {size:.2e}");
        if size < 1e-7 {
            break;
        }
    }
    w
}

fn main() {
    let o = parse_args();
    eprintln!(
        "playing {} {:?} games at {} nodes a move on {} threads",
        o.games, o.rules, o.nodes, o.threads
    );
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, GameData)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..o.threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut searcher = Searcher::new();
                    searcher.set_weights(o.rules, o.start);
                    let mut out = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= o.games {
                            break out;
                        }
                        out.push((k, play(&mut searcher, o.rules, o.seed + k as u64, o.nodes)));
                        if (k + 1) % 500 == 0 {
                            eprintln!("  {} games", k + 1);
                        }
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a self-play thread"))
            .collect()
    });
    results.sort_by_key(|(k, _)| *k);
    let (mut a, mut b, mut ties, mut plies) = (0, 0, 0, 0);
    for (_, g) in &results {
        match g.winner {
            Some(Player::A) => a += 1,
            Some(Player::B) => b += 1,
            None => ties += 1,
        }
        plies += g.plies;
    }
    let held_from = o.games - o.games / 10;
    let mut train = Vec::new();
    let mut test = Vec::new();
    for (k, g) in results {
        if k < held_from { &mut train } else { &mut test }.extend(g.samples);
    }
    println!(
        "{} games: A won {a}, B won {b}, {ties} ties, {:.1} plies a game; {} training and {} held-out samples",
        o.games,
        plies as f64 / o.games as f64,
        train.len(),
        test.len()
    );
    let dot = |w: &[f64], f: &[i32; N_FEATURES]| -> f64 {
        w.iter().zip(f).map(|(a, &b)| a * b as f64).sum()
    };
    let start: Vec<f64> = o.start.iter().map(|&v| v as f64).collect();
    let scores: Vec<(f64, f64)> = train.iter().map(|(f, y)| (dot(&start, f), *y)).collect();
    let k = fit_scale(&scores);
    let w0: Vec<f64> = start.iter().map(|v| v / k).collect();
    let w = fit(&train, &w0, o.lambda);
    let mut tuned: Weights = [0; N_FEATURES];
    for (t, v) in tuned.iter_mut().zip(&w) {
        *t = (v * k).round() as i32;
    }
    let loss = |set: &[([i32; N_FEATURES], f64)], weights: &Weights| {
        let wf: Vec<f64> = weights.iter().map(|&v| v as f64 / k).collect();
        cross_entropy(set.iter().map(|(f, y)| (sigmoid(dot(&wf, f)), *y)))
    };
    println!("scale K = {k:.1}");
    for (name, weights) in [
        ("hand-written", &HAND_WEIGHTS),
        ("starting", &o.start),
        ("fitted", &tuned),
    ] {
        println!(
            "{name:>12}: cross-entropy {:.5} training, {:.5} held out",
            loss(&train, weights),
            loss(&test, weights)
        );
    }
    println!("[{}]", tuned.map(|v| v.to_string()).join(", "));
}
