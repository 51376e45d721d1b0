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
//!            fitted), `engine` (the engine's weights for the rules) or `no-tables`
//!            (the fitted weights before the card tables: STANDARD_WEIGHTS_NO_TABLES,
//!            or WALL_WEIGHTS), or a file of weights as --out writes them; engine
//! --save F   also write the samples to file F (one a line: game, outcome, notation)
//! --load F   fit to the samples of file F instead of playing games
//! --out F    write the fitted weights to file F (as eval.rs includes them), not stdout
//! --min-count N  fit only the features nonzero in N training samples or more; 50
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
use ludogame::onitama::ai::eval::{
    HAND_WEIGHTS, N_FEATURES, STANDARD_WEIGHTS_NO_TABLES, WALL_WEIGHTS, WEIGHT_SCALE, Weights,
    features, weights,
};
use ludogame::onitama::ai::random_action;
use ludogame::onitama::{Card, CardSet, Limits, Player, Position, Searcher, Status, Variant};

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
    rules: Variant,
    games: usize,
    nodes: u64,
    threads: usize,
    seed: u64,
    lambda: f64,
    start: Weights,
    save: Option<String>,
    load: Option<String>,
    out: Option<String>,
    min_count: usize,
}

fn parse_args() -> Options {
    let mut o = Options {
        rules: Variant::Standard,
        games: 4000,
        nodes: 2000,
        threads: 2,
        seed: 1,
        lambda: 0.001,
        start: HAND_WEIGHTS,
        save: None,
        load: None,
        out: None,
        min_count: 50,
    };
    let mut start = "engine".to_string();
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
                    "standard" => Variant::Standard,
                    "wall" => Variant::Wall,
                    _ => bad("--rules (standard or wall)"),
                }
            }
            "--games" => o.games = value.parse().unwrap_or_else(|_| bad("--games")),
            "--nodes" => o.nodes = value.parse().unwrap_or_else(|_| bad("--nodes")),
            "--threads" => o.threads = value.parse().unwrap_or_else(|_| bad("--threads")),
            "--seed" => o.seed = value.parse().unwrap_or_else(|_| bad("--seed")),
            "--lambda" => o.lambda = value.parse().unwrap_or_else(|_| bad("--lambda")),
            "--save" => o.save = Some(value),
            "--load" => o.load = Some(value),
            "--out" => o.out = Some(value),
            "--min-count" => o.min_count = value.parse().unwrap_or_else(|_| bad("--min-count")),
            "--start" => start = value,
            other => {
                eprintln!("onitama_tune: unknown option {other:?} (see the file's docs)");
                std::process::exit(2)
            }
        }
        i += 2;
    }
    o.threads = o.threads.max(1);
    o.start = match (start.as_str(), o.rules) {
        ("hand", _) => HAND_WEIGHTS,
        ("engine", rules) => *weights(rules),
        ("no-tables", Variant::Standard) => STANDARD_WEIGHTS_NO_TABLES,
        ("no-tables", Variant::Wall) => WALL_WEIGHTS,
        (path, _) => read_weights(path),
    };
    o
}

/// Weights from a file as `--out` writes them (`//` comment lines, then the numbers between
/// `[` and `]`); fewer than [`N_FEATURES`] numbers leave the rest 0.
fn read_weights(path: &str) -> Weights {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!(
            "onitama_tune: --start takes hand, engine, no-tables or a weights file: {path}: {e}"
        );
        std::process::exit(2)
    });
    let body: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join(" ");
    let numbers: Result<Vec<i32>, _> = body
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::parse)
        .collect();
    let mut w = [0; N_FEATURES];
    match numbers {
        Ok(v) if v.len() <= N_FEATURES => w[..v.len()].copy_from_slice(&v),
        _ => {
            eprintln!("onitama_tune: {path}: not a weights file of at most {N_FEATURES} numbers");
            std::process::exit(2)
        }
    }
    w
}

/// The opening of game `seed`.
fn opening(rules: Variant, seed: u64) -> Position {
    match rules {
        Variant::Standard => {
            let set = if seed % 2 == 0 {
                CardSet::Base
            } else {
                CardSet::All
            };
            Position::standard_deal_from(seed, set, 1000)
        }
        Variant::Wall => {
            let mut deck: Vec<Card> = BASE.iter().map(|n| Card::standard(n).unwrap()).collect();
            let mut s = seed;
            for i in (1..deck.len()).rev() {
                s = splitmix64(s);
                deck.swap(i, (s % (i as u64 + 1)) as usize);
            }
            let board = WALL_BOARDS[(splitmix64(s) % 2) as usize];
            let cards = [deck[0], deck[1], deck[2], deck[3], deck[4]];
            Position::from_rows_with(Variant::Wall, &board, cards, Player::A, 20)
                .expect("a tournament board")
        }
    }
}

/// One game's samples (a position, the outcome for its side to move) and its result.
struct GameData {
    samples: Vec<(Position, f64)>,
    winner: Option<Player>,
    plies: usize,
}

/// The self-play game of seed `seed`, `searcher` playing both sides.
fn play(searcher: &mut Searcher, rules: Variant, seed: u64, nodes: u64) -> GameData {
    let mut pos = opening(rules, seed);
    let random_plies = splitmix64(seed ^ 0x5eed) % 4;
    let mut seen: Vec<Position> = Vec::new();
    let mut plies = 0;
    while pos.status() == Status::Ongoing {
        let action = if (plies as u64) < random_plies {
            random_action(&pos, seed.wrapping_add(plies as u64)).expect("an ongoing game")
        } else {
            if !pos.has_winning_move() {
                seen.push(pos);
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
        .map(|p| {
            let y = match winner {
                Some(w) if w == p.side() => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            (p, y)
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

/// A sample's features, only the nonzero ones: (feature, count).
type Sparse = Vec<(u16, i16)>;

/// `features(pos)` as [`Sparse`].
fn sparse(pos: &Position) -> Sparse {
    features(pos)
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v != 0)
        .map(|(i, &v)| (i as u16, v as i16))
        .collect()
}

fn dot(w: &[f64], f: &Sparse) -> f64 {
    f.iter().map(|&(i, v)| w[i as usize] * v as f64).sum()
}

/// `a · b`, in eight running sums (which the compiler can vectorise).
fn dot_f64(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f64 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for ((s, x), y) in acc.iter_mut().zip(x).zip(y) {
            *s += x * y;
        }
    }
    acc.iter().sum::<f64>() + tail
}

/// Solve `a x = b` for a symmetric positive definite `a` (row-major, `n × n`) by
/// Cholesky's method.
fn solve(mut a: Vec<f64>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    // a = L Lᵀ, L overwriting the lower triangle.
    for j in 0..n {
        let (done, rest) = a.split_at_mut(j * n);
        let row_j = &mut rest[..n];
        for k in 0..j {
            let row_k = &done[k * n..k * n + n];
            let s = dot_f64(&row_j[..k], &row_k[..k]);
            row_j[k] = (row_j[k] - s) / row_k[k];
        }
        let s = dot_f64(&row_j[..j], &row_j[..j]);
        row_j[j] = (row_j[j] - s).sqrt();
    }
    for i in 0..n {
        let s: f64 = (0..i).map(|k| a[i * n + k] * b[k]).sum();
        b[i] = (b[i] - s) / a[i * n + i];
    }
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| a[k * n + i] * b[k]).sum();
        b[i] = (b[i] - s) / a[i * n + i];
    }
    b
}

/// Logistic regression from `w0`, pulled toward it by `lambda` (Newton's method, on the
/// features that occur in `min_count` samples or more; the others keep their starting
/// weights), on `threads` threads.
fn fit(
    train: &[(Sparse, f64)],
    w0: &[f64],
    lambda: f64,
    min_count: usize,
    threads: usize,
) -> Vec<f64> {
    let n = train.len() as f64;
    // The features that occur in at least `min_count` samples, numbered densely.
    let mut count = vec![0usize; N_FEATURES];
    for (f, _) in train {
        for &(i, _) in f {
            count[i as usize] += 1;
        }
    }
    let active: Vec<usize> = (0..N_FEATURES).filter(|&i| count[i] >= min_count).collect();
    let mut slot = vec![usize::MAX; N_FEATURES];
    for (k, &i) in active.iter().enumerate() {
        slot[i] = k;
    }
    let m = active.len();
    eprintln!(
        "  fitting {m} of {N_FEATURES} features on {} samples",
        train.len()
    );
    let mut w = w0.to_vec();
    for round in 0..30 {
        let chunk = train.len().div_ceil(threads);
        let parts: Vec<(Vec<f64>, Vec<f64>)> = std::thread::scope(|scope| {
            let handles: Vec<_> = train
                .chunks(chunk.max(1))
                .map(|part| {
                    let (w, slot) = (&w, &slot);
                    scope.spawn(move || {
                        let mut grad = vec![0.0; m];
                        // Lower triangle, row-major m × m.
                        let mut hess = vec![0.0; m * m];
                        let mut xs: Vec<(usize, f64)> = Vec::new();
                        for (f, y) in part {
                            let p = sigmoid(dot(w, f));
                            let (e, h) = (p - y, p * (1.0 - p));
                            xs.clear();
                            xs.extend(
                                f.iter()
                                    .map(|&(i, v)| (slot[i as usize], v as f64))
                                    .filter(|x| x.0 != usize::MAX),
                            );
                            xs.sort_unstable_by_key(|x| x.0);
                            for (a, &(i, xi)) in xs.iter().enumerate() {
                                grad[i] += e * xi;
                                let hx = h * xi;
                                let row = &mut hess[i * m..i * m + m];
                                for &(j, xj) in &xs[..=a] {
                                    row[j] += hx * xj;
                                }
                            }
                        }
                        (grad, hess)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a fitting thread"))
                .collect()
        });
        let mut grad = vec![0.0; m];
        let mut hess = vec![0.0; m * m];
        for (g, h) in parts {
            for (a, b) in grad.iter_mut().zip(g) {
                *a += b;
            }
            for (a, b) in hess.iter_mut().zip(h) {
                *a += b;
            }
        }
        for (k, &i) in active.iter().enumerate() {
            grad[k] = grad[k] / n + lambda * (w[i] - w0[i]);
            for j in 0..k {
                hess[k * m + j] /= n;
                hess[j * m + k] = hess[k * m + j];
            }
            hess[k * m + k] = hess[k * m + k] / n + lambda;
        }
        let step = solve(hess, grad);
        let size = step.iter().map(|s| s.abs()).fold(0.0, f64::max);
        for (&i, s) in active.iter().zip(&step) {
            w[i] -= s;
        }
        eprintln!("  Newton step {round}: largest change {size:.2e}");
        if size < 1e-7 {
            break;
        }
    }
    w
}

/// Play the self-play games: every sample as (game, outcome, position), in game order.
fn play_games(o: &Options) -> Vec<(usize, f64, Position)> {
    eprintln!(
        "playing {} {:?} games at {} nodes a move on {} threads",
        o.games, o.rules, o.nodes, o.threads
    );
    let clock = std::time::Instant::now();
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
    eprintln!("  played in {:.1} s", clock.elapsed().as_secs_f64());
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
    println!(
        "{} games: A won {a}, B won {b}, {ties} ties, {:.1} plies a game",
        o.games,
        plies as f64 / o.games as f64,
    );
    results
        .into_iter()
        .flat_map(|(k, g)| g.samples.into_iter().map(move |(p, y)| (k, y, p)))
        .collect()
}

/// Write the samples to `path`, one a line: game, outcome, notation.
fn save(path: &str, samples: &[(usize, f64, Position)]) {
    let mut text = String::new();
    for (k, y, p) in samples {
        text.push_str(&format!("{k} {y} {}\n", p.to_notation()));
    }
    std::fs::write(path, text).unwrap_or_else(|e| {
        eprintln!("onitama_tune: cannot write {path}: {e}");
        std::process::exit(1)
    });
}

/// Read the samples [`save`] wrote.
fn load(path: &str) -> Vec<(usize, f64, Position)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("onitama_tune: cannot read {path}: {e}");
        std::process::exit(1)
    });
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let mut parts = line.splitn(3, ' ');
            let k = parts.next().and_then(|v| v.parse().ok());
            let y = parts.next().and_then(|v| v.parse().ok());
            let p = parts.next().and_then(|v| Position::from_notation(v).ok());
            match (k, y, p) {
                (Some(k), Some(y), Some(p)) => (k, y, p),
                _ => {
                    eprintln!("onitama_tune: {path} line {}: not a sample", i + 1);
                    std::process::exit(1)
                }
            }
        })
        .collect()
}

fn main() {
    let o = parse_args();
    let samples = match &o.load {
        Some(path) => load(path),
        None => play_games(&o),
    };
    if let Some(path) = &o.save {
        save(path, &samples);
    }
    let games = samples.last().map_or(0, |s| s.0 + 1);
    let held_from = games - games / 10;
    let mut train = Vec::new();
    let mut test = Vec::new();
    for (k, y, p) in &samples {
        if *k < held_from {
            &mut train
        } else {
            &mut test
        }
        .push((sparse(p), *y));
    }
    println!(
        "{games} games; {} training and {} held-out samples",
        train.len(),
        test.len()
    );
    // Weights in evaluation units.
    let units = |w: &Weights| -> Vec<f64> {
        w.iter()
            .map(|&v| v as f64 / f64::from(WEIGHT_SCALE))
            .collect()
    };
    let start = units(&o.start);
    let scores: Vec<(f64, f64)> = train.iter().map(|(f, y)| (dot(&start, f), *y)).collect();
    let k = fit_scale(&scores);
    let w0: Vec<f64> = start.iter().map(|v| v / k).collect();
    let w = fit(&train, &w0, o.lambda, o.min_count, o.threads);
    let mut tuned: Weights = [0; N_FEATURES];
    for (t, v) in tuned.iter_mut().zip(&w) {
        *t = (v * k * f64::from(WEIGHT_SCALE)).round() as i32;
    }
    let loss = |set: &[(Sparse, f64)], weights: &Weights| {
        let wf: Vec<f64> = units(weights).iter().map(|v| v / k).collect();
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
    let mut text = format!(
        "// {N_FEATURES} weights in 1/{WEIGHT_SCALE} units, written by examples/onitama_tune.rs:\n// onitama_tune {}\n[\n",
        std::env::args().skip(1).collect::<Vec<_>>().join(" ")
    );
    for row in tuned.chunks(20) {
        let row: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        text.push_str(&format!("    {},\n", row.join(", ")));
    }
    text.push_str("]\n");
    match &o.out {
        Some(path) => {
            std::fs::write(path, text).unwrap_or_else(|e| {
                eprintln!("onitama_tune: cannot write {path}: {e}");
                std::process::exit(1)
            });
            println!("weights written to {path}");
        }
        None => print!("{text}"),
    }
}
