//! Where the MCTS bot's race-estimate weights ([`WEIGHTS`]) come from: the exact win
//! chances of two-player CS162 games (seats A and C), by value iteration over every
//! position, and a least-squares fit of the race estimate to them.
//!
//! ```text
//! cargo run --release --example fit_weights -- COMMAND [--quick] [--rounds N]
//!
//! COMMAND
//!   check     the exact move generator the solver uses agrees with the engine
//!   perfect   win rates of perfect play and of mcts:200 against cs162, safe and
//!             aggressive (the figures in the README)
//!   regret    the win chance each bot gives away per decision against perfect play
//!   fit       refit the weights, starting from the current ones, and print them
//! --quick     a small run of the command: `check --quick` finishes in seconds (it plays
//!             its games with the cs162 bot and at random, without the exact values);
//!             the others still need the exact values
//! --rounds N  rounds of the fit's pattern search (default 60; 3 with --quick)
//! ```
//!
//! Every command but `check --quick` needs the exact values: the first run solves the game
//! (about 4 minutes) and caches them (50 MB) in the temporary directory.

use std::sync::OnceLock;

use ludogame::common::rng::GOLDEN_GAMMA;
use ludogame::ludo::bots::race::{KNOTS, WEIGHTS, Weights, leaf_values};
use ludogame::ludo::{Bot, Game, Move, MoveList, Phase, Rng, Rules, Seat};

/// Values of steps −1..=57.
const STEPS: usize = 59;
/// Home (and the end of the route) in CS162 steps.
const HOME: i8 = 57;

/// The exact chance that the seat to roll wins, for every position.
struct Exact {
    /// Indexed by (own pair, opponent pair, bonus roll pending).
    value: Vec<f64>,
    pairs: Vec<[i8; 2]>,
    /// Ordered step pair -> pair index.
    index: Vec<usize>,
}

/// The `i`-th legal move (the first when there are fewer).
fn nth(moves: &MoveList, i: usize) -> Move {
    moves
        .get(i)
        .or_else(|| moves.get(0))
        .expect("a position waiting for a move has one")
}

/// Seats A and C, who play every game here.
fn a_and_c() -> [Seat; 2] {
    [Seat::ALL[0], Seat::ALL[2]]
}

/// The two tokens of `seat`.
fn pair(game: &Game, seat: Seat) -> [i8; 2] {
    let [p, q, ..] = game.board().seat_steps(seat);
    [p, q]
}

/// The opponent of `seat` in a two-player game (A against C).
fn opponent(seat: Seat) -> Seat {
    Seat::ALL[(seat.index() + 2) % Seat::ALL.len()]
}

/// Both seats' tokens: the mover's, then the opponent's.
type Position = ([i8; 2], [i8; 2]);

/// The positions `me` can reach with `die` against `opp`: (me, opp) after each distinct
/// move. Mirrors the engine's CS162 rules (checked by `exact_moves_match_the_engine`).
fn exact_moves(me: [i8; 2], opp: [i8; 2], die: i8) -> ([Position; 2], usize) {
    let mut out = [([0i8; 2], [0i8; 2]); 2];
    let mut n = 0;
    for t in 0..2 {
        if t == 1 && me[1] == me[0] {
            break; // the same piece, or the same result
        }
        let s = me[t];
        let to = if s < 0 {
            if die != 6 {
                continue;
            }
            0
        } else if s >= HOME {
            continue;
        } else if s + die <= HOME {
            s + die
        } else {
            2 * HOME - s - die
        };
        let mut m = me;
        if s >= 1 && me[0] == me[1] {
            m = [to, to]; // a stack moves as one
        } else {
            m[t] = to;
        }
        let mut o = opp;
        if (1..=50).contains(&to) {
            for x in o.iter_mut() {
                // The seats are 28 squares apart on the 56-square track.
                if (1..=50).contains(x) && (to as i16 - *x as i16 - 28).rem_euclid(56) == 0 {
                    *x = -1;
                }
            }
        }
        out[n] = (m, o);
        n += 1;
    }
    (out, n)
}

impl Exact {
    fn new() -> Exact {
        let mut pairs = Vec::new();
        let mut index = vec![0; STEPS * STEPS];
        for a in -1..=HOME {
            for b in a..=HOME {
                index[(a + 1) as usize * STEPS + (b + 1) as usize] = pairs.len();
                index[(b + 1) as usize * STEPS + (a + 1) as usize] = pairs.len();
                pairs.push([a, b]);
            }
        }
        let n = pairs.len();
        let mut exact = Exact {
            value: vec![0.5; n * n * 2],
            pairs,
            index,
        };
        let path = std::env::temp_dir().join("ludogame-cs162-exact.bin");
        match std::fs::read(&path) {
            Ok(bytes) if bytes.len() == exact.value.len() * 8 => {
                for (v, c) in exact.value.iter_mut().zip(bytes.chunks_exact(8)) {
                    *v = f64::from_le_bytes(c.try_into().unwrap());
                }
            }
            _ => {
                exact.solve();
                let bytes: Vec<u8> = exact.value.iter().flat_map(|v| v.to_le_bytes()).collect();
                std::fs::write(&path, bytes).unwrap();
            }
        }
        exact
    }

    fn id(&self, p: [i8; 2]) -> usize {
        self.index[(p[0] + 1) as usize * STEPS + (p[1] + 1) as usize]
    }

    /// The chance that the seat to roll (tokens `me`) wins.
    fn value(&self, me: [i8; 2], opp: [i8; 2], extra: bool) -> f64 {
        if opp == [HOME, HOME] {
            return 0.0;
        }
        if me == [HOME, HOME] {
            return 1.0;
        }
        self.value[(self.id(me) * self.pairs.len() + self.id(opp)) * 2 + extra as usize]
    }

    /// The mover's chance after a move with `die` to (me, opp).
    fn after(&self, me: [i8; 2], opp: [i8; 2], die: i8, extra: bool) -> f64 {
        if me == [HOME, HOME] {
            1.0
        } else if die == 6 && !extra {
            self.value(me, opp, true)
        } else {
            1.0 - self.value(opp, me, false)
        }
    }

    fn roll_value(&self, me: [i8; 2], opp: [i8; 2], extra: bool) -> f64 {
        let mut total = 0.0;
        for die in 1..=6i8 {
            let (moves, n) = exact_moves(me, opp, die);
            total += if n == 0 {
                self.after(me, opp, die, extra)
            } else {
                moves[..n]
                    .iter()
                    .map(|&(m, o)| self.after(m, o, die, extra))
                    .fold(f64::NEG_INFINITY, f64::max)
            };
        }
        total / 6.0
    }

    /// Gauss-Seidel sweeps, positions with the most progress first, until nothing moves.
    fn solve(&mut self) {
        let n = self.pairs.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| -(self.pairs[i][0] as i32 + self.pairs[i][1] as i32));
        for sweep in 0.. {
            let mut delta: f64 = 0.0;
            for &i in &order {
                let me = self.pairs[i];
                for &j in &order {
                    let opp = self.pairs[j];
                    if me == [HOME, HOME] || opp == [HOME, HOME] {
                        continue;
                    }
                    for extra in [true, false] {
                        let v = self.roll_value(me, opp, extra);
                        let k = (i * n + j) * 2 + extra as usize;
                        delta = delta.max((v - self.value[k]).abs());
                        self.value[k] = v;
                    }
                }
            }
            eprintln!("sweep {sweep}: largest change {delta:.1e}");
            if delta < 1e-8 {
                break;
            }
        }
    }

    /// The chance that `seat` wins `game` (two players, A and C).
    fn game_value(&self, game: &Game, seat: Seat) -> f64 {
        if game.is_over() {
            return if game.winner() == Some(seat) {
                1.0
            } else {
                0.0
            };
        }
        let cur = game.current_player();
        let v = self.value(
            pair(game, cur),
            pair(game, opponent(cur)),
            game.turn_counters().1,
        );
        if cur == seat { v } else { 1.0 - v }
    }

    /// The mover's chance after `mv`.
    fn move_value(&self, game: &Game, mv: Move) -> f64 {
        let mut child = *game;
        child.play(mv).unwrap();
        self.game_value(&child, game.current_player())
    }

    fn best_move(&self, game: &Game) -> Move {
        let moves = game.legal_moves();
        let mut best = (f64::NEG_INFINITY, nth(&moves, 0));
        for mv in moves.iter() {
            let v = self.move_value(game, mv);
            if v > best.0 {
                best = (v, mv);
            }
        }
        best.1
    }
}

fn exact() -> &'static Exact {
    static EXACT: OnceLock<Exact> = OnceLock::new();
    EXACT.get_or_init(Exact::new)
}

/// Games from the start, each move by the CS162 rule, perfect play (when `exact` is given;
/// the CS162 rule otherwise) or (one game in four more often) at random; `visit` sees
/// every position before its roll or move.
fn sample_games(seed: u64, exact: Option<&Exact>, mut visit: impl FnMut(&Game) -> bool) {
    let mut rng = Rng::new(seed);
    loop {
        let mut g = Game::new(Rules::CS162, &a_and_c(), rng.next_u64()).unwrap();
        let noise = rng.below(4);
        while !g.is_over() {
            if !visit(&g) {
                return;
            }
            if g.phase() == Phase::Roll {
                g.roll_die().unwrap();
                continue;
            }
            let moves = g.legal_moves();
            let mv = if rng.below(8) < noise {
                nth(&moves, rng.below(moves.len() as u32) as usize)
            } else {
                match exact {
                    Some(e) if rng.below(2) != 0 => e.best_move(&g),
                    _ => Bot::Cs162.choose(&g, &mut rng).expect("a move is awaited"),
                }
            };
            g.play(mv).unwrap();
        }
    }
}

/// `n` positions before a roll (one in three met), with the roller's exact chance.
fn sample_positions(n: usize, seed: u64) -> Vec<(Game, f64)> {
    let mut out = Vec::new();
    let mut rng = Rng::new(seed ^ 1);
    sample_games(seed, Some(exact()), |g| {
        if g.phase() == Phase::Roll && rng.below(3) == 0 {
            out.push((*g, exact().game_value(g, g.current_player())));
        }
        out.len() < n
    });
    out
}

/// `n` two-move decisions whose moves differ: both results, the mover, and the exact
/// difference of the mover's chances.
fn sample_decisions(n: usize, seed: u64) -> Vec<(Game, Game, Seat, f64)> {
    let e = exact();
    let mut out = Vec::new();
    sample_games(seed, Some(e), |g| {
        let moves = g.legal_moves();
        if moves.len() == 2 {
            let (a, b) = (nth(&moves, 0), nth(&moves, 1));
            let d = e.move_value(g, a) - e.move_value(g, b);
            if d.abs() > 1e-9 {
                let (mut ga, mut gb) = (*g, *g);
                ga.play(a).unwrap();
                gb.play(b).unwrap();
                out.push((ga, gb, g.current_player(), d));
            }
        }
        out.len() < n
    });
    out
}

/// `check`: on the rolls of sampled positions, the solver's move generator gives the
/// positions the engine gives. Quick: 2,000 rolls of games without perfect play.
fn check(quick: bool) {
    let exact = (!quick).then(exact);
    let mut rng = Rng::new(3);
    let mut checked = 0;
    let sorted = |g: &Game, s: Seat| {
        let mut p = pair(g, s);
        p.sort();
        p
    };
    let limit = if quick { 2_000 } else { 20_000 };
    sample_games(4, exact, |g| {
        if g.phase() == Phase::Roll && rng.below(4) == 0 {
            let (me, opp) = (g.current_player(), opponent(g.current_player()));
            for die in 1..=6u8 {
                let mut rolled = *g;
                rolled.roll(die).unwrap();
                let mut engine = Vec::new();
                if let Phase::Move(_) = rolled.phase() {
                    for mv in rolled.legal_moves().iter() {
                        let mut c = rolled;
                        c.play(mv).unwrap();
                        engine.push((sorted(&c, me), sorted(&c, opp)));
                    }
                }
                let (moves, n) = exact_moves(sorted(g, me), sorted(g, opp), die as i8);
                let mut mine: Vec<_> = moves[..n]
                    .iter()
                    .map(|&(mut a, mut b)| {
                        a.sort();
                        b.sort();
                        (a, b)
                    })
                    .collect();
                for list in [&mut engine, &mut mine] {
                    list.sort();
                    list.dedup();
                }
                assert_eq!(
                    engine,
                    mine,
                    "{:?} {:?} {die}",
                    sorted(g, me),
                    sorted(g, opp)
                );
                checked += 1;
            }
        }
        checked < limit
    });
    eprintln!("{checked} rolls agree");
    if let Some(e) = exact {
        let start = e.value([-1, -1], [-1, -1], false);
        eprintln!("the first player wins {start:.4} of perfect games");
    }
}

/// Plays `games` two-player CS162 games between `me` (a chooser) and `bot`, `me` in seat A
/// in the even-numbered games and in seat C in the odd ones; returns `me`'s wins. Two
/// threads share the games; game `i` depends on `seed` and `i` alone.
fn wins_against(
    games: u64,
    seed: u64,
    bot: Bot,
    me: &(dyn Fn(&Game, &mut Rng) -> Move + Sync),
) -> u64 {
    let play = |range: std::ops::Range<u64>| {
        let mut wins = 0;
        for i in range {
            let mut rng = Rng::new(seed ^ i.wrapping_mul(GOLDEN_GAMMA));
            let mut g = Game::new(Rules::CS162, &a_and_c(), rng.next_u64()).unwrap();
            let mine = Seat::ALL[if i % 2 == 0 { 0 } else { 2 }];
            while !g.is_over() {
                if g.phase() == Phase::Roll {
                    g.roll_die().unwrap();
                    continue;
                }
                let mv = if g.current_player() == mine {
                    me(&g, &mut rng)
                } else {
                    bot.choose(&g, &mut rng).unwrap()
                };
                g.play(mv).unwrap();
            }
            wins += u64::from(g.winner() == Some(mine));
        }
        wins
    };
    std::thread::scope(|s| {
        let half = games / 2;
        let other = s.spawn(move || play(half..games));
        play(0..half) + other.join().unwrap()
    })
}

/// The 95% Wilson interval of `wins` out of `n`.
fn wilson(wins: u64, n: u64) -> (f64, f64) {
    let (z, n) = (1.96f64, n as f64);
    let p = wins as f64 / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (centre - half, centre + half)
}

/// The figures the README quotes: how often perfect play (the exact values' best move)
/// beats each heuristic bot, how often `mcts:200` does, and the share of perfect play's
/// edge over 0.5 that `mcts:200` gets.
/// `perfect`: how often perfect play and `mcts:200` beat each heuristic bot.
fn perfect(quick: bool) {
    let e = exact();
    let perfect = |g: &Game, _: &mut Rng| e.best_move(g);
    let mcts = "mcts:200".parse::<Bot>().unwrap();
    let by_mcts = |g: &Game, rng: &mut Rng| mcts.choose(g, rng).unwrap();
    let (n_perfect, n_mcts) = if quick {
        (2_000, 200)
    } else {
        (200_000, 20_000)
    };
    for name in ["cs162", "safe", "aggressive"] {
        let bot = name.parse::<Bot>().unwrap();
        let p = wins_against(n_perfect, 11, bot, &perfect);
        let m = wins_against(n_mcts, 12, bot, &by_mcts);
        let (rp, rm) = (p as f64 / n_perfect as f64, m as f64 / n_mcts as f64);
        let ((plo, phi), (mlo, mhi)) = (wilson(p, n_perfect), wilson(m, n_mcts));
        eprintln!(
            "against {name:10}: perfect play {rp:.3} ({plo:.3}-{phi:.3}, {n_perfect} games), \
             mcts:200 {rm:.3} ({mlo:.3}-{mhi:.3}, {n_mcts} games): \
             mcts:200 gets {:.0}% of perfect play's edge",
            100.0 * (rm - 0.5) / (rp - 0.5)
        );
        assert!(
            rp > 0.5 && rp >= mlo,
            "perfect play must be the stronger: {rp} {rm}"
        );
    }
}

/// `regret`: the win chance each bot gives away per decision against perfect play.
fn regret(quick: bool) {
    let e = exact();
    let n = if quick { 200 } else { 10_000 };
    let positions: Vec<Game> = {
        let mut out = Vec::new();
        sample_games(77, Some(e), |g| {
            let moves = g.legal_moves();
            let values = moves.iter().map(|m| e.move_value(g, m));
            let (lo, hi) = values.fold((1.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
            if hi - lo > 1e-9 {
                out.push(*g);
            }
            out.len() < n
        });
        out
    };
    let mut results = Vec::new();
    for name in ["cs162", "safe", "expectimax:2", "mcts:100", "mcts:200"] {
        let bot = name.parse::<Bot>().unwrap();
        let mut rng = Rng::new(5);
        let mut total = 0.0;
        for g in &positions {
            let best = e.move_value(g, e.best_move(g));
            total += best - e.move_value(g, bot.choose(g, &mut rng).unwrap());
        }
        let per = total / positions.len() as f64;
        eprintln!("{name:14} gives away {per:.5} win chance per decision");
        results.push(per);
    }
    assert!(results[4] < results[0] / 2.0, "{results:?}");
}

const NW: usize = 9 + KNOTS + 12;

fn to_vec(w: &Weights) -> [f64; NW] {
    let mut v = [0.0; NW];
    v[..9].copy_from_slice(&[
        w.yard_wait,
        w.all_in_yard,
        w.stack_share,
        w.guard,
        w.ready_cost,
        w.tempo,
        w.scale,
        w.scale_growth,
        w.spread,
    ]);
    v[9..9 + KNOTS].copy_from_slice(&w.distance);
    v[9 + KNOTS..].copy_from_slice(&w.hit);
    v
}

fn from_vec(v: &[f64; NW]) -> Weights {
    let mut w = WEIGHTS;
    [
        w.yard_wait,
        w.all_in_yard,
        w.stack_share,
        w.guard,
        w.ready_cost,
        w.tempo,
        w.scale,
        w.scale_growth,
        w.spread,
    ] = v[..9].try_into().unwrap();
    w.distance.copy_from_slice(&v[9..9 + KNOTS]);
    w.hit.copy_from_slice(&v[9 + KNOTS..]);
    w
}

/// Mean squared error of the win chances.
fn value_error(positions: &[(Game, f64)], w: &Weights) -> f64 {
    let e: f64 = positions
        .iter()
        .map(|(g, v)| (leaf_values(g, w)[g.current_player()] - v).powi(2))
        .sum();
    e / positions.len() as f64
}

/// Mean squared error of the differences between two moves, and the win chance a greedy
/// choice by the estimate gives away per decision.
fn decision_error(decisions: &[(Game, Game, Seat, f64)], w: &Weights) -> (f64, f64) {
    let (mut e, mut lost) = (0.0, 0.0);
    for (a, b, seat, d) in decisions {
        let x = leaf_values(a, w)[*seat] - leaf_values(b, w)[*seat];
        e += (x - d).powi(2);
        if x * d < 0.0 {
            lost += d.abs();
        }
    }
    let n = decisions.len() as f64;
    (e / n, lost / n)
}

/// `fit`: refit the weights by a pattern search from the current ones, and print them.
fn fit(quick: bool, rounds: usize) {
    let n = if quick { 1_000 } else { 30_000 };
    let (positions, decisions) = (sample_positions(n, 11), sample_decisions(n, 13));
    let (test_positions, test_decisions) = (sample_positions(n, 12), sample_decisions(n, 14));
    let objective = |v: &[f64; NW]| {
        value_error(&positions, &from_vec(v)) + 3.0 * decision_error(&decisions, &from_vec(v)).0
    };
    let report = |v: &[f64; NW]| {
        let w = from_vec(v);
        let (d, lost) = decision_error(&test_decisions, &w);
        format!(
            "held out: value error {:.6}, decision error {d:.6}, greedy loss {lost:.5}",
            value_error(&test_positions, &w)
        )
    };
    // Pattern search: try a step up and down on each weight, halve the steps when no
    // weight moves.
    let mut v = to_vec(&WEIGHTS);
    let mut step = [0.3; NW];
    step[..9].copy_from_slice(&[1.0, 1.0, 0.2, 0.03, 0.5, 0.3, 0.3, 0.2, 0.1]);
    step[9 + KNOTS..].fill(0.03);
    let mut best = objective(&v);
    eprintln!("start {best:.6} ({})", report(&v));
    for round in 0..rounds {
        let mut moved = false;
        for i in 0..NW {
            for dir in [1.0, -1.0] {
                let mut trial = v;
                trial[i] += dir * step[i];
                let e = objective(&trial);
                if e < best {
                    (best, v, moved) = (e, trial, true);
                    break;
                }
            }
        }
        if !moved {
            step.iter_mut().for_each(|s| *s /= 2.0);
        }
        eprintln!("round {round}: {best:.6}");
    }
    eprintln!("fitted ({}):\n{:#?}", report(&v), from_vec(&v));
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let rounds = args
        .iter()
        .position(|a| a == "--rounds")
        .and_then(|i| args.get(i + 1))
        .and_then(|r| r.parse().ok())
        .unwrap_or(if quick { 3 } else { 60 });
    match args.first().map(String::as_str) {
        Some("check") => check(quick),
        Some("perfect") => perfect(quick),
        Some("regret") => regret(quick),
        Some("fit") => fit(quick, rounds),
        _ => {
            eprintln!(
                "usage: cargo run --release --example fit_weights -- \
                 check|perfect|regret|fit [--quick] [--rounds N]"
            );
            std::process::exit(2);
        }
    }
}
