//! The CS162 portfolio-project game: space names (D1), the priority rule that picks the
//! token to move (D9), turns (D10) and single-token moves (D12). The rules themselves live
//! in [`Board`] and [`Rules::CS162`]; this module only adds what the assignment defines on
//! top of them.

use std::fmt;
use std::sync::LazyLock;

use super::board::{Board, MoveOutcome, Step, YARD};
use super::bots::priority_token;
use super::error::{LudoError, TurnContext};
use super::rules::{MAX_SEATS, Rules, Seat};
use super::tables::{Fast, Tables};

/// A token (`0` = `p`, `1` = `q`).
pub use super::seat::Token;

const RULES: Rules = Rules::CS162;

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

/// A CS162 game: the board and the players list in the order it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cs162Game {
    board: Board,
    order: [Seat; MAX_SEATS],
    len: u8,
}

impl Cs162Game {
    /// The rules this game plays by.
    pub const RULES: Rules = RULES;

    /// A new game for the seats in `players` (in that order), every token in its yard.
    pub fn new(players: &[Seat]) -> Result<Cs162Game, LudoError> {
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
        })
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
        for (index, turn) in turns.into_iter().enumerate() {
            turn.and_then(|(seat, roll)| game.play_turn(seat, roll).map_err(E::from))
                .map_err(|e| e.in_turn(index))?;
        }
        Ok(game)
    }

    /// The seats in the order of the players list.
    pub fn players(&self) -> &[Seat] {
        &self.order[..self.len as usize]
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
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
        let allowed = RULES
            .all_tokens()
            .filter(|&t| self.board.target(&geometry(), seat, t, roll).is_some())
            .fold(0u8, |mask, t| mask | t.bit());
        priority_token(&geometry(), &self.board, seat, roll, allowed)
    }

    /// Put a token at a step count directly (for tests and hand-made positions); the caller
    /// keeps it within −1..=57.
    pub fn set_step(&mut self, seat: Seat, token: Token, steps: Step) {
        self.board.set_step(seat, token, steps);
    }

    /// Play one turn: `seat` rolls `roll` and the priority rule moves a token. Turns of a
    /// completed player are ignored (D10). Returns what the move did, if anything moved.
    pub fn play_turn(&mut self, seat: Seat, roll: i64) -> Result<Option<MoveOutcome>, LudoError> {
        if !self.has_seat(seat) {
            return Err(LudoError::PositionNotPlaying(label(seat)));
        }
        if !(1..=6).contains(&roll) {
            return Err(LudoError::InvalidRoll(roll.to_string()));
        }
        if self.completed(seat) {
            return Ok(None);
        }
        let roll = roll as u8;
        Ok(self
            .choose_token(seat, roll)
            .map(|t| self.board.apply(&geometry(), seat, t, roll)))
    }

    /// Move one named token `steps` forward (D12): from the yard only a 6 moves it (to
    /// `'R'`); a stacked pair moves together; kicks and bounces apply. `steps` is 1..=57.
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
        Ok(self.board.apply(&geometry(), seat, token, steps as u8))
    }

    /// The space of every token: for each player in the players list, `p` then `q` (D3).
    pub fn spaces(&self) -> impl Iterator<Item = SpaceName> + '_ {
        self.players().iter().flat_map(move |&seat| {
            RULES.all_tokens().map(move |t| {
                SpaceName::of(seat, self.board.step(seat, t) as i64)
                    .expect("board step counts stay within -1..=57")
            })
        })
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
