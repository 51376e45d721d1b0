//! The level-2 search ([`Searcher`]): negamax alpha-beta with principal-variation
//! search, iterative deepening with aspiration windows and the root's practical bonus
//! (see the [module docs](super)).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use super::endgame::EndgameTable;
use super::eval::{CardSetEvaluator, Evaluator, Weights, engine_evaluator};
use super::tt::{EXACT, LOWER, NO_MOVE, Table, UPPER, from_tt, to_tt};
use super::{AiSettings, INF, Limits, MATE, MATE_BOUND, MAX_PLY, PonderHit, SearchInfo, mix, pick};
use crate::onitama::action::{Action, ActionList};
use crate::onitama::position::{Position, Status, Variant};
use crate::stop::Stop;

/// The weight of the root's practical bonus (see [`Searcher`]): a share of 1 of the
/// opponent's safe replies walking into a forced win is worth this much.
pub const TRAP_WEIGHT: i32 = 250;

/// The first table key tag shared by the time-limited searches of a searcher (counted down
/// at each change of its weights; a generation never reaches it).
const SHARED_TAG: u64 = u64::MAX;

/// The share of a time budget the search itself spends: the rest is left to the work around
/// it (a caller's thread, the answer's conversion), so that the answer keeps to the budget.
const TIME_SHARE: f64 = 0.98;

/// Reverse futility pruning's deepest depth and its margin a ply.
const RFP_DEPTH: i32 = 3;
const RFP_MARGIN: i32 = 120;

/// The late-move reduction of a quiet action at `index` (from 0) in a node of `depth`:
/// `0.75 + ln(depth) ln(index) / 2.25` plies rounded down, at least 1, leaving at least
/// one ply.
fn lmr(depth: i32, index: usize) -> i32 {
    let r = 0.75 + (depth as f64).ln() * (index as f64).ln() / 2.25;
    (r as i32).clamp(1, (depth - 2).max(1))
}

/// The first depth searched with an aspiration window at the root.
const ASP_DEPTH: u32 = 4;
/// The aspiration window's first half-width; it doubles at each fail low or high.
const ASP_DELTA: i32 = 40;
/// Beyond this half-width a failing bound opens fully.
const ASP_MAX: i32 = 1_000;

/// The bound `bound + step` of a widened aspiration window: fully open (±[`INF`]) once
/// the step exceeds [`ASP_MAX`] or the bound reaches the forced wins or losses.
fn widen(bound: i32, step: i32) -> i32 {
    let b = bound + step;
    if step.abs() > ASP_MAX || b.abs() > MATE_BOUND {
        if step > 0 { INF } else { -INF }
    } else {
        b
    }
}

/// Does helper thread `helper` (1, 2, ...; 0 is the main search) skip `depth` in its
/// iterative deepening? Helper `i` works in blocks of `1 + log2(i)` depths, skipping every
/// other block, the blocks shifted by `i`: helper 1 searches the odd depths, helpers 2 and
/// 3 two depths of every four, ..., so that helpers run ahead of the main search and of
/// one another.
fn skips(helper: usize, depth: u32) -> bool {
    if helper == 0 {
        return false;
    }
    let size = 1 + helper.ilog2();
    let phase = helper as u32 % (2 * size);
    ((depth + phase) / size) % 2 == 1
}

/// How an iteration at the root ended (see [`Searcher::root`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RootOutcome {
    /// Every action searched, the best one's value inside the window.
    Exact,
    /// An action's value reached the window's upper bound.
    FailHigh,
    /// No action's value was above the window's lower bound: the highest of their
    /// upper bounds.
    FailLow(i32),
    /// The search was stopped (limits or the stop flag).
    Stopped,
}

/// A root action, its practical bonus and its tie-break order.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    action: Action,
    bonus: i32,
    order: i32,
}

/// The level-2 search, with its tables, kept between searches. A search under a node
/// budget, or with no time limit, starts from empty tables, so its result never depends on
/// earlier searches. A search under a time limit (and no node budget), whose result depends
/// on the machine's speed anyway, also uses the transposition table's entries of the
/// earlier time-limited searches of this searcher: in a game, the position two plies on
/// was searched by the last move's search.
///
/// With [`Searcher::set_threads`]`(n)`, `n > 1`, a search runs on `n` threads sharing the
/// transposition table (Lazy SMP): the calling thread searches as with one thread, and
/// `n - 1` helpers search the same root at the same time, each skipping some depths of
/// its iterative deepening (so that they run ahead of it) and trying equal root actions in
/// its own order; what they store in the table cuts the main search's work. The answer is
/// the calling thread's; a node budget counts the nodes of every thread, and the reported
/// nodes are every thread's. Such a search is not deterministic, even under a node budget.
///
/// With [`Searcher::set_endgame`], positions covered by an endgame table
/// ([`EndgameTable`]) are scored from it, exactly (see [`EndgameTable::score`]).
pub struct Searcher {
    pub(super) tt: Arc<Table>,
    pub(super) generation: u64,
    /// The key tag of this search's table entries: the generation, or `shared`.
    tag: u64,
    /// The tag of the time-limited searches since the last change of weights.
    shared: u64,
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
    /// The depth of the iteration under way.
    root_depth: i32,
    /// The flag of the current search (see [`Searcher::search_until`]).
    stop: Stop,
    /// The evaluations: the wall variant's, then standard Onitama's (the engine's own,
    /// shared, unless [`Searcher::set_weights`] replaced one).
    evaluators: [Arc<Evaluator>; 2],
    /// The evaluation specialised to the cards of the last search's root, if they allow it.
    card_set: Option<Arc<CardSetEvaluator>>,
    /// The endgame table probed in its positions, if any.
    endgame: Option<Arc<EndgameTable>>,
    /// Threads a search runs on (1: this one only).
    threads: usize,
    /// The helper searchers of a search on several threads (kept between searches).
    helpers: Vec<Searcher>,
    /// On several threads, the count of every thread's nodes, each adding its own every
    /// 1024 nodes (`None`: one thread).
    publish: Option<Arc<AtomicU64>>,
    /// A pondering search's flag and its time budget: the deadline is set once the flag
    /// is raised (see [`Searcher::search_pondering`]).
    ponder: Option<(PonderHit, Duration)>,
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new()
    }
}

impl Searcher {
    /// A searcher with empty tables.
    pub fn new() -> Searcher {
        Searcher::with_table(Arc::new(Table::new()))
    }

    /// A searcher using the transposition table `tt`.
    fn with_table(tt: Arc<Table>) -> Searcher {
        Searcher {
            tt,
            generation: 0,
            tag: 0,
            shared: SHARED_TAG,
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
            root_depth: 0,
            stop: Stop::new(),
            evaluators: [
                engine_evaluator(Variant::Wall),
                engine_evaluator(Variant::Standard),
            ],
            card_set: None,
            endgame: None,
            threads: 1,
            helpers: Vec::new(),
            publish: None,
            ponder: None,
        }
    }

    /// Search on `threads` threads (at least 1, at most [`AiSettings::MAX_THREADS`]): see
    /// the type's docs. One thread (the default) searches deterministically under a node
    /// budget.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, AiSettings::MAX_THREADS);
        self.helpers.truncate(self.threads - 1);
    }

    /// The threads a search runs on.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Score the positions `table` covers from it (`None`: no table). A search of a
    /// position outside the table's cards and pieces searches exactly as without it.
    pub fn set_endgame(&mut self, table: Option<Arc<EndgameTable>>) {
        self.endgame = table;
    }

    /// The endgame table in use, if any.
    pub fn endgame(&self) -> Option<&Arc<EndgameTable>> {
        self.endgame.as_ref()
    }

    /// Evaluate `rules`' positions with the weights `w` instead of the engine's own
    /// ([`weights`](super::eval::weights)): for tuning and experiments.
    pub fn set_weights(&mut self, rules: Variant, w: Weights) {
        self.evaluators[(rules == Variant::Standard) as usize] = Arc::new(Evaluator::new(&w));
        self.card_set = None;
        // The entries the other weights stored are not this evaluation's.
        self.shared -= 1;
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.nodes & 1023 == 0 {
            if self.stop.requested() {
                self.stopped = true;
            }
            self.poll_ponderhit();
            if let Some(n) = &self.publish {
                n.fetch_add(1024, Relaxed);
            }
        }
        if !self.limits_on {
            return self.stopped;
        }
        // On several threads: the nodes every thread published, and this one's since.
        let nodes = match &self.publish {
            Some(n) => n.load(Relaxed) + (self.nodes & 1023),
            None => self.nodes,
        };
        if nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes & 1023 == 0
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// A pondering search whose flag is raised: its time budget starts now.
    fn poll_ponderhit(&mut self) {
        if let Some((hit, budget)) = &self.ponder
            && hit.requested()
        {
            self.deadline = Some(Instant::now() + budget.mul_f64(TIME_SHARE));
            self.ponder = None;
        }
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
        self.search_with(pos, seed, limits, stop, None)
    }

    /// [`Searcher::search_until`] *pondering*: the search's time limit does not run until
    /// `hit` is raised (the ponderhit); then the search goes on, with what it has found,
    /// until the whole time budget has passed from that moment (or another limit is
    /// reached). Its node budget and depth cap count from its start. A search with no time
    /// limit, or whose flag is raised already, is an ordinary search.
    pub fn search_pondering(
        &mut self,
        pos: &Position,
        seed: u64,
        limits: Limits,
        stop: &Stop,
        hit: &PonderHit,
    ) -> Option<SearchInfo> {
        self.search_with(pos, seed, limits, stop, Some(hit))
    }

    fn search_with(
        &mut self,
        pos: &Position,
        seed: u64,
        limits: Limits,
        stop: &Stop,
        hit: Option<&PonderHit>,
    ) -> Option<SearchInfo> {
        self.stop = stop.clone();
        self.ponder = hit
            .filter(|h| !h.requested())
            .and_then(|h| limits.time.map(|t| (h.clone(), t)));
        let info = self.search_inner(pos, seed, limits);
        self.stop = Stop::new();
        self.ponder = None;
        info
    }

    /// Ready this searcher for a search within `limits` (a helper: none of its own).
    fn begin(&mut self, limits: Limits, start: Instant) {
        self.killers = [[NO_MOVE; 2]; MAX_PLY];
        self.history.iter_mut().for_each(|h| *h = 0);
        self.nodes = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = if self.ponder.is_some() {
            None
        } else {
            limits.time.map(|t| start + t.mul_f64(TIME_SHARE))
        };
        self.stopped = false;
        self.limits_on = false;
    }

    fn search_inner(&mut self, pos: &Position, seed: u64, limits: Limits) -> Option<SearchInfo> {
        let start = Instant::now();
        let list = pos.legal_actions();
        if list.is_empty() {
            return None;
        }
        self.generation = self.generation.wrapping_add(1);
        self.tag = if limits.time.is_some() && limits.nodes.is_none() {
            self.shared
        } else {
            self.generation
        };
        self.begin(limits, start);
        self.specialise(pos);
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
            let next = pos.after(action);
            let table = self.endgame.as_ref().and_then(|t| t.score(&next, 1));
            return Some(SearchInfo {
                action,
                score: table
                    .unwrap_or_else(|| self.evaluate(&next))
                    .saturating_neg(),
                depth: 0,
                nodes: 1,
                exact: false,
                pv: vec![action],
            });
        }
        let mut root = self.root_moves(pos, seed, &list, true);
        if self.threads == 1 {
            return Some(self.deepen(pos, limits, &mut root, 0));
        }
        Some(self.deepen_on_threads(pos, seed, limits, &list, &mut root, start))
    }

    /// The search on [`Searcher::threads`] threads: the helpers search while this thread
    /// does (from its first iteration on), and stop when it is done.
    fn deepen_on_threads(
        &mut self,
        pos: &Position,
        seed: u64,
        limits: Limits,
        list: &ActionList,
        root: &mut [RootMove],
        start: Instant,
    ) -> SearchInfo {
        let mut helpers = std::mem::take(&mut self.helpers);
        while helpers.len() < self.threads - 1 {
            helpers.push(Searcher::with_table(Arc::clone(&self.tt)));
        }
        let counter = Arc::new(AtomicU64::new(0));
        let done = Stop::new();
        // A helper stops at the node budget, or when the main search is done.
        let helper_limits = Limits {
            nodes: limits.nodes,
            depth: limits.depth,
            time: None,
        };
        for h in helpers.iter_mut() {
            h.tt = Arc::clone(&self.tt);
            h.generation = self.generation;
            h.tag = self.tag;
            h.evaluators = self.evaluators.clone();
            h.card_set = self.card_set.clone();
            h.endgame = self.endgame.clone();
            h.ponder = None;
            h.begin(helper_limits, start);
            h.stop = done.clone();
            h.publish = Some(Arc::clone(&counter));
        }
        self.publish = Some(counter);
        let mut info = std::thread::scope(|scope| {
            for (i, h) in helpers.iter_mut().enumerate() {
                scope.spawn(move || {
                    let mut root = h.root_moves(pos, seed ^ mix(i as u64 + 1), list, false);
                    h.deepen(pos, helper_limits, &mut root, i + 1)
                });
            }
            let info = self.deepen(pos, limits, root, 0);
            done.request();
            info
        });
        self.publish = None;
        for h in helpers.iter_mut() {
            info.nodes += h.nodes;
            h.publish = None;
            h.stop = Stop::new();
        }
        self.helpers = helpers;
        info
    }

    /// The root actions of `list`: in `seed` order, then captures first; each with its
    /// practical bonus if `bonus` (they cost a few milliseconds: a search short of time
    /// skips the rest).
    fn root_moves(
        &mut self,
        pos: &Position,
        seed: u64,
        list: &ActionList,
        bonus: bool,
    ) -> Vec<RootMove> {
        let mut root: Vec<RootMove> = list
            .iter()
            .map(|&a| RootMove {
                action: a,
                bonus: 0,
                order: (mix(seed ^ (a.bits() as u64) << 20) >> 40) as i32,
            })
            .collect();
        root.sort_by_key(|m| (!self.is_capture(pos, m.action), m.order));
        for m in root.iter_mut() {
            if !bonus || self.deadline.is_some_and(|d| Instant::now() >= d) || self.stop.requested()
            {
                break;
            }
            m.bonus = self.practical_bonus(pos, m.action);
        }
        root
    }

    /// Iterative deepening from the root `pos` (its actions `root`, more than one, none
    /// winning at once). `helper` 0 is the main search; a helper (1, 2, ...) skips some
    /// depths ([`skips`]) and returns no line.
    fn deepen(
        &mut self,
        pos: &Position,
        limits: Limits,
        root: &mut [RootMove],
        helper: usize,
    ) -> SearchInfo {
        // A root the endgame table covers: its actions' scores are exact from depth 1 on.
        let in_table = self
            .endgame
            .as_ref()
            .is_some_and(|t| t.may_cover(pos) && t.probe(pos).is_some());
        let horizon = pos.plies_left() as u32;
        let cap = limits
            .depth
            .unwrap_or(u32::MAX)
            .clamp(1, (MAX_PLY - 8) as u32)
            .min(horizon.max(1));
        let mut best: Option<(Action, i32)> = None;
        // The last completed iteration's value of its best action (score and bonus).
        let mut value: Option<i32> = None;
        let mut depth_done = 0;
        let mut exact = false;
        for depth in 1..=cap {
            if self.stop.requested() {
                break;
            }
            if skips(helper, depth) {
                continue;
            }
            self.limits_on = depth > 1;
            self.exact = depth + 1 >= horizon;
            // The aspiration window: around the last iteration's value from depth
            // ASP_DEPTH on (not in exact iterations), widened on a fail low or high.
            let mut delta = ASP_DELTA;
            let (mut lo, mut hi) = match value {
                Some(v) if depth >= ASP_DEPTH && !self.exact && v.abs() < MATE_BOUND => {
                    (v - delta, v + delta)
                }
                _ => (-INF, INF),
            };
            let complete = loop {
                let (found, outcome) = self.root(pos, depth as i32, root, lo, hi);
                if let Some((a, s, _)) = found {
                    best = Some((a, s));
                }
                match outcome {
                    RootOutcome::Exact => {
                        value = found.map(|f| f.2);
                        break true;
                    }
                    RootOutcome::Stopped => break false,
                    RootOutcome::FailLow(v) => {
                        lo = widen(v.min(lo), -delta);
                        delta *= 2;
                    }
                    RootOutcome::FailHigh => {
                        let v = found.map_or(hi, |f| f.2);
                        hi = widen(v, delta);
                        delta *= 2;
                    }
                }
            };
            if !complete {
                break;
            }
            depth_done = depth;
            let score = best.map_or(0, |b| b.1);
            if self.exact || in_table || score.abs() > MATE_BOUND {
                exact = true;
                break;
            }
        }
        let (action, score) = best.unwrap_or((root[0].action, 0));
        SearchInfo {
            action,
            score,
            depth: depth_done,
            nodes: self.nodes,
            exact,
            pv: if helper == 0 {
                self.principal_variation(pos, action)
            } else {
                Vec::new()
            },
        }
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
            let Some((best, ..)) = self.tt.probe(p.hash_key(), self.tag) else {
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

    /// One iteration at the root, within the window `(alpha0, beta)` of values (an
    /// action's value is the search's score plus its practical bonus, not added to forced
    /// wins and losses). Returns the best action found, with its search score and value
    /// (if any action's value was above `alpha0`), and how the iteration ended: exact
    /// (the best action, moved to the front, is stored in the table), a fail high (the
    /// action returned, moved to the front, reached `beta`), a fail low (every action at
    /// most `alpha0`, with the highest of their bounds) or stopped.
    fn root(
        &mut self,
        pos: &Position,
        depth: i32,
        root: &mut [RootMove],
        alpha0: i32,
        beta: i32,
    ) -> (Option<(Action, i32, i32)>, RootOutcome) {
        self.root_depth = depth;
        let mut alpha = alpha0;
        let mut best: Option<(usize, i32, i32)> = None;
        let mut top = -INF;
        self.nodes += 1;
        let with_bonus = |s: i32, b: i32| if s.abs() > MATE_BOUND { s } else { s + b };
        let found = |best: Option<(usize, i32, i32)>, root: &[RootMove]| {
            best.map(|(i, s, v)| (root[i].action, s, v))
        };
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
                return (found(best, root), RootOutcome::Stopped);
            }
            let v = with_bonus(score, b);
            top = top.max(v);
            if v > alpha {
                alpha = v;
                best = Some((i, score, v));
                if v >= beta {
                    root[..=i].rotate_right(1);
                    return (Some((a, score, v)), RootOutcome::FailHigh);
                }
            }
        }
        let Some((i, s, v)) = best else {
            return (None, RootOutcome::FailLow(top));
        };
        let a = root[i].action;
        root[..=i].rotate_right(1);
        self.tt.store(
            pos.hash_key(),
            self.tag,
            self.generation,
            a.bits(),
            s,
            depth,
            EXACT,
        );
        (Some((a, s, v)), RootOutcome::Exact)
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
        if let Some(t) = &self.endgame
            && t.may_cover(pos)
            && let Some(score) = t.score(pos, ply)
        {
            return score;
        }
        // Mate-distance pruning: the side to move wins two plies from now at best.
        let ceiling = MATE - ply as i32 - 2;
        if alpha >= ceiling {
            return ceiling;
        }
        let in_check = pos.threatens_win(pos.side().other());
        // A winning threat to answer: one ply more, at a leaf always (short of MAX_PLY),
        // inside the tree while the line is at most twice the iteration's depth.
        let extend = if depth <= 0 {
            ply + 2 < MAX_PLY
        } else {
            (ply as i32) < 2 * self.root_depth
        };
        if in_check && extend {
            depth = depth.max(0) + 1;
        }
        if depth <= 0 {
            return self.evaluate_node(pos);
        }
        if ply + 1 >= MAX_PLY {
            return self.evaluate_node(pos);
        }
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let key = pos.hash_key();
        let mut tt_move = NO_MOVE;
        if let Some((best, score, d, flag)) = self.tt.probe(key, self.tag) {
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
        // Reverse futility pruning: near the horizon, a null-window node whose static value
        // beats beta by a margin a ply (and that no winning threat hangs over) is cut.
        if depth <= RFP_DEPTH
            && !in_check
            && !self.exact
            && beta - alpha == 1
            && beta.abs() < MATE_BOUND
        {
            let e = self.evaluate_node(pos);
            if e - RFP_MARGIN * depth >= beta {
                return e;
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
                    lmr(depth, i)
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
        // Outside an exact iteration a node's depth may pass its plies left but one (threat
        // extensions along its line): stored as such, the entry would stand in for the
        // exact iteration's search of the node (which needs that depth) although it was
        // searched with reductions and pruning.
        let stored = if self.exact {
            depth
        } else {
            depth.min((pos.plies_left() as i32 - 2).max(1))
        };
        self.tt.store(
            key,
            self.tag,
            self.generation,
            best_move,
            to_tt(best, ply),
            stored,
            flag,
        );
        best
    }

    /// The static evaluation for the side to move (who cannot win at once), with this
    /// searcher's weights.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        match &self.card_set {
            Some(set) if set.covers(pos) => set.evaluate_covered(pos),
            _ => self.evaluators[pos.is_standard() as usize].evaluate(pos),
        }
    }

    /// [`Searcher::evaluate`] of a position of the search under way, whose cards and rules
    /// are its root's: the card set, when there is one, covers it (no need to ask).
    #[inline]
    fn evaluate_node(&self, pos: &Position) -> i32 {
        match &self.card_set {
            Some(set) => set.evaluate_covered(pos),
            None => self.evaluators[pos.is_standard() as usize].evaluate(pos),
        }
    }

    /// Specialise the evaluation to the cards and rules of `pos` (a search's root), unless
    /// it is so already (a game keeps its five cards; [`Searcher::set_weights`] drops it).
    fn specialise(&mut self, pos: &Position) {
        if !self.card_set.as_ref().is_some_and(|set| set.covers(pos)) {
            let ev = &self.evaluators[pos.is_standard() as usize];
            self.card_set = CardSetEvaluator::new(Arc::clone(ev), pos).map(Arc::new);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::onitama::{baseline_action, find_setup};

    /// Outside an exact iteration no table entry claims the depth that the exact search of
    /// its node needs (its plies left but one), whatever the threat extensions on its line.
    #[test]
    fn inexact_entries_stay_below_the_exact_depth() {
        let mut checked = 0;
        for (id, seed) in [("21", 1), ("22", 2), ("23", 3), ("21", 4)] {
            let mut root = find_setup(id).unwrap().position(None);
            for ply in 0..8 {
                let a = baseline_action(&root, seed + ply).unwrap();
                if root.after(a).status() != Status::Ongoing {
                    break;
                }
                root.play(a).unwrap();
            }
            let root = root.with_plies_left(10);
            let mut s = Searcher::new();
            let limits = Limits {
                depth: Some(8),
                ..Limits::default()
            };
            s.search(&root, 0, limits).unwrap();
            let mut level = vec![root];
            for _ in 0..3 {
                let mut next = Vec::new();
                for p in level.iter().filter(|p| p.status() == Status::Ongoing) {
                    if let Some((_, _, depth, _)) = s.tt.probe(p.hash_key(), s.tag) {
                        let most = (p.plies_left() as i32 - 2).max(1);
                        assert!(depth <= most, "{p}: depth {depth} > {most}");
                        checked += 1;
                    }
                    next.extend(p.legal_actions().iter().map(|&a| p.after(a)));
                }
                level = next;
            }
        }
        assert!(checked > 100, "{checked}");
    }
}
