//! The turn-by-turn game over any rule set: explicit roll and move phases, legal moves,
//! extra rolls, ranking, status texts. [`Game`] is `Copy` (a few dozen bytes), so search and
//! undo copy it freely; [`GameRecord`] adds the history needed for `undo`.

use super::board::{Board, MoveOutcome, Step, in_yard};
use super::error::LudoError;
use super::rng::Rng;
use super::rules::{EndCondition, MAX_SEATS, MAX_TOKENS, OwnTokens, Rules, Seat, SixBonus};
use super::tables::{Fast, Geometry, Tables};

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The current player rolls the die.
    Roll,
    /// The current player moves one of the offered tokens with this roll.
    Move(u8),
    /// The game is over.
    Over,
}

/// A move: a token of a seat, moved by a roll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move {
    /// The moving seat.
    pub seat: u8,
    /// The token index (for a stack, its lowest token).
    pub token: u8,
    /// The roll it moves by.
    pub roll: u8,
}

/// Up to [`MAX_TOKENS`] moves, without allocating.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveList {
    moves: [Move; MAX_TOKENS],
    len: u8,
}

impl MoveList {
    /// The moves of `seat` with `roll` of the tokens in `mask` (token order).
    #[inline]
    pub fn of_mask(seat: Seat, roll: u8, mask: u8) -> MoveList {
        let mut list = MoveList::default();
        let mut rest = mask;
        for slot in list.moves.iter_mut() {
            if rest == 0 {
                break;
            }
            *slot = Move {
                seat: seat as u8,
                token: rest.trailing_zeros() as u8,
                roll,
            };
            rest &= rest - 1;
            list.len += 1;
        }
        list
    }

    /// The `i`-th move, if there is one.
    #[inline]
    pub fn get(&self, i: usize) -> Option<Move> {
        self.moves[..self.len as usize].get(i).copied()
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// No moves?
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves, in token order.
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves[..self.len as usize].iter().copied()
    }

    /// Is `mv` one of them?
    pub fn contains(&self, mv: &Move) -> bool {
        self.iter().any(|m| m == *mv)
    }
}

/// What a roll led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RollResult {
    /// The player now moves.
    ToMove,
    /// No token can move: the turn passes (or the same player rolls again after a 6).
    CannotMove,
    /// The six limit was reached: the roll is not played and the turn passes.
    Forfeit,
}

/// One step of a game's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A die roll.
    Roll {
        /// Who rolled.
        seat: u8,
        /// The value.
        value: u8,
        /// What happened.
        result: RollResult,
        /// The value came from the seeded die (not given by the caller).
        die: bool,
    },
    /// A move.
    Move {
        /// The move.
        mv: Move,
        /// What it did.
        outcome: MoveOutcome,
        /// The mover rolls again.
        extra_roll: bool,
        /// The mover brought its last token home.
        finished: bool,
    },
}

pub(crate) const NONE: u8 = u8::MAX;

/// For each mask of seats still playing and each seat, the next seat after it, going
/// round, in the mask (the seat itself when the mask has no other).
const NEXT_SEAT: [[u8; MAX_SEATS]; 16] = {
    let mut out = [[0u8; MAX_SEATS]; 16];
    let mut m = 0;
    while m < 16 {
        let mut seat = 0;
        while seat < MAX_SEATS {
            out[m][seat] = seat as u8;
            let mut k = 1;
            while k <= MAX_SEATS {
                let s = (seat + k) % MAX_SEATS;
                if m & (1 << s) != 0 {
                    out[m][seat] = s as u8;
                    break;
                }
                k += 1;
            }
            seat += 1;
        }
        m += 1;
    }
    out
};

/// For each mask of four tokens, how many tokens it has (a table: the wheel is built for
/// any x86-64, which need not have a popcount instruction).
const TOKEN_COUNT: [u8; 16] = {
    let mut out = [0u8; 16];
    let mut m = 0;
    while m < 16 {
        out[m] = (m as u8).count_ones() as u8;
        m += 1;
    }
    out
};

/// For each mask of four tokens, its `k`-th token (lowest first).
const NTH_TOKEN: [[u8; 4]; 16] = {
    let mut out = [[0u8; 4]; 16];
    let mut m = 0;
    while m < 16 {
        let (mut t, mut k) = (0, 0);
        while t < 4 {
            if m & (1 << t) != 0 {
                out[m][k] = t as u8;
                k += 1;
            }
            t += 1;
        }
        m += 1;
    }
    out
};

/// The route tables of a game's rules. They follow from the rules, so they take no part in
/// comparing or hashing games.
#[derive(Clone, Copy)]
pub(crate) struct Geo(pub(crate) &'static Tables);

impl PartialEq for Geo {
    fn eq(&self, _: &Geo) -> bool {
        true
    }
}

impl Eq for Geo {}

impl std::hash::Hash for Geo {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl std::fmt::Debug for Geo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tables")
    }
}

/// The turn: whose it is, what it waits for, the 6s and extra rolls, the seats done and
/// their ranking. A small value of its own, so that a simulation can keep it in registers;
/// its methods are the turn rules, shared by [`Game`] and the compiled simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Turn {
    /// Bit mask of the seats whose tokens are all home (follows from the board).
    pub(crate) done: u8,
    /// The seat whose turn it is (the last mover once the game is over).
    pub(crate) current: u8,
    /// What the game waits for.
    pub(crate) phase: Phase,
    /// 6s rolled in a row in this turn.
    pub(crate) sixes: u8,
    /// The next (or pending) roll is an extra roll.
    pub(crate) extra: bool,
    /// The finishing order: the first `ranked` entries are seats, the rest [`NONE`].
    pub(crate) ranking: [u8; MAX_SEATS],
    /// How many seats `ranking` holds.
    pub(crate) ranked: u8,
    /// Whose turn just passed without a move ([`NONE`] if none), for the status text.
    pub(crate) passed: u8,
    /// That turn passed by forfeit (the six limit) rather than for want of a move.
    pub(crate) passed_by_forfeit: bool,
}

impl Turn {
    /// The turn of a new game of the seats in `playing`: the first of them rolls.
    pub(crate) fn new(playing: u8) -> Turn {
        Turn {
            done: 0,
            current: playing.trailing_zeros() as u8,
            phase: Phase::Roll,
            sixes: 0,
            extra: false,
            ranking: [NONE; MAX_SEATS],
            ranked: 0,
            passed: NONE,
            passed_by_forfeit: false,
        }
    }

    /// Is the game over?
    #[inline(always)]
    pub(crate) fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The turn's bookkeeping for a roll of `value`, before its moves are known: 6s are
    /// counted, and the roll that reaches the six limit forfeits the turn (`false`).
    #[inline(always)]
    pub(crate) fn begin_roll(&mut self, rules: &Rules, playing: u8, value: u8) -> bool {
        self.passed = NONE;
        self.passed_by_forfeit = false;
        // A 6 counts on, anything else resets (no branch: the value is the die's).
        self.sixes = self.sixes.saturating_add(1) & 0u8.wrapping_sub((value == 6) as u8);
        let limit = rules.six_limit;
        let forfeit = value == 6 && limit > 0 && self.sixes >= limit;
        if forfeit {
            self.end_turn(playing, Some(true));
        }
        !forfeit
    }

    /// The roll `value` allows the current player no move: a 6 may give another roll,
    /// otherwise the turn passes.
    #[inline(always)]
    pub(crate) fn cannot_move(&mut self, rules: &Rules, playing: u8, value: u8) {
        if six_gives_roll(rules, self.extra, value) {
            self.extra = true;
            self.passed = self.current;
        } else {
            self.end_turn(playing, Some(false));
        }
    }

    /// After the current player moved with `roll` (`playing` is the mask of the game's
    /// seats): a seat that `finished` is ranked (which may end the game) and the turn passes;
    /// otherwise a 6, a capture or a token brought home may give another roll (by the rules),
    /// or the turn passes. Returns whether it rolls again.
    #[inline(always)]
    pub(crate) fn after_move(
        &mut self,
        rules: &Rules,
        playing: u8,
        roll: u8,
        finished: bool,
        captured: bool,
        reached_home: bool,
    ) -> bool {
        let seat = self.current as Seat;
        if finished {
            self.done |= 1 << (seat & (MAX_SEATS - 1));
            self.rank(rules, playing, seat);
            self.end_turn(playing, None);
            return false;
        }
        let extra_roll = six_gives_roll(rules, self.extra, roll)
            || (rules.capture_bonus && captured)
            || (rules.finish_bonus && reached_home);
        if extra_roll {
            self.phase = Phase::Roll;
            self.extra = true;
        } else {
            self.end_turn(playing, None);
        }
        extra_roll
    }

    /// The turn passes to the next seat that still plays. `playing` is the mask of the
    /// game's seats; `passed` says whether it passed without a move (`Some(forfeit)`), for
    /// the status text.
    #[inline(always)]
    fn end_turn(&mut self, playing: u8, passed: Option<bool>) {
        let seat = self.current;
        self.sixes = 0;
        self.extra = false;
        if self.phase == Phase::Over {
            return;
        }
        self.phase = Phase::Roll;
        let active = playing & !self.done;
        self.current = NEXT_SEAT[active as usize & 0xF][seat as usize & (MAX_SEATS - 1)];
        if let Some(forfeit) = passed {
            self.passed = seat;
            self.passed_by_forfeit = forfeit;
        }
    }

    /// `seat` (in `playing`) brought its last token home: it takes the next place, and the
    /// game may end.
    #[inline(always)]
    fn rank(&mut self, rules: &Rules, playing: u8, seat: Seat) {
        self.push_ranked(seat as u8);
        let left = playing & !self.done;
        let over = match rules.end {
            EndCondition::FirstWinner => true,
            EndCondition::FullRanking => left.count_ones() <= 1 || playing.count_ones() == 1,
        };
        if over {
            if rules.end == EndCondition::FullRanking {
                for s in (0..MAX_SEATS).filter(|&s| left & (1 << s) != 0) {
                    self.push_ranked(s as u8);
                }
            }
            self.phase = Phase::Over;
        }
    }

    /// Append `seat` to the ranking (which holds every seat at most once: a push past
    /// [`MAX_SEATS`], possible only on a position set up by hand, is ignored). Written on the
    /// ranking as one word: an array store at a variable index would keep the turn in memory.
    #[inline(always)]
    pub(crate) fn push_ranked(&mut self, seat: u8) {
        debug_assert!((self.ranked as usize) < MAX_SEATS, "a fifth ranked seat");
        if self.ranked as usize >= MAX_SEATS {
            return;
        }
        let shift = 8 * self.ranked as u32;
        let word = u32::from_le_bytes(self.ranking);
        let word = (word & !(0xFF << shift)) | (seat as u32) << shift;
        self.ranking = word.to_le_bytes();
        self.ranked += 1;
    }
}

/// A game in progress, over any [`Rules`].
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
            if seat >= MAX_SEATS {
                return Err(LudoError::InvalidPosition(seat.to_string()));
            }
            if mask & (1 << seat) != 0 {
                return Err(LudoError::DuplicatePosition(
                    rules.seat_labels[seat].to_string(),
                ));
            }
            mask |= 1 << seat;
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
        (0..MAX_SEATS).filter(|&s| self.board.has_seat(s))
    }

    /// Whose turn it is (the last mover once the game is over).
    pub fn current_player(&self) -> Seat {
        self.turn.current as Seat
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
        (self.turn.ranked > 0).then(|| self.turn.ranking[0] as Seat)
    }

    /// The finishing order so far (complete once a full-ranking game is over).
    pub fn ranking(&self) -> impl Iterator<Item = Seat> + '_ {
        self.turn.ranking[..self.turn.ranked as usize]
            .iter()
            .map(|&s| s as Seat)
    }

    /// Has `seat` brought every token home?
    pub fn is_finished(&self, seat: Seat) -> bool {
        seat < MAX_SEATS && self.turn.done & (1 << seat) != 0
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
        (self.turn.passed != NONE)
            .then_some((self.turn.passed as Seat, self.turn.passed_by_forfeit))
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
                self.board.target(g, seat, t, roll).is_some()
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
            Phase::Move(roll) => MoveList::of_mask(self.turn.current as Seat, roll, self.pending),
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
            && mv.token < 8
            && self.pending & (1 << mv.token) != 0
    }

    /// Bit mask of the tokens the current player may move now (every token of a stack).
    pub fn tokens_to_move(&self) -> u8 {
        let seat = self.turn.current as Seat;
        self.legal_moves().iter().fold(0, |mask, mv| {
            mask | if in_yard(self.board.step(seat, mv.token as usize)) {
                1 << mv.token
            } else {
                self.board.piece_mask(&self.rules, seat, mv.token as usize)
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
                self.rules.seat_labels[self.turn.current as usize]
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
        self.pending = self.movable_in(g, self.turn.current as Seat, value);
        if self.pending == 0 {
            self.turn.cannot_move(g.rules(), playing, value);
            RollResult::CannotMove
        } else {
            self.turn.phase = Phase::Move(value);
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
                    self.rules.seat_labels[self.turn.current as usize]
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
        let seat = mv.seat as Seat;
        let r = g.rules();
        let outcome = self.board.apply(g, seat, mv.token as usize, roll);
        // Only a move that brings a token home can finish the seat.
        let finished = outcome.reached_home && self.board.is_finished(r, seat);
        self.pending = 0;
        // Only the current player's moves are ever pending.
        debug_assert_eq!(seat, self.turn.current as Seat);
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
        let n = self.rules.tokens as usize;
        if (mv.seat as usize) < MAX_SEATS && (mv.token as usize) < n {
            let seat = mv.seat as Seat;
            if !in_yard(self.board.step(seat, mv.token as usize)) {
                let mask = self.board.piece_mask(&self.rules, seat, mv.token as usize);
                mv.token = mask.trailing_zeros() as u8;
            }
        }
        mv
    }

    /// A move's name: the token's label, prefixed by the seat's unless the label already
    /// names the seat (GT's `A`/`a`).
    pub fn move_name(&self, mv: &Move) -> String {
        let r = &self.rules;
        let seat = (mv.seat as usize).min(MAX_SEATS - 1);
        let token = (mv.token as usize).min(MAX_TOKENS - 1);
        let label = r.token_label(seat, token);
        match r.token_names {
            super::rules::TokenNames::SeatCase => label.to_string(),
            super::rules::TokenNames::Fixed(_) => format!("{}{}", r.seat_labels[seat], label),
        }
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
                let seat = self.turn.current as Seat;
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
        Ok(Move {
            seat: seat as u8,
            token: token as u8,
            roll,
        })
    }

    /// The status line, in the GT game's words.
    pub fn status(&self) -> String {
        let label = |s: Seat| self.rules.seat_labels[s];
        let cur = label(self.turn.current as Seat);
        match self.turn.phase {
            Phase::Over => format!("Player {} has won!", label(self.winner().unwrap_or(0))),
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
    pub fn set_step(&mut self, seat: Seat, token: usize, step: Step) {
        self.board.set_step(seat, token, step);
        self.refresh_pending();
    }

    /// Recompute what is cached from the board (finished seats, legal moves) after the
    /// position was changed directly.
    pub(crate) fn refresh_pending(&mut self) {
        self.turn.done = (0..MAX_SEATS)
            .filter(|&s| self.board.has_seat(s) && self.board.is_finished(&self.rules, s))
            .fold(0, |m, s| m | 1 << s);
        self.pending = match self.turn.phase {
            Phase::Move(roll) => self.movable(self.turn.current as Seat, roll),
            _ => 0,
        };
    }
}

/// The token a random bot moves, among the tokens of `mask` (lowest first), drawing from
/// `rng` only when there is a choice; `None` for an empty mask.
#[inline(always)]
pub(crate) fn random_token(mask: u8, rng: &mut Rng) -> Option<u8> {
    let n = TOKEN_COUNT[mask as usize & 0xF] as u32;
    if n == 0 {
        return None;
    }
    Some(nth_token(mask, random_index(n, rng)))
}

/// The `k`-th token of `mask` (lowest first; `k` below the mask's token count).
#[inline(always)]
pub(crate) fn nth_token(mask: u8, k: u32) -> u8 {
    NTH_TOKEN[mask as usize & 0xF][k as usize & 3]
}

/// Which of `n` moves a random bot plays (`0..n`): drawn from `rng` only when there is a
/// choice. (The one draw rule: [`random_token`] and the compiled simulation use it.)
#[inline(always)]
pub(crate) fn random_index(n: u32, rng: &mut Rng) -> u32 {
    if n > 1 { rng.below(n) } else { 0 }
}

/// Does a roll of `value` give another roll, when `extra` says whether it was an extra roll?
#[inline(always)]
fn six_gives_roll(rules: &Rules, extra: bool, value: u8) -> bool {
    value == 6
        && match rules.six_bonus {
            SixBonus::Never => false,
            SixBonus::Once => !extra,
            SixBonus::Always => true,
        }
}

/// A game with its history: every event and the state before it, for `undo`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameRecord {
    pub(crate) start: Game,
    pub(crate) game: Game,
    pub(crate) past: Vec<(Game, Event)>,
}

impl GameRecord {
    /// A record starting at `game`.
    pub fn new(game: Game) -> GameRecord {
        GameRecord {
            start: game,
            game,
            past: Vec::new(),
        }
    }

    /// The game as it is now.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game as it started.
    pub fn start(&self) -> &Game {
        &self.start
    }

    /// The events so far, oldest first.
    pub fn events(&self) -> impl Iterator<Item = &Event> {
        self.past.iter().map(|(_, e)| e)
    }

    /// Number of events so far.
    pub fn len(&self) -> usize {
        self.past.len()
    }

    /// No events yet?
    pub fn is_empty(&self) -> bool {
        self.past.is_empty()
    }

    fn record(
        &mut self,
        f: impl FnOnce(&mut Game) -> Result<Event, LudoError>,
    ) -> Result<Event, LudoError> {
        let before = self.game;
        let mut after = self.game;
        let event = f(&mut after)?;
        self.game = after;
        self.past.push((before, event));
        Ok(event)
    }

    /// Roll the seeded die, or `value` when given.
    pub fn roll(&mut self, value: Option<u8>) -> Result<Event, LudoError> {
        match value {
            Some(v) => self.record(|g| g.roll(v)),
            None => self.record(|g| g.roll_die()),
        }
    }

    /// Play a move.
    pub fn play(&mut self, mv: Move) -> Result<Event, LudoError> {
        self.record(|g| g.play(mv))
    }

    /// Take back the last event; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Event> {
        let (before, event) = self.past.pop()?;
        self.game = before;
        Some(event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gt() -> Game {
        Game::new(Rules::GT, &[0, 1, 2, 3], 7).unwrap()
    }

    fn names(g: &Game) -> Vec<String> {
        g.legal_moves().iter().map(|m| g.move_name(&m)).collect()
    }

    /// GT seed: emptyGame, playerArolls6, playerAentersTokenA, playerAmovesTokenA.
    #[test]
    fn gt_seed_examples() {
        let mut g = gt();
        assert!(!g.is_over());
        assert_eq!(g.winner(), None);
        assert_eq!(g.current_player(), 0);
        assert_eq!(g.phase(), Phase::Roll);
        assert_eq!(g.status(), "Player A to roll the die.");

        g.roll(6).unwrap();
        assert_eq!(g.current_player(), 0);
        assert_eq!(g.phase(), Phase::Move(6));
        assert_eq!(names(&g), ["A", "a"]);
        assert_eq!(g.status(), "Player A to move.");

        g.play(Move {
            seat: 0,
            token: 0,
            roll: 6,
        })
        .unwrap();
        assert_eq!(g.board().step(0, 0), 0); // square 1
        assert_eq!(g.current_player(), 0);
        assert_eq!(g.phase(), Phase::Roll);
        assert_eq!(g.tokens_to_move(), 0);

        g.roll(5).unwrap();
        assert_eq!(names(&g), ["A"]);
        g.play(Move {
            seat: 0,
            token: 0,
            roll: 5,
        })
        .unwrap();
        assert_eq!(g.board().step(0, 0), 5); // square 6
        assert_eq!(g.current_player(), 1);
        assert_eq!(g.phase(), Phase::Roll);
        assert_eq!(g.status(), "Player B to roll the die.");
    }

    #[test]
    fn gt_cannot_move_passes_the_turn() {
        let mut g = gt();
        let e = g.roll(3).unwrap();
        assert!(matches!(
            e,
            Event::Roll {
                result: RollResult::CannotMove,
                ..
            }
        ));
        assert_eq!(g.current_player(), 1);
        assert_eq!(
            g.status(),
            "Player A cannot move. Player B to roll the die."
        );
    }

    #[test]
    fn gt_entering_onto_own_token_bumps_and_capture_on_entry_square() {
        let mut g = gt();
        g.roll(6).unwrap();
        g.play(Move {
            seat: 0,
            token: 0,
            roll: 6,
        })
        .unwrap();
        g.roll(6).unwrap();
        assert_eq!(
            names(&g),
            ["a"],
            "entering is forced while a token is parked"
        );
        g.play(Move {
            seat: 0,
            token: 1,
            roll: 6,
        })
        .unwrap();
        assert_eq!((g.board().step(0, 0), g.board().step(0, 1)), (0, 1));
        // B's token on A's entry square (B's step 30 is square 40 -> 0-based 0).
        let mut g = gt();
        g.set_step(1, 0, 30);
        g.roll(6).unwrap();
        let e = g
            .play(Move {
                seat: 0,
                token: 0,
                roll: 6,
            })
            .unwrap();
        let Event::Move { outcome, .. } = e else {
            panic!()
        };
        assert_eq!(outcome.captured, [0, 1, 0, 0]);
        assert_eq!(g.board().step(1, 0), -1);
    }

    #[test]
    fn gt_overshoot_uses_the_move_and_six_rolls_again() {
        let mut g = gt();
        g.set_step(0, 0, 39);
        g.set_step(0, 1, 40);
        g.roll(6).unwrap();
        assert_eq!(names(&g), ["A"], "a token in goal is not offered");
        g.play(Move {
            seat: 0,
            token: 0,
            roll: 6,
        })
        .unwrap();
        assert_eq!(g.board().step(0, 0), 39);
        assert_eq!(
            g.current_player(),
            0,
            "a 6 rolls again even after an overshoot"
        );
        g.roll(2).unwrap();
        g.play(Move {
            seat: 0,
            token: 0,
            roll: 2,
        })
        .unwrap();
        assert_eq!(g.board().step(0, 0), 41);
        assert!(g.is_over());
        assert_eq!(g.winner(), Some(0));
        assert_eq!(g.status(), "Player A has won!");
        assert_eq!(g.roll(3), Err(LudoError::GameOver));
    }

    /// Roll `value` and, when a move is offered, play the token named `token`.
    fn roll_and_play(g: &mut Game, value: u8, token: &str) {
        g.roll(value).unwrap();
        let mv = g.parse_move(token).unwrap();
        g.play(mv).unwrap();
    }

    /// GT: a token on a goal square is out of play. A enters, a enters and runs to goal
    /// square 49 (step 40); after B, C and D roll 1, A's 6 offers only A (entering is not
    /// forced: nothing is parked), never the goal token.
    #[test]
    fn gt_token_in_goal_is_not_offered_after_a_six() {
        let mut g = gt();
        roll_and_play(&mut g, 6, "A");
        for _ in 0..7 {
            roll_and_play(&mut g, 6, "a");
        }
        roll_and_play(&mut g, 3, "a");
        assert_eq!(g.board().step(0, 1), 40, "a stands on goal square 49");
        for _ in 0..3 {
            g.roll(1).unwrap();
        }
        g.roll(6).unwrap();
        assert_eq!(names(&g), ["A"]);
        assert_eq!(g.tokens_to_move(), 0b01);
        let mut goal = g;
        assert!(goal.play(goal.parse_move("a").unwrap()).is_err());
        assert_eq!(goal, g, "the refused move changed nothing");
    }

    /// GT: with A on goal square 49 and a parked, a roll of 3 moves nothing: "Player A
    /// cannot move. Player B to roll the die." (the goal token is not moved from goal 1 to
    /// goal 2 by a later 1 either).
    #[test]
    fn gt_player_with_only_a_goal_token_and_no_six_cannot_move() {
        let mut g = gt();
        roll_and_play(&mut g, 6, "A");
        for _ in 0..8 {
            roll_and_play(&mut g, 5, "A");
            for _ in 0..3 {
                g.roll(1).unwrap();
            }
        }
        assert_eq!(g.board().step(0, 0), 40, "A stands on goal square 49");
        assert_eq!(g.board().step(0, 1), -2, "a is parked");
        let e = g.roll(3).unwrap();
        assert!(matches!(
            e,
            Event::Roll {
                result: RollResult::CannotMove,
                ..
            }
        ));
        assert_eq!(
            g.status(),
            "Player A cannot move. Player B to roll the die."
        );
        for _ in 0..3 {
            g.roll(2).unwrap();
        }
        let e = g.roll(1).unwrap();
        assert!(matches!(
            e,
            Event::Roll {
                result: RollResult::CannotMove,
                ..
            }
        ));
        assert_eq!(g.board().step(0, 0), 40, "a roll of 1 leaves it on goal 1");
    }

    #[test]
    fn out_of_phase_calls_change_nothing() {
        let mut g = gt();
        let before = g;
        assert!(
            g.play(Move {
                seat: 0,
                token: 0,
                roll: 6
            })
            .is_err()
        );
        g.roll(6).unwrap();
        let pending = g;
        assert!(matches!(g.roll(6), Err(LudoError::IllegalMove(_))));
        assert!(
            g.play(Move {
                seat: 1,
                token: 0,
                roll: 6
            })
            .is_err()
        );
        assert!(
            g.play(Move {
                seat: 0,
                token: 0,
                roll: 5
            })
            .is_err()
        );
        assert_eq!(g, pending);
        assert_ne!(g, before);
        assert!(matches!(gt().roll(7), Err(LudoError::InvalidRoll(_))));
    }

    #[test]
    fn cs162_one_bonus_roll_per_six() {
        let mut g = Game::new(Rules::CS162, &[0, 1], 1).unwrap();
        g.roll(6).unwrap();
        g.play(Move {
            seat: 0,
            token: 0,
            roll: 6,
        })
        .unwrap();
        assert_eq!(g.current_player(), 0);
        g.roll(6).unwrap();
        g.play(Move {
            seat: 0,
            token: 1,
            roll: 6,
        })
        .unwrap();
        assert_eq!(
            g.current_player(),
            1,
            "a 6 on the bonus roll gives no further roll"
        );
    }

    #[test]
    fn standard_six_limit_forfeits() {
        let mut r = Rules::STANDARD;
        r.six_limit = 3;
        let mut g = Game::new(r, &[0, 2], 1).unwrap();
        for _ in 0..2 {
            g.roll(6).unwrap();
            let mv = g.legal_moves().iter().next().unwrap();
            g.play(mv).unwrap();
            assert_eq!(g.current_player(), 0);
        }
        let e = g.roll(6).unwrap();
        assert!(matches!(
            e,
            Event::Roll {
                result: RollResult::Forfeit,
                ..
            }
        ));
        assert_eq!(g.current_player(), 2);
        assert!(g.status().starts_with("Player A rolled too many 6s"));
    }

    #[test]
    fn stacks_are_one_move() {
        let mut g = Game::new(Rules::CS162, &[0, 1], 1).unwrap();
        g.set_step(0, 0, 5);
        g.set_step(0, 1, 5);
        g.roll(3).unwrap();
        assert_eq!(g.legal_moves().len(), 1);
        assert_eq!(g.tokens_to_move(), 0b11);
        g.play(Move {
            seat: 0,
            token: 1,
            roll: 3,
        })
        .unwrap();
        assert_eq!((g.board().step(0, 0), g.board().step(0, 1)), (8, 8));
    }

    #[test]
    fn full_ranking_and_record_undo() {
        let mut rec = GameRecord::new(Game::new(Rules::CS162, &[0, 1, 2], 99).unwrap());
        let mut guard = 0;
        while !rec.game().is_over() {
            guard += 1;
            assert!(guard < 100_000);
            match rec.game().phase() {
                Phase::Roll => {
                    rec.roll(None).unwrap();
                }
                Phase::Move(_) => {
                    let mv = rec.game().legal_moves().iter().next().unwrap();
                    rec.play(mv).unwrap();
                }
                Phase::Over => unreachable!(),
            }
        }
        let order: Vec<Seat> = rec.game().ranking().collect();
        assert_eq!(order.len(), 3);
        let end = *rec.game();
        let n = rec.len();
        while rec.undo().is_some() {}
        assert_eq!(rec.game(), rec.start());
        assert!(n > 0);
        // Replaying the same seed gives the same game.
        let mut again = GameRecord::new(*rec.start());
        while !again.game().is_over() {
            match again.game().phase() {
                Phase::Roll => {
                    again.roll(None).unwrap();
                }
                _ => {
                    let mv = again.game().legal_moves().iter().next().unwrap();
                    again.play(mv).unwrap();
                }
            }
        }
        assert_eq!(*again.game(), end);
    }
}
