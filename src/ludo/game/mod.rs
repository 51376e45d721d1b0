//! The turn-by-turn game over any rule set: explicit roll and move phases, legal moves,
//! extra rolls, ranking, status texts. [`Game`] is `Copy` (a few dozen bytes), so search and
//! undo copy it freely; [`GameRecord`] adds the history needed for `undo`.

use super::board::{Board, MoveOutcome, Step, in_yard};
use super::error::LudoError;
use super::rng::Rng;
use super::rules::{EndCondition, MAX_SEATS, MAX_TOKENS, OwnTokens, Rules, Seat, SixBonus, Token};
use super::tables::{Fast, Geometry, Tables};

mod moves;
mod record;
mod turn;

pub use moves::{Event, Move, MoveList, Phase, RollResult};
pub use record::GameRecord;

/// How a game of Ludo ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The first player to bring every token home ends it (GT).
    FirstHome,
    /// It goes on until one player is left, so every player is ranked (CS162, standard).
    AllRanked,
}

impl Termination {
    /// Its name: `first_home` or `all_ranked`.
    pub fn name(self) -> &'static str {
        match self {
            Termination::FirstHome => "first_home",
            Termination::AllRanked => "all_ranked",
        }
    }
}

/// How a finished game ended: why, and the finishing order (the winner first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Why it ended.
    pub termination: Termination,
    /// The finishing order: everyone in an all-ranked game, the winner alone in GT.
    pub ranking: Vec<Seat>,
}

impl Outcome {
    /// The winner: the first player home.
    pub fn winner(&self) -> Option<Seat> {
        self.ranking.first().copied()
    }
}
pub(crate) use turn::{GameEnd, Geo, Turn, TurnBuilder, nth_token, random_index, random_token};

/// A game in progress, over any [`Rules`]: small and `Copy`; rolls come from its seeded die.
///
/// ```
/// use ludogame::ludo::{Game, Phase, Rules, Seat};
///
/// let seats: Vec<Seat> = [0, 2].into_iter().filter_map(Seat::new).collect();
/// let mut game = Game::new(Rules::CS162, &seats, 7).unwrap();
/// assert_eq!(game.phase(), Phase::Roll);
/// game.roll_die().unwrap();
/// // with a roll of 6 a token may enter; otherwise the turn passes
/// if let Phase::Move(roll) = game.phase() {
///     let mv = game.legal_moves().get(0).unwrap();
///     assert_eq!(mv.roll, roll);
///     game.play(mv).unwrap();
/// }
/// // the notation round-trips the whole position
/// assert_eq!(Game::from_notation(&game.to_notation()).unwrap(), game);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    pub(crate) rules: Rules,
    pub(crate) geo: Geo,
    pub(crate) board: Board,
    pub(crate) turn: Turn,
    pub(crate) rng: Rng,
    /// The tokens the current player may move while a move is awaited (one per piece, a
    /// stack by its lowest token; computed once, when the roll is made).
    pub(crate) pending: u8,
}

impl Game {
    /// A new game with `seats` playing (any order; turns go A, B, C, D), every token in its
    /// yard, the first seat to roll, and the die seeded with `seed`.
    pub fn new(rules: Rules, seats: &[Seat], seed: u64) -> Result<Game, LudoError> {
        rules.validate()?;
        if seats.is_empty() {
            return Err(LudoError::NoPlayers);
        }
        if seats.len() > MAX_SEATS {
            return Err(LudoError::TooManyPlayers(seats.len()));
        }
        let mut mask = 0u8;
        for &seat in seats {
            if mask & seat.bit() != 0 {
                return Err(LudoError::DuplicatePosition(
                    rules.seat_label(seat).to_string(),
                ));
            }
            mask |= seat.bit();
        }
        Ok(Game {
            rules,
            geo: Geo(Tables::of(&rules)),
            board: Board::new(&rules, mask),
            turn: Turn::new(mask),
            rng: Rng::new(seed),
            pending: 0,
        })
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The rules with their route tables, for the board's functions.
    #[inline]
    pub fn geometry(&self) -> Fast<'_> {
        Fast {
            rules: &self.rules,
            tables: self.geo.0,
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The seats that play, in turn order.
    pub fn seats(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::ALL.into_iter().filter(|&s| self.board.has_seat(s))
    }

    /// Whose turn it is (the last mover once the game is over).
    pub fn current_player(&self) -> Seat {
        self.turn.current
    }

    /// What the game waits for.
    pub fn phase(&self) -> Phase {
        self.turn.phase
    }

    /// Is the game over?
    pub fn is_over(&self) -> bool {
        self.turn.is_over()
    }

    /// The first player to bring all tokens home, if any.
    pub fn winner(&self) -> Option<Seat> {
        (self.turn.ranked > 0).then(|| Seat::wrapping(self.turn.ranking[0] as usize))
    }

    /// The finishing order so far (complete once a full-ranking game is over).
    pub fn ranking(&self) -> impl Iterator<Item = Seat> + '_ {
        self.turn.ranking[..self.turn.ranked as usize]
            .iter()
            .map(|&s| Seat::wrapping(s as usize))
    }

    /// How the game ended (as python-chess's `outcome()`), or `None` while it goes on.
    ///
    /// ```
    /// use ludogame::ludo::{Game, Rules, Seat, game::Termination};
    ///
    /// let seats: Vec<Seat> = [0, 2].into_iter().filter_map(Seat::new).collect();
    /// let mut game = Game::new(Rules::CS162, &seats, 3).unwrap();
    /// assert!(game.outcome().is_none());
    /// while !game.is_over() {
    ///     game.roll_die().unwrap();
    ///     if let Some(mv) = game.legal_moves().get(0) {
    ///         game.play(mv).unwrap();
    ///     }
    /// }
    /// let outcome = game.outcome().unwrap();
    /// assert_eq!(outcome.termination, Termination::AllRanked);
    /// assert_eq!(outcome.winner(), game.winner());
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let termination = match self.rules.end {
            EndCondition::FirstWinner => Termination::FirstHome,
            EndCondition::FullRanking => Termination::AllRanked,
        };
        Some(Outcome {
            termination,
            ranking: self.ranking().collect(),
        })
    }

    /// Has `seat` brought every token home?
    pub fn is_finished(&self, seat: Seat) -> bool {
        self.turn.done & seat.bit() != 0
    }

    /// The die's state.
    pub fn rng(&self) -> Rng {
        self.rng
    }

    /// 6s in a row in the current turn, and whether the next roll is an extra roll.
    pub fn turn_counters(&self) -> (u8, bool) {
        (self.turn.sixes, self.turn.extra)
    }

    /// The player whose turn passed without a move just before this roll phase, if any,
    /// and whether by forfeit (six limit).
    pub fn passed(&self) -> Option<(Seat, bool)> {
        self.turn
            .passed_seat()
            .map(|seat| (seat, self.turn.passed_by_forfeit))
    }

    /// The legal moves of `seat` with `roll`, one per piece (a stack is one piece).
    pub fn moves_for(&self, seat: Seat, roll: u8) -> MoveList {
        MoveList::of_mask(seat, roll, self.movable(seat, roll))
    }

    /// Bit mask of the tokens of `seat` that can move with `roll`, one per piece (a stack
    /// by its lowest token).
    #[inline]
    fn movable(&self, seat: Seat, roll: u8) -> u8 {
        self.movable_in(&self.geometry(), seat, roll)
    }

    /// [`Game::movable`] over the geometry `g` (the game's own rules, maybe as constants).
    #[inline(always)]
    pub(crate) fn movable_in<G: Geometry>(&self, g: &G, seat: Seat, roll: u8) -> u8 {
        let r = g.rules();
        let n = r.tokens as usize;
        let steps = self.board.seat_steps(seat);
        let mut mask = 0u8;
        let mut yard = 0u8;
        for (t, &step) in steps[..n].iter().enumerate() {
            yard |= (in_yard(step) as u8) << t;
            let ok = if r.own_tokens == OwnTokens::Block {
                self.board
                    .target(g, seat, Token::wrapping(t), roll)
                    .is_some()
            } else {
                g.route_target(step, roll).is_some()
            };
            mask |= (ok as u8) << t;
        }
        if r.forced_entry && roll == r.enter_roll && yard != 0 {
            mask &= yard;
        }
        if r.own_tokens == OwnTokens::Stack {
            // A stack moves as one piece, named by its lowest token: drop every token with
            // a lower mate on its square (mates share the step, so they are movable alike;
            // yard tokens never stack).
            let mut drop = 0u8;
            for t in 1..n {
                let step = steps[t];
                let stackable = r.can_stack_at(step);
                let lower = steps[..t].iter().fold(false, |acc, &s| acc | (s == step));
                drop |= ((stackable && lower) as u8) << t;
            }
            mask &= !drop;
        }
        mask
    }

    /// The legal moves now (empty unless a move is awaited).
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        match self.turn.phase {
            Phase::Move(roll) => MoveList::of_mask(self.turn.current, roll, self.pending),
            _ => MoveList::default(),
        }
    }

    /// A legal move picked uniformly at random with `rng` (which is not drawn from when
    /// there is only one), or `None` unless a move is awaited.
    #[inline]
    pub fn random_move(&self, rng: &mut Rng) -> Option<Move> {
        let Phase::Move(roll) = self.turn.phase else {
            return None;
        };
        let token = random_token(self.pending, rng)?;
        Some(Move {
            seat: self.turn.current,
            token,
            roll,
        })
    }

    /// Is `mv` one of the legal moves now (in its normal form)?
    #[inline]
    pub(crate) fn is_pending(&self, mv: &Move) -> bool {
        matches!(self.turn.phase, Phase::Move(roll) if roll == mv.roll)
            && mv.seat == self.turn.current
            && self.pending & mv.token.bit() != 0
    }

    /// Bit mask of the tokens the current player may move now (every token of a stack).
    pub fn tokens_to_move(&self) -> u8 {
        let seat = self.turn.current;
        self.legal_moves().iter().fold(0, |mask, mv| {
            mask | if in_yard(self.board.step(seat, mv.token)) {
                mv.token.bit()
            } else {
                self.board.piece_mask(&self.rules, seat, mv.token)
            }
        })
    }

    /// Roll the seeded die.
    pub fn roll_die(&mut self) -> Result<Event, LudoError> {
        self.check_can_roll()?;
        let mut rng = self.rng;
        let value = rng.die();
        let event = self.roll_value(value, true)?;
        self.rng = rng;
        Ok(event)
    }

    fn check_can_roll(&self) -> Result<(), LudoError> {
        match self.turn.phase {
            Phase::Roll => Ok(()),
            Phase::Over => Err(LudoError::GameOver),
            Phase::Move(roll) => Err(LudoError::IllegalMove(format!(
                "player {} rolled a {roll} and must move before rolling again",
                self.rules.seat_label(self.turn.current)
            ))),
        }
    }

    /// Roll a given value (for replays and tests).
    pub fn roll(&mut self, value: u8) -> Result<Event, LudoError> {
        self.roll_value(value, false)
    }

    fn roll_value(&mut self, value: u8, die: bool) -> Result<Event, LudoError> {
        self.check_can_roll()?;
        if !(1..=6).contains(&value) {
            return Err(LudoError::InvalidRoll(value.to_string()));
        }
        let seat = self.turn.current;
        let result = self.apply_roll(value);
        Ok(Event::Roll {
            seat,
            value,
            result,
            die,
        })
    }

    /// Roll the seeded die in the roll phase (the caller checked the phase).
    #[inline(always)]
    pub(crate) fn apply_die_in<G: Geometry>(&mut self, g: &G) -> RollResult {
        let value = self.rng.die();
        self.apply_roll_in(g, value)
    }

    /// A roll of `value` (1–6) in the roll phase: the checks are the caller's.
    #[inline]
    fn apply_roll(&mut self, value: u8) -> RollResult {
        let rules = self.rules;
        let g = self.fast_with(&rules);
        self.apply_roll_in(&g, value)
    }

    /// [`Game::apply_roll`] over the geometry `g`.
    #[inline(always)]
    fn apply_roll_in<G: Geometry>(&mut self, g: &G, value: u8) -> RollResult {
        let playing = self.board.seat_mask();
        if !self.turn.begin_roll(g.rules(), playing, value) {
            return RollResult::Forfeit;
        }
        self.pending = self.movable_in(g, self.turn.current, value);
        if self.pending == 0 {
            self.turn.cannot_move(g.rules(), playing, value);
            RollResult::CannotMove
        } else {
            self.turn.await_move(value);
            RollResult::ToMove
        }
    }

    /// The game's tables with `rules`, a copy of the game's rules (so that the game can
    /// change while the geometry is borrowed).
    #[inline(always)]
    fn fast_with<'a>(&self, rules: &'a Rules) -> Fast<'a> {
        Fast {
            rules,
            tables: self.geo.0,
        }
    }

    /// Play a move (it must be one of [`Game::legal_moves`]; any token of a stack names the
    /// stack).
    pub fn play(&mut self, mv: Move) -> Result<Event, LudoError> {
        let roll = match self.turn.phase {
            Phase::Move(roll) => roll,
            Phase::Over => return Err(LudoError::GameOver),
            Phase::Roll => {
                return Err(LudoError::IllegalMove(format!(
                    "player {} must roll the die before moving",
                    self.rules.seat_label(self.turn.current)
                )));
            }
        };
        // Moves taken from `legal_moves` are already in their normal form.
        let mv = if self.is_pending(&mv) {
            mv
        } else {
            self.normalise(mv)
        };
        if !self.is_pending(&mv) {
            return Err(LudoError::IllegalMove(format!(
                "{} is not a legal move now (legal: {})",
                self.move_name(&mv),
                self.legal_moves()
                    .iter()
                    .map(|m| self.move_name(&m))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        Ok(self.apply_move(mv, roll))
    }

    /// Play `mv`, one of the pending legal moves, with the pending `roll` (the checks are
    /// the caller's).
    #[inline]
    pub(crate) fn apply_move(&mut self, mv: Move, roll: u8) -> Event {
        let rules = self.rules;
        let g = self.fast_with(&rules);
        self.apply_move_in(&g, mv, roll)
    }

    /// [`Game::apply_move`] over the geometry `g`.
    #[inline(always)]
    pub(crate) fn apply_move_in<G: Geometry>(&mut self, g: &G, mv: Move, roll: u8) -> Event {
        let seat = mv.seat;
        let r = g.rules();
        let outcome = self.board.apply(g, seat, mv.token, roll);
        // Only a move that brings a token home can finish the seat.
        let finished = outcome.reached_home && self.board.is_finished(r, seat);
        self.pending = 0;
        // Only the current player's moves are ever pending.
        debug_assert_eq!(seat, self.turn.current);
        let extra_roll = self.turn.after_move(
            r,
            self.board.seat_mask(),
            roll,
            finished,
            outcome.captured_any(),
            outcome.reached_home,
        );
        Event::Move {
            mv,
            outcome,
            extra_roll,
            finished,
        }
    }

    /// A move naming any token of a stack names the stack's lowest token.
    fn normalise(&self, mut mv: Move) -> Move {
        if mv.token.index() < self.rules.tokens as usize
            && !in_yard(self.board.step(mv.seat, mv.token))
        {
            let mask = self.board.piece_mask(&self.rules, mv.seat, mv.token);
            mv.token = Token::lowest_in(mask);
        }
        mv
    }

    /// A move's name: the token's label, prefixed by the seat's unless the label already
    /// names the seat (GT's `A`/`a`).
    pub fn move_name(&self, mv: &Move) -> String {
        self.rules.token_name(mv.seat, mv.token)
    }

    /// `mv`, a move made for a game of `rules` and named `name` there, as a move of this
    /// game: refused when the rule sets differ (its token numbers mean other tokens here).
    pub fn own_move(&self, mv: Move, rules: &Rules, name: &str) -> Result<Move, LudoError> {
        if *rules != self.rules {
            return Err(LudoError::IllegalMove(format!(
                "{name} is a move of a {rules} game, not of this {} game",
                self.rules
            )));
        }
        Ok(mv)
    }

    /// The labels of the tokens that may move now (every token of a stack).
    pub fn token_labels_to_move(&self) -> Vec<char> {
        let (seat, mask) = (self.turn.current, self.tokens_to_move());
        (self.rules.all_tokens())
            .filter(|t| mask & t.bit() != 0)
            .map(|t| self.rules.token_label(seat, t))
            .collect()
    }

    /// Each playing seat's label with its tokens' step counts.
    pub fn steps_by_seat(&self) -> Vec<(char, Vec<Step>)> {
        let tokens = self.rules.tokens as usize;
        (self.seats())
            .map(|s| {
                (
                    self.rules.seat_label(s),
                    self.board.seat_steps(s)[..tokens].to_vec(),
                )
            })
            .collect()
    }

    /// Each playing seat's label with its tokens' squares by the board's names
    /// ([`Rules::square_name`]).
    pub fn squares_by_seat(&self) -> Vec<(char, Vec<String>)> {
        let tokens = self.rules.tokens as usize;
        let names = |s: Seat| -> Vec<String> {
            let steps = self.board.seat_steps(s);
            let name = |&step: &Step| self.rules.square_name(s, step);
            steps[..tokens].iter().map(name).collect()
        };
        (self.seats())
            .map(|s| (self.rules.seat_label(s), names(s)))
            .collect()
    }

    /// Read a move name: the token alone (`p`, `1`, GT's `A`/`a`) for the current player, or
    /// seat and token (`Ap`, `C3`). The roll is the pending roll (0 when none is pending).
    pub fn parse_move(&self, name: &str) -> Result<Move, LudoError> {
        let r = &self.rules;
        let roll = match self.turn.phase {
            Phase::Move(roll) => roll,
            _ => 0,
        };
        let chars: Vec<char> = name.chars().collect();
        let found = match (chars.as_slice(), r.token_names) {
            ([c], super::rules::TokenNames::SeatCase) => r
                .seat_of(c.to_ascii_uppercase())
                .and_then(|seat| r.token_of(seat, *c).map(|t| (seat, t))),
            ([c], _) => {
                let seat = self.turn.current;
                r.token_of(seat, *c).map(|t| (seat, t))
            }
            ([s, c], super::rules::TokenNames::Fixed(_)) => r
                .seat_of(*s)
                .and_then(|seat| r.token_of(seat, *c).map(|t| (seat, t))),
            _ => None,
        };
        let (seat, token) = found.ok_or_else(|| {
            LudoError::IllegalMove(format!("'{name}' names no token of this game"))
        })?;
        Ok(Move { seat, token, roll })
    }

    /// The status line, in the GT game's words.
    pub fn status(&self) -> String {
        let label = |s: Seat| self.rules.seat_label(s);
        let cur = label(self.turn.current);
        match self.turn.phase {
            Phase::Over => format!(
                "Player {} has won!",
                label(self.winner().unwrap_or_default())
            ),
            Phase::Move(_) => format!("Player {cur} to move."),
            Phase::Roll => match self.passed() {
                Some((p, false)) => {
                    format!(
                        "Player {} cannot move. Player {cur} to roll the die.",
                        label(p)
                    )
                }
                Some((p, true)) => format!(
                    "Player {} rolled too many 6s and forfeits the turn. Player {cur} to roll the die.",
                    label(p)
                ),
                None => format!("Player {cur} to roll the die."),
            },
        }
    }

    /// Put a token at a step count directly (for tests and positions set up by hand).
    pub fn set_step(&mut self, seat: Seat, token: Token, step: Step) {
        self.board.set_step(seat, token, step);
        self.refresh_pending();
    }

    /// Recompute what is cached from the board (finished seats, legal moves) after the
    /// position was changed directly.
    pub(crate) fn refresh_pending(&mut self) {
        self.turn.done = Seat::ALL
            .into_iter()
            .filter(|&s| self.board.has_seat(s) && self.board.is_finished(&self.rules, s))
            .fold(0, |m, s| m | s.bit());
        self.pending = match self.turn.phase {
            Phase::Move(roll) => self.movable(self.turn.current, roll),
            _ => 0,
        };
    }
}

#[cfg(test)]
mod tests;
