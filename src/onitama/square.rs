//! The board's geometry: [`Square`]s, the two [`Player`]s, the [`WallDir`]ections, and the
//! 25-bit masks and tables the move generator works with.
//!
//! Square `index = row * 5 + col`, both 0-based: row 0 is row `a` (the top, B's home row),
//! row 4 is row `e` (A's home row); column 0 is column `1`. Bit `index` of a 25-bit mask
//! stands for that square.

use std::fmt;
use std::str::FromStr;

use super::error::OnitamaError;

/// The 25 bits of the board.
pub const BOARD_MASK: u32 = (1 << 25) - 1;

/// One square of the 5×5 board, named `a1`..`e5` (row letter from the top, column digit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// `a3`, B's military base (A wins by moving its general here).
    pub const A3: Square = Square(2);
    /// `e3`, A's military base (B wins by moving its general here).
    pub const E3: Square = Square(22);

    /// A square as an AI's answer writes it: its name, or `XX` for none (a pass).
    pub fn answer_text(square: Option<Square>) -> String {
        square.map_or_else(|| "XX".to_owned(), |s| s.to_string())
    }

    /// The square at 0-based `row` (0 = row `a`) and `col` (0 = column `1`), if on the board.
    pub const fn new(row: u8, col: u8) -> Option<Square> {
        if row < 5 && col < 5 {
            Some(Square(row * 5 + col))
        } else {
            None
        }
    }

    /// The square with this index (`row * 5 + col`), if below 25.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 25 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square of a bit index the caller knows is below 25.
    #[inline]
    pub(crate) const fn at(index: u32) -> Square {
        Square(index as u8)
    }

    /// The index `row * 5 + col`, 0..25.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based row: 0 is row `a`, 4 is row `e`.
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 5
    }

    /// 0-based column: 0 is column `1`.
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 % 5
    }

    /// The square's bit in a 25-bit mask.
    #[inline]
    pub const fn bit(self) -> u32 {
        1 << self.0
    }

    /// Is this one of the two military bases (`a3`, `e3`)?
    #[inline]
    pub const fn is_base(self) -> bool {
        self.bit() & BASES != 0
    }

    /// The square one step in `dir` (`None` off the board, or for [`WallDir::Stay`] the
    /// square itself).
    pub const fn step(self, dir: WallDir) -> Option<Square> {
        let (r, c) = (self.row() as i8, self.col() as i8);
        let (dr, dc) = dir.delta();
        let (nr, nc) = (r + dr, c + dc);
        if nr < 0 || nc < 0 {
            None
        } else {
            Square::new(nr as u8, nc as u8)
        }
    }

    /// Read a square name such as `e2`: exactly a row letter `a`-`e` and a column digit
    /// `1`-`5`. Anything else (including `XX`, upper case, spaces) is `None`.
    pub fn parse(name: &str) -> Option<Square> {
        match name.as_bytes() {
            &[r @ b'a'..=b'e', c @ b'1'..=b'5'] => Square::new(r - b'a', c - b'1'),
            _ => None,
        }
    }

    /// Every square, `a1`, `a2`, …, `e5`.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..25).map(Square)
    }

    /// The squares of a 25-bit mask, lowest index first.
    pub fn iter_mask(mask: u32) -> impl Iterator<Item = Square> {
        let mut m = mask & BOARD_MASK;
        std::iter::from_fn(move || {
            if m == 0 {
                None
            } else {
                let i = m.trailing_zeros();
                m &= m - 1;
                Some(Square::at(i))
            }
        })
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.row()) as char, self.col() + 1)
    }
}

impl FromStr for Square {
    type Err = OnitamaError;
    fn from_str(s: &str) -> Result<Square, OnitamaError> {
        Square::parse(s).ok_or_else(|| OnitamaError::BadSquare(s.to_owned()))
    }
}

/// The bits of the two military bases, `a3` and `e3`.
pub const BASES: u32 = (1 << 2) | (1 << 22);

/// One of the two players. A starts at the bottom (row `e`), B at the top (row `a`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Player A: general `A`, soldiers `a`, base `e3`, applies cards as written.
    A = 0,
    /// Player B: general `B`, soldiers `b`, base `a3`, applies cards rotated 180°.
    B = 1,
}

impl Player {
    /// Both players, A first.
    pub const BOTH: [Player; 2] = [Player::A, Player::B];

    /// 0 for A, 1 for B.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The opponent.
    #[inline]
    pub const fn other(self) -> Player {
        match self {
            Player::A => Player::B,
            Player::B => Player::A,
        }
    }

    /// The player's own military base (`e3` for A, `a3` for B).
    pub const fn base(self) -> Square {
        match self {
            Player::A => Square::E3,
            Player::B => Square::A3,
        }
    }

    /// The base this player's general must reach to win: the opponent's base.
    pub const fn target_base(self) -> Square {
        self.other().base()
    }

    /// `'A'` or `'B'`.
    pub const fn letter(self) -> char {
        match self {
            Player::A => 'A',
            Player::B => 'B',
        }
    }

    /// The player named by `'A'` or `'B'`.
    pub const fn from_letter(c: char) -> Option<Player> {
        match c {
            'A' => Some(Player::A),
            'B' => Some(Player::B),
            _ => None,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A wall step, in absolute board directions for both players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WallDir {
    /// `u`: one row toward row `a`.
    Up = 0,
    /// `r`: one column toward column `5`.
    Right = 1,
    /// `d`: one row toward row `e`.
    Down = 2,
    /// `l`: one column toward column `1`.
    Left = 3,
    /// `s`: the wall stays (always legal).
    Stay = 4,
}

impl WallDir {
    /// All five, in the order `u r d l s`.
    pub const ALL: [WallDir; 5] = [
        WallDir::Up,
        WallDir::Right,
        WallDir::Down,
        WallDir::Left,
        WallDir::Stay,
    ];

    /// The letter: `u`, `r`, `d`, `l` or `s`.
    pub const fn letter(self) -> char {
        match self {
            WallDir::Up => 'u',
            WallDir::Right => 'r',
            WallDir::Down => 'd',
            WallDir::Left => 'l',
            WallDir::Stay => 's',
        }
    }

    /// The direction of a letter `u r d l s` (lower case only).
    pub const fn from_letter(c: char) -> Option<WallDir> {
        match c {
            'u' => Some(WallDir::Up),
            'r' => Some(WallDir::Right),
            'd' => Some(WallDir::Down),
            'l' => Some(WallDir::Left),
            's' => Some(WallDir::Stay),
            _ => None,
        }
    }

    /// `(drow, dcol)` of the step.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            WallDir::Up => (-1, 0),
            WallDir::Right => (0, 1),
            WallDir::Down => (1, 0),
            WallDir::Left => (0, -1),
            WallDir::Stay => (0, 0),
        }
    }

    #[inline]
    pub(crate) const fn from_index(i: u32) -> WallDir {
        WallDir::ALL[i as usize]
    }
}

impl fmt::Display for WallDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// `NEIGHBOUR[sq][dir]`: the index of the square one step from `sq` in `dir` (`u r d l`),
/// or 25 when that is off the board.
pub(crate) const NEIGHBOUR: [[u8; 4]; 25] = {
    let mut t = [[25u8; 4]; 25];
    let mut s = 0;
    while s < 25 {
        let mut d = 0;
        while d < 4 {
            if let Some(n) = Square(s as u8).step(WallDir::ALL[d]) {
                t[s][d] = n.0;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// `WALL_STEPS[sq]`: the squares one wall step (`u r d l`) from `sq` reaches, bases left
/// out (the wall may never stand on a base).
pub(crate) const WALL_STEPS: [u32; 25] = {
    let mut t = [0u32; 25];
    let mut s = 0;
    while s < 25 {
        let mut d = 0;
        while d < 4 {
            let n = NEIGHBOUR[s][d];
            if n < 25 {
                t[s] |= 1 << n;
            }
            d += 1;
        }
        t[s] &= !BASES;
        s += 1;
    }
    t
};

/// `SOURCE_OK[dr + 4][dc + 4]`: the squares from which the offset `(dr, dc)` stays on the
/// board.
pub(crate) const SOURCE_OK: [[u32; 9]; 9] = {
    let mut t = [[0u32; 9]; 9];
    let mut dr = 0;
    while dr < 9 {
        let mut dc = 0;
        while dc < 9 {
            let mut m = 0u32;
            let mut s = 0i32;
            while s < 25 {
                let r = s / 5 + dr as i32 - 4;
                let c = s % 5 + dc as i32 - 4;
                if r >= 0 && r < 5 && c >= 0 && c < 5 {
                    m |= 1 << s;
                }
                s += 1;
            }
            t[dr][dc] = m;
            dc += 1;
        }
        dr += 1;
    }
    t
};

/// Shift a mask by a signed square delta (`+` toward higher indices), keeping 25 bits.
#[inline]
pub(crate) const fn shift(mask: u32, delta: i32) -> u32 {
    if delta >= 0 {
        (mask << delta) & BOARD_MASK
    } else {
        mask >> (-delta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("e3"), Some(Square::E3));
        assert_eq!(Square::E3.to_string(), "e3");
        assert_eq!(Square::A3.to_string(), "a3");
        for bad in ["XX", "", "e", "e33", "f1", "a0", "a6", "E3", " e3", "e3 "] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn neighbours_and_masks() {
        let c3 = Square::parse("c3").unwrap();
        assert_eq!(c3.step(WallDir::Up), Square::parse("b3"));
        assert_eq!(c3.step(WallDir::Right), Square::parse("c4"));
        assert_eq!(Square::parse("a1").unwrap().step(WallDir::Up), None);
        assert_eq!(Square::parse("e5").unwrap().step(WallDir::Right), None);
        assert_eq!(SOURCE_OK[4][4], BOARD_MASK);
        assert_eq!(SOURCE_OK[0][4].count_ones(), 5); // four rows up: only row e
        assert_eq!(SOURCE_OK[8][8].count_ones(), 1); // (+4, +4): only a1
        assert_eq!(NEIGHBOUR[0][0], 25);
    }
}
