//! The CS162 portfolio-project game: space names (D1), the priority rule that picks the
//! token to move (D9), turns (D10) and single-token moves (D12). The rules themselves live
//! in [`Board`] and [`Rules::CS162`]; this module only adds what the assignment defines on
//! top of them.

use std::fmt;
use std::sync::LazyLock;

use super::board::{Board, MoveOutcome, Step, YARD};
use super::bots::{priority_rule, priority_token};
use super::error::{LudoError, TurnContext};
use super::rules::{MAX_SEATS, OwnTokens, Rules, Seat};
use super::tables::{Fast, Tables};

pub mod readings;
pub use readings::{
    DECISIONS, Decision, PRIORITY_RULES, READING_OPTIONS, ReadingOption, Readings, Tags,
};

/// A token (`0` = `p`, `1` = `q`).
pub use super::seat::Token;

const RULES: Rules = Rules::CS162;
/// The CS162 tokens, `p` and `q`.
const TOKENS: [Token; 2] = [Token::FIRST, Token::new(1).unwrap()];

/// The CS162 rules with their route tables.
fn geometry() -> Fast<'static> {
    static TABLES: LazyLock<&'static Tables> = LazyLock::new(|| Tables::of(&RULES));
    Fast {
        rules: &RULES,
        tables: *TABLES,
    }
}

/// The name of the space a token stands on (D1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpaceName {
    /// The home yard, `'H'` (step −1).
    Yard,
    /// The ready-to-go position, `'R'` (step 0).
    Ready,
    /// A space of the shared track, `'1'`..`'56'`.
    Track(u8),
    /// One of the seat's home squares, `'A1'`..`'D6'`.
    Home(Seat, u8),
    /// The finishing square, `'E'` (step 57).
    End,
}

impl SpaceName {
    /// The name of the space `seat`'s token with `steps` stands on; an error for a step
    /// count outside −1..=57.
    pub fn of(seat: Seat, steps: i64) -> Result<SpaceName, LudoError> {
        if !(YARD as i64..=RULES.finish_step as i64).contains(&steps) {
            return Err(LudoError::StepsOutOfRange(steps.to_string()));
        }
        let s = steps as Step;
        Ok(match s {
            YARD => SpaceName::Yard,
            0 => SpaceName::Ready,
            _ if s == RULES.finish_step => SpaceName::End,
            _ => match RULES.track_square(seat, s) {
                Some(square) => SpaceName::Track(square + 1),
                None => SpaceName::Home(seat, (s - RULES.last_track_step) as u8),
            },
        })
    }
}

impl fmt::Display for SpaceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SpaceName::Yard => f.write_str("H"),
            SpaceName::Ready => f.write_str("R"),
            SpaceName::Track(n) => write!(f, "{n}"),
            SpaceName::Home(seat, n) => write!(f, "{}{n}", RULES.seat_labels[seat]),
            SpaceName::End => f.write_str("E"),
        }
    }
}

/// Parse a position label (`"A"`..`"D"`).
pub fn parse_position(label: &str) -> Result<Seat, LudoError> {
    let mut chars = label.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => RULES.seat_of(c),
        _ => None,
    }
    .ok_or_else(|| LudoError::InvalidPosition(label.to_owned()))
}

/// Parse a token name (`"p"` or `"q"`).
pub fn parse_token(name: &str) -> Result<Token, LudoError> {
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => RULES.token_of(Seat::ALL[0], c),
        _ => None,
    }
    .ok_or_else(|| LudoError::InvalidToken(name.to_owned()))
}

/// A CS162 game: the board, the players list in the order it was given, and the reading
/// of the open decisions it plays by ([`Readings::ENGINE`] unless told otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cs162Game {
    board: Board,
    order: [Seat; MAX_SEATS],
    len: u8,
    readings: Readings,
}

/// What one turn did: the move, if anything moved, and the decisions it touched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cs162Turn {
    /// The move, when a token was chosen (`None`: nothing could move, or the turn was
    /// ignored).
    pub outcome: Option<MoveOutcome>,
    /// The decisions the turn touched, and the priority rule that chose the token.
    pub tags: Tags,
}

/// The rules with every token moving alone (the moves of the other readings are made one
/// token at a time; the stack's other token follows).
const ALONE: Rules = Rules {
    own_tokens: OwnTokens::Share,
    ..RULES
};

impl Cs162Game {
    /// The rules this game plays by.
    pub const RULES: Rules = RULES;

    /// What `get_player_by_position` answers for a position that has no player (D2: the
    /// assignment's words).
    pub const NOT_FOUND: &'static str = "Player not found!";

    /// What a `LudoGame` shows (drawn and in its repr) before its first game.
    pub const NO_GAME_YET: &'static str = "no game played yet";

    /// A new game for the seats in `players` (in that order), every token in its yard.
    pub fn new(players: &[Seat]) -> Result<Cs162Game, LudoError> {
        Cs162Game::with_readings(players, Readings::ENGINE)
    }

    /// [`Cs162Game::new`] under another reading of the open decisions.
    pub fn with_readings(players: &[Seat], readings: Readings) -> Result<Cs162Game, LudoError> {
        if players.is_empty() {
            return Err(LudoError::NoPlayers);
        }
        let mut order = [Seat::default(); MAX_SEATS];
        let mut mask = 0u8;
        for (i, &seat) in players.iter().enumerate() {
            if mask & seat.bit() != 0 {
                return Err(LudoError::DuplicatePosition(
                    RULES.seat_label(seat).to_string(),
                ));
            }
            if i >= MAX_SEATS {
                return Err(LudoError::TooManyPlayers(players.len()));
            }
            mask |= seat.bit();
            order[i] = seat;
        }
        Ok(Cs162Game {
            board: Board::new(&RULES, mask),
            order,
            len: players.len() as u8,
            readings,
        })
    }

    /// The game a `play_game(players, ...)` call starts on an object whose last game was
    /// `previous`: a new one (D11), or, under the reading `games=continued`, one where the
    /// positions that played before keep their tokens.
    pub fn start(
        players: &[Seat],
        readings: Readings,
        previous: Option<&Cs162Game>,
    ) -> Result<Cs162Game, LudoError> {
        let mut game = Cs162Game::with_readings(players, readings)?;
        if let Some(before) = previous.filter(|_| readings.continues_games()) {
            for &seat in players.iter().filter(|&&s| before.has_seat(s)) {
                for t in RULES.all_tokens() {
                    game.board.set_step(seat, t, before.steps(seat, t));
                }
            }
        }
        Ok(game)
    }

    /// Play a whole turns list (D3, D10) on a new game: each item is a `(seat, roll)` pair,
    /// or the error found while reading it. The first error stops everything and is
    /// returned with the turn's index.
    /// The reader of the turns may fail with its own error type `E`.
    pub fn play_game<I, E>(players: &[Seat], turns: I) -> Result<Cs162Game, E>
    where
        I: IntoIterator<Item = Result<(Seat, i64), E>>,
        E: From<LudoError> + TurnContext,
    {
        let mut game = Cs162Game::new(players)?;
        game.play_turns(turns)?;
        Ok(game)
    }

    /// Play `turns` on this game as `play_game` does.
    pub fn play_turns<I, E>(&mut self, turns: I) -> Result<(), E>
    where
        I: IntoIterator<Item = Result<(Seat, i64), E>>,
        E: From<LudoError> + TurnContext,
    {
        self.turns::<false, _, _>(turns, |_| ())
    }

    /// [`Cs162Game::play_turns`], telling `each` what every turn did, with the decisions it
    /// touched ([`Cs162Game::turn`]).
    pub fn trace_turns<I, E>(&mut self, turns: I, each: impl FnMut(Cs162Turn)) -> Result<(), E>
    where
        I: IntoIterator<Item = Result<(Seat, i64), E>>,
        E: From<LudoError> + TurnContext,
    {
        self.turns::<true, _, _>(turns, each)
    }

    fn turns<const TRACE: bool, I, E>(
        &mut self,
        turns: I,
        mut each: impl FnMut(Cs162Turn),
    ) -> Result<(), E>
    where
        I: IntoIterator<Item = Result<(Seat, i64), E>>,
        E: From<LudoError> + TurnContext,
    {
        for (index, turn) in turns.into_iter().enumerate() {
            let done = turn
                .and_then(|(seat, roll)| self.turn_with::<TRACE>(seat, roll).map_err(E::from))
                .map_err(|e| e.in_turn(index))?;
            each(done);
        }
        Ok(())
    }

    /// The seats in the order of the players list.
    pub fn players(&self) -> &[Seat] {
        &self.order[..self.len as usize]
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The reading of the open decisions this game plays by.
    pub fn readings(&self) -> Readings {
        self.readings
    }

    /// Does `seat` play in this game?
    pub fn has_seat(&self, seat: Seat) -> bool {
        self.board.has_seat(seat)
    }

    /// Step count of one token (−1..=57).
    pub fn steps(&self, seat: Seat, token: Token) -> Step {
        self.board.step(seat, token)
    }

    /// Have both of `seat`'s tokens finished (D10)?
    pub fn completed(&self, seat: Seat) -> bool {
        self.board.is_finished(&RULES, seat)
    }

    /// The token the priority rule (D9) moves for `seat` on `roll`, or `None` when no token
    /// can move. Stacked tokens move together, so choosing either moves the pair.
    pub fn choose_token(&self, seat: Seat, roll: u8) -> Option<Token> {
        self.choice(seat, roll).map(|(t, _)| t)
    }

    /// The engine's choice of token as the bots make it (the tokens of a stack are chosen
    /// alike, so no stack test is needed).
    #[inline]
    fn choose_token_fast(&self, seat: Seat, roll: u8) -> Option<Token> {
        let allowed = RULES
            .all_tokens()
            .filter(|&t| self.board.target(&geometry(), seat, t, roll).is_some())
            .fold(0u8, |mask, t| mask | t.bit());
        priority_token(&geometry(), &self.board, seat, roll, allowed)
    }

    /// The token a turn moves and the priority rule that chose it (0 when there was no
    /// choice: one token could move, or the tokens are stacked).
    fn choice(&self, seat: Seat, roll: u8) -> Option<(Token, u8)> {
        let allowed = RULES
            .all_tokens()
            .filter(|&t| self.board.target(&geometry(), seat, t, roll).is_some())
            .fold(0u8, |mask, t| mask | t.bit());
        if allowed == 0 {
            return None;
        }
        let first = Token::lowest_in(allowed);
        if allowed.count_ones() == 1 || self.piece(seat, first).count_ones() > 1 {
            return Some((first, 0));
        }
        if self.readings.moves_as_engine() {
            let steps = self.board.seat_steps(seat);
            let board = &self.board;
            return priority_rule(
                &RULES,
                steps,
                roll,
                allowed,
                |t| board.landing(&geometry(), seat, t, roll),
                |t, to| board.captures_on(&geometry(), seat, steps[t], to),
            );
        }
        self.choice_by_reading(seat, roll, allowed)
    }

    /// [`Cs162Game::choice`] between two tokens by the game's reading of the open
    /// decisions: rule 3 asks whether the move kicks by playing it on a copy.
    fn choice_by_reading(&self, seat: Seat, roll: u8, allowed: u8) -> Option<(Token, u8)> {
        priority_rule(
            &RULES,
            self.board.seat_steps(seat),
            roll,
            allowed,
            |t| RULES.route_target(self.board.step(seat, t), roll),
            |t, _| {
                let mut copy = *self;
                copy.move_by_reading(seat, t, roll, self.piece(seat, t))
                    .captured_any()
            },
        )
    }

    /// The mask of `seat`'s tokens that move with `token`: its stack under this game's
    /// reading of D6 and D8, else the token alone.
    fn piece(&self, seat: Seat, token: Token) -> u8 {
        let s = self.board.step(seat, token);
        let stacks = if s == 0 {
            self.readings.ready_stacks()
        } else {
            self.readings.stacks_at(s)
        };
        if !stacks {
            return token.bit();
        }
        RULES
            .all_tokens()
            .filter(|&t| self.board.step(seat, t) == s)
            .fold(0u8, |mask, t| mask | t.bit())
    }

    /// Move `token` of `seat` (with the tokens of `piece`) by `steps`: the engine's move
    /// under its own reading, otherwise the move by the game's reading of D6, D7 and D8.
    fn move_piece(&mut self, seat: Seat, token: Token, steps: u8, piece: u8) -> MoveOutcome {
        if self.readings.moves_as_engine() && piece == self.board.piece_mask(&RULES, seat, token) {
            return self.board.apply(&geometry(), seat, token, steps);
        }
        self.move_by_reading(seat, token, steps, piece)
    }

    /// [`Cs162Game::move_piece`] by the game's reading: the token moves alone by the
    /// engine's move (kicks at the landing space included), the rest of its piece follows,
    /// then the readings of D6 and D7 add or take back kicks.
    fn move_by_reading(&mut self, seat: Seat, token: Token, steps: u8, piece: u8) -> MoveOutcome {
        let before = self.board;
        let mut out = self.board.apply(&ALONE, seat, token, steps);
        if out.to == out.from && !out.stayed {
            return out; // nothing moved
        }
        for t in RULES.all_tokens().filter(|&t| piece & t.bit() != 0) {
            self.board.set_step(seat, t, out.to);
        }
        out.moved = piece;
        let landing = RULES
            .track_square(seat, out.to)
            .filter(|_| out.to != out.from);
        if self.readings.ready_on_start() {
            // R is on the start space: landing there kicks the tokens on R, and coming out
            // onto R kicks the opponents on one's own start space.
            let entering = out.from < 0 && out.to == 0;
            let start = RULES.track_square(seat, RULES.first_track_step);
            if let Some(square) = if entering { start } else { landing } {
                self.kick_on(seat, square, true, &mut out);
            }
        }
        if self.readings.kicks_passed() && RULES.on_track(out.to) && out.from >= 0 {
            for k in out.from.max(0) + 1..out.to {
                if let Some(square) = RULES.track_square(seat, k) {
                    self.kick_on(seat, square, false, &mut out);
                }
            }
        }
        if self.readings.start_safe()
            && landing.is_some_and(|sq| {
                Seat::ALL
                    .iter()
                    .any(|&o| RULES.track_square(o, 1) == Some(sq))
            })
        {
            for other in Seat::ALL {
                for t in RULES
                    .all_tokens()
                    .filter(|&t| out.captured[other] & t.bit() != 0)
                {
                    self.board.set_step(other, t, before.step(other, t));
                }
                out.captured[other] = 0;
            }
        }
        if self.readings.kick_one() {
            // one token goes home: the first kicked, in the players' order, p before q
            let mut kept = false;
            for &other in self.players().to_vec().iter() {
                for t in RULES.all_tokens() {
                    if out.captured[other] & t.bit() != 0 {
                        if kept {
                            self.board.set_step(other, t, before.step(other, t));
                            out.captured[other] &= !t.bit();
                        }
                        kept = true;
                    }
                }
            }
        }
        out
    }

    /// Send home the opponents of `seat` standing on track `square` (with `ready`, also
    /// their tokens on R when it is their start space), noting them in `out`.
    fn kick_on(&mut self, seat: Seat, square: u8, ready: bool, out: &mut MoveOutcome) {
        for other in Seat::in_mask(self.board.seat_mask() & !seat.bit()) {
            let start = RULES.track_square(other, RULES.first_track_step);
            for t in RULES.all_tokens() {
                let s = self.board.step(other, t);
                let here = if s == 0 {
                    ready && start == Some(square)
                } else {
                    RULES.track_square(other, s) == Some(square)
                };
                if here {
                    self.board.set_step(other, t, YARD);
                    out.captured[other] |= t.bit();
                }
            }
        }
    }

    /// Put a token at a step count directly (for tests and hand-made positions); the caller
    /// keeps it within −1..=57.
    pub fn set_step(&mut self, seat: Seat, token: Token, steps: Step) {
        self.board.set_step(seat, token, steps);
    }

    /// Play one turn: `seat` rolls `roll` and the priority rule moves a token. Turns of a
    /// completed player are ignored (D10). Returns what the move did, if anything moved.
    pub fn play_turn(&mut self, seat: Seat, roll: i64) -> Result<Option<MoveOutcome>, LudoError> {
        self.turn_with::<false>(seat, roll).map(|t| t.outcome)
    }

    /// Is the game over for every turn to come (a player finished, under the reading
    /// `end=first_winner`)?
    fn ended(&self) -> bool {
        self.readings.first_winner() && self.players().iter().any(|&s| self.completed(s))
    }

    /// Play one turn as [`Cs162Game::play_turn`] does, and tell what it did: the move and
    /// the decisions it touched (D4 a token in the yard, D5 a bounce, a finish, a move from
    /// R or a finished token, else any plain move, D6 R next to a kick or a stack, D7 a kick
    /// or an opponent passed over, D8 a stack that moves, forms or is kicked, D9 the
    /// priority rule that chose between two tokens, D10 a finished player's turn).
    pub fn turn(&mut self, seat: Seat, roll: i64) -> Result<Cs162Turn, LudoError> {
        self.turn_with::<true>(seat, roll)
    }

    /// One turn, with its decisions when `TRACE` (`play_game` skips them).
    #[inline]
    fn turn_with<const TRACE: bool>(
        &mut self,
        seat: Seat,
        roll: i64,
    ) -> Result<Cs162Turn, LudoError> {
        if !self.has_seat(seat) {
            return Err(LudoError::PositionNotPlaying(label(seat)));
        }
        if !(1..=6).contains(&roll) {
            return Err(LudoError::InvalidRoll(roll.to_string()));
        }
        let mut tags = Tags::default();
        if self.completed(seat) || self.ended() {
            tags.add(10);
            return Ok(Cs162Turn {
                outcome: None,
                tags,
            });
        }
        let roll = roll as u8;
        let before = self.board;
        if TRACE {
            let steps = before.seat_steps(seat);
            let [p, q] = [steps[0], steps[1]];
            if p < 0 || q < 0 {
                tags.add(4);
            }
            if p == RULES.finish_step || q == RULES.finish_step {
                tags.add(5); // a finished token never moves again
            }
            if p == 0 && q == 0 {
                tags.add(6); // two tokens on R: a stack or not
            }
        }
        if !TRACE && self.readings.moves_as_engine() {
            // play_game's path: the engine's choice (a stack's tokens choose alike) and move
            let outcome = self
                .choose_token_fast(seat, roll)
                .map(|t| self.board.apply(&geometry(), seat, t, roll));
            return Ok(Cs162Turn { outcome, tags });
        }
        let Some((token, rule)) = self.choice(seat, roll) else {
            return Ok(Cs162Turn {
                outcome: None,
                tags,
            });
        };
        if rule != 0 {
            tags.chose(rule);
        }
        let piece = self.piece(seat, token);
        let out = self.move_piece(seat, token, roll, piece);
        if TRACE {
            self.tag_move(&before, seat, &out, &mut tags);
        }
        Ok(Cs162Turn {
            outcome: Some(out),
            tags,
        })
    }

    /// The decisions a move touched, from the board before it and what it did.
    fn tag_move(&self, before: &Board, seat: Seat, out: &MoveOutcome, tags: &mut Tags) {
        if out.bounced || out.reached_home || out.from == 0 {
            tags.add(5);
        }
        if out.captured_any() {
            tags.add(7);
        }
        if out.captured.iter().any(|m| m.count_ones() > 1) {
            tags.add(8); // a stack kicked
        }
        let [p, q] = [
            self.board.step(seat, TOKENS[0]),
            self.board.step(seat, TOKENS[1]),
        ];
        if out.moved.count_ones() > 1 || (p == q && (1..RULES.finish_step).contains(&p)) {
            tags.add(8); // a stack moved, or two tokens on one space
        }
        let others = || {
            Seat::ALL
                .into_iter()
                .filter(move |&o| o != seat && self.has_seat(o))
        };
        let landing = RULES
            .track_square(seat, out.to)
            .filter(|_| out.to != out.from);
        let start = RULES.track_square(seat, RULES.first_track_step);
        for other in others() {
            let other_start = RULES.track_square(other, RULES.first_track_step);
            for t in RULES.all_tokens() {
                let s = before.step(other, t);
                // a token on R next to the landing space, or on one's start space when
                // coming out onto R
                let entering = out.from < 0 && out.to == 0;
                if (s == 0 && landing.is_some() && landing == other_start)
                    || (entering && start.is_some() && RULES.track_square(other, s) == start)
                {
                    tags.add(6);
                }
                // an opponent passed over (never kicked)
                if RULES.on_track(out.from) && RULES.on_track(s) {
                    let square = RULES.track_square(other, s);
                    let passed = (out.from + 1..out.to.min(RULES.last_track_step + 1))
                        .any(|k| RULES.track_square(seat, k) == square);
                    if passed {
                        tags.add(7);
                    }
                }
            }
        }
        if out.from < 0 && out.to == 0 && p == q {
            tags.add(6); // out onto R beside the other token
        }
        if (4..=9).all(|n| !tags.has(n)) {
            tags.add(5); // a plain move
        }
    }

    /// Move one named token `steps` forward (D12): from the yard only a 6 moves it (to
    /// `'R'`); a stacked pair moves together; kicks and bounces apply. `steps` is 1..=57.
    /// Under the readings of D12, a yard token may come out with any steps, and a stack's
    /// named token may move alone.
    pub fn move_token(
        &mut self,
        seat: Seat,
        token: Token,
        steps: i64,
    ) -> Result<MoveOutcome, LudoError> {
        if !self.has_seat(seat) {
            return Err(LudoError::PositionNotPlaying(label(seat)));
        }
        if token.index() >= RULES.tokens as usize {
            return Err(LudoError::InvalidToken(token.index().to_string()));
        }
        if !(1..=RULES.max_move() as i64).contains(&steps) {
            return Err(LudoError::InvalidSteps(steps.to_string()));
        }
        let mut steps = steps as u8;
        if self.readings.move_from_yard_any() && self.board.step(seat, token) < 0 {
            steps = RULES.enter_roll;
        }
        let piece = if self.readings.move_token_alone() {
            token.bit()
        } else {
            self.piece(seat, token)
        };
        Ok(self.move_piece(seat, token, steps, piece))
    }

    /// The space of every token: for each player in the players list, `p` then `q` (D3).
    pub fn spaces(&self) -> impl Iterator<Item = SpaceName> + '_ {
        (self.players().iter()).flat_map(move |&seat| TOKENS.map(|t| self.space(seat, t)))
    }

    /// The space `seat`'s token `token` stands on.
    pub fn space(&self, seat: Seat, token: Token) -> SpaceName {
        SpaceName::of(seat, self.board.step(seat, token) as i64)
            .expect("board step counts stay within -1..=57")
    }

    /// Every player's spaces, players in list order, e.g. `A: p H q R, C: p 5 q E` (the
    /// caption of the board's drawing).
    pub fn caption(&self) -> String {
        let players = self.players().iter().map(|&s| {
            let [p, q] = TOKENS.map(|t| self.space(s, t));
            format!("{}: p {p} q {q}", label(s))
        });
        players.collect::<Vec<_>>().join(", ")
    }

    /// The board drawn with its [`Cs162Game::caption`] (for `render::text_of`, `svg_of`).
    pub fn scene(&self) -> super::render::Scene<'_> {
        super::render::Scene {
            rules: &RULES,
            board: &self.board,
            caption: self.caption(),
        }
    }

    /// The players and every token's space as a `LudoGame`'s repr shows them:
    /// `players=['A', 'B'], spaces=['H', 'R', '5', 'E']`.
    pub fn summary(&self) -> String {
        let quoted = |items: Vec<String>| {
            let items: Vec<String> = items.iter().map(|i| format!("'{i}'")).collect();
            items.join(", ")
        };
        let players = quoted(self.players().iter().map(|&s| label(s)).collect());
        let spaces = quoted(self.spaces().map(|s| s.to_string()).collect());
        format!("players=[{players}], spaces=[{spaces}]")
    }

    /// `seat`'s position, spaces and completion as a `Player`'s repr shows them:
    /// `position='A', p='H', q='R', completed=False`.
    pub fn player_summary(&self, seat: Seat) -> String {
        let [p, q] = TOKENS.map(|t| self.space(seat, t));
        let completed = if self.completed(seat) {
            "True"
        } else {
            "False"
        };
        format!(
            "position='{}', p='{p}', q='{q}', completed={completed}",
            label(seat)
        )
    }

    /// The track space where `seat`'s tokens enter the board (A 1, B 15, C 29, D 43).
    pub fn start_space(seat: Seat) -> u8 {
        RULES
            .track_square(seat, RULES.first_track_step)
            .unwrap_or(0)
            + 1
    }

    /// The last track space before `seat`'s home squares (A 50, B 8, C 22, D 36).
    pub fn end_space(seat: Seat) -> u8 {
        RULES.track_square(seat, RULES.last_track_step).unwrap_or(0) + 1
    }

    /// The names of the tokens of `seat` a turn moved: 'p', 'q', or 'pq' for a stacked
    /// pair; None when nothing moved.
    pub fn moved_names(seat: Seat, outcome: Option<MoveOutcome>) -> Option<String> {
        let moved = outcome.filter(|o| o.moved != 0)?.moved;
        let tokens = RULES.all_tokens().filter(|t| moved & t.bit() != 0);
        Some(tokens.map(|t| RULES.token_label(seat, t)).collect())
    }
}

fn label(seat: Seat) -> String {
    RULES.seat_label(seat).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ludo::seat::{seat_list, seat_no, token_no};

    fn seats(labels: &str) -> Vec<Seat> {
        labels
            .chars()
            .map(|c| parse_position(&c.to_string()).unwrap())
            .collect()
    }

    fn play(players: &str, turns: &[(char, i64)]) -> Cs162Game {
        let items = turns
            .iter()
            .map(|&(c, r)| parse_position(&c.to_string()).map(|s| (s, r)));
        Cs162Game::play_game(&seats(players), items).unwrap()
    }

    fn names(game: &Cs162Game) -> Vec<String> {
        game.spaces().map(|s| s.to_string()).collect()
    }

    #[test]
    fn texts_of_a_game() {
        let mut game = play("AC", &[('A', 6), ('A', 5), ('C', 6)]);
        assert_eq!(game.caption(), "A: p 5 q H, C: p R q H");
        assert_eq!(
            game.summary(),
            "players=['A', 'C'], spaces=['5', 'H', 'R', 'H']"
        );
        let c = seat_no(2);
        assert_eq!(
            game.player_summary(c),
            "position='C', p='R', q='H', completed=False"
        );
        assert_eq!(game.scene().caption, game.caption());
        let a = seat_no(0);
        let starts = Seat::ALL.map(Cs162Game::start_space);
        assert_eq!((starts, Cs162Game::end_space(a)), ([1, 15, 29, 43], 50));
        assert_eq!(Cs162Game::end_space(seat_no(1)), 8);
        let moved = game.play_turn(a, 3).unwrap();
        assert_eq!(Cs162Game::moved_names(a, moved).as_deref(), Some("p"));
        let nothing = play("AC", &[]).play_turn(c, 3).unwrap();
        assert_eq!(Cs162Game::moved_names(c, nothing), None);
    }

    #[test]
    fn worked_example() {
        let turns = [
            ('A', 6),
            ('A', 4),
            ('A', 5),
            ('A', 4),
            ('B', 6),
            ('B', 4),
            ('B', 1),
            ('B', 2),
            ('A', 6),
            ('A', 4),
            ('A', 6),
            ('A', 3),
            ('A', 5),
            ('A', 1),
            ('A', 5),
            ('A', 4),
        ];
        let g = play("AB", &turns);
        assert_eq!(names(&g), ["28", "28", "21", "H"]);
        assert!(!g.completed(seat_no(0)));
        assert_eq!(g.steps(seat_no(0), token_no(0)), 28);
        assert_eq!(SpaceName::of(seat_no(1), 55).unwrap().to_string(), "B5");
    }

    #[test]
    fn space_names_d1() {
        let cases = [
            (0, -1, "H"),
            (0, 0, "R"),
            (0, 1, "1"),
            (0, 50, "50"),
            (0, 51, "A1"),
            (0, 56, "A6"),
            (0, 57, "E"),
            (1, 1, "15"),
            (1, 42, "56"),
            (1, 43, "1"),
            (1, 50, "8"),
            (3, 50, "36"),
            (2, 53, "C3"),
        ];
        for (seat, steps, name) in cases {
            assert_eq!(
                SpaceName::of(seat_no(seat), steps).unwrap().to_string(),
                name
            );
        }
        assert!(SpaceName::of(seat_no(0), 58).is_err());
        assert!(SpaceName::of(seat_no(0), -2).is_err());
    }

    #[test]
    fn priority_rule_one_beats_rule_two_d9() {
        let mut g = Cs162Game::new(&seats("AB")).unwrap();
        g.board.set_step(seat_no(0), token_no(0), 51); // p on A1, q in the yard
        assert_eq!(g.choose_token(seat_no(0), 6), Some(token_no(1)));
    }

    #[test]
    fn priority_rule_three_kicks_d9() {
        let mut g = Cs162Game::new(&seats("AB")).unwrap();
        g.board.set_step(seat_no(0), token_no(0), 10);
        g.board.set_step(seat_no(0), token_no(1), 20);
        g.board.set_step(seat_no(1), token_no(0), 12); // B's step 12 is space 26: nobody kicks with a 4
        assert_eq!(g.choose_token(seat_no(0), 4), Some(token_no(0))); // rule 4: lower step
        g.board.set_step(seat_no(1), token_no(0), 10); // space 24 = A's step 24 = q + 4
        assert_eq!(g.choose_token(seat_no(0), 4), Some(token_no(1)));
    }

    #[test]
    fn completed_players_turns_are_ignored_d10() {
        let mut g = Cs162Game::new(&seats("AB")).unwrap();
        g.board.set_step(seat_no(0), token_no(0), 57);
        g.board.set_step(seat_no(0), token_no(1), 57);
        assert!(g.completed(seat_no(0)));
        assert_eq!(g.play_turn(seat_no(0), 6).unwrap(), None);
    }

    #[test]
    fn bad_input_is_refused_d13() {
        assert_eq!(Cs162Game::new(&[]), Err(LudoError::NoPlayers));
        assert_eq!(
            Cs162Game::new(&seat_list(&[0, 0])),
            Err(LudoError::DuplicatePosition("A".into()))
        );
        let mut g = Cs162Game::new(&seats("AB")).unwrap();
        let before = g;
        assert_eq!(
            g.play_turn(seat_no(2), 3),
            Err(LudoError::PositionNotPlaying("C".into()))
        );
        assert_eq!(
            g.play_turn(seat_no(0), 7),
            Err(LudoError::InvalidRoll("7".into()))
        );
        assert_eq!(
            g.move_token(seat_no(0), token_no(0), 0),
            Err(LudoError::InvalidSteps("0".into()))
        );
        assert_eq!(
            g.move_token(seat_no(0), token_no(0), 58),
            Err(LudoError::InvalidSteps("58".into()))
        );
        assert_eq!(g, before);
        let turns = [Ok((seat_no(0), 6)), Ok((seat_no(1), 0))];
        let err = Cs162Game::play_game::<_, LudoError>(&seats("AB"), turns).unwrap_err();
        assert_eq!(
            err.to_string(),
            "turn 1: invalid roll 0: a die roll must be an int from 1 to 6"
        );
        assert_eq!(err.kind(), &LudoError::InvalidRoll("0".into()));
    }

    fn with(readings: &[(&str, &str)], players: &str, turns: &[(char, i64)]) -> Cs162Game {
        let mut r = Readings::ENGINE;
        for (name, value) in readings {
            r.set(name, value).unwrap();
        }
        let mut g = Cs162Game::with_readings(&seats(players), r).unwrap();
        let items = turns
            .iter()
            .map(|&(c, roll)| parse_position(&c.to_string()).map(|s| (s, roll)));
        g.play_turns::<_, LudoError>(items).unwrap();
        g
    }

    const CASE_6: [(char, i64); 10] = [
        ('A', 6),
        ('A', 2),
        ('A', 2),
        ('A', 6),
        ('A', 4),
        ('A', 5),
        ('A', 4),
        ('A', 4),
        ('B', 6),
        ('B', 3),
    ];

    #[test]
    fn the_reading_path_plays_the_engines_moves() {
        // Under the engine's reading, the path of the other readings (one token moved, the
        // stack following, kicks by a played copy) chooses and moves exactly as the engine.
        let mut rng = crate::ludo::rng::Rng::new(5);
        for _ in 0..300 {
            let n = 2 + rng.below(3) as usize;
            let players = &seat_list(&[0, 1, 2, 3])[..n];
            let mut g = Cs162Game::new(players).unwrap();
            for _ in 0..300 {
                let seat = players[rng.below(n as u32) as usize];
                let roll = 1 + rng.below(6) as u8;
                let allowed = RULES
                    .all_tokens()
                    .filter(|&t| g.board.target(&geometry(), seat, t, roll).is_some())
                    .fold(0u8, |m, t| m | t.bit());
                if allowed.count_ones() == 2 && g.piece(seat, TOKENS[0]).count_ones() == 1 {
                    assert_eq!(
                        g.choice(seat, roll),
                        g.choice_by_reading(seat, roll, allowed),
                        "{:?} {seat} {roll}",
                        g.board
                    );
                }
                for t in RULES.all_tokens() {
                    let (mut fast, mut slow) = (g, g);
                    let piece = g.piece(seat, t);
                    let a = fast.board.apply(&geometry(), seat, t, roll);
                    let b = slow.move_by_reading(seat, t, roll, piece);
                    assert_eq!(fast.board, slow.board, "{:?} {seat} {t:?} {roll}", g.board);
                    assert_eq!((a.moved, a.to, a.captured), (b.moved, b.to, b.captured));
                }
                g.play_turn(seat, roll as i64).unwrap();
            }
        }
    }

    #[test]
    fn each_reading_plays_what_it_says() {
        // D6: two tokens on R move as one under ready=stack
        assert_eq!(
            names(&with(&[], "A", &[('A', 6), ('A', 6), ('A', 3)])),
            ["3", "R"]
        );
        let stack = with(&[("ready", "stack")], "A", &[('A', 6), ('A', 6), ('A', 3)]);
        assert_eq!(names(&stack), ["3", "3"]);
        // D6: R is A's start space: B landing on space 1 kicks A's token on R
        for (reading, a) in [("off_track", "R"), ("start_space", "H")] {
            let mut g = with(&[("ready", reading)], "AB", &[('A', 6), ('B', 6)]);
            g.move_token(seat_no(1), token_no(0), 43).unwrap();
            assert_eq!(names(&g), [a, "H", "1", "H"], "{reading}");
        }
        // D7: one token of a kicked stack goes home (instructor case 6)
        assert_eq!(names(&with(&[], "AB", &CASE_6)), ["H", "H", "17", "H"]);
        assert_eq!(
            names(&with(&[("kick", "one")], "AB", &CASE_6)),
            ["H", "17", "17", "H"]
        );
        // D7: passing over kicks too; start spaces are safe
        let pass = [
            ('A', 6),
            ('A', 5),
            ('A', 5),
            ('A', 5),
            ('A', 1),
            ('B', 6),
            ('B', 3),
        ];
        assert_eq!(names(&with(&[], "AB", &pass)), ["16", "H", "17", "H"]);
        assert_eq!(
            names(&with(&[("kick", "passed")], "AB", &pass)),
            ["H", "H", "17", "H"]
        );
        let start = [('A', 6), ('A', 5), ('A', 5), ('A', 5), ('B', 6), ('B', 1)];
        assert_eq!(names(&with(&[], "AB", &start)), ["H", "H", "15", "H"]);
        let safe = with(&[("kick", "start_safe")], "AB", &start);
        assert_eq!(names(&safe), ["15", "H", "15", "H"]);
        // D8: no stacking, or none in the home squares
        let turns = [('A', 6), ('A', 6), ('A', 2), ('A', 2), ('A', 3)];
        assert_eq!(names(&with(&[], "A", &turns)), ["5", "5"]);
        assert_eq!(
            names(&with(&[("stacking", "none")], "A", &turns)),
            ["5", "2"]
        );
        let mut home = with(&[("stacking", "track")], "A", &[('A', 6), ('A', 6)]);
        home.set_step(seat_no(0), token_no(0), 52);
        home.set_step(seat_no(0), token_no(1), 52);
        home.play_turn(seat_no(0), 2).unwrap();
        assert_eq!(names(&home), ["A4", "A2"]);
        // D10: the game ends with its first finished player
        let mut g = with(&[("end", "first_winner")], "AB", &[('B', 6), ('B', 1)]);
        g.set_step(seat_no(0), token_no(0), 57);
        g.set_step(seat_no(0), token_no(1), 57);
        g.play_turn(seat_no(1), 2).unwrap();
        assert_eq!(names(&g), ["E", "E", "15", "H"]);
        // D11: a second game keeps the tokens of the positions that played before
        let mut r = Readings::ENGINE;
        r.set("games", "continued").unwrap();
        let first = with(&[], "AB", &[('A', 6), ('A', 3)]);
        let next = Cs162Game::start(&seats("AC"), r, Some(&first)).unwrap();
        assert_eq!(names(&next), ["3", "H", "H", "H"]);
        let fresh = Cs162Game::start(&seats("AC"), Readings::ENGINE, Some(&first)).unwrap();
        assert_eq!(names(&fresh), ["H", "H", "H", "H"]);
        // D12: move_token moves the named token alone, and from the yard with any steps
        let turns = [('A', 6), ('A', 6), ('A', 2), ('A', 2)];
        let mut g = with(&[("move_stack", "token")], "A", &turns);
        g.move_token(seat_no(0), token_no(1), 5).unwrap();
        assert_eq!(names(&g), ["2", "7"]);
        let mut g = with(&[("move_from_yard", "any")], "A", &[]);
        g.move_token(seat_no(0), token_no(1), 2).unwrap();
        assert_eq!(names(&g), ["H", "R"]);
        let mut g = with(&[], "A", &[]);
        g.move_token(seat_no(0), token_no(1), 2).unwrap();
        assert_eq!(names(&g), ["H", "H"]);
    }

    fn tags_of(players: &str, turns: &[(char, i64)]) -> Vec<String> {
        let mut g = Cs162Game::new(&seats(players)).unwrap();
        let mut out = Vec::new();
        let items = turns
            .iter()
            .map(|&(c, roll)| parse_position(&c.to_string()).map(|s| (s, roll)));
        g.trace_turns::<_, LudoError>(items, |t| out.push(t.tags.to_string()))
            .unwrap();
        out
    }

    #[test]
    fn every_turn_names_the_decisions_it_touched() {
        // out of the yard (rule 1), a move from R, a plain move, a yard token and a roll
        assert_eq!(
            tags_of("A", &[('A', 6), ('A', 3), ('A', 2), ('A', 6), ('A', 1)]),
            ["D4 D9.1", "D4 D5", "D4", "D4 D9.1", "D5 D9.4"]
        );
        // a p/q tie on R: rule 4 and D6 (two tokens on R are no stack)
        assert_eq!(
            tags_of("A", &[('A', 6), ('A', 6), ('A', 3)])[2],
            "D5 D6 D9.4"
        );
        // instructor case 6: the stack forms, then B kicks it
        let t = tags_of("AB", &CASE_6);
        assert_eq!(t[4], "D5 D8 D9.4");
        assert_eq!(t[6], "D8");
        assert_eq!(t[9], "D4 D5 D7 D8");
        // a finished player's turn
        let mut g = Cs162Game::new(&seats("AB")).unwrap();
        g.set_step(seat_no(0), token_no(0), 57);
        g.set_step(seat_no(0), token_no(1), 57);
        assert_eq!(g.turn(seat_no(0), 3).unwrap().tags.to_string(), "D10");
        // an exact finish from the home squares (rule 2) and a bounce
        let mut g = Cs162Game::new(&seats("A")).unwrap();
        g.set_step(seat_no(0), token_no(0), 30);
        g.set_step(seat_no(0), token_no(1), 54);
        assert_eq!(g.turn(seat_no(0), 3).unwrap().tags.to_string(), "D5 D9.2");
        g.set_step(seat_no(0), token_no(0), 55);
        g.set_step(seat_no(0), token_no(1), 55);
        assert_eq!(g.turn(seat_no(0), 5).unwrap().tags.to_string(), "D5 D8");
        assert_eq!(g.steps(seat_no(0), token_no(1)), 54);
    }

    #[test]
    fn parse_labels() {
        assert_eq!(parse_position("D"), Ok(seat_no(3)));
        assert!(parse_position("a").is_err());
        assert!(parse_position("AB").is_err());
        assert!(parse_position("").is_err());
        assert_eq!(parse_token("q"), Ok(token_no(1)));
        assert!(parse_token("r").is_err());
    }
}
