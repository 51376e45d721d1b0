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
//! 4. the five cards `A1:`, `A2:`, `B1:`, `B2:`, `side:`, each a standard card's name
//!    (a base or Sensei's Path card; a space in a name is written `_`: `Sea_Snake`), or
//!    any other card's canonical holder-view pattern, rows separated by `/`
//!    (`A1:.x.../.xo.x/...../...../.....`).
//!
//! 5. standard Onitama only: the word `standard`. A standard position's board has no `W`
//!    (`bbBbb/...../...../...../aaAaa A n=1000 A1:Ox A2:Boar B1:Horse B2:Elephant
//!    side:Crab standard`); a wall-variant board without a `W`, or a standard one with
//!    a `W`, is an error.
//!
//! Reading also accepts card names in any case and patterns whose `o` is off-centre.
//!
//! **Drawings.** A card may be drawn with its `o` anywhere and any filler characters
//! (`Card::parse`). [`Position::to_notation_drawn`] writes each card as it is drawn when
//! that differs from how the card is written above (its name, or its canonical pattern
//! with `.` filler): the five rows, separated by `/`, each character as it is, except
//! that a space is written `_`, and `_`, `%`, `/`, `'`, `"`, `\`, and every character
//! that is not printable ASCII are written `%XX` (the hex bytes of their UTF-8). Reading
//! ([`Position::from_notation_drawn`]) gives back the drawing exactly; a card written by
//! name or canonical pattern is drawn as [`Card::rows`].

use crate::common::excerpt::excerpt;
use std::fmt;
use std::str::FromStr;

use super::action::{Action, Slot};
use super::card::Card;
use super::error::OnitamaError;
use super::position::{CardSlot, Position, Variant};
use super::square::{Player, Square, WallDir};

/// One row of a card's drawing, escaped for the notation (see the [module docs](self)).
fn escape_row(row: &str) -> String {
    let mut out = String::with_capacity(row.len());
    for ch in row.chars() {
        match ch {
            ' ' => out.push('_'),
            '_' | '%' | '/' | '\'' | '"' | '\\' => out.push_str(&format!("%{:02X}", ch as u32)),
            c if c.is_ascii_graphic() => out.push(c),
            c => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
        }
    }
    out
}

/// Undo [`escape_row`]; `None` for a malformed escape.
fn unescape_row(text: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(text.len());
    let mut it = text.bytes();
    while let Some(b) = it.next() {
        match b {
            b'_' => bytes.push(b' '),
            b'%' => {
                let hex = [it.next()?, it.next()?];
                let hex = std::str::from_utf8(&hex).ok()?;
                bytes.push(u8::from_str_radix(hex, 16).ok()?);
            }
            b => bytes.push(b),
        }
    }
    String::from_utf8(bytes).ok()
}

/// How a card is written in the notation, drawn as `rows` (see the [module docs](self)).
pub fn card_text(card: Card, rows: &[String; 5]) -> String {
    if *rows == card.rows() {
        card.name_word().unwrap_or_else(|| card.pattern())
    } else {
        rows.iter()
            .map(|r| escape_row(r))
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// Read a card written by [`card_text`] (or by name, any case, or as a pattern): the card
/// and its drawing.
pub fn read_card_text(text: &str) -> Result<(Card, [String; 5]), OnitamaError> {
    if let Some(card) = Card::standard(text) {
        return Ok((card, card.rows()));
    }
    if !text.contains('/') {
        return Card::from_text(text).map(|c| (c, c.rows()));
    }
    let rows: Vec<String> = text
        .split('/')
        .map(|r| {
            unescape_row(r).ok_or_else(|| {
                OnitamaError::BadCard(format!(
                    "row '{r}' has a '%' not followed by the hex bytes of a character"
                ))
            })
        })
        .collect::<Result<_, _>>()?;
    let card = Card::parse(&rows)?;
    let rows: [String; 5] = rows.try_into().expect("Card::parse checked 5 rows");
    Ok((card, rows))
}

impl Position {
    /// The position as one line of text (see the [module docs](self)).
    pub fn to_notation(&self) -> String {
        let rows = CardSlot::ALL.map(|slot| self.card(slot).rows());
        self.to_notation_drawn(&rows)
    }

    /// The notation with each card as drawn by `drawings` (`A1 A2 B1 B2 side`; see the
    /// [module docs](self)): [`Position::from_notation_drawn`] gives back the drawings.
    pub fn to_notation_drawn(&self, drawings: &[[String; 5]; 5]) -> String {
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
        for (place, rows) in CardSlot::ALL.iter().zip(drawings) {
            s.push_str(&format!(
                " {}:{}",
                place.name(),
                card_text(self.card(*place), rows)
            ));
        }
        if self.is_standard() {
            s.push_str(" standard");
        }
        s
    }

    /// Read a position written by [`Position::to_notation`] (and check it as
    /// [`Position::from_parts`] does).
    pub fn from_notation(text: &str) -> Result<Position, OnitamaError> {
        Position::from_notation_drawn(text).map(|(pos, _)| pos)
    }

    /// Read a position written by [`Position::to_notation_drawn`]: the position and the
    /// drawings of its five cards (`A1 A2 B1 B2 side`).
    pub fn from_notation_drawn(text: &str) -> Result<(Position, [[String; 5]; 5]), OnitamaError> {
        let bad =
            |what: String| OnitamaError::BadNotation(format!("{what} in '{}'", excerpt(text)));
        let mut fields: Vec<&str> = text.split_whitespace().collect();
        let rules = if fields.len() == 9 && fields[8] == "standard" {
            fields.pop();
            Variant::Standard
        } else {
            Variant::Wall
        };
        if fields.len() != 8 {
            return Err(bad(format!(
                "expected 8 fields (board, side, n=, A1:, A2:, B1:, B2:, side:) and, for \
                 standard Onitama, the word 'standard'; found {}",
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
        let mut drawings = Vec::with_capacity(5);
        for (i, place) in CardSlot::ALL.iter().enumerate() {
            let field = fields[3 + i];
            let prefix = format!("{}:", place.name());
            let body = field
                .strip_prefix(&prefix)
                .ok_or_else(|| bad(format!("field '{field}' should start with '{prefix}'")))?;
            let (card, drawing) =
                read_card_text(body).map_err(|e| bad(format!("card {}: {e}", place.name())))?;
            cards.push(card);
            drawings.push(drawing);
        }
        let cards: [Card; 5] = cards.try_into().expect("five cards");
        let drawings: [[String; 5]; 5] = drawings.try_into().expect("five cards");
        let pos = Position::from_rows_with(rules, &rows, cards, side, plies)
            .map_err(|e| bad(e.to_string()))?;
        Ok((pos, drawings))
    }
}

/// An action as text under `rules` (see [`Action`]): the wall variant's `1 e2 d3 u` /
/// `2 c3 a3 -` / `1 XX XX s`, standard Onitama's `1 e2 d3` / `1 XX XX`.
pub fn action_text(action: Action, rules: Variant) -> String {
    if rules == Variant::Wall {
        return action.to_string();
    }
    let n = action.slot().number();
    match (action.from(), action.to()) {
        (Some(from), Some(to)) => format!("{n} {from} {to}"),
        _ => format!("{n} XX XX"),
    }
}

/// Read an action written for `rules`: four parts with a wall step (`1 e2 d3 u`,
/// `2 c3 a3 -`, `1 XX XX s`) for the wall variant, three (`1 e2 d3`, `1 XX XX`) for
/// standard Onitama (a standard move is read as [`Action::standard`], not yet marked as a
/// win: see [`Position::normalize`]).
///
/// Errors: text of the other rule set (saying so), or not an action at all.
pub fn parse_action(text: &str, rules: Variant) -> Result<Action, OnitamaError> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    match (rules, parts.len()) {
        (Variant::Wall, 3) => Err(OnitamaError::OtherRulesAction {
            action: text.to_owned(),
            reason: "the wall variant needs a wall step (u r d l s, or - for a win); \
                     'slot from to' is standard Onitama's form"
                .into(),
        }),
        (Variant::Wall, _) => text.parse(),
        (Variant::Standard, 4) => Err(OnitamaError::OtherRulesAction {
            action: text.to_owned(),
            reason: "standard Onitama has no wall: write 'slot from to', like '1 e2 d3'".into(),
        }),
        (Variant::Standard, 3) => {
            let bad = || OnitamaError::BadAction(text.to_owned());
            let slot = match parts[0] {
                "1" => Slot::One,
                "2" => Slot::Two,
                _ => return Err(bad()),
            };
            if parts[1] == "XX" && parts[2] == "XX" {
                return Ok(Action::pass(slot, WallDir::Stay));
            }
            let from = Square::parse(parts[1]).ok_or_else(bad)?;
            let to = Square::parse(parts[2]).ok_or_else(bad)?;
            Ok(Action::standard(slot, from, to))
        }
        (Variant::Standard, _) => Err(OnitamaError::BadAction(text.to_owned())),
    }
}

/// An action as a front end holds it: the action and the variant it is written for.
/// Two are equal when they are written alike: a standard action is its card, start and
/// target (whether it wins is the position's business); a wall-variant action everything.
#[derive(Clone, Copy, Debug)]
pub struct WrittenAction {
    /// The action.
    pub action: Action,
    /// The variant it is written for.
    pub variant: Variant,
}

impl WrittenAction {
    /// `text` read for `variant` ([`parse_action`]).
    pub fn parse(text: &str, variant: Variant) -> Result<WrittenAction, OnitamaError> {
        let action = parse_action(text, variant)?;
        Ok(WrittenAction { action, variant })
    }

    /// The wall step written: `None` for a winning move and under the standard rules.
    pub fn wall(&self) -> Option<WallDir> {
        self.action.wall().filter(|_| self.variant == Variant::Wall)
    }

    /// What equality looks at.
    fn key(&self) -> (Variant, u8, Option<Square>, Option<Square>, Option<WallDir>) {
        let a = self.action;
        (
            self.variant,
            a.slot().number(),
            a.from(),
            a.to(),
            self.wall(),
        )
    }
}

impl PartialEq for WrittenAction {
    fn eq(&self, other: &WrittenAction) -> bool {
        self.key() == other.key()
    }
}

impl Eq for WrittenAction {}

impl std::hash::Hash for WrittenAction {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key().hash(h);
    }
}

/// The action as text for its variant ([`action_text`]).
impl std::fmt::Display for WrittenAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&action_text(self.action, self.variant))
    }
}

/// Actions as text, knowing the rules of the position.
impl Position {
    /// An action of this position's rules as text ([`action_text`]).
    pub fn action_text(&self, action: Action) -> String {
        action_text(action, self.rules())
    }

    /// Read an action written for this position's rules ([`parse_action`]); a winning
    /// standard move is marked as one ([`Position::normalize`]). Legality is not checked.
    pub fn parse_action(&self, text: &str) -> Result<Action, OnitamaError> {
        parse_action(text, self.rules()).map(|a| self.normalize(a))
    }

    /// The action as this position's generator writes it: under the standard rules a pawn
    /// move with no wall step, or with the wall part "stays" or "win", becomes a win when
    /// it wins and a plain move when not (so `1 c3 a3` typed for a winning move is that
    /// move). Anything else, and every wall-variant action, is returned unchanged.
    pub fn normalize(&self, action: Action) -> Action {
        if !self.is_standard() || action.is_pass() {
            return action;
        }
        match (action.from(), action.to(), action.wall()) {
            (Some(from), Some(to), None | Some(WallDir::Stay)) => {
                if self.win_kind(from, to).is_some() {
                    Action::winning(action.slot(), from, to)
                } else {
                    Action::standard(action.slot(), from, to)
                }
            }
            _ => action,
        }
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

    #[test]
    fn drawings_round_trip_exactly() {
        let p: Position =
            "bbBbb/...../W..../...../aaAaa A n=20 A1:Monkey A2:Crane B1:Boar B2:Ox side:Tiger"
                .parse()
                .unwrap();
        let mut drawings = CardSlot::ALL.map(|slot| p.card(slot).rows());
        assert_eq!(p.to_notation_drawn(&drawings), p.to_notation());
        // Monkey with its 'o' one row lower, spaces and odd fillers.
        let monkey = ["     ", "     ", " x_x%", "  o /", " x'x\u{e9}"];
        assert_eq!(Card::parse(&monkey).unwrap(), p.card(CardSlot::A1));
        drawings[0] = monkey.map(str::to_owned);
        let text = p.to_notation_drawn(&drawings);
        assert_eq!(text.split_whitespace().count(), 8, "{text}");
        assert!(text.contains("A1:_____/_____/_x%5Fx%25/__o_%2F/_x%27x%C3%A9 "));
        let (q, back) = Position::from_notation_drawn(&text).unwrap();
        assert_eq!((q, back), (p, drawings));
        assert_eq!(Position::from_notation(&text).unwrap(), p);
        for bad in ["%", "%4", "%zz", "%FF"] {
            let t = text.replace("_x%27x%C3%A9", &format!("_x{bad}x_"));
            assert!(Position::from_notation(&t).is_err(), "{t}");
        }
    }
}
