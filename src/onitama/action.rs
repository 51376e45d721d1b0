//! One ply: an [`Action`] (card slot, pawn move or pass, wall step), and the fixed-size
//! [`ActionList`] the move generator fills without allocating.

use std::fmt;
use std::str::FromStr;

use super::error::OnitamaError;
use super::square::{Square, WallDir};

/// Which of the mover's two cards is played: slot 1 (`A1`/`B1`) or slot 2 (`A2`/`B2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Slot {
    /// Slot 1.
    One = 0,
    /// Slot 2.
    Two = 1,
}

impl Slot {
    /// Both slots, 1 first.
    pub const BOTH: [Slot; 2] = [Slot::One, Slot::Two];

    /// 1 or 2.
    pub const fn number(self) -> u8 {
        self as u8 + 1
    }

    /// The slot numbered 1 or 2.
    pub const fn from_number(n: i64) -> Option<Slot> {
        match n {
            1 => Some(Slot::One),
            2 => Some(Slot::Two),
            _ => None,
        }
    }

    /// 0 for slot 1, 1 for slot 2.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

const PASS: u16 = 31;
const NO_WALL: u16 = 7;

/// One ply, packed in 16 bits. Three kinds:
/// - a pawn move with its wall step: `(slot, from, to, wall)`;
/// - a winning pawn move (own general onto the opponent's base, or any pawn onto the
///   opponent's general): `(slot, from, to)` with no wall part, the game ends at once;
/// - a pass, only when neither card gives a pawn move: `(slot, wall)`, the card is still
///   swapped and the wall step still made.
///
/// Text form (`Display`/`FromStr`): `1 e2 d3 u`, `2 c3 a3 -` (a win), `1 XX XX s` (a pass).
///
/// Under the standard rules an action has no wall part: its text is `slot from to`
/// (`1 e2 d3`, a win too) or `slot XX XX` (a card played with no move); write and read it
/// with [`Position::action_text`](super::position::Position::action_text) and
/// [`Position::parse_action`](super::position::Position::parse_action), which know the
/// rules. A standard non-winning move is packed with the wall part "stays".
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action(u16);

impl Action {
    #[inline]
    pub(crate) const fn pack(slot: u16, from: u16, to: u16, wall: u16) -> Action {
        Action(from | (to << 5) | (slot << 10) | (wall << 11))
    }

    /// A pawn move followed by a wall step.
    pub const fn step(slot: Slot, from: Square, to: Square, wall: WallDir) -> Action {
        Action::pack(
            slot as u16,
            from.index() as u16,
            to.index() as u16,
            wall as u16,
        )
    }

    /// A winning pawn move (no wall part).
    pub const fn winning(slot: Slot, from: Square, to: Square) -> Action {
        Action::pack(slot as u16, from.index() as u16, to.index() as u16, NO_WALL)
    }

    /// A standard-rules pawn move (no wall part; [`Position::normalize`] marks a winning
    /// one as a win).
    ///
    /// [`Position::normalize`]: super::position::Position::normalize
    pub const fn standard(slot: Slot, from: Square, to: Square) -> Action {
        Action::pack(
            slot as u16,
            from.index() as u16,
            to.index() as u16,
            WallDir::Stay as u16,
        )
    }

    /// A pass: the card in `slot` is swapped with the side card and the wall steps.
    pub const fn pass(slot: Slot, wall: WallDir) -> Action {
        Action::pack(slot as u16, PASS, PASS, wall as u16)
    }

    /// The slot of the card played.
    #[inline]
    pub const fn slot(self) -> Slot {
        if self.0 & (1 << 10) == 0 {
            Slot::One
        } else {
            Slot::Two
        }
    }

    /// Start square of the pawn move (`None` for a pass).
    #[inline]
    pub const fn from(self) -> Option<Square> {
        Square::from_index((self.0 & 31) as u8)
    }

    /// Target square of the pawn move (`None` for a pass).
    #[inline]
    pub const fn to(self) -> Option<Square> {
        Square::from_index(((self.0 >> 5) & 31) as u8)
    }

    /// The wall step (`None` for a winning move).
    #[inline]
    pub const fn wall(self) -> Option<WallDir> {
        let w = (self.0 >> 11) & 7;
        if w == NO_WALL {
            None
        } else {
            Some(WallDir::from_index(w as u32))
        }
    }

    /// Is this a pass?
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0 & 31 == PASS
    }

    /// Is this a winning pawn move (the game ends with it)?
    #[inline]
    pub const fn is_win(self) -> bool {
        (self.0 >> 11) & 7 == NO_WALL
    }

    /// The packed 16 bits (for tables indexed by action).
    #[inline]
    pub(crate) const fn bits(self) -> u16 {
        self.0
    }

    /// The action of packed bits made by [`Action::bits`].
    #[inline]
    pub(crate) const fn from_bits(bits: u16) -> Action {
        Action(bits)
    }

    #[inline]
    pub(crate) const fn start_index(self) -> u32 {
        (self.0 & 31) as u32
    }

    #[inline]
    pub(crate) const fn target_index(self) -> u32 {
        ((self.0 >> 5) & 31) as u32
    }

    #[inline]
    pub(crate) const fn wall_index(self) -> u32 {
        ((self.0 >> 11) & 7) as u32
    }

    #[inline]
    pub(crate) const fn slot_index(self) -> usize {
        ((self.0 >> 10) & 1) as usize
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.slot().number();
        match (self.from(), self.to(), self.wall()) {
            (Some(from), Some(to), Some(w)) => write!(f, "{n} {from} {to} {w}"),
            (Some(from), Some(to), None) => write!(f, "{n} {from} {to} -"),
            (_, _, Some(w)) => write!(f, "{n} XX XX {w}"),
            _ => write!(f, "{n} ? ? ?"),
        }
    }
}

impl fmt::Debug for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Action({self})")
    }
}

impl FromStr for Action {
    type Err = OnitamaError;
    /// Read the text form written by `Display`: `slot from to wall`, separated by spaces.
    fn from_str(s: &str) -> Result<Action, OnitamaError> {
        let bad = || OnitamaError::BadAction(s.to_owned());
        let parts: Vec<&str> = s.split_whitespace().collect();
        let [slot, from, to, wall] = parts[..] else {
            return Err(bad());
        };
        let slot = match slot {
            "1" => Slot::One,
            "2" => Slot::Two,
            _ => return Err(bad()),
        };
        let mut wchars = wall.chars();
        let wall = match (wchars.next(), wchars.next()) {
            (Some('-'), None) => None,
            (Some(c), None) => Some(WallDir::from_letter(c).ok_or_else(bad)?),
            _ => return Err(bad()),
        };
        if from == "XX" && to == "XX" {
            return wall.map(|w| Action::pass(slot, w)).ok_or_else(bad);
        }
        let from = Square::parse(from).ok_or_else(bad)?;
        let to = Square::parse(to).ok_or_else(bad)?;
        Ok(match wall {
            Some(w) => Action::step(slot, from, to, w),
            None => Action::winning(slot, from, to),
        })
    }
}

/// The most legal actions any position can have: five pawns, each card reaching at most
/// the 19 squares not holding an own pawn or the wall, two cards, five wall choices.
pub const MAX_ACTIONS: usize = 5 * 19 * 2 * 5;

/// A fixed-capacity list of actions: filled by the generator with no allocation.
#[derive(Clone)]
pub struct ActionList {
    len: usize,
    items: [Action; MAX_ACTIONS],
}

impl ActionList {
    /// An empty list.
    #[inline]
    pub fn new() -> ActionList {
        ActionList {
            len: 0,
            items: [Action(0); MAX_ACTIONS],
        }
    }

    /// Append an action (the generator never exceeds [`MAX_ACTIONS`]).
    #[inline]
    pub fn push(&mut self, a: Action) {
        self.items[self.len] = a;
        self.len += 1;
    }

    /// Remove every action.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of actions.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Is the list empty?
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The actions as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Action] {
        &self.items[..self.len]
    }

    /// Iterate over the actions.
    pub fn iter(&self) -> std::slice::Iter<'_, Action> {
        self.as_slice().iter()
    }

    /// Is `a` in the list?
    pub fn contains(&self, a: Action) -> bool {
        self.as_slice().contains(&a)
    }
}

impl Default for ActionList {
    fn default() -> ActionList {
        ActionList::new()
    }
}

impl fmt::Debug for ActionList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a ActionList {
    type Item = &'a Action;
    type IntoIter = std::slice::Iter<'a, Action>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_and_text_round_trip() {
        let e2 = Square::parse("e2").unwrap();
        let d3 = Square::parse("d3").unwrap();
        let cases = [
            Action::step(Slot::One, e2, d3, WallDir::Up),
            Action::step(Slot::Two, d3, e2, WallDir::Stay),
            Action::winning(Slot::Two, e2, d3),
            Action::pass(Slot::One, WallDir::Left),
        ];
        for a in cases {
            let text = a.to_string();
            assert_eq!(text.parse::<Action>().unwrap(), a, "{text}");
        }
        assert_eq!(cases[0].to_string(), "1 e2 d3 u");
        assert_eq!(cases[2].to_string(), "2 e2 d3 -");
        assert_eq!(cases[3].to_string(), "1 XX XX l");
        assert!(cases[2].is_win() && !cases[2].is_pass());
        assert!(cases[3].is_pass() && !cases[3].is_win());
        assert_eq!(cases[3].from(), None);
        for bad in [
            "",
            "3 e2 d3 u",
            "1 e2 d3 x",
            "1 XX XX -",
            "1 e2 XX u",
            "1 e2 d3 u v",
        ] {
            assert!(bad.parse::<Action>().is_err(), "{bad}");
        }
    }
}
