//! Rule sets as data. A [`Rules`] value says how big the board is, where each seat enters the
//! shared track, how many tokens each seat has and how moves and turns resolve; the move
//! code in [`crate::ludo::board`] and the turn code in [`crate::ludo::game`] read it instead
//! of hard-coding any one game. Three presets ([`Rules::CS162`], [`Rules::STANDARD`],
//! [`Rules::GT`]) can be changed option by option and checked with [`Rules::validate`].
//!
//! (The file passes 600 lines only with its unit tests, kept next to the code they pin
//! down; the code itself is about 420 lines.)

use super::error::LudoError;

pub use super::seat::{MAX_SEATS, MAX_TOKENS, Seat, Token};

/// Which of the seeds' games a rule set descends from: decides how squares are named and
/// how the board is drawn; the rules themselves are the other fields of [`Rules`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// The CS162 portfolio project (56-square track, 'R' off the track).
    Cs162,
    /// Standard Ludo on the 52-square board.
    Standard,
    /// The GT Ludo game (40 play squares, start slots, two goal squares each).
    Gt,
}

/// What happens when a roll would carry a token past the last step of its route.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Overshoot {
    /// The token walks to the end and back by the remainder (CS162, D5).
    Bounce,
    /// The move is allowed but the token stays where it is (GT).
    Stay,
    /// The move is not legal (standard Ludo: exact roll to finish).
    Illegal,
}

/// What happens when a token ends its move where its own tokens stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OwnTokens {
    /// They form a stack that moves as one piece until it finishes (CS162, D8).
    Stack,
    /// They share the square and move separately (standard Ludo).
    Share,
    /// The mover is bumped on to the next free square of its route (GT).
    Bump,
    /// They share the square, and two or more of them on a track square form a block that
    /// opponents can neither land on nor pass.
    Block,
}

/// Which rolls give another roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SixBonus {
    /// A 6 gives no extra roll.
    Never,
    /// A 6 gives one extra roll; a 6 on that extra roll gives no further one (CS162).
    Once,
    /// Every 6 gives another roll (standard, GT), up to the six limit if one is set.
    Always,
}

/// When the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndCondition {
    /// As soon as one player has brought every token home (GT).
    FirstWinner,
    /// When one player is left: everyone is ranked (CS162, standard).
    FullRanking,
}

/// How tokens are named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenNames {
    /// The same letters for every seat (e.g. `p`, `q`).
    Fixed([char; MAX_TOKENS]),
    /// The seat's letter: upper case for the first token, lower case for the second (GT).
    SeatCase,
}

/// A rule set. Step counts ("steps") measure a token's progress along its own route:
/// negative in the yard, `0` at the entry point, then `first_track_step..=last_track_step`
/// on the shared track, then the seat's private home column up to `finish_step`.
///
/// Presets with options on top; the notation names the preset and the options changed:
///
/// ```
/// use ludogame::ludo::Rules;
/// use ludogame::ludo::rules::OptionValue;
///
/// let mut rules = Rules::preset("standard").unwrap();
/// rules.set_option("six_limit", &OptionValue::Int(3)).unwrap();
/// let text = rules.to_string();
/// assert_eq!(text, "standard[six_limit=3]");
/// assert_eq!(text.parse::<Rules>().unwrap(), rules);
/// // an unknown option is refused, and so are options that do not fit together
/// assert!(rules.set_option("colour", &OptionValue::Str("red".into())).is_err());
/// rules.set_option("six_limit", &OptionValue::Int(1)).unwrap();
/// assert!(rules.validate().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The game this rule set descends from.
    pub preset: Preset,
    /// Squares on the shared track.
    pub track_len: u8,
    /// For each seat, the 0-based track square its `first_track_step` stands on.
    pub seat_offsets: [u8; MAX_SEATS],
    /// Tokens per seat.
    pub tokens: u8,
    /// The first step on the shared track (1 when step 0 is an off-track "ready" square).
    pub first_track_step: i8,
    /// The last step on the shared track; the home column follows it.
    pub last_track_step: i8,
    /// A token at this step or beyond is home: when all of a seat's tokens are, it is done.
    pub home_step: i8,
    /// The last step of the route.
    pub finish_step: i8,
    /// The roll that lets a token leave the yard.
    pub enter_roll: u8,
    /// Overshoot policy.
    pub overshoot: Overshoot,
    /// Own-token policy.
    pub own_tokens: OwnTokens,
    /// With the entering roll and a token in the yard, only yard tokens may move (GT).
    pub forced_entry: bool,
    /// Which 6s give another roll.
    pub six_bonus: SixBonus,
    /// The n-th 6 in a row is not played and the turn passes (0: no limit).
    pub six_limit: u8,
    /// A capture gives one extra roll (not added to a 6's).
    pub capture_bonus: bool,
    /// Bringing a token home gives one extra roll (not added to a 6's).
    pub finish_bonus: bool,
    /// Start squares and the squares 8 after them are safe: nobody is captured there.
    pub safe_squares: bool,
    /// When the game ends.
    pub end: EndCondition,
    /// Yard tokens stand on numbered start slots, and a captured token takes its owner's
    /// first free slot (GT); otherwise every yard token is at step −1.
    pub yard_slots: bool,
    /// One-letter labels of the seats, in seat order.
    pub seat_labels: [char; MAX_SEATS],
    /// How tokens are named.
    pub token_names: TokenNames,
}

impl Rules {
    /// The CS162 portfolio-project rules (DESIGN.md §2–§3): a 56-square track, seats A–D
    /// entering at squares 1, 15, 29, 43, two tokens `p` and `q`, steps −1..=57.
    pub const CS162: Rules = Rules {
        preset: Preset::Cs162,
        track_len: 56,
        seat_offsets: [0, 14, 28, 42],
        tokens: 2,
        first_track_step: 1,
        last_track_step: 50,
        home_step: 57,
        finish_step: 57,
        enter_roll: 6,
        overshoot: Overshoot::Bounce,
        own_tokens: OwnTokens::Stack,
        forced_entry: false,
        six_bonus: SixBonus::Once,
        six_limit: 0,
        capture_bonus: false,
        finish_bonus: false,
        safe_squares: false,
        end: EndCondition::FullRanking,
        yard_slots: false,
        seat_labels: ['A', 'B', 'C', 'D'],
        token_names: TokenNames::Fixed(['p', 'q', 'r', 's']),
    };

    /// Standard Ludo (DESIGN.md §4): a 52-square loop, seats 13 squares apart, four tokens
    /// entering onto their start square (step 0) on a 6, 51 track squares (steps 0–50), five
    /// home-column squares (51–55), home at 56 on an exact roll; captures send tokens to the
    /// yard; every 6 gives another roll; play goes on to a full ranking.
    pub const STANDARD: Rules = Rules {
        preset: Preset::Standard,
        track_len: 52,
        seat_offsets: [0, 13, 26, 39],
        tokens: 4,
        first_track_step: 0,
        last_track_step: 50,
        home_step: 56,
        finish_step: 56,
        enter_roll: 6,
        overshoot: Overshoot::Illegal,
        own_tokens: OwnTokens::Share,
        forced_entry: false,
        six_bonus: SixBonus::Always,
        six_limit: 0,
        capture_bonus: false,
        finish_bonus: false,
        safe_squares: false,
        end: EndCondition::FullRanking,
        yard_slots: false,
        seat_labels: ['A', 'B', 'C', 'D'],
        token_names: TokenNames::Fixed(['1', '2', '3', '4']),
    };

    /// The GT Ludo game (DESIGN.md §4): 40 play squares, entries at 1, 11, 21, 31, a route
    /// of 42 entries (40 play squares, 2 goal squares), start slots, forced entering on a 6,
    /// bumping on own tokens, overshoot stays, every 6 rolls again, first player home wins.
    pub const GT: Rules = Rules {
        preset: Preset::Gt,
        track_len: 40,
        seat_offsets: [0, 10, 20, 30],
        tokens: 2,
        first_track_step: 0,
        last_track_step: 39,
        home_step: 40,
        finish_step: 41,
        enter_roll: 6,
        overshoot: Overshoot::Stay,
        own_tokens: OwnTokens::Bump,
        forced_entry: true,
        six_bonus: SixBonus::Always,
        six_limit: 0,
        capture_bonus: false,
        finish_bonus: false,
        safe_squares: false,
        end: EndCondition::FirstWinner,
        yard_slots: true,
        seat_labels: ['A', 'B', 'C', 'D'],
        token_names: TokenNames::SeatCase,
    };

    /// The preset with this name: `"cs162"`, `"standard"` or `"gt"`.
    pub fn preset(name: &str) -> Result<Rules, LudoError> {
        match name.to_ascii_lowercase().as_str() {
            "cs162" => Ok(Rules::CS162),
            "standard" => Ok(Rules::STANDARD),
            "gt" => Ok(Rules::GT),
            _ => Err(LudoError::InvalidRules(format!(
                "unknown rule set '{}': expected 'cs162', 'standard' or 'gt'",
                crate::common::excerpt::excerpt(name)
            ))),
        }
    }

    /// The rule set a caller names: a preset name or a rule set's notation such as
    /// `standard[six_limit=3]` (its errors as [`LudoError::InvalidRules`]); CS162 when not
    /// said.
    pub fn named(name: Option<&str>) -> Result<Rules, LudoError> {
        match name {
            None => Ok(Rules::CS162),
            Some(text) if text.contains('[') => text.parse::<Rules>().map_err(|e| match e {
                LudoError::InvalidNotation(m) => LudoError::InvalidRules(m),
                other => other,
            }),
            Some(text) => Rules::preset(text),
        }
    }

    /// These rules with a caller's `options` set in order (each read by the caller, whose
    /// errors stop it there), then validated.
    pub fn with_options<E: From<LudoError>>(
        mut self,
        options: impl IntoIterator<Item = Result<(String, OptionValue), E>>,
    ) -> Result<Rules, E> {
        for option in options {
            let (name, value) = option?;
            self.set_option(&name, &value)?;
        }
        self.validate()?;
        Ok(self)
    }

    /// The preset's name.
    pub fn name(&self) -> &'static str {
        match self.preset {
            Preset::Cs162 => "cs162",
            Preset::Standard => "standard",
            Preset::Gt => "gt",
        }
    }

    /// Check that the options fit together; an impossible combination is an error.
    pub fn validate(&self) -> Result<(), LudoError> {
        let bad = |msg: &str| Err(LudoError::InvalidRules(msg.to_owned()));
        let len = self.track_len as i16;
        if self.seat_offsets.iter().any(|&o| o as i16 >= len)
            || (self.last_track_step - self.first_track_step) as i16 >= len
        {
            return bad("the track must be longer than a route's track part and every offset");
        }
        if !(1..=MAX_TOKENS as u8).contains(&self.tokens) {
            return Err(LudoError::InvalidRules(format!(
                "tokens per player must be 1 to {MAX_TOKENS}, not {}",
                self.tokens
            )));
        }
        if self.preset == Preset::Gt && self.tokens > 2 {
            return bad(
                "the GT board has two start slots and two goal squares per player: tokens must be 1 or 2",
            );
        }
        if self.six_limit == 1 {
            return bad("a six limit of 1 would forfeit every 6: use 2 or more (or 0 for none)");
        }
        if self.six_limit > 0 && self.six_bonus == SixBonus::Never {
            return bad("a six limit needs extra rolls on a 6 (six_bonus 'once' or 'always')");
        }
        if self.six_limit > 2 && self.six_bonus == SixBonus::Once {
            return bad("with one extra roll per 6 there are never more than two 6s in a row");
        }
        if self.own_tokens == OwnTokens::Stack && self.overshoot == Overshoot::Stay {
            // Not impossible, but a stack that "moves" without moving is indistinguishable
            // from a pass; keep the combination out until a rule set needs it.
            return bad("stacking with overshoot 'stay' is not supported");
        }
        Ok(())
    }

    /// The seat with this label, if any.
    pub fn seat_of(&self, label: char) -> Option<Seat> {
        self.seat_labels
            .iter()
            .position(|&c| c == label)
            .and_then(Seat::new)
    }

    /// The label of a seat.
    #[inline]
    pub fn seat_label(&self, seat: Seat) -> char {
        self.seat_labels[seat]
    }

    /// A seat's tokens, in order (the first [`Rules::tokens`](Rules#structfield.tokens)).
    #[inline]
    pub fn all_tokens(&self) -> impl Iterator<Item = Token> + Clone + use<> {
        Token::first(self.tokens)
    }

    /// The name of a seat's token.
    pub fn token_label(&self, seat: Seat, token: Token) -> char {
        match self.token_names {
            TokenNames::Fixed(names) => names[token],
            TokenNames::SeatCase if token == Token::FIRST => {
                self.seat_label(seat).to_ascii_uppercase()
            }
            TokenNames::SeatCase => self.seat_label(seat).to_ascii_lowercase(),
        }
    }

    /// A token's full name, as moves are named: the label, prefixed by the seat's unless the
    /// label already names the seat (GT's `A`/`a`): `Ap`, `C3`, `a`.
    pub fn token_name(&self, seat: Seat, token: Token) -> String {
        let label = self.token_label(seat, token);
        match self.token_names {
            TokenNames::SeatCase => label.to_string(),
            TokenNames::Fixed(_) => format!("{}{label}", self.seat_label(seat)),
        }
    }

    /// The token of `seat` with this label, if the rule set has it.
    pub fn token_of(&self, seat: Seat, label: char) -> Option<Token> {
        self.all_tokens()
            .find(|&t| self.token_label(seat, t) == label)
    }

    /// Is `step` on the shared track (where tokens capture and are captured)?
    #[inline]
    pub fn on_track(&self, step: i8) -> bool {
        (self.first_track_step..=self.last_track_step).contains(&step)
    }

    /// Can tokens stack at `step` (track or home column, not the ready square nor the end;
    /// D8)? Computed without a branch: it sits on the move path.
    #[inline]
    pub fn can_stack_at(&self, step: i8) -> bool {
        (step >= self.first_track_step) & (step < self.finish_step)
    }

    /// Is `step` in the seat's private home column (after the track, before the end)?
    #[inline]
    pub fn in_home_column(&self, step: i8) -> bool {
        step > self.last_track_step && step < self.finish_step
    }

    /// 0-based shared-track square of `seat`'s token at `step`, if that step is on the track.
    #[inline]
    pub fn track_square(&self, seat: Seat, step: i8) -> Option<u8> {
        if !self.on_track(step) {
            return None;
        }
        // offset < track_len and along < track_len, so one subtraction replaces a modulo
        // (this sits on the hottest path of every move).
        let square = self.seat_offsets[seat] as u16 + (step - self.first_track_step) as u16;
        let len = self.track_len as u16;
        Some(if square >= len { square - len } else { square } as u8)
    }

    /// Where a roll of `roll` takes a token at `step`, before opponent blocks and own-token
    /// bumps: a yard token (negative step) enters at step 0 on the entering roll; a token
    /// that is home (at `home_step` or beyond: GT's two goal squares, the end elsewhere)
    /// is out of play and never moves; otherwise it goes `roll` steps on, and past the end
    /// it bounces back, stays, or cannot move, by the overshoot policy. `None` when the
    /// roll cannot move it.
    pub fn route_target(&self, step: i8, roll: u8) -> Option<i8> {
        if step < 0 {
            return (roll == self.enter_roll).then_some(0);
        }
        if step >= self.home_step {
            return None;
        }
        let finish = self.finish_step as i16;
        let reached = step as i16 + roll as i16;
        if reached <= finish {
            return Some(reached as i8);
        }
        match self.overshoot {
            Overshoot::Bounce => {
                let back = 2 * finish - reached;
                // A move longer than the whole route would bounce off the route's start.
                (back >= self.first_track_step as i16).then_some(back as i8)
            }
            Overshoot::Stay => Some(step),
            Overshoot::Illegal => None,
        }
    }

    /// The step at which `seat`'s tokens stand on 0-based track `square`, if its route
    /// passes there (the inverse of [`Rules::track_square`]).
    #[inline]
    pub fn step_on_square(&self, seat: Seat, square: u8) -> Option<i8> {
        let mut along = square as i16 - self.seat_offsets[seat] as i16;
        if along < 0 {
            along += self.track_len as i16; // square and offset are both below track_len
        }
        let step = self.first_track_step as i16 + along;
        (step <= self.last_track_step as i16).then_some(step as i8)
    }

    /// The name of the square `seat`'s token at `step` stands on, in the rule set's own
    /// numbering. GT numbers squares as the original does: play squares `1`–`40`, start
    /// slots `41`–`48` (two per seat, A first; a yard token at step −k is on its seat's
    /// k-th slot), goal squares `49`–`56` (two per seat). The other rule sets name spaces
    /// as CS162 does (D1): `H` the yard, `R` CS162's off-track ready space, `1`–`56`
    /// (CS162) or `1`–`52` (standard) the shared track counted from A's start, `A1`… the
    /// seat's home column, `E` the end.
    pub fn square_name(&self, seat: Seat, step: i8) -> String {
        if self.preset == Preset::Gt {
            let slots = 2 * seat.index() as i16;
            let number = if step < 0 {
                41 + slots + (-1 - step as i16)
            } else if let Some(square) = self.track_square(seat, step) {
                square as i16 + 1
            } else {
                49 + slots + (step - self.home_step) as i16
            };
            return number.to_string();
        }
        if step < 0 {
            "H".into()
        } else if step >= self.finish_step {
            "E".into()
        } else if let Some(square) = self.track_square(seat, step) {
            (square + 1).to_string()
        } else if step < self.first_track_step {
            "R".into()
        } else {
            format!("{}{}", self.seat_label(seat), step - self.last_track_step)
        }
    }

    /// Is this 0-based track square safe (when safe squares are on)?
    pub fn is_safe_square(&self, square: u8) -> bool {
        self.safe_squares
            && self.seat_offsets.iter().any(|&start| {
                square == start || square as u16 == (start as u16 + 8) % self.track_len as u16
            })
    }

    /// The longest single move the engine accepts in a direct move (a move of this many
    /// steps from the entry point reaches the end of the route).
    pub fn max_move(&self) -> u8 {
        self.finish_step as u8
    }

    /// How many players a game of these rules has when none is said: four in GT Ludo (its
    /// board is made for four), two otherwise (the CS162 game's number).
    pub fn default_players(&self) -> usize {
        match self.preset {
            Preset::Gt => 4,
            _ => 2,
        }
    }

    /// The seats of `players`, read for these rules (the default number of players when
    /// `None`): a count from 1 to [`MAX_SEATS`] takes [`Rules::default_seats`], labels
    /// name one seat each (a duplicate is the game's to refuse).
    pub fn seats_of(&self, players: Option<Players>) -> Result<Vec<Seat>, LudoError> {
        let labels = match players {
            None => return self.default_seats(self.default_players()),
            Some(Players::Count(Some(n), _)) if n < 1 => return Err(LudoError::NoPlayers),
            Some(Players::Count(Some(n), _)) if n <= MAX_SEATS as i64 => {
                return self.default_seats(n as usize);
            }
            Some(Players::Count(_, shown)) => {
                let why = format!("{shown} players: a game has 1 to {MAX_SEATS}");
                return Err(LudoError::InvalidPlayers(why));
            }
            Some(Players::Labels(labels)) => labels,
        };
        let seat = |l: &String| {
            let mut chars = l.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => self.seat_of(c),
                _ => None,
            }
            .ok_or_else(|| LudoError::InvalidPosition(l.clone()))
        };
        labels.iter().map(seat).collect()
    }

    /// The seats that play when `n` players take part: opposite seats for two (A and C),
    /// then A, B, C and all four.
    pub fn default_seats(&self, n: usize) -> Result<Vec<Seat>, LudoError> {
        let [a, b, c, d] = Seat::ALL;
        match n {
            1 => Ok(vec![a]),
            2 => Ok(vec![a, c]),
            3 => Ok(vec![a, b, c]),
            4 => Ok(vec![a, b, c, d]),
            _ => Err(LudoError::TooManyPlayers(n)),
        }
    }
}

/// A game's players as a caller names them ([`Rules::seats_of`] reads them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Players {
    /// A number of players (`None`: too large to read), and how the caller's value looks.
    Count(Option<i64>, String),
    /// Position labels, one seat each ('A'...).
    Labels(Vec<String>),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ludo::seat::{seat_list, seat_no, token_no};

    #[test]
    fn a_named_rule_set_with_options() {
        assert_eq!(Rules::named(None).unwrap(), Rules::CS162);
        assert_eq!(Rules::named(Some("GT")).unwrap(), Rules::GT);
        let notation = Rules::named(Some("standard[six_limit=3]")).unwrap();
        assert_eq!(notation.to_string(), "standard[six_limit=3]");
        let bad = Rules::named(Some("standard[nope")).unwrap_err();
        assert!(matches!(bad, LudoError::InvalidRules(_)), "{bad}");
        let set = |o: (&str, OptionValue)| Ok::<_, LudoError>((o.0.to_owned(), o.1));
        let three = Rules::STANDARD.with_options([("six_limit", OptionValue::Int(3))].map(set));
        assert_eq!(three.unwrap(), notation);
        let unknown = Rules::STANDARD.with_options([("nope", OptionValue::Int(3))].map(set));
        assert!(unknown.is_err());
        let first = [Err(LudoError::NoGame), set(("nope", OptionValue::Int(1)))];
        assert_eq!(Rules::STANDARD.with_options(first), Err(LudoError::NoGame));
    }

    #[test]
    fn players_read_as_seats() {
        let r = Rules::CS162;
        let labels = |l: &[&str]| Some(Players::Labels(l.iter().map(|s| s.to_string()).collect()));
        let count = |n: Option<i64>| Some(Players::Count(n, "int (n)".into()));
        assert_eq!(r.seats_of(None), Ok(seat_list(&[0, 2])));
        assert_eq!(Rules::GT.seats_of(None).map(|s| s.len()), Ok(4));
        assert_eq!(r.seats_of(count(Some(3))), Ok(seat_list(&[0, 1, 2])));
        assert_eq!(r.seats_of(count(Some(0))), Err(LudoError::NoPlayers));
        let too_many = "int (n) players: a game has 1 to 4".to_owned();
        assert_eq!(
            r.seats_of(count(Some(5))),
            Err(LudoError::InvalidPlayers(too_many.clone()))
        );
        assert_eq!(
            r.seats_of(count(None)),
            Err(LudoError::InvalidPlayers(too_many))
        );
        assert_eq!(r.seats_of(labels(&["D", "B"])), Ok(seat_list(&[3, 1])));
        let bad = Err(LudoError::InvalidPosition("AB".into()));
        assert_eq!(r.seats_of(labels(&["A", "AB"])), bad);
    }

    #[test]
    fn cs162_track_squares_match_the_assignment() {
        let r = Rules::CS162;
        // 1-based space = square + 1. A: 1..50, B: 15..8, C: 29..22, D: 43..36.
        let first_last: Vec<(u8, u8)> = (0..4)
            .map(|s| {
                (
                    r.track_square(seat_no(s), 1).unwrap() + 1,
                    r.track_square(seat_no(s), 50).unwrap() + 1,
                )
            })
            .collect();
        assert_eq!(first_last, vec![(1, 50), (15, 8), (29, 22), (43, 36)]);
        assert_eq!(r.track_square(seat_no(1), 42).map(|q| q + 1), Some(56));
        assert_eq!(r.track_square(seat_no(0), 0), None);
        assert_eq!(r.track_square(seat_no(0), 51), None);
    }

    #[test]
    fn gt_routes_enter_at_1_11_21_31_and_cover_40_squares() {
        let r = Rules::GT;
        for seat in 0..4 {
            let squares: Vec<u8> = (0..=39)
                .map(|s| r.track_square(seat_no(seat), s).unwrap())
                .collect();
            assert_eq!(squares[0] + 1, [1, 11, 21, 31][seat]);
            let mut sorted = squares.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), 40);
            assert_eq!(r.track_square(seat_no(seat), 40), None);
        }
    }

    #[test]
    fn standard_covers_51_track_squares() {
        let r = Rules::STANDARD;
        for seat in 0..4 {
            let last = r.track_square(seat_no(seat), 50).unwrap();
            // The last track square (the turning square) is two before the start square.
            assert_eq!((last + 2) % 52, r.seat_offsets[seat]);
        }
    }

    #[test]
    fn step_on_square_inverts_track_square() {
        for r in [Rules::CS162, Rules::STANDARD, Rules::GT] {
            for seat in 0..4 {
                for step in -1..=r.finish_step {
                    if let Some(sq) = r.track_square(seat_no(seat), step) {
                        assert_eq!(r.step_on_square(seat_no(seat), sq), Some(step));
                    }
                }
                for sq in 0..r.track_len {
                    if let Some(step) = r.step_on_square(seat_no(seat), sq) {
                        assert_eq!(r.track_square(seat_no(seat), step), Some(sq));
                    }
                }
            }
        }
    }

    #[test]
    fn square_names_follow_each_rule_sets_numbering() {
        let names = |r: &Rules, seat: Seat, steps: &[i8]| -> Vec<String> {
            steps.iter().map(|&s| r.square_name(seat, s)).collect()
        };
        // GT: A's slots 41-42, entry 1, last play square 40, goals 49-50; D's 47-48, 31, 55-56.
        let g = Rules::GT;
        assert_eq!(
            names(&g, seat_no(0), &[-1, -2, 0, 39, 40, 41]),
            ["41", "42", "1", "40", "49", "50"]
        );
        assert_eq!(
            names(&g, seat_no(3), &[-1, -2, 0, 9, 10, 40, 41]),
            ["47", "48", "31", "40", "1", "55", "56"]
        );
        // CS162: the D1 space names, exactly as the adapter's.
        let c = Rules::CS162;
        for seat in Seat::ALL {
            for step in -1..=57 {
                let d1 = crate::ludo::cs162::SpaceName::of(seat, step as i64).unwrap();
                assert_eq!(c.square_name(seat, step), d1.to_string());
            }
        }
        // Standard: B starts on 14; the home column B1-B5, then home.
        let s = Rules::STANDARD;
        assert_eq!(
            names(&s, seat_no(1), &[-1, 0, 38, 39, 50, 51, 55, 56]),
            ["H", "14", "52", "1", "12", "B1", "B5", "E"]
        );
    }

    #[test]
    fn labels_round_trip() {
        let r = Rules::CS162;
        assert_eq!(r.seat_of('C'), Some(seat_no(2)));
        assert_eq!(r.seat_of('E'), None);
        assert_eq!(r.token_of(seat_no(0), 'q'), Some(token_no(1)));
        assert_eq!(r.token_of(seat_no(0), 'r'), None);
        let g = Rules::GT;
        assert_eq!(
            (
                g.token_label(seat_no(1), token_no(0)),
                g.token_label(seat_no(1), token_no(1))
            ),
            ('B', 'b')
        );
        assert_eq!(g.token_of(seat_no(2), 'c'), Some(token_no(1)));
    }

    #[test]
    fn validation_refuses_impossible_combinations() {
        assert!(Rules::CS162.validate().is_ok());
        assert!(Rules::STANDARD.validate().is_ok());
        assert!(Rules::GT.validate().is_ok());
        let mut r = Rules::STANDARD;
        r.six_limit = 1;
        assert!(r.validate().is_err());
        r.six_limit = 3;
        assert!(r.validate().is_ok());
        r.six_bonus = SixBonus::Never;
        assert!(r.validate().is_err());
        let mut r = Rules::STANDARD;
        r.tokens = 5;
        assert!(r.validate().is_err());
        assert!(Rules::preset("chess").is_err());
    }
}

/// The value of a rule option, as given by a user (from Python, the command line or a
/// notation string).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A yes/no option.
    Bool(bool),
    /// A number.
    Int(i64),
    /// A named choice.
    Str(String),
}

/// A value as the rules notation writes it: `true`, `3`, `bounce`.
impl std::fmt::Display for OptionValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::Str(s) => f.write_str(s),
        }
    }
}

/// A value as the rules notation writes it: `true` and `false` are yes/no, a whole number
/// is a number, anything else a named choice (which [`Rules::set_option`] then checks).
impl std::str::FromStr for OptionValue {
    type Err = std::convert::Infallible;

    fn from_str(text: &str) -> Result<OptionValue, Self::Err> {
        Ok(match text {
            "true" => OptionValue::Bool(true),
            "false" => OptionValue::Bool(false),
            v => match v.parse::<i64>() {
                Ok(i) => OptionValue::Int(i),
                Err(_) => OptionValue::Str(v.to_owned()),
            },
        })
    }
}

impl OptionValue {
    /// The value as messages quote it: a named choice in quotes (`'bounce'`), others as
    /// written.
    pub fn quoted(&self) -> String {
        match self {
            OptionValue::Str(s) => format!("'{s}'"),
            other => other.to_string(),
        }
    }
}

/// The names of the options [`Rules::set_option`] understands.
pub const OPTION_NAMES: [&str; 10] = [
    "tokens",
    "overshoot",
    "own_tokens",
    "forced_entry",
    "six_bonus",
    "six_limit",
    "capture_bonus",
    "finish_bonus",
    "safe_squares",
    "end",
];

impl Rules {
    /// Change one option by name (see [`OPTION_NAMES`]). The result is not validated until
    /// [`Rules::validate`] runs, so options can be set in any order.
    pub fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), LudoError> {
        let quoted = value.quoted();
        let wrong = |expected: &str| {
            Err(LudoError::InvalidRules(format!(
                "option {name} must be {expected}, not {quoted}"
            )))
        };
        let choice = |choices: &[&str]| -> Result<usize, LudoError> {
            match value {
                OptionValue::Str(s) => {
                    let s = s.to_ascii_lowercase().replace('_', "-");
                    choices.iter().position(|c| *c == s).ok_or(())
                }
                _ => Err(()),
            }
            .map_err(|_| {
                LudoError::InvalidRules(format!(
                    "option {name} must be one of {}, not {quoted}",
                    choices
                        .iter()
                        .map(|c| format!("'{c}'"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
        };
        match name {
            "tokens" | "six_limit" => {
                let OptionValue::Int(n) = *value else {
                    return wrong("an int");
                };
                let Ok(n) = u8::try_from(n) else {
                    return wrong("a small non-negative int");
                };
                if name == "tokens" {
                    self.tokens = n;
                } else {
                    self.six_limit = n;
                }
            }
            "overshoot" => {
                self.overshoot = [Overshoot::Bounce, Overshoot::Stay, Overshoot::Illegal]
                    [choice(&["bounce", "stay", "illegal"])?];
            }
            "own_tokens" => {
                self.own_tokens = [
                    OwnTokens::Stack,
                    OwnTokens::Share,
                    OwnTokens::Bump,
                    OwnTokens::Block,
                ][choice(&["stack", "share", "bump", "block"])?];
            }
            "six_bonus" => {
                self.six_bonus = [SixBonus::Never, SixBonus::Once, SixBonus::Always]
                    [choice(&["never", "once", "always"])?];
            }
            "end" => {
                self.end = [EndCondition::FirstWinner, EndCondition::FullRanking]
                    [choice(&["first-winner", "full-ranking"])?];
            }
            "forced_entry" | "capture_bonus" | "finish_bonus" | "safe_squares" => {
                let OptionValue::Bool(b) = *value else {
                    return wrong("True or False");
                };
                match name {
                    "forced_entry" => self.forced_entry = b,
                    "capture_bonus" => self.capture_bonus = b,
                    "finish_bonus" => self.finish_bonus = b,
                    _ => self.safe_squares = b,
                }
            }
            _ => {
                return Err(LudoError::InvalidRules(format!(
                    "unknown option '{}': expected one of {}",
                    crate::common::excerpt::excerpt(name),
                    OPTION_NAMES.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// Every option's current value, in [`OPTION_NAMES`] order.
    pub fn options(&self) -> Vec<(&'static str, OptionValue)> {
        let s = |v: &str| OptionValue::Str(v.to_owned());
        vec![
            ("tokens", OptionValue::Int(self.tokens as i64)),
            (
                "overshoot",
                s(match self.overshoot {
                    Overshoot::Bounce => "bounce",
                    Overshoot::Stay => "stay",
                    Overshoot::Illegal => "illegal",
                }),
            ),
            (
                "own_tokens",
                s(match self.own_tokens {
                    OwnTokens::Stack => "stack",
                    OwnTokens::Share => "share",
                    OwnTokens::Bump => "bump",
                    OwnTokens::Block => "block",
                }),
            ),
            ("forced_entry", OptionValue::Bool(self.forced_entry)),
            (
                "six_bonus",
                s(match self.six_bonus {
                    SixBonus::Never => "never",
                    SixBonus::Once => "once",
                    SixBonus::Always => "always",
                }),
            ),
            ("six_limit", OptionValue::Int(self.six_limit as i64)),
            ("capture_bonus", OptionValue::Bool(self.capture_bonus)),
            ("finish_bonus", OptionValue::Bool(self.finish_bonus)),
            ("safe_squares", OptionValue::Bool(self.safe_squares)),
            (
                "end",
                s(match self.end {
                    EndCondition::FirstWinner => "first-winner",
                    EndCondition::FullRanking => "full-ranking",
                }),
            ),
        ]
    }
}

#[cfg(test)]
mod option_tests {
    use super::*;

    #[test]
    fn options_round_trip_through_set_option() {
        for preset in [Rules::CS162, Rules::STANDARD, Rules::GT] {
            let mut r = Rules::STANDARD;
            r.preset = preset.preset;
            for (name, value) in preset.options() {
                r.set_option(name, &value).unwrap();
            }
            assert_eq!(r.options(), preset.options());
        }
        let mut r = Rules::STANDARD;
        assert!(r.set_option("colour", &OptionValue::Bool(true)).is_err());
        assert!(
            r.set_option("overshoot", &OptionValue::Str("wrap".into()))
                .is_err()
        );
        assert!(
            r.set_option("tokens", &OptionValue::Str("4".into()))
                .is_err()
        );
        r.set_option("own_tokens", &OptionValue::Str("Block".into()))
            .unwrap();
        assert_eq!(r.own_tokens, OwnTokens::Block);
        r.set_option("end", &OptionValue::Str("first_winner".into()))
            .unwrap();
        assert_eq!(r.end, EndCondition::FirstWinner);
    }
}
