//! A one-line text notation of a position that round-trips exactly:
//!
//! ```text
//! bbBbb/...../W..../...../aaAaa A n=20 A1:Monkey A2:Crane B1:Boar B2:Ox side:Tiger
//! ```
//!
//! Fields, separated by single spaces, always in this order:
//! 1. the board, rows `a` to `e` separated by `/`, five characters each: `A a B b W`, and
//!    `.` for an empty square;
//! 2. the side to move, `A` or `B`;
//! 3. `n=` and the plies left (counting the coming ply);
//! 4. the five cards `A1:`, `A2:`, `B1:`, `B2:`, `side:`, each a standard card's name, or
//!    any other card's canonical holder-view pattern, rows separated by `/`
//!    (`A1:.x.../.xo.x/...../...../.....`).
//!
//! Reading also accepts card names in any case and patterns whose `o` is off-centre.

use std::fmt;
use std::str::FromStr;

use super::card::Card;
use super::error::OnitamaError;
use super::position::{CardSlot, Position};
use super::square::Player;

impl Position {
    /// The position as one line of text (see the [module docs](self)).
    pub fn to_notation(&self) -> String {
        let board: Vec<String> = self
            .board_rows()
            .iter()
            .map(|r| r.replace(' ', "."))
            .collect();
        let mut s = format!(
            "{} {} n={}",
            board.join("/"),
            self.side(),
            self.plies_left()
        );
        for place in CardSlot::ALL {
            s.push_str(&format!(" {}:{}", place.name(), self.card(place)));
        }
        s
    }

    /// Read a position written by [`Position::to_notation`] (and check it as
    /// [`Position::from_parts`] does).
    pub fn from_notation(text: &str) -> Result<Position, OnitamaError> {
        let bad = |what: String| OnitamaError::BadNotation(format!("{what} in '{text}'"));
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 8 {
            return Err(bad(format!(
                "expected 8 fields (board, side, n=, A1:, A2:, B1:, B2:, side:), found {}",
                fields.len()
            )));
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 5 || rows.iter().any(|r| r.contains(' ')) {
            return Err(bad(format!(
                "the board '{}' is not 5 rows separated by '/'",
                fields[0]
            )));
        }
        let side = match fields[1] {
            "A" => Player::A,
            "B" => Player::B,
            other => return Err(bad(format!("side to move '{other}' is not A or B"))),
        };
        let plies = fields[2]
            .strip_prefix("n=")
            .and_then(|n| n.parse::<u16>().ok())
            .ok_or_else(|| {
                bad(format!(
                    "'{}' is not n=<plies left> (0 to 65535)",
                    fields[2]
                ))
            })?;
        let mut cards = Vec::with_capacity(5);
        for (i, place) in CardSlot::ALL.iter().enumerate() {
            let field = fields[3 + i];
            let prefix = format!("{}:", place.name());
            let body = field
                .strip_prefix(&prefix)
                .ok_or_else(|| bad(format!("field '{field}' should start with '{prefix}'")))?;
            cards.push(
                Card::from_text(body).map_err(|e| bad(format!("card {}: {e}", place.name())))?,
            );
        }
        let cards: [Card; 5] = cards.try_into().expect("five cards");
        Position::from_rows(&rows, cards, side, plies).map_err(|e| bad(e.to_string()))
    }
}

impl fmt::Display for Position {
    /// The notation ([`Position::to_notation`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_notation())
    }
}

impl FromStr for Position {
    type Err = OnitamaError;
    fn from_str(s: &str) -> Result<Position, OnitamaError> {
        Position::from_notation(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors() {
        let text =
            "bbBbb/...../W..../...../aaAaa A n=20 A1:Monkey A2:Crane B1:Boar B2:Ox side:Tiger";
        let p = Position::from_notation(text).unwrap();
        assert_eq!(p.to_notation(), text);
        let odd = "bbBbb/...../....W/...../aaAaa B n=7 A1:.x.../.xo.x/...../...../..... \
                   A2:monkey B1:Boar B2:Ox side:x..../...../...../...../....o";
        let q: Position = odd.parse().unwrap();
        assert_eq!(q.to_notation().parse::<Position>().unwrap(), q);
        assert!(q.to_notation().contains("A2:Monkey"));
        for bad in [
            "",
            "bbBbb/...../W..../...../aaAaa A n=20 A1:Monkey A2:Crane B1:Boar B2:Ox",
            "bbBbb/...../W..../...../aaAaa C n=20 A1:Monkey A2:Crane B1:Boar B2:Ox side:Tiger",
            "bbBbb/...../W..../...../aaAaa A n=-1 A1:Monkey A2:Crane B1:Boar B2:Ox side:Tiger",
            "bbBbb/...../W..../...../aaAaa A n=20 A2:Monkey A1:Crane B1:Boar B2:Ox side:Tiger",
            "bbBbb/...../W..../aaAaa A n=20 A1:Monkey A2:Crane B1:Boar B2:Ox side:Tiger",
            "bbBbb/...../...../...../aaAaa A n=20 A1:Monkey A2:Crane B1:Boar B2:Ox side:Tiger",
            "bbBbb/...../W..../...../aaAaa A n=20 A1:Unicorn A2:Crane B1:Boar B2:Ox side:Tiger",
        ] {
            assert!(Position::from_notation(bad).is_err(), "{bad}");
        }
    }
}
