//! Built-in AIs, each a deterministic function of its settings, its seed and the position
//! (a search limited by a node budget on one thread is deterministic; one limited by time,
//! or on several threads, is not).
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
//!   search and iterative deepening (with aspiration windows at the root), a
//!   transposition table keyed on [`Position::hash_key`] (which includes the plies
//!   left; buckets of two entries, one keeping the deepest search, one the latest),
//!   move ordering (the table's move, captures, two killer moves per ply, a
//!   history table), late-move reductions (a quiet action from the fourth on, from
//!   depth 3, searched `0.75 + ln(depth) ln(index) / 2.25` plies shallower, rounded
//!   down, at least one, leaving at least one; searched again in full if it beats
//!   alpha), reverse futility pruning (a null-window node within `RFP_DEPTH` plies of
//!   the horizon whose evaluation beats beta by `RFP_MARGIN` a ply is cut), a one-ply
//!   extension when the side to move must parry a winning threat (at a leaf always;
//!   inside the tree while the line is at most twice the iteration's depth; outside an
//!   exact iteration a table entry's depth is then kept below the node's plies left but
//!   one, so that no entry searched with reductions passes for the exact search), and an
//!   evaluation ([`eval`]): a weighted sum of
//!   features (soldiers and the general by square, mobility, attacks, winning threats,
//!   the wall, the cards' moves, and a piece-square table per hand card), with one set
//!   of weights per rule set fitted to the outcomes of self-play games.
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
//!   [`Limits`] (time, nodes, depth) reached. From depth `ASP_DEPTH` on (except in an
//!   exact iteration) an iteration searches the root with an *aspiration window*: the
//!   last iteration's value (its best action's score plus bonus) ± `ASP_DELTA`. When every
//!   action fails low, or one fails high, that bound is moved `ASP_DELTA` beyond the value
//!   found (then twice that, four times, ...; fully opened once the step would pass
//!   `ASP_MAX` or the bound a forced win or loss) and the iteration searched again (those
//!   nodes count); an action that failed high is the best so far, one that failed low is
//!   not. Under a time budget the search deepens until a deadline at the share
//!   `TIME_SHARE` of the budget stops it (the rest is left to the work around the
//!   search): the time of a move is not carried over to the next, and an iteration
//!   stopped part-way still answers with the best of the actions it searched in full (the
//!   first is the last iteration's best), so saving time gains nothing. Depth 1 is always
//!   searched in full, so the answer never leaves the opponent a win in one when another
//!   action does not. The seed only shuffles the order in which equal root actions are
//!   tried.
//!
//! A search can also be stopped from another thread through a [`Stop`] flag
//! ([`Searcher::search_until`], [`Ai::analyse_until`]): it polls the flag every 1,024
//! nodes (a node count's low ten bits all zero) and between root actions, and then
//! answers with what it has (the best action of the last completed iteration, or of the
//! current one so far).
//!
//! Three settings add to the search, none of them on by default:
//!
//! - **Threads** ([`Ai::set_threads`], [`Searcher::set_threads`]): *Lazy SMP*. `n - 1`
//!   helper threads search the same root at the same time as the calling thread, all
//!   sharing one transposition table (lock-free: each entry two atomic words, the key
//!   word stored xor-ed with the data word, so that an entry torn by two racing stores
//!   matches no key). A helper skips some depths of its iterative deepening (helper `i`
//!   in blocks of `1 + log2(i)` depths, every other block) so that it runs ahead, and
//!   tries equal root actions in an order of its own; it computes no practical bonus.
//!   What the helpers store cuts the main search's work; the answer is the calling
//!   thread's. A node budget counts every thread's nodes (each adds its count to a shared
//!   one every 1,024 nodes), and the nodes reported are every thread's.
//! - **Pondering** ([`Ai::analyse_pondering`], [`Searcher::search_pondering`]): the search
//!   of the position after the expected reply, whose time budget starts when its
//!   [`PonderHit`] flag is raised (the expected reply was played); until then it searches
//!   on, and after it goes on with all it found.
//! - **Endgame tables** ([`Ai::set_endgame`], [`EndgameTable`]): every standard position of
//!   a table's five cards with few pieces, solved by retrograde analysis. A node whose
//!   position the table covers takes its score from it (right after the test for a win at
//!   once): `MATE - ply - d` for a win in `d` plies, its negation for a loss, 0 for a draw,
//!   and 0 for a win or loss further away than the plies left (the game is a tie before).
//!   The scores being exact distances, the search wins in the fewest plies and loses in the
//!   most; a root the table covers is searched exactly at depth 1. Elsewhere the test costs
//!   one piece count a node, and the search is the same.
//!
//! `pick(seed, pos, n)` is `(m * n) >> 64` for `m = splitmix64(seed ^
//! pos.hash_key())`: a number in `0..n` fixed by the seed and the position.
//!
//! The code: `search` (the alpha-beta [`Searcher`] and the tuning constants the names in
//! `CAPITALS` above refer to), `tt` (its transposition table), `eval` (the static
//! evaluation, [`evaluate`]) and [`endgame`] (the endgame tables); the levels and [`Ai`]
//! are here, the settings a front end gives an AI (with their defaults and limits) in
//! `settings` ([`AiSettings`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::action::Action;
use super::error::OnitamaError;
use super::position::{Position, Status};
use super::referee::Answer;
use crate::stop::Stop;

pub mod endgame;
pub mod eval;
mod search;
mod settings;
mod tt;

pub use endgame::{ClassCounts, EndgameTable, TableValue};
pub use eval::evaluate;
pub use search::{Searcher, TRAP_WEIGHT};
pub use settings::AiSettings;

/// The *ponderhit* of a pondering search ([`Searcher::search_pondering`],
/// [`Ai::analyse_pondering`]): raised when the expected reply was played, so that the
/// search's time budget starts. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct PonderHit(Arc<AtomicBool>);

impl PonderHit {
    /// A new flag, not raised.
    pub fn new() -> PonderHit {
        PonderHit::default()
    }

    /// Raise it: the searches pondering with it start their clocks.
    pub fn request(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Has it been raised?
    #[inline]
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A forced win whose winning ply is the `k`-th from now scores `MATE - k`.
pub const MATE: i32 = 30_000;
/// Scores beyond ±`MATE_BOUND` are forced wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INF: i32 = 32_000;
/// Deepest ply the search reaches (iterations are capped below it).
const MAX_PLY: usize = 96;
/// The highest level.
pub const MAX_LEVEL: u8 = 2;

/// The levels by name, in level order: what they play (`random`, the coursework's
/// `baseline`, the alpha-beta `search`).
pub const LEVEL_NAMES: [&str; MAX_LEVEL as usize + 1] = ["random", "baseline", "search"];

/// The level called `name` (see [`LEVEL_NAMES`]).
pub fn level_of_name(name: &str) -> Option<u8> {
    LEVEL_NAMES.iter().position(|&n| n == name).map(|i| i as u8)
}

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

/// A built-in AI: a level (0 random, 1 baseline, 2 search), a seed and, for the search,
/// its limits.
pub struct Ai {
    level: u8,
    seed: u64,
    limits: Limits,
    threads: usize,
    endgame: Option<Arc<EndgameTable>>,
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
            threads: 1,
            endgame: None,
            searcher: None,
        })
    }

    /// The search's threads (see [`Searcher::set_threads`]; 1, the default, is
    /// deterministic under a node budget).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Search on `threads` threads (1 to [`AiSettings::MAX_THREADS`]; errors otherwise).
    pub fn set_threads(&mut self, threads: usize) -> Result<(), OnitamaError> {
        if !(1..=AiSettings::MAX_THREADS).contains(&threads) {
            return Err(OnitamaError::BadAi(format!(
                "threads must be 1 to {}, not {threads}",
                AiSettings::MAX_THREADS
            )));
        }
        self.threads = threads;
        if let Some(s) = self.searcher.as_mut() {
            s.set_threads(threads);
        }
        Ok(())
    }

    /// The endgame table the search scores its positions from, if any.
    pub fn endgame(&self) -> Option<&Arc<EndgameTable>> {
        self.endgame.as_ref()
    }

    /// Score the positions `table` covers from it (see [`Searcher::set_endgame`]).
    pub fn set_endgame(&mut self, table: Option<Arc<EndgameTable>>) {
        if let Some(s) = self.searcher.as_mut() {
            s.set_endgame(table.clone());
        }
        self.endgame = table;
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
        self.analyse_with(pos, stop, None)
    }

    /// [`Ai::analyse_until`] pondering: a search's time budget starts when `hit` is
    /// raised (see [`Searcher::search_pondering`]).
    pub fn analyse_pondering(
        &mut self,
        pos: &Position,
        stop: &Stop,
        hit: &PonderHit,
    ) -> Option<SearchInfo> {
        self.analyse_with(pos, stop, Some(hit))
    }

    /// What the AI finds in `pos` ([`Ai::analyse_until`], or [`Ai::analyse_pondering`]
    /// with `hit`), a finished game being the game-over error
    /// ([`game_over`](crate::onitama::game::game_over)) instead of no answer.
    pub fn analyse_in(
        &mut self,
        pos: &Position,
        stop: &Stop,
        hit: Option<&PonderHit>,
    ) -> Result<SearchInfo, OnitamaError> {
        self.analyse_with(pos, stop, hit)
            .ok_or_else(|| crate::onitama::game::game_over(pos))
    }

    fn analyse_with(
        &mut self,
        pos: &Position,
        stop: &Stop,
        hit: Option<&PonderHit>,
    ) -> Option<SearchInfo> {
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
            _ => {
                let searcher = self.searcher.get_or_insert_with(|| {
                    let mut s = Searcher::new();
                    s.set_threads(self.threads);
                    s.set_endgame(self.endgame.clone());
                    Box::new(s)
                });
                match hit {
                    Some(hit) => searcher.search_pondering(pos, self.seed, self.limits, stop, hit),
                    None => searcher.search_until(pos, self.seed, self.limits, stop),
                }
            }
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
            .field("threads", &self.threads)
            .field("endgame", &self.endgame)
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
    fn analysing_a_finished_game_is_the_game_over_error() {
        let pos = find_setup("21").unwrap().position(None);
        let mut ai = Ai::new(2, 7, Limits::nodes(500)).unwrap();
        let info = ai.analyse_in(&pos, &Stop::new(), None).unwrap();
        assert!(pos.is_legal(info.action));
        let over = pos.with_plies_left(0);
        let e = ai.analyse_in(&over, &Stop::new(), None).unwrap_err();
        assert_eq!(e, crate::onitama::game::game_over(&over));
    }

    #[test]
    fn hash_differs_with_plies_left() {
        let pos = find_setup("21").unwrap().position(None);
        assert_ne!(pos.hash_key(), pos.with_plies_left(19).hash_key());
    }
}
