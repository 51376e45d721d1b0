//! Built-in AIs, each a deterministic function of its settings, its seed and the position
//! (a search limited by a node budget is deterministic; one limited by time is not).
//!
//! - **Level 0, random:** a legal action chosen uniformly by [`pick`] (below).
//! - **Level 1, the coursework baseline** ([`baseline_action`]). With `L` the legal
//!   actions in generator order:
//!   1. if some actions of `L` win at once, the candidates are those winning actions;
//!   2. otherwise the candidates are the *safe* actions: those after which the game is
//!      over (no plies left) or the opponent has no winning action
//!      ([`Position::has_winning_move`] of the position after it);
//!   3. if no action is safe, the candidates are all of `L`.
//!
//!   It plays candidate number [`pick`]`(seed, position, len)` of that list.
//! - **Level 2, search** ([`Searcher`]): negamax alpha-beta with principal-variation
//!   search and iterative deepening, a transposition table keyed on
//!   [`Position::hash_key`] (which includes the plies left), move ordering (the table's
//!   move, captures, two killer moves per ply, a history table), late-move reductions,
//!   a one-ply extension when a leaf's side to move must parry a winning threat, and an
//!   evaluation of material, general advancement and safety, mobility and the wall.
//!   Every node first asks whether its side to move can win at once, so a search of
//!   depth `d` sees every forced win within `d + 1` plies. At the root each action also
//!   gets a *practical bonus* for an imperfect opponent: [`TRAP_WEIGHT`] times the share
//!   of the opponent's safe replies (those not allowing a win at once) after which the
//!   mover can force a win within two of its plies; it breaks ties between equal actions
//!   (notably in positions proven drawn) toward those that set traps, and is never added
//!   to a forced win or loss. (The node budget counts search nodes; the bonuses, a few
//!   milliseconds of work, are computed in full under a node budget, and skipped for the
//!   root actions left when a time budget runs out first.) Once the depth reaches the
//!   ply horizon the search is exact (no reductions, every leaf decided by the rules). It
//!   stops at the first of: a forced win or loss found, the exact search done, the
//!   [`Limits`] (time, nodes, depth) reached. Depth 1 is always searched in full, so
//!   the answer never leaves the opponent a win in one when another action does not.
//!   The seed only shuffles the order in which equal root actions are tried.
//!
//! A search can also be stopped from another thread through a [`Stop`] flag
//! ([`Searcher::search_until`], [`Ai::analyse_until`]): it polls the flag every 1024
//! nodes and between root actions, and then answers with what it has (the best action of
//! the last completed iteration, or of the current one so far).
//!
//! `pick(seed, pos, n)` is `(m * n) >> 64` for `m = splitmix64(seed ^
//! pos.hash_key())`: a number in `0..n` fixed by the seed and the position.

use std::time::{Duration, Instant};

use super::action::{Action, ActionList};
use super::error::OnitamaError;
use super::position::{Position, Status};
use super::referee::Answer;
use super::square::{BOARD_MASK, Player, SOURCE_OK, shift};
use crate::stop::Stop;

/// A forced win whose winning ply is the `k`-th from now scores `MATE - k`.
pub const MATE: i32 = 30_000;
/// Scores beyond ±`MATE_BOUND` are forced wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INF: i32 = 32_000;
/// Deepest ply the search reaches (iterations are capped below it).
const MAX_PLY: usize = 96;
/// The highest level.
pub const MAX_LEVEL: u8 = 2;

use crate::common::rng::splitmix64 as mix;

/// A number in `0..n` (`n > 0`) fixed by `seed` and the position (see the module docs).
pub fn pick(seed: u64, pos: &Position, n: usize) -> usize {
    let m = mix(seed ^ pos.hash_key());
    ((m as u128 * n as u128) >> 64) as usize
}

/// Level 0: a uniformly chosen legal action (`None` once the game is over).
pub fn random_action(pos: &Position, seed: u64) -> Option<Action> {
    let list = pos.legal_actions();
    (!list.is_empty()).then(|| list.as_slice()[pick(seed, pos, list.len())])
}

/// Level 1, the coursework baseline: win at once if possible, else avoid giving the
/// opponent a win at once, else anything (rules in the module docs). `None` once the
/// game is over.
pub fn baseline_action(pos: &Position, seed: u64) -> Option<Action> {
    let list = pos.legal_actions();
    if list.is_empty() {
        return None;
    }
    let wins: Vec<Action> = list.iter().copied().filter(|a| a.is_win()).collect();
    let candidates = if !wins.is_empty() {
        wins
    } else {
        let safe: Vec<Action> = list
            .iter()
            .copied()
            .filter(|&a| {
                let next = pos.after(a);
                next.plies_left() == 0 || !next.has_winning_move()
            })
            .collect();
        if safe.is_empty() {
            list.as_slice().to_vec()
        } else {
            safe
        }
    };
    Some(candidates[pick(seed, pos, candidates.len())])
}

/// What stops a search: a time budget, a node budget, a depth cap. Whichever is reached
/// first ends it; none of them (`Limits::default()`) searches to the ply horizon.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock budget of one search.
    pub time: Option<Duration>,
    /// Node budget of one search (deterministic).
    pub nodes: Option<u64>,
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
}

impl Limits {
    /// Only a time budget.
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// Only a node budget.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Only a depth cap.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// The limits of a search of `seconds` a move (`None`: no time limit), or, when a node
    /// budget is given, of that many nodes (deterministic: the time is then not used).
    pub fn budget(seconds: Option<f64>, nodes: Option<u64>, depth: Option<u32>) -> Limits {
        Limits {
            time: seconds
                .filter(|_| nodes.is_none())
                .map(Duration::from_secs_f64),
            nodes,
            depth,
        }
    }

    /// These limits with the time capped at `cap` (a referee's time budget); a node budget
    /// is deterministic and is not capped.
    pub fn capped(self, cap: Option<Duration>) -> Limits {
        match cap {
            Some(cap) if self.nodes.is_none() => Limits {
                time: Some(self.time.map_or(cap, |t| t.min(cap))),
                ..self
            },
            _ => self,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// The action chosen.
    pub action: Action,
    /// Its score for the side to move: 0 a tie (or balanced), beyond ±[`MATE_BOUND`] a
    /// forced win (+) or loss (−) in `MATE - |score|` plies.
    pub score: i32,
    /// Depth of the last completed iteration, in plies (0: no search was needed).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Was the search exact (to the ply horizon, or a forced win or loss)?
    pub exact: bool,
    /// The expected line, starting with `action`.
    pub pv: Vec<Action>,
}

/// The weight of the root's practical bonus (see [`Searcher`]): a share of 1 of the
/// opponent's safe replies walking into a forced win is worth this much.
pub const TRAP_WEIGHT: i32 = 250;

/// A root action, its practical bonus and its tie-break order.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    action: Action,
    bonus: i32,
    order: i32,
}

/// One entry of the transposition table: the key (mixed with the search generation, so
/// entries of earlier searches never match) and the packed data.
#[derive(Clone, Copy, Default)]
struct Entry {
    check: u64,
    data: u64,
}

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;
const NO_MOVE: u16 = u16::MAX;

/// Table size: 2^19 entries of 16 bytes (8 MiB).
const TT_BITS: u32 = 19;

/// The level-2 search, with its tables (kept between searches to reuse the memory; every
/// search starts from empty tables, so results never depend on earlier searches).
pub struct Searcher {
    tt: Vec<Entry>,
    generation: u64,
    killers: [[u16; 2]; MAX_PLY],
    history: Vec<i32>,
    stack: Vec<Vec<(Action, i32)>>,
    scratch: ActionList,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    limits_on: bool,
    stopped: bool,
    exact: bool,
    /// The flag of the current search (see [`Searcher::search_until`]).
    stop: Stop,
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new()
    }
}

impl Searcher {
    /// A searcher with empty tables.
    pub fn new() -> Searcher {
        Searcher {
            tt: vec![Entry::default(); 1 << TT_BITS],
            generation: 0,
            killers: [[NO_MOVE; 2]; MAX_PLY],
            history: vec![0; 2 << 16],
            stack: (0..MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            scratch: ActionList::new(),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            limits_on: false,
            stopped: false,
            exact: false,
            stop: Stop::new(),
        }
    }

    fn check_of(&self, key: u64) -> u64 {
        key ^ mix(self.generation)
    }

    fn probe(&self, key: u64) -> Option<(u16, i32, i32, u8)> {
        let e = self.tt[(key as usize) & ((1 << TT_BITS) - 1)];
        if e.check != self.check_of(key) {
            return None;
        }
        let best = e.data as u16;
        let score = (e.data >> 16) as u16 as i16 as i32;
        let depth = ((e.data >> 32) & 0xFF) as i32;
        let flag = ((e.data >> 40) & 0xFF) as u8;
        Some((best, score, depth, flag))
    }

    fn store(&mut self, key: u64, best: u16, score: i32, depth: i32, flag: u8) {
        let data = best as u64
            | ((score as i16 as u16 as u64) << 16)
            | ((depth.clamp(0, 255) as u64) << 32)
            | ((flag as u64) << 40);
        let check = self.check_of(key);
        self.tt[(key as usize) & ((1 << TT_BITS) - 1)] = Entry { check, data };
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.nodes & 1023 == 0 && self.stop.requested() {
            self.stopped = true;
        }
        if !self.limits_on {
            return self.stopped;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes & 1023 == 0
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Search `pos` (which must be ongoing) within `limits`, `seed` ordering equal root
    /// actions. `None` only when the game is over.
    pub fn search(&mut self, pos: &Position, seed: u64, limits: Limits) -> Option<SearchInfo> {
        self.search_until(pos, seed, limits, &Stop::new())
    }

    /// [`Searcher::search`], stopping early (within 1024 nodes) once `stop` is requested:
    /// it then answers with the best action found so far (still a legal action).
    pub fn search_until(
        &mut self,
        pos: &Position,
        seed: u64,
        limits: Limits,
        stop: &Stop,
    ) -> Option<SearchInfo> {
        self.stop = stop.clone();
        let info = self.search_inner(pos, seed, limits);
        self.stop = Stop::new();
        info
    }

    fn search_inner(&mut self, pos: &Position, seed: u64, limits: Limits) -> Option<SearchInfo> {
        let start = Instant::now();
        let list = pos.legal_actions();
        if list.is_empty() {
            return None;
        }
        self.generation = self.generation.wrapping_add(1);
        self.killers = [[NO_MOVE; 2]; MAX_PLY];
        self.history.iter_mut().for_each(|h| *h = 0);
        self.nodes = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time.map(|t| start + t);
        self.stopped = false;
        self.limits_on = false;
        if let Some(&win) = list.iter().find(|a| a.is_win()) {
            let wins: Vec<Action> = list.iter().copied().filter(|a| a.is_win()).collect();
            let action = wins
                .get(pick(seed, pos, wins.len()))
                .copied()
                .unwrap_or(win);
            return Some(SearchInfo {
                action,
                score: MATE - 1,
                depth: 1,
                nodes: 1,
                exact: true,
                pv: vec![action],
            });
        }
        if list.len() == 1 {
            let action = list.as_slice()[0];
            return Some(SearchInfo {
                action,
                score: self.evaluate(&pos.after(action)).saturating_neg(),
                depth: 0,
                nodes: 1,
                exact: false,
                pv: vec![action],
            });
        }
        // Root actions: seed order, then captures first; each with its practical bonus.
        let mut root: Vec<RootMove> = list
            .iter()
            .map(|&a| RootMove {
                action: a,
                bonus: 0,
                order: (mix(seed ^ (a.bits() as u64) << 20) >> 40) as i32,
            })
            .collect();
        root.sort_by_key(|m| (!self.is_capture(pos, m.action), m.order));
        // The bonuses cost a few milliseconds; a search short of time skips the rest.
        for m in root.iter_mut() {
            if self.deadline.is_some_and(|d| Instant::now() >= d) || self.stop.requested() {
                break;
            }
            m.bonus = self.practical_bonus(pos, m.action);
        }
        let horizon = pos.plies_left() as u32;
        let cap = limits
            .depth
            .unwrap_or(u32::MAX)
            .clamp(1, (MAX_PLY - 8) as u32)
            .min(horizon.max(1));
        let mut best: Option<(Action, i32)> = None;
        let mut depth_done = 0;
        let mut exact = false;
        for depth in 1..=cap {
            if self.stop.requested() {
                break;
            }
            self.limits_on = depth > 1;
            self.exact = depth + 1 >= horizon;
            let (found, complete) = self.root(pos, depth as i32, &mut root);
            if let Some(f) = found {
                best = Some(f);
            }
            if !complete {
                break;
            }
            depth_done = depth;
            let score = best.map_or(0, |b| b.1);
            if self.exact || score.abs() > MATE_BOUND {
                exact = true;
                break;
            }
            if let (Some(t), None) = (limits.time, limits.nodes)
                && start.elapsed() * 5 > t * 2
            {
                break;
            }
        }
        let (action, score) = best.unwrap_or((root[0].action, 0));
        Some(SearchInfo {
            action,
            score,
            depth: depth_done,
            nodes: self.nodes,
            exact,
            pv: self.principal_variation(pos, action),
        })
    }

    /// The root's allowance for an imperfect opponent: [`TRAP_WEIGHT`] times the share of
    /// the opponent's safe replies to `a` (those that do not allow a win at once) after
    /// which the mover has a forced win in two of its plies. Zero when `a` ends the game,
    /// allows a win at once, or leaves no safe reply (the search sees those exactly).
    fn practical_bonus(&mut self, pos: &Position, a: Action) -> i32 {
        let child = pos.after(a);
        if child.status() != Status::Ongoing || child.has_winning_move() {
            return 0;
        }
        let replies = child.legal_actions();
        let (mut safe, mut traps) = (0i32, 0i32);
        for &b in replies.iter() {
            let g = child.after(b);
            if g.status() != Status::Ongoing {
                safe += 1;
            } else if !g.has_winning_move() {
                safe += 1;
                traps += self.wins_in_two(&g) as i32;
            }
        }
        if safe == 0 {
            0
        } else {
            TRAP_WEIGHT * traps / safe
        }
    }

    /// Can the side to move (which cannot win at once) force a win with its next two
    /// plies: an action after which every reply leaves it a win in one?
    fn wins_in_two(&mut self, g: &Position) -> bool {
        if g.plies_left() < 3 {
            return false;
        }
        let mut ours = ActionList::new();
        g.generate(&mut ours);
        let mut theirs = ActionList::new();
        'ours: for &c in ours.iter() {
            let q = g.after(c);
            if q.has_winning_move() {
                continue;
            }
            q.generate(&mut theirs);
            for &d in theirs.iter() {
                if !q.after(d).has_winning_move() {
                    continue 'ours;
                }
            }
            return true;
        }
        false
    }

    /// The line the table expects after `first`.
    fn principal_variation(&self, pos: &Position, first: Action) -> Vec<Action> {
        let mut pv = vec![first];
        let mut p = pos.after(first);
        while pv.len() < 32 && p.status() == Status::Ongoing {
            let Some((best, ..)) = self.probe(p.hash_key()) else {
                break;
            };
            let a = Action::from_bits(best);
            if best == NO_MOVE || !p.is_legal(a) {
                break;
            }
            pv.push(a);
            p = p.after(a);
        }
        pv
    }

    /// One iteration at the root: each action's score is the search's plus its practical
    /// bonus (not added to forced wins and losses). Returns the best action found, with its
    /// search score (if any action was fully searched), and whether the iteration
    /// completed. Moves the best action to the front.
    fn root(
        &mut self,
        pos: &Position,
        depth: i32,
        root: &mut [RootMove],
    ) -> (Option<(Action, i32)>, bool) {
        let mut alpha = -INF;
        let beta = INF;
        let mut best: Option<(usize, i32)> = None;
        self.nodes += 1;
        let with_bonus = |s: i32, b: i32| if s.abs() > MATE_BOUND { s } else { s + b };
        for i in 0..root.len() {
            let RootMove {
                action: a,
                bonus: b,
                ..
            } = root[i];
            let child = pos.after(a);
            let mut score;
            if i == 0 {
                score = -self.negamax(&child, depth - 1, 1, b - beta, b - alpha);
            } else {
                score = -self.negamax(&child, depth - 1, 1, b - alpha - 1, b - alpha);
                if with_bonus(score, b) > alpha && !self.stopped {
                    score = -self.negamax(&child, depth - 1, 1, b - beta, b - alpha);
                }
            }
            if self.stopped {
                return (best.map(|(i, s)| (root[i].action, s)), false);
            }
            if with_bonus(score, b) > alpha {
                alpha = with_bonus(score, b);
                best = Some((i, score));
            }
        }
        let Some((i, s)) = best else {
            return (None, true);
        };
        let a = root[i].action;
        root[..=i].rotate_right(1);
        self.store(pos.hash_key(), a.bits(), s, depth, EXACT);
        (Some((a, s)), true)
    }

    fn is_capture(&self, pos: &Position, a: Action) -> bool {
        !a.is_pass() && pos.soldiers(pos.side().other()) & (1 << a.target_index()) != 0
    }

    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if pos.plies_left() == 0 {
            return 0;
        }
        if pos.has_winning_move() {
            return MATE - ply as i32 - 1;
        }
        if pos.plies_left() == 1 {
            return 0;
        }
        // Mate-distance pruning: the side to move wins two plies from now at best.
        let ceiling = MATE - ply as i32 - 2;
        if alpha >= ceiling {
            return ceiling;
        }
        let in_check = pos.threatens_win(pos.side().other());
        if depth <= 0 {
            if in_check && ply + 2 < MAX_PLY {
                depth = 1;
            } else {
                return self.evaluate(pos);
            }
        }
        if ply + 1 >= MAX_PLY {
            return self.evaluate(pos);
        }
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let key = pos.hash_key();
        let mut tt_move = NO_MOVE;
        if let Some((best, score, d, flag)) = self.probe(key) {
            tt_move = best;
            if d >= depth {
                let score = from_tt(score, ply);
                let cut = match flag {
                    EXACT => true,
                    LOWER => score >= beta,
                    _ => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }
        let side = pos.side().index();
        let opp_soldiers = pos.soldiers(pos.side().other());
        let mut moves = std::mem::take(&mut self.stack[ply]);
        moves.clear();
        pos.generate(&mut self.scratch);
        let killers = self.killers[ply];
        for &a in self.scratch.iter() {
            let b = a.bits();
            let key = if b == tt_move {
                1 << 30
            } else if !a.is_pass() && opp_soldiers & (1 << a.target_index()) != 0 {
                1 << 26
            } else if b == killers[0] {
                1 << 25
            } else if b == killers[1] {
                1 << 24
            } else {
                self.history[(side << 16) | b as usize]
            };
            moves.push((a, key));
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let n = moves.len();
        for i in 0..n {
            let mut j = i;
            for k in i + 1..n {
                if moves[k].1 > moves[j].1 {
                    j = k;
                }
            }
            moves.swap(i, j);
            let (a, order) = moves[i];
            let child = pos.after(a);
            let quiet = order < 1 << 24;
            let mut score;
            if i == 0 {
                score = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha);
            } else {
                let r = if !self.exact && !in_check && quiet && depth >= 3 && i >= 3 {
                    1 + (depth >= 5 && i >= 10) as i32
                } else {
                    0
                };
                score = -self.negamax(&child, depth - 1 - r, ply + 1, -alpha - 1, -alpha);
                if score > alpha && r > 0 && !self.stopped {
                    score = -self.negamax(&child, depth - 1, ply + 1, -alpha - 1, -alpha);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha);
                }
            }
            if self.stopped {
                self.stack[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = a.bits();
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if quiet {
                            let b = a.bits();
                            if self.killers[ply][0] != b {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = b;
                            }
                            let h = &mut self.history[(side << 16) | b as usize];
                            *h = (*h + depth * depth).min(1 << 22);
                        }
                        break;
                    }
                }
            }
        }
        self.stack[ply] = moves;
        let flag = if best >= beta {
            LOWER
        } else if best > alpha0 {
            EXACT
        } else {
            UPPER
        };
        self.store(key, best_move, to_tt(best, ply), depth, flag);
        best
    }

    /// The static evaluation for the side to move (who cannot win at once).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        evaluate(pos)
    }
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// What one side's two cards reach: every target square (not own pawn, not the wall) of
/// any pawn, of the general alone, the number of pawn moves, and the opponent pawns hit.
struct Reach {
    any: u32,
    general: u32,
    moves: u32,
}

fn reach(pos: &Position, p: Player) -> Reach {
    let i = p.index();
    let own_g = pos.generals[i];
    let own = own_g | pos.soldiers[i];
    let free = !(own | (1 << pos.wall)) & BOARD_MASK;
    let sign = if i == 0 { 1 } else { -1 };
    let mut r = Reach {
        any: 0,
        general: 0,
        moves: 0,
    };
    for k in 0..2 {
        let card = pos.cards[2 * i + k];
        let o = card.o_index() as i32;
        let (or, oc) = (o / 5, o % 5);
        let mut xs = card.xmask();
        while xs != 0 {
            let b = xs.trailing_zeros() as i32;
            xs &= xs - 1;
            let (dr, dc) = (sign * (b / 5 - or), sign * (b % 5 - oc));
            let ok = SOURCE_OK[(dr + 4) as usize][(dc + 4) as usize];
            let delta = dr * 5 + dc;
            let t = shift(own & ok, delta) & free;
            r.any |= t;
            r.moves += t.count_ones();
            r.general |= shift(own_g & ok, delta) & free;
        }
    }
    r
}

fn manhattan(a: u32, b: u32) -> i32 {
    let (ar, ac, br, bc) = (
        (a / 5) as i32,
        (a % 5) as i32,
        (b / 5) as i32,
        (b % 5) as i32,
    );
    (ar - br).abs() + (ac - bc).abs()
}

fn chebyshev(a: u32, b: u32) -> i32 {
    let (ar, ac, br, bc) = (
        (a / 5) as i32,
        (a % 5) as i32,
        (b / 5) as i32,
        (b % 5) as i32,
    );
    (ar - br).abs().max((ac - bc).abs())
}

/// The static evaluation, in centipawn-like units, for the side to move (which is assumed
/// unable to win at once; the search checks that first). For each side (the opponent's
/// terms subtracted): 100 per soldier; `3 (8 - d)²` for its general `d` steps (Manhattan)
/// from the opponent's base; 3 per pawn move and 2 more per general move its two cards
/// give; 40 per opponent soldier those moves attack. Then, for the mover: −120 when the
/// opponent threatens a win at once (the mover must spend its ply parrying), −40 more when
/// that threat is the opponent's general reaching the mover's base, −4 per square next to
/// the mover's general the opponent reaches, +6 for the wall next to the opponent's
/// general (the mover steps the wall next), and +10 for having the move.
pub fn evaluate(pos: &Position) -> i32 {
    let me = pos.side();
    let them = me.other();
    let (mi, ti) = (me.index(), them.index());
    let mut score = 0;
    let rm = reach(pos, me);
    let rt = reach(pos, them);
    for (p, r, other, sign) in [(me, &rm, them, 1), (them, &rt, me, -1)] {
        let i = p.index();
        let mut s = 100 * pos.soldiers[i].count_ones() as i32;
        let g = pos.generals[i];
        if g != 0 {
            let d = manhattan(g.trailing_zeros(), p.target_base().index() as u32);
            s += (8 - d) * (8 - d) * 3;
        }
        s += 3 * r.moves as i32;
        s += 2 * r.general.count_ones() as i32;
        let hit = r.any & pos.soldiers[other.index()];
        s += 40 * hit.count_ones() as i32;
        score += sign * s;
    }
    // The opponent's winning threat: the mover must spend its ply parrying it.
    let gm = pos.generals[mi];
    let base_m = me.base().bit();
    if rt.any & gm != 0 || rt.general & them.target_base().bit() != 0 {
        score -= 120;
    }
    // Squares next to the mover's general the opponent reaches (its escape squares).
    if gm != 0 {
        let near = neighbours(gm.trailing_zeros());
        score -= 4 * (near & rt.any).count_ones() as i32;
    }
    // The opponent's general near the mover's base.
    let gt = pos.generals[ti];
    if gt != 0 && rt.general & base_m != 0 {
        score -= 40;
    }
    if gt != 0 && chebyshev(pos.wall as u32, gt.trailing_zeros()) == 1 {
        score += 6;
    }
    score + 10
}

/// The up to eight squares around square `s`.
fn neighbours(s: u32) -> u32 {
    let (r, c) = ((s / 5) as i32, (s % 5) as i32);
    let mut m = 0;
    for dr in -1..=1 {
        for dc in -1..=1 {
            let (nr, nc) = (r + dr, c + dc);
            if (dr, dc) != (0, 0) && (0..5).contains(&nr) && (0..5).contains(&nc) {
                m |= 1 << (nr * 5 + nc);
            }
        }
    }
    m
}

/// A built-in AI: a level (0 random, 1 baseline, 2 search), a seed and, for the search,
/// its limits.
pub struct Ai {
    level: u8,
    seed: u64,
    limits: Limits,
    searcher: Option<Box<Searcher>>,
}

impl Ai {
    /// An AI of `level` 0, 1 or 2. Errors: any other level, or a zero node budget.
    pub fn new(level: u8, seed: u64, limits: Limits) -> Result<Ai, OnitamaError> {
        if level > MAX_LEVEL {
            return Err(OnitamaError::BadAi(format!(
                "level {level}: the levels are 0 (random), 1 (baseline) and 2 (search)"
            )));
        }
        if limits.nodes == Some(0) {
            return Err(OnitamaError::BadAi(
                "a node budget must be at least 1".into(),
            ));
        }
        if limits.depth == Some(0) {
            return Err(OnitamaError::BadAi("a depth cap must be at least 1".into()));
        }
        Ok(Ai {
            level,
            seed,
            limits,
            searcher: None,
        })
    }

    /// The level.
    pub fn level(&self) -> u8 {
        self.level
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The search limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The same AI with other limits.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// The action this AI plays in `pos` (`None` once the game is over).
    pub fn choose(&mut self, pos: &Position) -> Option<Action> {
        self.analyse(pos).map(|i| i.action)
    }

    /// [`Ai::choose`], a search stopping early once `stop` is requested.
    pub fn choose_until(&mut self, pos: &Position, stop: &Stop) -> Option<Action> {
        self.analyse_until(pos, stop).map(|i| i.action)
    }

    /// The action with what the search found (levels 0 and 1: score 0, depth 0).
    pub fn analyse(&mut self, pos: &Position) -> Option<SearchInfo> {
        self.analyse_until(pos, &Stop::new())
    }

    /// [`Ai::analyse`], a search stopping early (with its best action so far) once `stop`
    /// is requested (see [`Searcher::search_until`]). Levels 0 and 1 take no time and
    /// ignore the flag.
    pub fn analyse_until(&mut self, pos: &Position, stop: &Stop) -> Option<SearchInfo> {
        if pos.status() != Status::Ongoing {
            return None;
        }
        let simple = |action: Action| SearchInfo {
            action,
            score: 0,
            depth: 0,
            nodes: 0,
            exact: false,
            pv: vec![action],
        };
        match self.level {
            0 => random_action(pos, self.seed).map(simple),
            1 => baseline_action(pos, self.seed).map(simple),
            _ => self
                .searcher
                .get_or_insert_with(|| Box::new(Searcher::new()))
                .search_until(pos, self.seed, self.limits, stop),
        }
    }

    /// The AI's answer in the referee's terms (an error once the game is over).
    pub fn answer(&mut self, pos: &Position) -> Answer {
        self.answer_until(pos, &Stop::new())
    }

    /// [`Ai::answer`], a search stopping early once `stop` is requested.
    pub fn answer_until(&mut self, pos: &Position, stop: &Stop) -> Answer {
        match self.choose_until(pos, stop) {
            Some(a) => Answer::from(a),
            None => Answer::error("the game is over: there is nothing to play"),
        }
    }

    /// [`Ai::answer_until`] with the search time capped at `cap` for this answer only
    /// (see [`Limits::capped`]).
    pub fn answer_within(&mut self, pos: &Position, cap: Option<Duration>, stop: &Stop) -> Answer {
        let own = self.limits;
        self.limits = own.capped(cap);
        let answer = self.answer_until(pos, stop);
        self.limits = own;
        answer
    }
}

impl std::fmt::Debug for Ai {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ai")
            .field("level", &self.level)
            .field("seed", &self.seed)
            .field("limits", &self.limits)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::onitama::setups::find_setup;

    #[test]
    fn levels_answer_legally_at_the_start() {
        let pos = find_setup("21").unwrap().position(None);
        for level in 0..=2 {
            let mut ai = Ai::new(level, 7, Limits::nodes(2_000)).unwrap();
            let a = ai.choose(&pos).unwrap();
            assert!(pos.is_legal(a), "level {level}: {a}");
        }
        assert!(Ai::new(3, 0, Limits::default()).is_err());
        assert!(Ai::new(2, 0, Limits::nodes(0)).is_err());
    }

    #[test]
    fn hash_differs_with_plies_left() {
        let pos = find_setup("21").unwrap().position(None);
        assert_ne!(pos.hash_key(), pos.with_plies_left(19).hash_key());
    }
}
