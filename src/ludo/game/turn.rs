//! Whose turn it is: the turn state machine (extra rolls, six limits, ranking), its
//! look-up tables, and the random bot's draw of a token.

use super::*;

pub(crate) const NONE: u8 = u8::MAX;

/// For each mask of seats still playing and each seat, the next seat after it, going
/// round, in the mask (the seat itself when the mask has no other).
pub(super) const NEXT_SEAT: [[Seat; MAX_SEATS]; 16] = {
    let mut out = [Seat::ALL; 16];
    let mut m = 0;
    while m < 16 {
        let mut seat = 0;
        while seat < MAX_SEATS {
            let mut k = 1;
            while k <= MAX_SEATS {
                let s = (seat + k) % MAX_SEATS;
                if m & (1 << s) != 0 {
                    out[m][seat] = Seat::wrapping(s);
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
pub(super) const TOKEN_COUNT: [u8; 16] = {
    let mut out = [0u8; 16];
    let mut m = 0;
    while m < 16 {
        out[m] = (m as u8).count_ones() as u8;
        m += 1;
    }
    out
};

/// For each mask of four tokens, its `k`-th token (lowest first).
pub(super) const NTH_TOKEN: [[Token; 4]; 16] = {
    let mut out = [[Token::FIRST; 4]; 16];
    let mut m = 0;
    while m < 16 {
        let (mut t, mut k) = (0, 0);
        while t < 4 {
            if m & (1 << t) != 0 {
                out[m][k] = Token::wrapping(t);
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
    pub(super) done: u8,
    /// The seat whose turn it is (the last mover once the game is over).
    pub(super) current: Seat,
    /// What the game waits for.
    pub(super) phase: Phase,
    /// 6s rolled in a row in this turn.
    pub(super) sixes: u8,
    /// The next (or pending) roll is an extra roll.
    pub(super) extra: bool,
    /// The finishing order: the first `ranked` entries are seats, the rest [`NONE`].
    pub(super) ranking: [u8; MAX_SEATS],
    /// How many seats `ranking` holds.
    pub(super) ranked: u8,
    /// Whose turn just passed without a move ([`NONE`] if none), for the status text.
    pub(super) passed: u8,
    /// That turn passed by forfeit (the six limit) rather than for want of a move.
    pub(super) passed_by_forfeit: bool,
}

impl Turn {
    /// The turn of a new game of the seats in `playing`: the first of them rolls.
    pub(crate) fn new(playing: u8) -> Turn {
        Turn {
            done: 0,
            current: Seat::wrapping(playing.trailing_zeros() as usize),
            phase: Phase::Roll,
            sixes: 0,
            extra: false,
            ranking: [NONE; MAX_SEATS],
            ranked: 0,
            passed: NONE,
            passed_by_forfeit: false,
        }
    }

    /// Whose turn it is (the last mover once the game is over).
    #[inline(always)]
    pub(crate) fn current(&self) -> Seat {
        self.current
    }

    /// What the game waits for.
    #[inline(always)]
    pub(crate) fn phase(&self) -> Phase {
        self.phase
    }

    /// 6s rolled in a row in this turn.
    pub(crate) fn sixes(&self) -> u8 {
        self.sixes
    }

    /// Is the next (or pending) roll an extra roll?
    pub(crate) fn extra(&self) -> bool {
        self.extra
    }

    /// Did the last pass come from the six limit (rather than from want of a move)?
    pub(crate) fn passed_by_forfeit(&self) -> bool {
        self.passed_by_forfeit
    }

    /// The finishing order as stored: the first [`Turn::ranked`] bytes are seat indices,
    /// the rest [`NONE`].
    #[inline(always)]
    pub(crate) fn ranking_bytes(&self) -> [u8; MAX_SEATS] {
        self.ranking
    }

    /// How many seats are ranked.
    #[inline(always)]
    pub(crate) fn ranked(&self) -> u8 {
        self.ranked
    }

    /// Whose turn just passed without a move, if any.
    #[inline(always)]
    pub(crate) fn passed_seat(&self) -> Option<Seat> {
        (self.passed != NONE).then(|| Seat::wrapping(self.passed as usize))
    }

    /// Note (or clear) whose turn just passed without a move.
    #[inline(always)]
    fn set_passed(&mut self, seat: Option<Seat>) {
        self.passed = seat.map_or(NONE, Seat::byte);
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

    /// The roll `value` allows the current player a move: the game waits for it.
    #[inline(always)]
    pub(crate) fn await_move(&mut self, value: u8) {
        self.phase = Phase::Move(value);
    }

    /// The roll `value` allows the current player no move: a 6 may give another roll,
    /// otherwise the turn passes.
    #[inline(always)]
    pub(crate) fn cannot_move(&mut self, rules: &Rules, playing: u8, value: u8) {
        if six_gives_roll(rules, self.extra, value) {
            self.extra = true;
            self.set_passed(Some(self.current));
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
        let seat = self.current;
        if finished {
            self.done |= seat.bit();
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
        self.current = NEXT_SEAT[active as usize & 0xF][seat];
        if let Some(forfeit) = passed {
            self.set_passed(Some(seat));
            self.passed_by_forfeit = forfeit;
        }
    }

    /// `seat` (in `playing`) brought its last token home: it takes the next place, and the
    /// game may end.
    #[inline(always)]
    fn rank(&mut self, rules: &Rules, playing: u8, seat: Seat) {
        self.push_ranked(seat);
        let left = playing & !self.done;
        let over = match rules.end {
            EndCondition::FirstWinner => true,
            EndCondition::FullRanking => left.count_ones() <= 1 || playing.count_ones() == 1,
        };
        if over {
            if rules.end == EndCondition::FullRanking {
                for s in Seat::in_mask(left) {
                    self.push_ranked(s);
                }
            }
            self.phase = Phase::Over;
        }
    }

    /// Append `seat` to the ranking (which holds every seat at most once: a push past
    /// [`MAX_SEATS`], possible only on a position set up by hand, is ignored). Written on the
    /// ranking as one word: an array store at a variable index would keep the turn in memory.
    #[inline(always)]
    fn push_ranked(&mut self, seat: Seat) {
        debug_assert!((self.ranked as usize) < MAX_SEATS, "a fifth ranked seat");
        if self.ranked as usize >= MAX_SEATS {
            return;
        }
        let shift = 8 * self.ranked as u32;
        let word = u32::from_le_bytes(self.ranking);
        let word = (word & !(0xFF << shift)) | (seat.byte() as u32) << shift;
        self.ranking = word.to_le_bytes();
        self.ranked += 1;
    }
}

/// How a finished (or cut-off) game ended, as the results record it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GameEnd {
    /// The finishing order so far (the winner first).
    pub(crate) ranking: [u8; MAX_SEATS],
    /// How many seats `ranking` holds.
    pub(crate) ranked: u8,
    /// The game is over (not cut off).
    pub(crate) over: bool,
}

impl GameEnd {
    /// How the game whose turn is `t` ended (inlined, so that a game kept in registers
    /// stays there).
    #[inline(always)]
    pub(crate) fn of(t: &Turn) -> GameEnd {
        GameEnd {
            ranking: t.ranking_bytes(),
            ranked: t.ranked(),
            over: t.is_over(),
        }
    }
}

/// Builds a [`Turn`] from parts given from outside play (a position's notation, the
/// checks that judge one), refusing parts that name a seat that does not play or rank a
/// seat twice. The setters take the parts in the notation's order, so that the first
/// wrong part is the one reported; the counters are judged later, against the turn rules
/// (see `notation::validate`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TurnBuilder {
    turn: Turn,
    playing: u8,
}

impl TurnBuilder {
    /// The turn of a new game of the seats in `playing` (the first of them to roll).
    pub(crate) fn new(playing: u8) -> TurnBuilder {
        TurnBuilder {
            turn: Turn::new(playing),
            playing,
        }
    }

    /// Whose turn it is.
    pub(crate) fn current(&mut self, seat: Seat) -> Result<&mut Self, &'static str> {
        if self.playing & seat.bit() == 0 {
            return Err("the current player does not play");
        }
        self.turn.current = seat;
        Ok(self)
    }

    /// What the game waits for.
    pub(crate) fn phase(&mut self, phase: Phase) -> &mut Self {
        self.turn.phase = phase;
        self
    }

    /// The 6s rolled in a row and whether the next (or pending) roll is an extra one.
    pub(crate) fn counters(&mut self, sixes: u8, extra: bool) -> &mut Self {
        self.turn.sixes = sixes;
        self.turn.extra = extra;
        self
    }

    /// Whose turn just passed without a move (`None`: nobody), and whether by forfeit.
    pub(crate) fn passed(
        &mut self,
        seat: Option<Seat>,
        forfeit: bool,
    ) -> Result<&mut Self, &'static str> {
        if seat.is_some_and(|s| self.playing & s.bit() == 0) {
            return Err("the passed player does not play");
        }
        self.turn.set_passed(seat);
        self.turn.passed_by_forfeit = forfeit;
        Ok(self)
    }

    /// The next seat of the ranking.
    pub(crate) fn rank(&mut self, seat: Seat) -> Result<&mut Self, &'static str> {
        let ranked = &self.turn.ranking[..self.turn.ranked as usize];
        if self.playing & seat.bit() == 0 || ranked.contains(&(seat.index() as u8)) {
            return Err("the ranking names a player twice or one who does not play");
        }
        self.turn.push_ranked(seat);
        Ok(self)
    }

    /// The turn (its mask of finished seats is left to the game, which knows the board).
    pub(crate) fn build(&self) -> Turn {
        self.turn
    }
}

/// The token a random bot moves, among the tokens of `mask` (lowest first), drawing from
/// `rng` only when there is a choice; `None` for an empty mask.
#[inline(always)]
pub(crate) fn random_token(mask: u8, rng: &mut Rng) -> Option<Token> {
    let n = TOKEN_COUNT[mask as usize & 0xF] as u32;
    if n == 0 {
        return None;
    }
    Some(nth_token(mask, random_index(n, rng)))
}

/// The `k`-th token of `mask` (lowest first; `k` below the mask's token count).
#[inline(always)]
pub(crate) fn nth_token(mask: u8, k: u32) -> Token {
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
pub(super) fn six_gives_roll(rules: &Rules, extra: bool, value: u8) -> bool {
    value == 6
        && match rules.six_bonus {
            SixBonus::Never => false,
            SixBonus::Once => !extra,
            SixBonus::Always => true,
        }
}
