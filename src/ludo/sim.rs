//! Seeded batch simulation: whole games played by bots, in Rust, on any number of threads.
//! Game `i` of a run with seed `s` always uses the same dice and bot randomness, so the
//! same seed gives the same results for any thread count.
//!
//! (The file passes 600 lines only with its unit tests, kept next to the code they pin
//! down; the code itself is about 460 lines.)

use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;

use super::autoplay::{Caller, Chooser, autoplay};
use super::bots::Bot;
use super::compiled::{Compiled, CompiledGame};
use super::error::LudoError;
use super::game::{Game, GameEnd};
use super::play::{self, CutOff, Limits, Unchecked};
use super::rng::Rng;
use super::rules::{MAX_SEATS, Rules, Seat};
use super::tables::{CS162, Fast, GT, Geometry, PresetGeometry, STANDARD, Tables};
use crate::stop::Stop;

pub use super::play::MAX_ROLLS;

/// The games a run plays when none are said (`Simulation.run`, `simulate`).
pub const DEFAULT_COUNT: u64 = 1000;

/// The threads a run plays on when none are said.
pub const DEFAULT_THREADS: usize = 1;

/// The name of every player's bot when none is said.
pub const DEFAULT_BOT: &str = "random";

/// A run's seed when none is named: fixed, so that the same call prints the same figures
/// (an explicit `None` draws a fresh one instead, as everywhere).
pub const DEFAULT_SEED: u64 = 0;

/// The most threads a run plays on (more are clamped to it).
pub const MAX_THREADS: usize = 256;

/// The most games one run call plays (their per-game results alone take about 10 bytes a
/// game); longer runs go in chunks, as `ludo simulate` and `simulate(..., progress=...)`
/// do.
pub const MAX_RUN: u64 = 1 << 32;

/// The error of game `i` of a run: `what` (a caller's failure) with the game's number.
pub fn failed_in_game(i: u64, what: impl std::fmt::Display) -> LudoError {
    LudoError::FailedInGame {
        game: i,
        what: what.to_string(),
    }
}

/// One game in play in a simulation, with its bots' randomness.
#[derive(Clone, Copy)]
struct EngineRun {
    game: Game,
    bot_rng: Rng,
}

impl EngineRun {
    /// Game `i` of the run of `config`, from the new game `start` (its die reseeded).
    fn new(config: &SimConfig, start: &Game, i: u64) -> EngineRun {
        let (dice, bots_seed) = config.game_seeds(i);
        let mut game = *start;
        game.rng = Rng::new(dice);
        EngineRun {
            game,
            bot_rng: Rng::new(bots_seed),
        }
    }

    /// The game played to its end (or cut off after [`MAX_ROLLS`] rolls, or stopped by a
    /// bot with no legal move to give, or abandoned on `stop`: search bots only) by the one
    /// bot loop ([`play::play`]): how it ended, its rolls and captures. With `ALL_RANDOM`,
    /// every seat's bot is [`Bot::Random`].
    #[inline(always)]
    fn play_to_end<G: Geometry, const ALL_RANDOM: bool>(
        mut self,
        geo: &G,
        bot_of: &[Bot; MAX_SEATS],
        stop: Option<&Stop>,
    ) -> (GameEnd, u32, u32) {
        let limits = Limits {
            max_rolls: MAX_ROLLS as u64,
            cut_off: CutOff::BeforeRoll,
            stop: if ALL_RANDOM { None } else { stop },
        };
        let bot_rng = &mut self.bot_rng;
        let mut table = Unchecked {
            game: &mut self.game,
            geo,
        };
        let Ok(played) = play::play(&mut table, limits, |g: &Game| {
            let bot = bot_of[g.current_player()];
            Ok::<_, Infallible>(if ALL_RANDOM || bot == Bot::Random {
                g.random_move(bot_rng)
            } else {
                // Built-in bots choose among the legal moves; anything else is refused.
                bot.choose_until(g, bot_rng, stop)
                    .filter(|mv| g.is_pending(mv))
            })
        });
        (
            GameEnd::of(&self.game.turn),
            played.rolls as u32,
            u32::try_from(played.captures).unwrap_or(u32::MAX),
        )
    }
}

/// A game played over compiled tables, with its counters.
#[derive(Clone, Copy)]
struct CompiledRun {
    game: CompiledGame,
    choice: Rng,
    rolls: u32,
    captures: u32,
}

impl CompiledRun {
    /// One roll and the move it allows; `true` once the game is over or cut off after
    /// [`MAX_ROLLS`] rolls.
    #[inline(always)]
    fn step<G: Geometry>(&mut self, geo: &G, c: &Compiled) -> bool {
        self.rolls += 1;
        self.captures += self.game.step(geo, c, &mut self.choice);
        self.game.is_over() || self.rolls == MAX_ROLLS
    }
}

/// Play the compiled game `start` to its end (or cut it off), with the die seeded `dice`
/// and the moves drawn from `choices`: how it ended, its rolls and captures. A function of
/// its own, with plain values in and out, so that the game in play has the registers to
/// itself.
#[inline(never)]
fn play_out<G: Geometry>(
    geo: &G,
    c: &Compiled,
    start: &CompiledGame,
    dice: u64,
    choices: u64,
) -> (GameEnd, u32, u32) {
    let mut run = CompiledRun {
        game: *start,
        choice: Rng::new(choices),
        rolls: 0,
        captures: 0,
    };
    *run.game.rng_mut() = Rng::new(dice);
    while !run.step(geo, c) {}
    (run.game.end(), run.rolls, run.captures)
}

/// What to simulate: rules, the seats that play, a bot per seat and the run's seed. Game
/// `i` of a run is the same game whatever the chunking and the thread count.
///
/// ```
/// use ludogame::ludo::sim::SimConfig;
/// use ludogame::ludo::{Bot, Rules};
///
/// let config = SimConfig {
///     rules: Rules::CS162,
///     seats: vec![0, 2],
///     bots: vec![Bot::Cs162, Bot::Random],
///     seed: 42,
/// };
/// let whole = config.run(0, 200, 2);
/// let mut parts = config.run(0, 120, 1);
/// parts.extend(config.run(120, 80, 1));
/// assert_eq!(whole, parts);
/// assert_eq!(whole.games, 200);
/// assert_eq!(whole.wins.iter().sum::<u64>() + whole.unfinished, 200);
/// ```
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// The rules.
    pub rules: Rules,
    /// The indices of the seats that play, in turn order (`0..MAX_SEATS`; plain indices, as
    /// a configuration gives them: [`SimConfig::validate`] refuses one out of range).
    pub seats: Vec<usize>,
    /// The bot of each seat in `seats`.
    pub bots: Vec<Bot>,
    /// The run's seed.
    pub seed: u64,
}

/// The results of games `start..start + len` of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimResult {
    /// Number of games.
    pub games: u64,
    /// Games won, per seat index `0..MAX_SEATS`.
    pub wins: [u64; MAX_SEATS],
    /// Die rolls in each game.
    pub rolls: Vec<u32>,
    /// Captures in each game.
    pub captures: Vec<u16>,
    /// The finishing order of each game, `seats.len()` seat indices per game (the ranking;
    /// in first-winner games the winner first, then the others by progress; 255 for a
    /// seat unranked in a cut-off game).
    pub finishing: Vec<u8>,
    /// Games cut off after [`MAX_ROLLS`] rolls.
    pub unfinished: u64,
    /// Die rolls in all games (the sum of `rolls`).
    pub total_rolls: u64,
    /// Captures in all games (the sum of `captures`, before their clamp to `u16`).
    pub total_captures: u64,
}

impl SimResult {
    /// Append `other` (the next games of the same run).
    pub fn extend(&mut self, other: SimResult) {
        self.games += other.games;
        for (w, o) in self.wins.iter_mut().zip(other.wins) {
            *w += o;
        }
        self.rolls.extend(other.rolls);
        self.captures.extend(other.captures);
        self.finishing.extend(other.finishing);
        self.unfinished += other.unfinished;
        self.total_rolls += other.total_rolls;
        self.total_captures += other.total_captures;
    }
}

impl SimConfig {
    /// The run of games like `game` (its rules and players) whose players are `choosers`
    /// (turn order), seeded with `seed`: a [`Chooser::Caller`]'s seat is its caller's (its
    /// placeholder bot never plays).
    pub fn of_game(game: &Game, choosers: &[Chooser], seed: u64) -> SimConfig {
        let bot = |c: &Chooser| match c {
            Chooser::Bot(b) => *b,
            Chooser::Caller => Bot::Random,
        };
        SimConfig {
            rules: *game.rules(),
            seats: game.seats().map(|s| s.index()).collect(),
            bots: choosers.iter().map(bot).collect(),
            seed,
        }
    }

    /// Check the configuration (valid rules, seats, one bot per seat).
    pub fn validate(&self) -> Result<(), LudoError> {
        Game::new(self.rules, &self.playing()?, 0)?;
        if self.bots.len() != self.seats.len() {
            return Err(LudoError::InvalidBot(format!(
                "{} bots for {} players: give one bot per player",
                self.bots.len(),
                self.seats.len()
            )));
        }
        Ok(())
    }

    /// The dice seed and bot seed of game `i`.
    pub fn game_seeds(&self, i: u64) -> (u64, u64) {
        let mut r = Rng::new(self.seed ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03));
        (r.next_u64(), r.next_u64())
    }

    /// The seats that play (an error for an index out of range).
    pub fn playing(&self) -> Result<Vec<Seat>, LudoError> {
        self.seats
            .iter()
            .map(|&i| Seat::new(i).ok_or_else(|| LudoError::InvalidPosition(i.to_string())))
            .collect()
    }

    /// The bot of each seat (random for seats that do not play).
    fn bot_of_seat(&self) -> [Bot; MAX_SEATS] {
        let mut bot_of = [Bot::Random; MAX_SEATS];
        for (seat, &bot) in self
            .seats
            .iter()
            .filter_map(|&i| Seat::new(i))
            .zip(&self.bots)
        {
            bot_of[seat] = bot;
        }
        bot_of
    }

    /// Play games `from..from + n` from the new game `start`. The presets run with their
    /// rules as compile-time constants ([`PresetGeometry`]); any other rule set runs the
    /// same code with its rules read at run time.
    /// Returns the results and whether every game was played (a `stop` ends the range
    /// early, after the games finished so far).
    fn play_range(
        &self,
        start: &Game,
        bot_of: &[Bot; MAX_SEATS],
        from: u64,
        n: u64,
        stop: Option<&Stop>,
    ) -> (SimResult, bool) {
        let mut r = SimResult::default();
        let rules = self.rules;
        // The same call over each geometry type (a generic closure cannot be written).
        macro_rules! play {
            ($geo:expr) => {
                self.play_games(&$geo, start, bot_of, from, n, &mut r, stop)
            };
        }
        let played = if rules == PresetGeometry::<CS162>::RULES {
            play!(PresetGeometry::<CS162>::new())
        } else if rules == PresetGeometry::<STANDARD>::RULES {
            play!(PresetGeometry::<STANDARD>::new())
        } else if rules == PresetGeometry::<GT>::RULES {
            play!(PresetGeometry::<GT>::new())
        } else {
            play!(Fast {
                rules: &rules,
                tables: Tables::of(&rules),
            })
        };
        (r, played == n)
    }

    /// Play games `from..from + n` over the geometry `geo` of the game's rules, appending
    /// them to `out` in game order: over compiled tables when every bot is random and the
    /// rules compile, else over the engine's game. Returns how many were played.
    #[allow(clippy::too_many_arguments)]
    fn play_games<G: Geometry>(
        &self,
        geo: &G,
        start: &Game,
        bot_of: &[Bot; MAX_SEATS],
        from: u64,
        n: u64,
        out: &mut SimResult,
        stop: Option<&Stop>,
    ) -> u64 {
        if !bot_of.iter().all(|&b| b == Bot::Random) {
            self.play_each(from, n, out, stop, |i| {
                EngineRun::new(self, start, i).play_to_end::<G, false>(geo, bot_of, stop)
            })
        } else if let Some(c) = Compiled::of(geo.rules()) {
            let new = CompiledGame::new(c, start);
            self.play_each(from, n, out, stop, |i| {
                let (dice, choices) = self.game_seeds(i);
                play_out(geo, c, &new, dice, choices)
            })
        } else {
            self.play_each(from, n, out, stop, |i| {
                EngineRun::new(self, start, i).play_to_end::<G, true>(geo, bot_of, None)
            })
        }
    }

    /// Play games `from..from + n` with `play` (game index to how it ended, its rolls and
    /// captures), recording them at the end of `out` in game order; a `stop` is honoured
    /// between games. Returns how many were played.
    #[inline(always)]
    fn play_each(
        &self,
        from: u64,
        n: u64,
        out: &mut SimResult,
        stop: Option<&Stop>,
        mut play: impl FnMut(u64) -> (GameEnd, u32, u32),
    ) -> u64 {
        self.reserve(out, n);
        for i in from..from + n {
            if stop.is_some_and(Stop::requested) {
                return i - from;
            }
            let (end, rolls, captures) = play(i);
            if stop.is_some_and(Stop::requested) {
                // A search bot asked to stop mid-game may have cut its last search short:
                // the game is not kept.
                return i - from;
            }
            self.push(end, rolls, captures, out);
        }
        n
    }

    /// Make room at the end of `out` for `n` more games (`n` is at most a block).
    fn reserve(&self, out: &mut SimResult, n: u64) {
        let n = n as usize;
        out.rolls.reserve(n);
        out.captures.reserve(n);
        out.finishing.reserve(n * self.seats.len());
    }

    /// The finishing order of a finished or cut-off game: `seats.len()` seat indices (the
    /// ranking; in first-winner games the winner first, then the others in seat order;
    /// 255 for a seat unranked in a cut-off game).
    fn finishing_order(&self, end: &GameEnd) -> [u8; MAX_SEATS] {
        let mut order = [u8::MAX; MAX_SEATS];
        let mut len = 0;
        for &s in &end.ranking[..(end.ranked as usize).min(MAX_SEATS)] {
            order[len] = s;
            len += 1;
        }
        for &s in &self.seats {
            if len < self.seats.len() && !order[..len].contains(&(s as u8)) {
                order[len] = if end.over { s as u8 } else { u8::MAX };
                len += 1;
            }
        }
        order
    }

    /// Game `i` of this run with the players at the positions `callers` (indices into
    /// [`SimConfig::seats`]) chosen by `caller` instead of their bots, by
    /// [`autoplay`](super::autoplay::autoplay): the same dice and bot randomness as the run
    /// itself, the roll limit checked before every roll and move, and the game added to
    /// `out`. The first error (a caller's, or an illegal move of one) is returned and
    /// nothing is added.
    pub fn play_game_with<C: Caller>(
        &self,
        i: u64,
        callers: &[usize],
        caller: &mut C,
        out: &mut SimResult,
    ) -> Result<(), C::Error> {
        let (dice, bots_seed) = self.game_seeds(i);
        let seats = self.playing()?;
        let mut game = Game::new(self.rules, &seats, dice)?;
        let choosers: Vec<Chooser> = (0..seats.len())
            .map(|k| match self.bots.get(k) {
                Some(&bot) if !callers.contains(&k) => Chooser::Bot(bot),
                _ => Chooser::Caller,
            })
            .collect();
        let limits = Limits {
            max_rolls: u64::from(MAX_ROLLS),
            cut_off: CutOff::BeforeEachStep,
            stop: None,
        };
        let mut rng = Rng::new(bots_seed);
        let played = autoplay(&mut game, &seats, &choosers, &mut rng, limits, caller)?;
        let rolls = u32::try_from(played.rolls).unwrap_or(u32::MAX);
        let captures = u32::try_from(played.captures).unwrap_or(u32::MAX);
        self.record(&game, rolls, captures, out);
        Ok(())
    }

    /// Games `start..start + count` with the players at `callers` chosen by `caller` (one
    /// game after another, on the calling thread: [`SimConfig::play_game_with`]), the
    /// others by their bots; with no callers, [`SimConfig::run_until`] on `threads`
    /// threads. The results of the games played, and the first error with the number of
    /// the game it ended (the games before it are kept, none after).
    pub fn run_with<C: Caller>(
        &self,
        start: u64,
        count: u64,
        threads: usize,
        stop: Option<&Stop>,
        callers: &[usize],
        caller: &mut C,
    ) -> (SimResult, Option<(u64, C::Error)>) {
        if callers.is_empty() {
            return (self.run_until(start, count, threads, stop), None);
        }
        let mut out = SimResult::default();
        for i in start..start.saturating_add(count) {
            if let Err(e) = caller
                .between_games()
                .and_then(|()| self.play_game_with(i, callers, caller, &mut out))
            {
                return (out, Some((i, e)));
            }
        }
        (out, None)
    }

    /// Check a run's range: `start + count` must be a game index (games are numbered by a
    /// 64-bit index).
    pub fn check_range(start: u64, count: u64) -> Result<(), LudoError> {
        if start.checked_add(count).is_none() {
            return Err(LudoError::InvalidArgument(format!(
                "start + count must not pass 2**64 - 1 (games are numbered by a 64-bit \
                 index): start {start}, count {count}"
            )));
        }
        Ok(())
    }

    /// A run's range and threads from a caller's optional arguments: games `start..start +
    /// count` (from 0, [`DEFAULT_COUNT`] of them when not said) on `threads` threads
    /// ([`DEFAULT_THREADS`]), the range checked by [`SimConfig::check_range`].
    pub fn run_args(
        start: Option<u64>,
        count: Option<u64>,
        threads: Option<usize>,
    ) -> Result<(u64, u64, usize), LudoError> {
        let (start, count) = (start.unwrap_or(0), count.unwrap_or(DEFAULT_COUNT));
        Self::check_range(start, count)?;
        Ok((start, count, threads.unwrap_or(DEFAULT_THREADS)))
    }

    /// Add a finished (or cut-off) game to `out`.
    pub fn record(&self, g: &Game, rolls: u32, captures: u32, out: &mut SimResult) {
        self.push(GameEnd::of(&g.turn), rolls, captures, out);
    }

    /// Append a finished (or cut-off) game to `out`.
    #[inline(always)]
    fn push(&self, end: GameEnd, rolls: u32, captures: u32, out: &mut SimResult) {
        let k = self.seats.len();
        out.games += 1;
        out.rolls.push(rolls);
        out.captures.push(captures.min(u16::MAX as u32) as u16);
        out.total_rolls += rolls as u64;
        out.total_captures += captures as u64;
        out.finishing
            .extend_from_slice(&self.finishing_order(&end)[..k]);
        if !end.over {
            out.unfinished += 1;
        }
        if end.ranked > 0 {
            out.wins[end.ranking[0] as usize & (MAX_SEATS - 1)] += 1;
        }
    }

    /// Play games `start..start + count` on `threads` threads (results in game order).
    pub fn run(&self, start: u64, count: u64, threads: usize) -> SimResult {
        self.run_until(start, count, threads, None)
    }

    /// [`SimConfig::run`] that honours `stop`: once it is requested, every thread finishes
    /// the game it plays and the run returns games `start..start + k`, the longest run of
    /// games from `start` that all finished (the same games a run of `k` games plays). The
    /// results grow block by block as games finish: memory follows what was played.
    pub fn run_until(
        &self,
        start: u64,
        count: u64,
        threads: usize,
        stop: Option<&Stop>,
    ) -> SimResult {
        // Games are numbered by a u64: there is no game past the last index.
        let count = count.min(u64::MAX - start);
        let threads = threads.clamp(1, MAX_THREADS) as u64;
        let Ok(first) = self
            .playing()
            .and_then(|seats| Game::new(self.rules, &seats, 0))
        else {
            return SimResult::default();
        };
        let bots = self.bot_of_seat();
        let block = (count / (threads * BLOCKS_PER_THREAD)).clamp(MIN_BLOCK, MAX_BLOCK);
        let blocks = count.div_ceil(block);
        if threads == 1 || blocks <= 1 {
            let mut total = SimResult::default();
            for b in 0..blocks {
                let n = block.min(count - b * block);
                let (part, complete) = self.play_range(&first, &bots, start + b * block, n, stop);
                total.extend(part);
                if !complete {
                    break;
                }
            }
            return total;
        }
        // Blocks of games go to whichever thread is free, so that a thread the machine slows
        // down holds no other up; each game's dice depend on its index alone, and the blocks
        // are put back in game order.
        let next = AtomicU64::new(0);
        let play_blocks = || {
            let mut mine = Vec::new();
            loop {
                let b = next.fetch_add(1, Ordering::Relaxed);
                if b >= blocks || stop.is_some_and(Stop::requested) {
                    return mine;
                }
                let n = block.min(count - b * block);
                let (part, complete) = self.play_range(&first, &bots, start + b * block, n, stop);
                mine.push((b, part, complete));
            }
        };
        let mut parts: Vec<(u64, SimResult, bool)> = thread::scope(|s| {
            let handles: Vec<_> = (0..threads.min(blocks))
                .map(|_| s.spawn(play_blocks))
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        parts.sort_unstable_by_key(|&(b, _, _)| b);
        // After a stop, keep the blocks up to the first gap or unfinished block.
        let mut total = SimResult::default();
        for (expected, (b, part, complete)) in parts.into_iter().enumerate() {
            if b != expected as u64 {
                break;
            }
            total.extend(part);
            if !complete {
                break;
            }
        }
        total
    }
}

/// A run on several threads hands out about this many blocks of games per thread.
const BLOCKS_PER_THREAD: u64 = 32;

/// The fewest games in a block (a block costs a few look-ups to set up).
const MIN_BLOCK: u64 = 256;

/// The most games in a block: a block's results are allocated when it starts, so a huge
/// run grows its results as its blocks finish instead of allocating them all up front.
const MAX_BLOCK: u64 = 1 << 16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runs_arguments_default_to_the_engines_and_are_checked() {
        let defaults = SimConfig::run_args(None, None, None).unwrap();
        assert_eq!(defaults, (0, DEFAULT_COUNT, DEFAULT_THREADS));
        assert_eq!(
            SimConfig::run_args(Some(5), Some(2), Some(3)).unwrap(),
            (5, 2, 3)
        );
        let e = SimConfig::run_args(Some(u64::MAX), Some(1), None).unwrap_err();
        assert!(e.to_string().contains("start + count must not pass"), "{e}");
    }
    use crate::ludo::game::{Event, Phase};
    use crate::ludo::rules::{EndCondition, OwnTokens};

    fn config(rules: Rules, bots: Vec<Bot>) -> SimConfig {
        SimConfig {
            rules,
            seats: (0..bots.len()).collect(),
            bots,
            seed: 7,
        }
    }

    /// Game `i` played with the public, checked API: roll, then the bot's move.
    fn play_checked(c: &SimConfig, i: u64, out: &mut SimResult) {
        let (dice, bots_seed) = c.game_seeds(i);
        let mut g = Game::new(c.rules, &c.playing().unwrap(), dice).unwrap();
        let mut bot_rng = Rng::new(bots_seed);
        let bot_of = c.bot_of_seat();
        let (mut rolls, mut captures) = (0, 0);
        while !g.is_over() && rolls < MAX_ROLLS {
            rolls += 1;
            g.roll_die().unwrap();
            if let Phase::Move(_) = g.phase() {
                let mv = bot_of[g.current_player()].choose(&g, &mut bot_rng).unwrap();
                if let Event::Move { outcome, .. } = g.play(mv).unwrap() {
                    captures += u32::from_le_bytes(outcome.captured).count_ones();
                }
            }
        }
        c.record(&g, rolls, captures, out);
    }

    /// The simulation's fast paths (the presets' compile-time rules, the run-time rules of
    /// any other rule set) play the games the checked API plays, roll for roll.
    #[test]
    fn simulation_plays_the_games_of_the_checked_api() {
        let mut variants = vec![Rules::CS162, Rules::STANDARD, Rules::GT];
        let mut r = Rules::STANDARD;
        r.six_limit = 3;
        r.safe_squares = true;
        r.capture_bonus = true;
        r.finish_bonus = true;
        variants.push(r);
        let mut r = Rules::CS162;
        r.tokens = 4;
        r.own_tokens = OwnTokens::Block;
        variants.push(r);
        let mut r = Rules::GT;
        r.end = EndCondition::FullRanking;
        r.forced_entry = false;
        variants.push(r);
        let bots = [
            vec![Bot::Random; 4],
            vec![Bot::Cs162, Bot::Safe, Bot::Aggressive, Bot::Random],
        ];
        for rules in variants {
            for bots in &bots {
                let c = SimConfig {
                    rules,
                    seats: vec![0, 1, 2, 3],
                    bots: bots.clone(),
                    seed: 11,
                };
                let fast = c.run(0, 200, 1);
                let mut checked = SimResult::default();
                for i in 0..200 {
                    play_checked(&c, i, &mut checked);
                }
                assert_eq!(fast, checked, "{rules:?} {bots:?}");
                // The presets also run over their run-time tables: the same games.
                let start = Game::new(rules, &c.playing().unwrap(), 0).unwrap();
                let mut runtime = SimResult::default();
                let geo = Fast {
                    rules: &rules,
                    tables: Tables::of(&rules),
                };
                c.play_games(&geo, &start, &c.bot_of_seat(), 0, 200, &mut runtime, None);
                assert_eq!(fast, runtime, "{rules:?} {bots:?}");
            }
        }
    }

    #[test]
    fn no_game_past_the_last_index() {
        let c = config(Rules::CS162, vec![Bot::Random; 4]);
        let r = c.run(u64::MAX - 3, 10, 2);
        assert_eq!(r.games, 3);
        assert_eq!((r.rolls.len(), r.finishing.len()), (3, 12));
        assert_eq!(r, c.run(u64::MAX - 3, 3, 1));
    }

    #[test]
    fn same_seed_same_result_for_any_thread_count() {
        let c = config(Rules::CS162, vec![Bot::Random; 4]);
        // Enough games for many blocks of uneven counts on several threads.
        let one = c.run(0, 3000, 1);
        for threads in [2, 3, 7] {
            assert_eq!(one, c.run(0, 3000, threads), "{threads} threads");
        }
        let mut parts = c.run(0, 1000, 2);
        parts.extend(c.run(1000, 2000, 3));
        assert_eq!(parts, one, "chunked runs add up to the whole run");
        assert_eq!(one.games, 3000);
        assert_eq!(one.wins.iter().sum::<u64>(), 3000);
        assert_eq!(one.finishing.len(), 12_000);
        assert_eq!(one.unfinished, 0);
        // The engine's game (heuristic bots) splits the same way.
        let c = config(
            Rules::STANDARD,
            vec![Bot::Aggressive, Bot::Random, Bot::Safe],
        );
        assert_eq!(c.run(5, 700, 1), c.run(5, 700, 3));
    }

    /// A stopped run returns the games from its start that finished: exactly what a run of
    /// that many games returns, on any thread count.
    #[test]
    fn a_stopped_run_keeps_a_prefix_of_whole_games() {
        let c = config(Rules::STANDARD, vec![Bot::Random; 4]);
        let stop = Stop::new();
        stop.request();
        assert_eq!(c.run_until(3, 5000, 2, Some(&stop)).games, 0);
        for threads in [1, 2] {
            // A loaded machine may not have finished a game by the first stop: wait longer.
            let r = (0..10)
                .map(|k| {
                    let stop = Stop::new();
                    thread::scope(|s| {
                        let run = s.spawn(|| c.run_until(10, 2_000_000, threads, Some(&stop)));
                        thread::sleep(std::time::Duration::from_millis(30 << k));
                        stop.request();
                        run.join().unwrap()
                    })
                })
                .find(|r| r.games > 0)
                .expect("no game finished in 30 s");
            assert!(r.games > 0 && r.games < 2_000_000, "{threads}: {}", r.games);
            assert_eq!(r, c.run(10, r.games, 1), "{threads} threads");
            assert_eq!(
                r.total_rolls,
                r.rolls.iter().map(|&x| x as u64).sum::<u64>()
            );
        }
    }

    #[test]
    fn a_better_bot_wins_more() {
        let c = config(Rules::STANDARD, vec![Bot::Safe, Bot::Random]);
        let mut c = c;
        c.seats = vec![0, 2];
        let r = c.run(0, 2000, 2);
        assert!(r.wins[0] > r.wins[2], "{:?}", r.wins);
    }

    /// A caller in a seat who plays as its bot would plays the run's games; a caller's
    /// error ends the run with the games before it and the failing game's number.
    #[test]
    fn a_run_with_a_caller_plays_the_runs_games() {
        struct SafeUntil {
            games: u64,
            fail_in: u64,
        }
        impl Caller for SafeUntil {
            type Error = LudoError;
            fn choose(&mut self, _: usize, g: &Game) -> Result<crate::ludo::Move, LudoError> {
                if self.games == self.fail_in {
                    return Err(LudoError::InvalidBot("gave up".into()));
                }
                Ok(Bot::Safe.choose(g, &mut Rng::new(0)).unwrap())
            }
            fn between_games(&mut self) -> Result<(), LudoError> {
                self.games += 1;
                Ok(())
            }
        }
        let c = config(Rules::STANDARD, vec![Bot::Cs162, Bot::Safe]);
        let mut caller = SafeUntil {
            games: 0,
            fail_in: u64::MAX,
        };
        let (with, e) = c.run_with(3, 12, 2, None, &[1], &mut caller);
        assert!(e.is_none() && caller.games == 12);
        assert_eq!(with, c.run(3, 12, 1));
        caller = SafeUntil {
            games: 0,
            fail_in: 3,
        };
        let (part, e) = c.run_with(3, 12, 1, None, &[1], &mut caller);
        let (i, e) = e.unwrap();
        assert_eq!((i, part.games), (5, 2));
        assert_eq!(part, c.run(3, 2, 1));
        assert_eq!(
            failed_in_game(i, e).to_string(),
            "game 5: invalid bot: gave up"
        );
        assert!(SimConfig::check_range(u64::MAX - 3, 3).is_ok());
        assert!(SimConfig::check_range(u64::MAX - 3, 4).is_err());
    }
}
