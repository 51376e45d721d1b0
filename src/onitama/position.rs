//! The position ([`Position`]): where every piece stands, the five cards, whose turn it is
//! and how many plies are left. Small (40 bytes) and `Copy`; how an action changes it
//! (make/unmake and copy-make) is here, which actions are legal is in
//! [`movegen`](super::movegen).
//!
//! (The file passes 600 lines only with its unit tests, kept next to the code they pin
//! down; the code itself is about 570 lines.)

use std::fmt;

use super::action::{Action, Slot};
use super::card::{ALL_CARDS, Card, CardSet, STANDARD_CARDS};
use super::error::OnitamaError;
use super::square::{NEIGHBOUR, Player, Square, WallDir};
use crate::common::rng::{GOLDEN_GAMMA, finalise};

/// The five card places: A's slots 1 and 2, B's slots 1 and 2, and the side card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CardSlot {
    /// A's slot 1.
    A1 = 0,
    /// A's slot 2.
    A2 = 1,
    /// B's slot 1.
    B1 = 2,
    /// B's slot 2.
    B2 = 3,
    /// The side card.
    Side = 4,
}

impl CardSlot {
    /// All five, in the order `A1 A2 B1 B2 side`.
    pub const ALL: [CardSlot; 5] = [
        CardSlot::A1,
        CardSlot::A2,
        CardSlot::B1,
        CardSlot::B2,
        CardSlot::Side,
    ];

    /// The place of `player`'s card in `slot`.
    pub const fn of(player: Player, slot: Slot) -> CardSlot {
        CardSlot::ALL[player.index() * 2 + slot.index()]
    }

    /// 0..5, in the order of [`CardSlot::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `"A1"`, `"A2"`, `"B1"`, `"B2"` or `"side"` (the keys of the JSON data).
    pub const fn name(self) -> &'static str {
        match self {
            CardSlot::A1 => "A1",
            CardSlot::A2 => "A2",
            CardSlot::B1 => "B1",
            CardSlot::B2 => "B2",
            CardSlot::Side => "side",
        }
    }
}

/// What can stand on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A player's general (`A` or `B`).
    General(Player),
    /// A player's soldier (`a` or `b`).
    Soldier(Player),
    /// The wall (`W`).
    Wall,
}

impl Piece {
    /// The board character: `A a B b W`.
    pub const fn to_char(self) -> char {
        match self {
            Piece::General(Player::A) => 'A',
            Piece::Soldier(Player::A) => 'a',
            Piece::General(Player::B) => 'B',
            Piece::Soldier(Player::B) => 'b',
            Piece::Wall => 'W',
        }
    }

    /// The piece of a board character `A a B b W`.
    pub const fn from_char(c: char) -> Option<Piece> {
        match c {
            'A' => Some(Piece::General(Player::A)),
            'a' => Some(Piece::Soldier(Player::A)),
            'B' => Some(Piece::General(Player::B)),
            'b' => Some(Piece::Soldier(Player::B)),
            'W' => Some(Piece::Wall),
            _ => None,
        }
    }
}

/// How a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinKind {
    /// The winner's general reached the opponent's base (also when it captured the
    /// general standing there, as the reference programs report it).
    Base,
    /// A pawn of the winner landed on the opponent's general.
    Capture,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move has a ply to play.
    Ongoing,
    /// The game was won (by the player who just moved).
    Won {
        /// The winner.
        winner: Player,
        /// Base reached or general captured.
        by: WinKind,
    },
    /// No plies are left and nobody won.
    Tie,
}

/// What [`Position::make_unchecked`] needs to take an action back ([`Position::unmake`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Undo {
    /// The action that was made.
    pub action: Action,
    /// What it captured: 0 nothing, 1 a soldier, 2 the general.
    captured: u8,
    /// The wall's square before the action.
    wall_before: u8,
    /// Did the wall swap with an own soldier?
    swapped: bool,
}

/// The `wall` byte of a position under the standard rules (no wall): one past the board,
/// like the "off the board" entries of the neighbour table, so `1 << wall` is outside the
/// 25-bit board mask and the move generator's "free squares" need no special case.
pub(crate) const NO_WALL: u8 = 25;

/// The former name of [`Variant`] (Ludo's rule sets are [`crate::ludo::Rules`]).
pub type Rules = Variant;

/// Which variant of Onitama a position is played under. The one engine plays both; the rule set is
/// part of the position (its `wall` byte: [`NO_WALL`] for standard), so [`Position`]
/// stays 40 bytes and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The coursework's wall variant: a wall on the board, a wall step after every ply
    /// that does not win, a pass when no pawn can move.
    Wall,
    /// Standard Onitama: no wall; a ply is a card and a pawn move (or, when no pawn can
    /// move, a card played with no move); five distinct cards.
    Standard,
}

impl Variant {
    /// `"wall"` or `"standard"`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Wall => "wall",
            Variant::Standard => "standard",
        }
    }
}

/// A position: 25-bit masks of each side's general and soldiers, the wall's square
/// ([`NO_WALL`] under the standard rules), the five cards (`A1 A2 B1 B2 side`), the side
/// to move and the number of plies left (`n`, counting the coming ply; 0 means the game
/// is over).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) generals: [u32; 2],
    pub(crate) soldiers: [u32; 2],
    pub(crate) cards: [Card; 5],
    pub(crate) wall: u8,
    pub(crate) side: Player,
    pub(crate) plies_left: u16,
}

impl Position {
    /// A position from a board of 5 rows of 5 characters (row `a` first; `A a B b W`,
    /// and space or `.` for an empty square), the five cards `A1 A2 B1 B2 side`, the side
    /// to move and the plies left. The position is checked as [`Position::from_parts`]
    /// says.
    pub fn from_rows<S: AsRef<str>>(
        board: &[S],
        cards: [Card; 5],
        side: Player,
        plies_left: u16,
    ) -> Result<Position, OnitamaError> {
        Position::from_rows_with(Variant::Wall, board, cards, side, plies_left)
    }

    /// [`Position::from_rows`] under either rule set: a wall-variant board must have one
    /// wall `W`, a standard board none.
    pub fn from_rows_with<S: AsRef<str>>(
        rules: Variant,
        board: &[S],
        cards: [Card; 5],
        side: Player,
        plies_left: u16,
    ) -> Result<Position, OnitamaError> {
        if board.len() != 5 {
            return Err(OnitamaError::BadBoard(format!(
                "a board has 5 rows, not {}",
                board.len()
            )));
        }
        let mut generals = [None, None];
        let mut soldiers = [0u32; 2];
        let mut wall = None;
        for (r, row) in board.iter().enumerate() {
            let row = row.as_ref();
            let n = row.chars().count();
            if n != 5 {
                return Err(OnitamaError::BadBoard(format!(
                    "row {} ('{row}') has {n} characters, not 5",
                    (b'a' + r as u8) as char
                )));
            }
            for (c, ch) in row.chars().enumerate() {
                let sq = Square::new(r as u8, c as u8).expect("5x5");
                match (ch, Piece::from_char(ch)) {
                    (' ' | '.', _) => {}
                    (_, Some(Piece::General(p))) => {
                        if let Some(other) = generals[p.index()] {
                            return Err(OnitamaError::BadBoard(format!(
                                "two generals '{ch}' ({other} and {sq})"
                            )));
                        }
                        generals[p.index()] = Some(sq);
                    }
                    (_, Some(Piece::Soldier(p))) => soldiers[p.index()] |= sq.bit(),
                    (_, Some(Piece::Wall)) => {
                        if let Some(other) = wall {
                            return Err(OnitamaError::BadBoard(format!(
                                "two walls ({other} and {sq})"
                            )));
                        }
                        wall = Some(sq);
                    }
                    (_, None) => {
                        return Err(OnitamaError::BadBoard(format!(
                            "unknown character '{ch}' at {sq}: expected A a B b W, space or '.'"
                        )));
                    }
                }
            }
        }
        match (rules, wall) {
            (Variant::Wall, Some(wall)) => {
                Position::from_parts(generals, soldiers, wall, cards, side, plies_left)
            }
            (Variant::Wall, None) => Err(OnitamaError::BadBoard(
                "there is no wall 'W' (a wall-variant board has one; standard Onitama is \
                 asked for explicitly)"
                    .into(),
            )),
            (Variant::Standard, Some(wall)) => Err(OnitamaError::BadBoard(format!(
                "standard Onitama has no wall, but there is a 'W' at {wall}"
            ))),
            (Variant::Standard, None) => {
                Position::standard_from_parts(generals, soldiers, cards, side, plies_left)
            }
        }
    }

    /// A standard-rules position from its parts (as [`Position::from_parts`], without a
    /// wall). Checked as there, and also: the five cards are distinct.
    pub fn standard_from_parts(
        generals: [Option<Square>; 2],
        soldiers: [u32; 2],
        cards: [Card; 5],
        side: Player,
        plies_left: u16,
    ) -> Result<Position, OnitamaError> {
        Position::checked(generals, soldiers, NO_WALL, cards, side, plies_left)
    }

    /// The standard start: each side's master in the middle of its home row (A on row
    /// `e`, B on row `a`) between its four students, the cards `A1 A2 B1 B2 side`, `first`
    /// to move, `plies_left` plies before the game is called a tie.
    pub fn standard_start(
        cards: [Card; 5],
        first: Player,
        plies_left: u16,
    ) -> Result<Position, OnitamaError> {
        Position::from_rows_with(
            Variant::Standard,
            &["bbBbb", ".....", ".....", ".....", "aaAaa"],
            cards,
            first,
            plies_left,
        )
    }

    /// A standard game dealt at random from the 16 base cards by `seed` (the same deal on
    /// every machine): the side card's colour decides who moves first, as in the box
    /// (see [`Card::first_player`]). The same as [`Position::standard_deal_from`] with
    /// [`CardSet::Base`].
    pub fn standard_deal(seed: u64, plies_left: u16) -> Position {
        Position::standard_deal_from(seed, CardSet::Base, plies_left)
    }

    /// A standard game dealt at random from the cards of `set` by `seed` (the same deal
    /// on every machine); the side card's stamp colour decides who moves first.
    pub fn standard_deal_from(seed: u64, set: CardSet, plies_left: u16) -> Position {
        let mut deck = [STANDARD_CARDS[0]; ALL_CARDS.len()];
        let deck = &mut deck[..set.cards().len()];
        deck.copy_from_slice(set.cards());
        let mut state = seed;
        for i in (1..deck.len()).rev() {
            state = state.wrapping_add(GOLDEN_GAMMA);
            let j = (finalise(state) % (i as u64 + 1)) as usize;
            deck.swap(i, j);
        }
        let cards = [deck[0], deck[1], deck[2], deck[3], deck[4]];
        let first = cards[4].first_player().unwrap_or(Player::A);
        Position::standard_start(cards, first, plies_left).expect("a valid deal")
    }

    /// The rules this position is played under.
    #[inline]
    pub fn rules(&self) -> Variant {
        if self.wall == NO_WALL {
            Variant::Standard
        } else {
            Variant::Wall
        }
    }

    /// Is this a standard-rules position (no wall)?
    #[inline]
    pub fn is_standard(&self) -> bool {
        self.wall == NO_WALL
    }

    /// A position from its parts: each side's general (`None` only just after it was
    /// captured), soldiers (25-bit masks), the wall's square, the cards `A1 A2 B1 B2 side`,
    /// the side to move and the plies left.
    ///
    /// Checked: no two things on one square; the wall not on a base; at most four
    /// soldiers a side; and at most one side already won (general on the opponent's base
    /// or opponent's general gone), in which case the other side is to move (the winner
    /// made the last ply).
    pub fn from_parts(
        generals: [Option<Square>; 2],
        soldiers: [u32; 2],
        wall: Square,
        cards: [Card; 5],
        side: Player,
        plies_left: u16,
    ) -> Result<Position, OnitamaError> {
        Position::checked(
            generals,
            soldiers,
            wall.index() as u8,
            cards,
            side,
            plies_left,
        )
    }

    /// The position of these parts (`wall` a square's index, or [`NO_WALL`]), if
    /// [`Position::validate`] accepts it.
    fn checked(
        generals: [Option<Square>; 2],
        soldiers: [u32; 2],
        wall: u8,
        cards: [Card; 5],
        side: Player,
        plies_left: u16,
    ) -> Result<Position, OnitamaError> {
        let pos = Position {
            generals: generals.map(|g| g.map_or(0, Square::bit)),
            soldiers,
            cards,
            wall,
            side,
            plies_left,
        };
        pos.validate()?;
        Ok(pos)
    }

    /// Check the rules of [`Position::from_parts`].
    fn validate(&self) -> Result<(), OnitamaError> {
        let bad = |m: String| Err(OnitamaError::BadBoard(m));
        let wall = self.wall();
        let masks = [
            self.generals[0],
            self.soldiers[0],
            self.generals[1],
            self.soldiers[1],
            wall.map_or(0, Square::bit),
        ];
        let mut seen = 0u32;
        for m in masks {
            if m >> 25 != 0 {
                return bad("a piece off the board".into());
            }
            if seen & m != 0 {
                let sq = Square::iter_mask(seen & m).next().expect("overlap");
                return bad(format!("two things on {sq}"));
            }
            seen |= m;
        }
        if let Some(wall) = wall
            && wall.is_base()
        {
            return bad(format!("the wall is on the base {wall}"));
        }
        if wall.is_none() {
            for i in 0..5 {
                for j in i + 1..5 {
                    if self.cards[i] == self.cards[j] {
                        return Err(OnitamaError::BadCard(format!(
                            "standard Onitama deals five different cards, but {} and {} \
                             are both {}",
                            CardSlot::ALL[i].name(),
                            CardSlot::ALL[j].name(),
                            self.cards[i]
                        )));
                    }
                }
            }
        }
        for p in Player::BOTH {
            let n = self.soldiers[p.index()].count_ones();
            if n > 4 {
                let general = if self.generals[p.index()] == 0 {
                    " and no general"
                } else {
                    ""
                };
                return bad(format!(
                    "player {p} has {n} soldiers{general} (an army is 1 general and at most 4 \
                     soldiers)"
                ));
            }
        }
        let won = |p: Player| {
            let (own, opp) = (self.generals[p.index()], self.generals[p.other().index()]);
            own == p.target_base().bit() || opp == 0
        };
        match (won(Player::A), won(Player::B)) {
            (true, true) => bad("both players have already won".into()),
            (true, false) | (false, true) => {
                let winner = if won(Player::A) { Player::A } else { Player::B };
                if self.side == winner {
                    bad(format!(
                        "player {winner} has already won, so it cannot be {winner}'s turn"
                    ))
                } else {
                    Ok(())
                }
            }
            (false, false) => Ok(()),
        }
    }

    /// A 64-bit hash of everything in the position (pieces, wall, cards, side to move and
    /// plies left), the same on every machine and run: the search's transposition-table
    /// key, and the baseline AI's source of randomness.
    #[inline]
    pub fn hash_key(&self) -> u64 {
        let c = self.cards.map(|c| c.bits() as u64);
        let words = [
            self.generals[0] as u64 | (self.generals[1] as u64) << 25 | (self.wall as u64) << 50,
            self.soldiers[0] as u64 | (self.soldiers[1] as u64) << 25 | (self.side as u64) << 50,
            c[0] | c[1] << 32,
            c[2] | c[3] << 32,
            c[4] | (self.plies_left as u64) << 32,
        ];
        let mut h = 0x006F_6E69_7461_6D61_u64;
        for w in words {
            h = finalise(h.wrapping_add(GOLDEN_GAMMA) ^ w);
        }
        h
    }

    /// The side to move.
    #[inline]
    pub fn side(&self) -> Player {
        self.side
    }

    /// Plies left, counting the coming one (the AI's `turn` argument); 0 means over.
    #[inline]
    pub fn plies_left(&self) -> u16 {
        self.plies_left
    }

    /// The same position with another number of plies left (0 makes it a tie unless won).
    pub fn with_plies_left(&self, plies_left: u16) -> Position {
        Position {
            plies_left,
            ..*self
        }
    }

    /// The same position with the other side to move, if that is a valid position.
    pub fn with_side(&self, side: Player) -> Result<Position, OnitamaError> {
        let pos = Position { side, ..*self };
        pos.validate()?;
        Ok(pos)
    }

    /// The wall's square (wall variant). A standard position has no wall: this is then
    /// `a1`, never to be used; see [`Position::wall`].
    #[inline]
    pub fn wall_square(&self) -> Square {
        debug_assert!(!self.is_standard(), "a standard position has no wall");
        Square::at(self.wall as u32 % 25)
    }

    /// The wall's square, `None` under the standard rules.
    #[inline]
    pub fn wall(&self) -> Option<Square> {
        Square::from_index(self.wall)
    }

    /// `player`'s general (`None` once captured).
    pub fn general(&self, player: Player) -> Option<Square> {
        Square::iter_mask(self.generals[player.index()]).next()
    }

    /// Mask of `player`'s soldiers.
    pub fn soldiers(&self, player: Player) -> u32 {
        self.soldiers[player.index()]
    }

    /// Mask of all `player`'s pawns (general and soldiers).
    pub fn pawns(&self, player: Player) -> u32 {
        self.generals[player.index()] | self.soldiers[player.index()]
    }

    /// What stands on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = sq.bit();
        if self.wall as usize == sq.index() {
            return Some(Piece::Wall);
        }
        for p in Player::BOTH {
            if self.generals[p.index()] & b != 0 {
                return Some(Piece::General(p));
            }
            if self.soldiers[p.index()] & b != 0 {
                return Some(Piece::Soldier(p));
            }
        }
        None
    }

    /// The card in one place.
    pub fn card(&self, place: CardSlot) -> Card {
        self.cards[place.index()]
    }

    /// All five cards, `A1 A2 B1 B2 side`.
    pub fn cards(&self) -> [Card; 5] {
        self.cards
    }

    /// `player`'s card in `slot`.
    pub fn hand_card(&self, player: Player, slot: Slot) -> Card {
        self.card(CardSlot::of(player, slot))
    }

    /// The board as 5 rows of 5 characters, as in the source: `A a B b W`, space for empty.
    pub fn board_rows(&self) -> [String; 5] {
        std::array::from_fn(|r| {
            (0..5)
                .map(|c| {
                    let sq = Square::new(r as u8, c as u8).expect("5x5");
                    self.piece_at(sq).map_or(' ', Piece::to_char)
                })
                .collect()
        })
    }

    /// Won (by whom, how), tied, or still going.
    pub fn status(&self) -> Status {
        let [ga, gb] = self.generals;
        if ga == Square::A3.bit() {
            Status::Won {
                winner: Player::A,
                by: WinKind::Base,
            }
        } else if gb == Square::E3.bit() {
            Status::Won {
                winner: Player::B,
                by: WinKind::Base,
            }
        } else if gb == 0 {
            Status::Won {
                winner: Player::A,
                by: WinKind::Capture,
            }
        } else if ga == 0 {
            Status::Won {
                winner: Player::B,
                by: WinKind::Capture,
            }
        } else if self.plies_left == 0 {
            Status::Tie
        } else {
            Status::Ongoing
        }
    }

    /// Is the game over (won or tied)?
    pub fn is_over(&self) -> bool {
        self.status() != Status::Ongoing
    }

    /// Does the side to move's pawn move `from` → `to` win, and how? (Only the landing
    /// square matters; whether the move is legal is not checked.)
    pub fn win_kind(&self, from: Square, to: Square) -> Option<WinKind> {
        let p = self.side.index();
        if self.generals[p] == from.bit() && to == self.side.target_base() {
            Some(WinKind::Base)
        } else if self.generals[1 - p] == to.bit() {
            Some(WinKind::Capture)
        } else {
            None
        }
    }

    /// Make an action the caller knows is legal here (as generated), and return what
    /// [`Position::unmake`] needs to take it back. An illegal action leaves a meaningless
    /// position (memory-safe, but no rule is checked).
    #[inline]
    pub fn make_unchecked(&mut self, action: Action) -> Undo {
        let p = self.side.index();
        let q = 1 - p;
        let mut undo = Undo {
            action,
            captured: 0,
            wall_before: self.wall,
            swapped: false,
        };
        if !action.is_pass() {
            let f = 1u32 << action.start_index();
            let t = 1u32 << action.target_index();
            if self.generals[p] == f {
                self.generals[p] = t;
            } else {
                self.soldiers[p] ^= f | t;
            }
            if self.soldiers[q] & t != 0 {
                self.soldiers[q] ^= t;
                undo.captured = 1;
            } else if self.generals[q] == t {
                self.generals[q] = 0;
                undo.captured = 2;
            }
        }
        if !action.is_win() {
            self.cards.swap(2 * p + action.slot_index(), 4);
            let w = action.wall_index();
            if w != WallDir::Stay as u32 {
                let n = NEIGHBOUR[self.wall as usize][w as usize];
                let nb = 1u32 << n;
                if self.soldiers[p] & nb != 0 {
                    self.soldiers[p] ^= nb | (1 << self.wall);
                    undo.swapped = true;
                }
                self.wall = n;
            }
        }
        self.side = self.side.other();
        self.plies_left = self.plies_left.wrapping_sub(1);
        undo
    }

    /// Take back the action of `undo` (which must be the last one made on this position).
    #[inline]
    pub fn unmake(&mut self, undo: Undo) {
        let action = undo.action;
        self.side = self.side.other();
        self.plies_left = self.plies_left.wrapping_add(1);
        let p = self.side.index();
        let q = 1 - p;
        if !action.is_win() {
            if undo.swapped {
                self.soldiers[p] ^= (1 << self.wall) | (1 << undo.wall_before);
            }
            self.wall = undo.wall_before;
            self.cards.swap(2 * p + action.slot_index(), 4);
        }
        if !action.is_pass() {
            let f = 1u32 << action.start_index();
            let t = 1u32 << action.target_index();
            if self.generals[p] == t {
                self.generals[p] = f;
            } else {
                self.soldiers[p] ^= f | t;
            }
            match undo.captured {
                1 => self.soldiers[q] |= t,
                2 => self.generals[q] = t,
                _ => {}
            }
        }
    }

    /// The position after an action the caller knows is legal (copy-make).
    #[inline]
    pub fn after(&self, action: Action) -> Position {
        let mut next = *self;
        next.make_unchecked(action);
        next
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::onitama::card::{BOAR, CRANE, MONKEY, OX, TIGER};
    use crate::onitama::square::BASES;

    fn start() -> Position {
        Position::from_rows(
            &["bbBbb", "     ", "W    ", "     ", "aaAaa"],
            [MONKEY, CRANE, BOAR, OX, TIGER],
            Player::A,
            20,
        )
        .unwrap()
    }

    #[test]
    fn small_and_copy() {
        assert!(std::mem::size_of::<Position>() <= 40);
        let p = start();
        let q = p;
        assert_eq!(p, q);
        assert_eq!(p.board_rows()[4], "aaAaa");
        assert_eq!(p.general(Player::B), Square::parse("a3"));
        assert_eq!(p.status(), Status::Ongoing);
        assert_eq!(BASES.count_ones(), 2);
    }

    #[test]
    fn bad_boards() {
        let cards = [MONKEY, CRANE, BOAR, OX, TIGER];
        let cases: [&[&str]; 6] = [
            &["bbBbb", "     ", "     ", "     ", "aaAaa"],
            &["bbBbb", "W    ", "W    ", "     ", "aaAaa"],
            &["bbWbb", "  B  ", "     ", "     ", "aaAaa"],
            &["bbBbb", "b    ", "W    ", "     ", "aaAaa"],
            &["bbBbb", "     ", "W    ", "     ", "aaAa"],
            &["bbBbb", "     ", "W   ?", "     ", "aaAaa"],
        ];
        for board in cases {
            assert!(
                Position::from_rows(board, cards, Player::A, 20).is_err(),
                "{board:?}"
            );
        }
        // B's general captured: A won, so B is to move.
        let won = ["bb bb", "     ", "W    ", "     ", "aaAaa"];
        assert!(Position::from_rows(&won, cards, Player::A, 20).is_err());
        let p = Position::from_rows(&won, cards, Player::B, 20).unwrap();
        assert_eq!(
            p.status(),
            Status::Won {
                winner: Player::A,
                by: WinKind::Capture
            }
        );
    }
}
