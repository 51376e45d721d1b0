//! Learning environments: a game of Ludo as a sequence of decisions for learning agents.
//!
//! [`LudoEnv`] rolls the seeded die itself and stops only where a seat played by an agent
//! must choose a token: turns with no legal move pass, bots ([`Role::Bot`]) play their
//! seats, and with `skip_forced` a turn with exactly one legal move is played for the
//! agent. It writes the observation ([`LudoEnv::observe`]) and the action mask
//! ([`LudoEnv::action_mask`]) into caller buffers, and gives the end-of-game rewards
//! ([`LudoEnv::reward`]). [`VectorEnv`] steps many such environments at once, with same-step
//! autoreset, on any number of threads (each environment owns its generators, so the
//! result does not depend on the thread count). The turn loop is [`play::play`]'s.
//!
//! Observation (float32, from the observer's point of view, [`observation_len`] values):
//! for each of the [`MAX_SEATS`] seats in turn order starting with the observer, for each of
//! the rule set's tokens: the progress (`max(step, 0) / finish_step`), 1 if in the yard,
//! 1 if home (zeros for seats that do not play); then the pending roll one-hot (6; zeros
//! when no roll waits for a move); then which seats play (4, same order); then which seat
//! is to move (4, same order; zeros once the episode is over).

use std::convert::Infallible;

use thiserror::Error;

use super::bots::Bot;
use super::error::LudoError;
use super::game::{Game, Move, Phase};
use super::play::{self, CutOff, Ending, Limits, Unchecked};
use super::rng::Rng;
use super::rules::{EndCondition, MAX_SEATS, Rules, Seat};
use super::seat::Token;
use super::tables::{CS162, Fast, GT, Geometry, PresetGeometry, STANDARD, Tables};
use crate::stop::Stop;

/// Run `$body` with `$geo` bound to the game's geometry: the presets' as compile-time
/// constants, any other rule set's read at run time (the same generic code either way, as
/// in the simulation).
macro_rules! over_geometry {
    ($env:ident, $geo:ident => $body:expr) => {{
        let tables: &'static Tables = $env.game.geo.0;
        match $env.preset {
            Some(CS162) => {
                let $geo = &PresetGeometry::<CS162>::with_tables(tables);
                $body
            }
            Some(STANDARD) => {
                let $geo = &PresetGeometry::<STANDARD>::with_tables(tables);
                $body
            }
            Some(GT) => {
                let $geo = &PresetGeometry::<GT>::with_tables(tables);
                $body
            }
            _ => {
                let rules = *$env.game.rules();
                let $geo = &Fast {
                    rules: &rules,
                    tables,
                };
                $body
            }
        }
    }};
}

/// The first field of [`LudoEnv::snapshot`]'s text.
pub const SNAPSHOT_FORMAT: &str = "ludoenv/1";

/// Players of a single-agent environment when none is said: the learner and one opponent,
/// whatever the rule set.
pub const DEFAULT_PLAYERS: usize = 2;

/// Players of the multi-agent (PettingZoo) environment when none is said: a full table.
pub const DEFAULT_TABLE_PLAYERS: usize = 4;

/// The roll limit of an environment's episode when none is said: an episode still going
/// after this many rolls is truncated.
pub const DEFAULT_MAX_ROLLS: u64 = 10_000;

/// The bot of the learner's opponents when none is said.
pub const DEFAULT_OPPONENT: Bot = Bot::Random;

/// The threads a vector environment steps on when none are said.
pub const DEFAULT_THREADS: usize = 1;

/// The most environments one vector environment holds.
pub const MAX_ENVS: usize = 1 << 20;

/// Values per token in the observation: progress, in the yard, home.
pub const TOKEN_FEATURES: usize = 3;

/// The length of the observation vector for `rules`.
pub fn observation_len(rules: &Rules) -> usize {
    MAX_SEATS * rules.tokens as usize * TOKEN_FEATURES + 6 + 2 * MAX_SEATS
}

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// An agent outside the engine: the environment stops when it must choose.
    Agent,
    /// A built-in bot, which plays inside [`LudoEnv::step`].
    Bot(Bot),
}

/// Where an environment stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// An agent's seat must choose a token ([`LudoEnv::to_move`]).
    Decision,
    /// The game is over: every seat has its reward.
    Terminated,
    /// The roll limit cut the episode off (rewards 0).
    Truncated,
    /// No episode runs: the environment is new, or a stop request cut a step or reset
    /// short. Only a reset continues.
    Idle,
}

impl Status {
    /// The status's name: `decision`, `terminated`, `truncated` or `idle`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Decision => "decision",
            Status::Terminated => "terminated",
            Status::Truncated => "truncated",
            Status::Idle => "idle",
        }
    }
}

/// What an environment refuses. A refused call changes nothing.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EnvError {
    /// An action that is not a legal token index now.
    #[error("{}action {action} is not legal now: the legal actions are {legal:?}", in_env(.env))]
    IllegalAction {
        /// The environment of a batch it was given to, if any.
        env: Option<usize>,
        /// The action given.
        action: i64,
        /// The legal actions (token indices).
        legal: Vec<u8>,
    },
    /// A step after the episode ended (or was stopped).
    #[error("{0}: call reset() first")]
    EpisodeOver(&'static str),
    /// A batch argument that does not fit the environments (a count, a length).
    #[error("{0}")]
    InvalidArgument(String),
    /// Bad configuration (rules, players, roles, roll limit).
    #[error(transparent)]
    Config(#[from] LudoError),
    /// Every game a reset played ended before the learner's first decision.
    #[error(
        "{games} games in a row ended before the learner's first decision: \
         max_rolls={max_rolls} is too small for these rules and seats"
    )]
    NoDecision {
        /// The games played out.
        games: u32,
        /// The roll limit of an episode.
        max_rolls: u64,
    },
    /// An action of the opponents' policy ([`BatchOpponent`]) that is not legal.
    #[error("the opponents' policy: {0}")]
    OpponentAction(Box<EnvError>),
    /// A saved environment ([`LudoEnv::snapshot`]) that cannot be read back.
    #[error("not a saved environment: {0}")]
    InvalidSnapshot(String),
    /// An action that is not a whole number (what was given, described by the caller).
    #[error("action {0} is not an int: an action is a token index")]
    NotAnInt(String),
    /// An action too big or too small for a token index's type (as given).
    #[error("action {0} is out of range: an action is a token index")]
    OutOfRange(String),
    /// A batch's actions that are not one whole number per environment (as given).
    #[error("actions must be a 1-D int64 array with one action per environment, not {0}")]
    NotActions(String),
    /// An opponents' policy's answer that is not one whole number per row it was given.
    #[error(
        "the opponents' policy must return {rows} ints (one per row of its observations), \
         not {given}"
    )]
    PolicyAnswer {
        /// The rows of observations it was given.
        rows: usize,
        /// What it returned, described by the caller.
        given: String,
    },
}

/// The most games one reset plays out that end before the learner's first decision
/// before it gives up with [`EnvError::NoDecision`] (only a tiny roll limit comes near).
pub const MAX_GAMES_PER_RESET: u32 = 1_000;

/// The games an environment played out and did not hand out as episodes, because they
/// ended (terminated or truncated) before the learner's first decision, counted since
/// the environment was made.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Skipped {
    /// How many.
    pub games: u64,
    /// Each seat's rewards in them, added up (index: the seat).
    pub rewards: [f32; MAX_SEATS],
}

/// How an environment plays: the rules, the seats and their roles, and the limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvConfig {
    /// The rule set.
    pub rules: Rules,
    /// The seats that play (any order; turns go A, B, C, D).
    pub seats: Vec<Seat>,
    /// For each seat index (0..MAX_SEATS), who plays it (ignored for seats not playing).
    pub roles: [Role; MAX_SEATS],
    /// Play turns with exactly one legal move for the agents.
    pub skip_forced: bool,
    /// The most die rolls in one episode: the episode is truncated after the move of the
    /// last one.
    pub max_rolls: u64,
    /// The agent seat that learns, whose decisions make an episode; the other agent seats
    /// are its opponents, played by a caller's policy ([`LudoEnv::reset_with`]). `None`:
    /// every agent seat learns (the multi-agent case).
    pub learner: Option<Seat>,
}

impl EnvConfig {
    /// Every seat played by agents, no forced-move skipping, at most `max_rolls` rolls.
    pub fn agents(rules: Rules, seats: &[Seat], max_rolls: u64) -> EnvConfig {
        EnvConfig {
            rules,
            seats: seats.to_vec(),
            roles: [Role::Agent; MAX_SEATS],
            skip_forced: false,
            max_rolls,
            learner: None,
        }
    }

    /// The configuration a front end's arguments give: `seats` the seats that play (any
    /// order; `None`: [`DEFAULT_PLAYERS`] of the rules' default seats), `roles` one per
    /// player in turn order (a bot, or `None` for an agent; `None` for all agents),
    /// `max_rolls` (`None`: [`DEFAULT_MAX_ROLLS`]).
    pub fn from_args(
        rules: Rules,
        seats: Option<Vec<Seat>>,
        roles: Option<&[Option<Bot>]>,
        skip_forced: bool,
        max_rolls: Option<u64>,
    ) -> Result<EnvConfig, LudoError> {
        let mut seats = match seats {
            Some(s) => s,
            None => rules.default_seats(DEFAULT_PLAYERS)?,
        };
        seats.sort_unstable();
        let mut config = EnvConfig::agents(rules, &seats, max_rolls.unwrap_or(DEFAULT_MAX_ROLLS));
        config.skip_forced = skip_forced;
        if let Some(roles) = roles {
            if roles.len() != seats.len() {
                return Err(LudoError::InvalidBot(format!(
                    "{} roles for {} players: give one bot name or None per player",
                    roles.len(),
                    seats.len()
                )));
            }
            for (&seat, role) in seats.iter().zip(roles) {
                config.roles[seat] = role.map_or(Role::Agent, Role::Bot);
            }
        }
        Ok(config)
    }

    /// The seat of player number `player` (the seats that play, in turn order).
    pub fn seat_of(&self, player: usize) -> Result<Seat, EnvError> {
        self.seats.get(player).copied().ok_or_else(|| {
            EnvError::InvalidArgument(format!(
                "player must be an int from 0 to {}, not {player}",
                self.seats.len() - 1
            ))
        })
    }

    /// The number of the player at `seat` (turn order); an error for a seat that does not
    /// play.
    pub fn player_of(&self, seat: Seat) -> Result<usize, EnvError> {
        (self.seats.iter().position(|&s| s == seat)).ok_or_else(|| {
            LudoError::PositionNotPlaying(self.rules.seat_labels[seat].to_string()).into()
        })
    }

    /// Does any seat have a bot that searches (and so may take long)?
    pub fn searches(&self) -> bool {
        self.roles
            .iter()
            .any(|r| matches!(r, Role::Bot(b) if b.searches()))
    }

    /// Is `seat` one whose decisions are handed out as the episode's steps?
    #[inline(always)]
    fn learns(&self, seat: Seat) -> bool {
        self.learner.is_none_or(|l| l == seat)
    }
}

/// One environment: a game, its generators, and where the episode stands.
#[derive(Clone, Debug)]
pub struct LudoEnv {
    config: EnvConfig,
    /// The preset the rules are exactly, if any (its geometry is then compiled in).
    preset: Option<u8>,
    /// The game as the first roll of every episode finds it.
    start: Game,
    game: Game,
    /// Draws each episode's die seed and bot seed.
    episodes: Rng,
    bots: Rng,
    rolls: u64,
    status: Status,
    /// Has this episode handed out a decision of a learning seat? An episode that ends
    /// before it does is played out and skipped.
    offered: bool,
    /// The seat of the last decision handed out (the seat to move while one waits).
    actor: Seat,
    /// The last reset gave up ([`EnvError::NoDecision`]).
    starved: bool,
    skipped: Skipped,
}

impl LudoEnv {
    /// A new environment whose episode generator is seeded with `seed`; no episode runs
    /// until [`LudoEnv::reset`] (with or without a seed) starts one.
    pub fn new(config: EnvConfig, seed: u64) -> Result<LudoEnv, EnvError> {
        let start = Game::new(config.rules, &config.seats, 0)?;
        if config.seats.iter().all(|&s| config.roles[s] != Role::Agent) {
            return Err(
                LudoError::InvalidBot("no seat is left for an agent to play".into()).into(),
            );
        }
        let rules = config.rules;
        let preset = [CS162, STANDARD, GT].into_iter().find(|&p| {
            rules
                == match p {
                    CS162 => PresetGeometry::<CS162>::RULES,
                    STANDARD => PresetGeometry::<STANDARD>::RULES,
                    _ => PresetGeometry::<GT>::RULES,
                }
        });
        if let Some(learner) = config.learner
            && (!config.seats.contains(&learner) || config.roles[learner] != Role::Agent)
        {
            return Err(LudoError::InvalidBot(format!(
                "the learner's seat {} must be a playing seat without a bot",
                config.rules.seat_labels[learner]
            ))
            .into());
        }
        Ok(LudoEnv {
            config,
            preset,
            start,
            game: start,
            episodes: Rng::new(seed),
            bots: Rng::new(0),
            rolls: 0,
            status: Status::Idle,
            offered: false,
            actor: start.current_player(),
            starved: false,
            skipped: Skipped::default(),
        })
    }

    /// Start a new episode: with a seed, the episode generator restarts from it; without,
    /// it goes on (so a seeded reset followed by unseeded ones repeats exactly). Plays on to
    /// the first decision of an agent seat (honouring `stop`). A game that ends before any
    /// such decision is not an episode: it is counted in [`LudoEnv::skipped`] and the next
    /// game of the generator starts, up to [`MAX_GAMES_PER_RESET`] games
    /// ([`EnvError::NoDecision`] after that).
    pub fn reset(&mut self, seed: Option<u64>, stop: Option<&Stop>) -> Result<(), EnvError> {
        over_geometry!(self, geo => self.reset_in(geo, seed, stop));
        self.starved_error()
    }

    /// [`LudoEnv::reset`], with the seats of the learner's opponents (agent seats other
    /// than [`EnvConfig::learner`]) played by `opponent`, which gives an action for the
    /// environment and the seat to move: the episode starts at the learner's first
    /// decision, and games that end before it are skipped.
    pub fn reset_with<E: From<EnvError>>(
        &mut self,
        seed: Option<u64>,
        stop: Option<&Stop>,
        mut opponent: impl FnMut(&LudoEnv, Seat) -> Result<i64, E>,
    ) -> Result<(), E> {
        let mut seed = seed;
        for _ in 0..MAX_GAMES_PER_RESET {
            self.reset(seed.take(), stop)?;
            self.play_opponents(stop, &mut opponent)?;
            if !self.ended() || self.offered {
                return Ok(());
            }
            self.skip_episode();
        }
        self.status = Status::Idle;
        self.starved = true;
        Err(self.starved_error().unwrap_err().into())
    }

    /// [`LudoEnv::step`], then the learner's opponents play with `opponent` (as in
    /// [`LudoEnv::reset_with`]) up to the learner's next decision or the end.
    pub fn step_with<E: From<EnvError>>(
        &mut self,
        action: i64,
        stop: Option<&Stop>,
        mut opponent: impl FnMut(&LudoEnv, Seat) -> Result<i64, E>,
    ) -> Result<Status, E> {
        self.step(action, stop)?;
        self.play_opponents(stop, &mut opponent)?;
        Ok(self.status)
    }

    /// Let `opponent` play the seats that do not learn until a learning seat must decide or
    /// the episode ends. A refused action leaves the episode where it is.
    fn play_opponents<E: From<EnvError>>(
        &mut self,
        stop: Option<&Stop>,
        opponent: &mut impl FnMut(&LudoEnv, Seat) -> Result<i64, E>,
    ) -> Result<(), E> {
        while let Some(seat) = self.to_move().filter(|&s| !self.config.learns(s)) {
            let action = opponent(self, seat)?;
            self.step(action, stop)?;
        }
        Ok(())
    }

    /// Has the episode ended (terminated or truncated)?
    #[inline(always)]
    fn ended(&self) -> bool {
        matches!(self.status, Status::Terminated | Status::Truncated)
    }

    /// Count the ended episode as skipped (no learner decision was handed out).
    #[cold]
    fn skip_episode(&mut self) {
        self.skipped.games += 1;
        for &seat in &self.config.seats {
            self.skipped.rewards[seat] += self.reward(seat);
        }
    }

    fn starved_error(&self) -> Result<(), EnvError> {
        if self.starved {
            return Err(EnvError::NoDecision {
                games: MAX_GAMES_PER_RESET,
                max_rolls: self.config.max_rolls,
            });
        }
        Ok(())
    }

    /// [`LudoEnv::reset`] over the geometry `geo` of the game's rules (a reset that gives
    /// up leaves the status [`Status::Idle`] and `starved` set).
    #[inline(always)]
    fn reset_in<G: Geometry>(&mut self, geo: &G, seed: Option<u64>, stop: Option<&Stop>) {
        if let Some(seed) = seed {
            self.episodes = Rng::new(seed);
        }
        self.starved = false;
        for _ in 0..MAX_GAMES_PER_RESET {
            let die = self.episodes.next_u64();
            self.bots = Rng::new(self.episodes.next_u64());
            self.game = self.start;
            self.game.rng = Rng::new(die);
            self.rolls = 0;
            self.offered = false;
            self.advance_in(geo, stop);
            if !self.ended() {
                return;
            }
            self.skip_episode();
        }
        self.status = Status::Idle;
        self.starved = true;
    }

    /// The games played out and skipped since the environment was made (see
    /// [`LudoEnv::reset`]).
    pub fn skipped(&self) -> &Skipped {
        &self.skipped
    }

    /// `f` of each player's seat, by player number (turn order).
    pub fn by_player<T>(&self, f: impl Fn(Seat) -> T) -> Vec<T> {
        self.config.seats.iter().map(|&s| f(s)).collect()
    }

    /// The environment's whole state in one line of text, which [`LudoEnv::restore`] reads
    /// back into an environment of the same configuration: the episode's status, its rolls,
    /// the generators' states, the skipped games, then the game's notation.
    pub fn snapshot(&self) -> String {
        let status = match self.status {
            Status::Decision => 'd',
            Status::Terminated => 't',
            Status::Truncated => 'u',
            Status::Idle => 'i',
        };
        let rewards: Vec<String> = self.skipped.rewards.iter().map(f32::to_string).collect();
        format!(
            "{SNAPSHOT_FORMAT} {status} {} {:016x} {:016x} {} {} {} {} | {}",
            self.rolls,
            self.episodes.state(),
            self.bots.state(),
            u8::from(self.offered),
            self.game.rules().seat_label(self.actor),
            self.skipped.games,
            rewards.join(","),
            self.game.to_notation()
        )
    }

    /// An environment of `config` in the state [`LudoEnv::snapshot`] wrote. The text is
    /// checked: its game must be a valid position of the configuration's rules and seats,
    /// and its status must fit the game.
    pub fn restore(config: EnvConfig, text: &str) -> Result<LudoEnv, EnvError> {
        let bad = |why: &str| EnvError::InvalidSnapshot(why.to_string());
        let (head, notation) = text
            .split_once(" | ")
            .ok_or_else(|| bad("no ' | ' before the game's notation"))?;
        let fields: Vec<&str> = head.split(' ').collect();
        let [
            format,
            status,
            rolls,
            episodes,
            bots,
            offered,
            actor,
            games,
            rewards,
        ] = fields[..]
        else {
            return Err(bad("expected 9 fields before the game's notation"));
        };
        if format != SNAPSHOT_FORMAT {
            return Err(bad(&format!("the format is not {SNAPSHOT_FORMAT}")));
        }
        let hex = |t: &str| u64::from_str_radix(t, 16).map_err(|_| bad("a generator's state"));
        let game = Game::from_notation(notation).map_err(|e| bad(&e.to_string()))?;
        let mut env = LudoEnv::new(config, 0)?;
        if *game.rules() != env.config.rules || !game.seats().eq(env.start.seats()) {
            return Err(bad("the game's rules or seats are not the environment's"));
        }
        env.status = match status {
            "d" => Status::Decision,
            "t" => Status::Terminated,
            "u" => Status::Truncated,
            "i" => Status::Idle,
            _ => return Err(bad("an unknown status")),
        };
        let fits = match env.status {
            Status::Decision => {
                matches!(game.phase(), Phase::Move(_))
                    && env.config.roles[game.current_player()] == Role::Agent
            }
            Status::Terminated => game.is_over(),
            Status::Truncated => !game.is_over(),
            Status::Idle => true,
        };
        if !fits {
            return Err(bad("the status does not fit the game"));
        }
        env.rolls = rolls.parse().map_err(|_| bad("the roll count"))?;
        env.episodes = Rng::new(hex(episodes)?);
        env.bots = Rng::new(hex(bots)?);
        env.offered = match offered {
            "0" => false,
            "1" => true,
            _ => return Err(bad("the offered flag")),
        };
        let mut chars = actor.chars();
        env.actor = match (
            chars.next().and_then(|c| game.rules().seat_of(c)),
            chars.next(),
        ) {
            (Some(seat), None) if env.config.seats.contains(&seat) => seat,
            _ => return Err(bad("the actor's seat")),
        };
        env.skipped.games = games.parse().map_err(|_| bad("the skipped games"))?;
        let rewards: Vec<f32> = rewards
            .split(',')
            .map(|r| r.parse::<f32>().ok().filter(|r| r.is_finite()))
            .collect::<Option<_>>()
            .ok_or_else(|| bad("the skipped rewards"))?;
        env.skipped.rewards = rewards.try_into().map_err(|_| bad("the skipped rewards"))?;
        env.game = game;
        Ok(env)
    }

    /// The configuration.
    pub fn config(&self) -> &EnvConfig {
        &self.config
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The seat of the last decision handed out: the seat to move while a decision waits,
    /// the seat that moved last once the episode has ended.
    pub fn actor(&self) -> Seat {
        self.actor
    }

    /// Where the episode stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Die rolls made in this episode.
    pub fn rolls(&self) -> u64 {
        self.rolls
    }

    /// The seat that must choose, when the status is [`Status::Decision`].
    pub fn to_move(&self) -> Option<Seat> {
        (self.status == Status::Decision).then(|| self.game.current_player())
    }

    /// The legal actions now, as a bit mask of token indices (0 unless a decision waits).
    #[inline]
    pub fn legal_mask(&self) -> u8 {
        match (self.status, self.game.phase()) {
            // The game's pending moves are `legal_moves` as a mask.
            (Status::Decision, Phase::Move(_)) => self.game.pending,
            _ => 0,
        }
    }

    /// Is `action` (a token index) one of the legal actions now? ([`LudoEnv::check`] says
    /// why not.)
    #[inline]
    pub fn accepts(&self, action: i64) -> bool {
        (0..8).contains(&action) && self.legal_mask() & (1 << action) != 0
    }

    /// Check `action` (a token index) against the legal actions, changing nothing.
    pub fn check(&self, action: i64) -> Result<(), EnvError> {
        match self.status {
            Status::Decision => {}
            Status::Terminated => return Err(EnvError::EpisodeOver("the game is over")),
            Status::Truncated => return Err(EnvError::EpisodeOver("the roll limit was reached")),
            Status::Idle => return Err(EnvError::EpisodeOver("no episode is running")),
        }
        if self.accepts(action) {
            return Ok(());
        }
        let mask = self.legal_mask();
        Err(EnvError::IllegalAction {
            env: None,
            action,
            legal: (0..8).filter(|t| mask & (1 << t) != 0).collect(),
        })
    }

    /// Move token `action` of the seat to move, then play on (bots, passes and, with
    /// `skip_forced`, forced moves) to the next decision or the end of the episode. A
    /// refused action changes nothing; a `stop` request leaves the status
    /// [`Status::Idle`].
    pub fn step(&mut self, action: i64, stop: Option<&Stop>) -> Result<Status, EnvError> {
        self.check(action)?;
        self.step_checked(action, stop)
    }

    /// [`LudoEnv::step`] with an action [`LudoEnv::check`] accepted.
    fn step_checked(&mut self, action: i64, stop: Option<&Stop>) -> Result<Status, EnvError> {
        if !matches!(self.game.phase(), Phase::Move(_)) {
            return Err(EnvError::EpisodeOver("no move is awaited"));
        }
        Ok(over_geometry!(self, geo => self.step_in(geo, action, stop)))
    }

    /// [`LudoEnv::step`] over the geometry `geo` of the game's rules, with an action
    /// [`LudoEnv::check`] accepted (a game that awaits no move is left as it is).
    #[inline(always)]
    fn step_in<G: Geometry>(&mut self, geo: &G, action: i64, stop: Option<&Stop>) -> Status {
        let Phase::Move(roll) = self.game.phase() else {
            return self.status;
        };
        let mv = Move {
            seat: self.game.current_player(),
            // Checked: 0 <= action < tokens.
            token: Token::wrapping(action as usize),
            roll,
        };
        // Checked: the move is one of the pending legal moves.
        self.game.apply_move_in(geo, mv, roll);
        self.advance_in(geo, stop);
        self.status
    }

    /// Play on from where the game stands to the next agent decision, the end of the game,
    /// the roll limit or a stop, over the geometry `geo` of the game's rules.
    #[inline(always)]
    fn advance_in<G: Geometry>(&mut self, geo: &G, stop: Option<&Stop>) {
        let limits = Limits {
            max_rolls: self.config.max_rolls.saturating_sub(self.rolls),
            cut_off: CutOff::BeforeRoll,
            stop,
        };
        let (roles, skip, bots) = (&self.config.roles, self.config.skip_forced, &mut self.bots);
        let mut table = Unchecked {
            game: &mut self.game,
            geo,
        };
        // The loop only rolls in the roll phase, and plays only pending moves.
        let Ok(played) = play::play(
            &mut table,
            limits,
            #[inline(always)]
            |g| Ok::<_, Infallible>(choose(g, roles, skip, bots, stop)),
        );
        self.rolls += played.rolls;
        self.status = match played.ending {
            Ending::Over => Status::Terminated,
            Ending::CutOff => Status::Truncated,
            Ending::NoMove if roles[self.game.current_player()] == Role::Agent => {
                self.offered |= self.config.learns(self.game.current_player());
                self.actor = self.game.current_player();
                Status::Decision
            }
            Ending::NoMove | Ending::Stopped => Status::Idle,
        };
    }

    /// The end-of-game reward of `seat`: 0 until the game is over (and on truncation);
    /// then, when every seat is ranked, a linear score from +1 (first) to −1 (last), else
    /// +1 for the winner and −1 for the others.
    pub fn reward(&self, seat: Seat) -> f32 {
        if self.status != Status::Terminated {
            return 0.0;
        }
        let n = self.config.seats.len();
        let full = self.game.rules().end == EndCondition::FullRanking;
        match self.game.ranking().position(|s| s == seat) {
            _ if n == 1 => 1.0,
            Some(rank) if full => 1.0 - 2.0 * rank as f32 / (n - 1) as f32,
            Some(0) => 1.0,
            _ => -1.0,
        }
    }

    /// Write the observation of `observer` into `out` (at least [`observation_len`] values;
    /// see the module documentation for the layout).
    pub fn observe(&self, observer: Seat, out: &mut [f32]) {
        over_geometry!(self, geo => self.observe_in(geo, observer, out));
    }

    /// `seat`'s observation and action mask, new (as [`LudoEnv::observe`] and
    /// [`LudoEnv::action_mask`] write them).
    pub fn observation_and_mask(&self, seat: Seat) -> (Vec<f32>, Vec<i8>) {
        let mut obs = vec![0.0; observation_len(self.game.rules())];
        self.observe(seat, &mut obs);
        let mut mask = vec![0; self.game.rules().tokens as usize];
        self.action_mask(seat, &mut mask);
        (obs, mask)
    }

    /// [`LudoEnv::observe`] over the geometry `geo` of the game's rules: every value is
    /// written (no clearing first), in one pass over the row.
    #[inline(always)]
    fn observe_in<G: Geometry>(&self, geo: &G, observer: Seat, out: &mut [f32]) {
        let rules = geo.rules();
        let per_seat = rules.tokens as usize * TOKEN_FEATURES;
        let (seats_part, tail) = out[..observation_len(rules)].split_at_mut(MAX_SEATS * per_seat);
        let (board, tables) = (self.game.board(), self.game.geo.0);
        // The roll one-hot, then which seats play, then which seat is to move; written in
        // place (a local array written at a variable index and then copied out would make
        // the copy wait for those stores).
        tail.fill(0.0);
        for (k, block) in seats_part.chunks_exact_mut(per_seat).enumerate() {
            let seat = observer.offset(k);
            let plays = board.has_seat(seat);
            tail[6 + k] = f32::from(u8::from(plays));
            let steps = board.seat_steps(seat);
            for (f, &step) in block.chunks_exact_mut(TOKEN_FEATURES).zip(&steps) {
                f.copy_from_slice(if plays {
                    tables.token_features(step)
                } else {
                    &[0.0; TOKEN_FEATURES]
                });
            }
        }
        if self.status == Status::Decision {
            if let Phase::Move(roll) = self.game.phase() {
                tail[(roll as usize).wrapping_sub(1) % 6] = 1.0;
            }
            tail[6 + MAX_SEATS + self.game.current_player().seats_after(observer)] = 1.0;
        }
    }

    /// Write `seat`'s action mask into `out` (one value per token: 1 where moving that
    /// token is legal now, all 0 unless `seat` must choose).
    pub fn action_mask(&self, seat: Seat, out: &mut [i8]) {
        over_geometry!(self, geo => self.action_mask_in(geo, seat, out));
    }

    /// [`LudoEnv::action_mask`] over the geometry `geo` of the game's rules.
    #[inline(always)]
    fn action_mask_in<G: Geometry>(&self, geo: &G, seat: Seat, out: &mut [i8]) {
        let mask = if self.to_move() == Some(seat) {
            self.legal_mask()
        } else {
            0
        };
        for (t, m) in out[..geo.rules().tokens as usize].iter_mut().enumerate() {
            *m = i8::from(mask & (1 << t) != 0);
        }
    }
}

/// The move played for the seat to move in `game` (`None` where an agent must choose):
/// with `skip`, a forced move; else the seat's bot's, drawing from `rng`.
#[inline(always)]
fn choose(
    game: &Game,
    roles: &[Role; MAX_SEATS],
    skip: bool,
    rng: &mut Rng,
    stop: Option<&Stop>,
) -> Option<Move> {
    if skip && game.pending.count_ones() == 1 {
        return game.legal_moves().get(0);
    }
    match roles[game.current_player()] {
        Role::Agent => None,
        Role::Bot(Bot::Random) => game.random_move(rng),
        Role::Bot(bot) => bot_move(bot, game, rng, stop),
    }
}

/// The move of a bot other than the random one (kept out of line: the turn loop of the
/// random bot stays small). A bot that gave no legal move would leave its seat waiting:
/// refused moves are not played (built-in bots always give one).
#[inline(never)]
fn bot_move(bot: Bot, game: &Game, rng: &mut Rng, stop: Option<&Stop>) -> Option<Move> {
    bot.choose_until(game, rng, stop)
        .filter(|mv| game.is_pending(mv))
}

/// "environment i: " for an error of environment `i` of a batch.
fn in_env(env: &Option<usize>) -> String {
    env.map(|i| format!("environment {i}: "))
        .unwrap_or_default()
}

mod pool;
mod vector;

pub use vector::{Autoreset, Batch, BatchOpponent, BotsOnly, Learner, Opponents, VectorEnv};

#[cfg(test)]
mod tests;
