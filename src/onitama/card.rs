//! Movement cards: any 5×5 pattern with one `o` (the pawn) and any number of `x` (squares
//! it may jump to), in the holder's view. A applies the offsets as written ("up" is toward
//! row `a`); B applies them rotated 180°, i.e. negated.
//!
//! A [`Card`] is its set of offsets, stored in a canonical 5×5 placement (the `o` as near
//! the centre as the offsets allow), so two patterns with the same moves are the same card
//! whatever the `o`'s position in their source and whatever filler characters they use.
//!
//! The standard cards are the 16 of the base game ([`STANDARD_CARDS`]) and the 16 of the
//! Sensei's Path expansion ([`SENSEI_CARDS`]); a [`CardSet`] says which a random deal
//! draws from.

use crate::common::excerpt::excerpt;
use crate::common::rng::Rng;
use std::fmt;

use super::error::OnitamaError;
use super::square::Player;

/// A movement card: a set of `(drow, dcol)` offsets in the holder's view, each within ±4.
///
/// Bits 0..25 are the `x` squares of the canonical 5×5 pattern (`row * 5 + col`), bits
/// 25..30 the index of its `o`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u32);

/// Clamp `v` into `lo..=hi` (`lo <= hi`).
const fn clamp(v: i32, lo: i32, hi: i32) -> i32 {
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}

impl Card {
    /// The canonical card of the pattern with `o` at index `o` and `x`s at `xmask` (a
    /// valid 5×5 placement).
    const fn canonical(o: u32, xmask: u32) -> Card {
        let (or, oc) = ((o / 5) as i32, (o % 5) as i32);
        let (mut min_r, mut max_r, mut min_c, mut max_c) = (0i32, 0i32, 0i32, 0i32);
        let mut i = 0i32;
        while i < 25 {
            if xmask & (1 << i) != 0 {
                let dr = i / 5 - or;
                let dc = i % 5 - oc;
                if dr < min_r {
                    min_r = dr;
                }
                if dr > max_r {
                    max_r = dr;
                }
                if dc < min_c {
                    min_c = dc;
                }
                if dc > max_c {
                    max_c = dc;
                }
            }
            i += 1;
        }
        let nr = clamp(2, -min_r, 4 - max_r);
        let nc = clamp(2, -min_c, 4 - max_c);
        let mut mask = 0u32;
        let mut i = 0i32;
        while i < 25 {
            if xmask & (1 << i) != 0 {
                let r = i / 5 - or + nr;
                let c = i % 5 - oc + nc;
                mask |= 1 << (r * 5 + c);
            }
            i += 1;
        }
        Card(mask | (((nr * 5 + nc) as u32) << 25))
    }

    /// A card from five 5-character rows, for constants: panics (at compile time) on a
    /// malformed pattern. Use [`Card::parse`] for input.
    pub const fn from_rows_const(rows: [&str; 5]) -> Card {
        let mut o = 25u32;
        let mut xmask = 0u32;
        let mut r = 0;
        while r < 5 {
            let row = rows[r].as_bytes();
            assert!(row.len() == 5, "a card row must have 5 characters");
            let mut c = 0;
            while c < 5 {
                if row[c] == b'o' {
                    assert!(o == 25, "a card must have exactly one 'o'");
                    o = (r * 5 + c) as u32;
                } else if row[c] == b'x' {
                    xmask |= 1 << (r * 5 + c);
                }
                c += 1;
            }
            r += 1;
        }
        assert!(o < 25, "a card must have one 'o'");
        Card::canonical(o, xmask)
    }

    /// Read a card from its 5 rows of 5 characters each, in the holder's view: `o` marks
    /// the pawn, each `x` a target, any other character (`.`, space, …) nothing.
    ///
    /// Errors: not 5 rows, a row not 5 characters long, no `o`, or more than one `o`.
    pub fn parse<S: AsRef<str>>(rows: &[S]) -> Result<Card, OnitamaError> {
        if rows.len() != 5 {
            return Err(OnitamaError::BadCard(format!(
                "a card has 5 rows, not {}",
                rows.len()
            )));
        }
        let mut o: Option<u32> = None;
        let mut xmask = 0u32;
        for (r, row) in rows.iter().enumerate() {
            let row = row.as_ref();
            let n = row.chars().count();
            if n != 5 {
                return Err(OnitamaError::BadCard(format!(
                    "row {} ('{row}') has {n} characters, not 5",
                    r + 1
                )));
            }
            for (c, ch) in row.chars().enumerate() {
                let i = (r * 5 + c) as u32;
                match ch {
                    'o' if o.is_some() => {
                        return Err(OnitamaError::BadCard(
                            "a card has exactly one 'o', this one has two or more".into(),
                        ));
                    }
                    'o' => o = Some(i),
                    'x' => xmask |= 1 << i,
                    _ => {}
                }
            }
        }
        match o {
            Some(o) => Ok(Card::canonical(o, xmask)),
            None => Err(OnitamaError::BadCard(
                "a card has exactly one 'o' (the pawn), this one has none".into(),
            )),
        }
    }

    /// Read a card written as one string: a standard card's name (any case), or five
    /// rows of five characters separated by `/` (e.g. `..x../...../..o../..x../.....`).
    pub fn from_text(text: &str) -> Result<Card, OnitamaError> {
        if let Some(card) = Card::standard(text) {
            return Ok(card);
        }
        if !text.contains('/') {
            return Err(OnitamaError::BadCard(format!(
                "'{}' is neither a standard card name nor a pattern of 5 rows separated by '/'",
                excerpt(text)
            )));
        }
        let rows: Vec<&str> = text.split('/').collect();
        Card::parse(&rows)
    }

    /// The card with these holder-view `(drow, dcol)` offsets (duplicates are merged).
    ///
    /// Errors: the offset `(0, 0)`, or offsets that do not fit on one 5×5 pattern together
    /// with the `o` (every row and column span, `o` included, at most 4).
    pub fn from_offsets(offsets: &[(i8, i8)]) -> Result<Card, OnitamaError> {
        if offsets.contains(&(0, 0)) {
            return Err(OnitamaError::BadCard(
                "the offset (0, 0) is the pawn itself, not a move".into(),
            ));
        }
        let span = |f: fn(&(i8, i8)) -> i8| {
            let lo = offsets.iter().map(f).min().unwrap_or(0).min(0) as i32;
            let hi = offsets.iter().map(f).max().unwrap_or(0).max(0) as i32;
            (lo, hi)
        };
        let (r0, r1) = span(|o| o.0);
        let (c0, c1) = span(|o| o.1);
        if r1 - r0 > 4 || c1 - c0 > 4 {
            return Err(OnitamaError::BadCard(format!(
                "offsets {offsets:?} do not fit on a 5x5 card with the pawn"
            )));
        }
        let (or, oc) = (-r0, -c0);
        let xmask = offsets.iter().fold(0u32, |m, &(dr, dc)| {
            m | 1 << ((or + dr as i32) * 5 + oc + dc as i32)
        });
        Ok(Card::canonical((or * 5 + oc) as u32, xmask))
    }

    /// The standard card with this name: one of the 16 base cards or the 16 of the
    /// Sensei's Path expansion ([`ALL_CARDS`]). Case, spaces, `_` and `-` do not matter
    /// (`"tiger"`, `"Sea Snake"`, `"sea_snake"`, `"SEA-SNAKE"`).
    pub fn standard(name: &str) -> Option<Card> {
        let key = |s: &str| {
            s.chars()
                .filter(|c| !matches!(c, ' ' | '_' | '-'))
                .flat_map(char::to_lowercase)
                .collect::<String>()
        };
        let wanted = key(name);
        if wanted.is_empty() {
            return None;
        }
        ALL_NAMES
            .iter()
            .position(|n| key(n) == wanted)
            .map(|i| ALL_CARDS[i])
    }

    /// The standard card's name (`"Tiger"`, `"Sea Snake"`, …) if this card has the same
    /// moves as one of the 16 base cards or the 16 Sensei's Path cards.
    pub fn name(self) -> Option<&'static str> {
        self.index().map(|i| ALL_NAMES[i])
    }

    /// The card's name as one word, for the space-separated notation: the name with each
    /// space written `_` (`"Sea_Snake"`; [`Card::standard`] reads it back).
    pub fn name_word(self) -> Option<String> {
        self.name().map(|n| n.replace(' ', "_"))
    }

    /// Who moves first in standard Onitama when this card is the side card of a random
    /// deal: A for a blue stamp, B for a red one (see [`STANDARD_BLUE`] and
    /// [`SENSEI_BLUE`]); `None` for a card that is not one of [`ALL_CARDS`].
    pub fn first_player(self) -> Option<Player> {
        self.index()
            .map(|i| if ALL_BLUE[i] { Player::A } else { Player::B })
    }

    /// This card's index in [`ALL_CARDS`] (0..32), `None` for any other card: a
    /// constant-time lookup, for the evaluation's card tables.
    ///
    /// ```
    /// use ludogame::onitama::{ALL_CARDS, Card};
    /// assert_eq!(Card::standard("tiger").unwrap().index(), Some(0));
    /// assert_eq!(ALL_CARDS[31].index(), Some(31));
    /// assert_eq!(Card::from_offsets(&[(4, 4)]).unwrap().index(), None);
    /// ```
    #[inline]
    pub const fn index(self) -> Option<usize> {
        let i = CARD_SLOTS[card_hash(self.0, CARD_HASH_MAGIC)] as usize;
        if i != 0 && ALL_CARDS[i - 1].0 == self.0 {
            Some(i - 1)
        } else {
            None
        }
    }

    /// The card's left-right mirror image (`Rabbit` ↔ `Frog`; a symmetric card is its own
    /// mirror).
    ///
    /// ```
    /// use ludogame::onitama::Card;
    /// let frog = Card::standard("frog").unwrap();
    /// assert_eq!(frog.mirrored(), Card::standard("rabbit").unwrap());
    /// assert_eq!(frog.mirrored().mirrored(), frog);
    /// ```
    pub const fn mirrored(self) -> Card {
        let o = self.o_index();
        let (or, oc) = (o / 5, o % 5);
        let mut mask = 0u32;
        let mut i = 0;
        while i < 25 {
            if self.0 & (1 << i) != 0 {
                mask |= 1 << ((i / 5) * 5 + 4 - i % 5);
            }
            i += 1;
        }
        Card::canonical(or * 5 + 4 - oc, mask)
    }

    /// The packed representation (canonical `x` bits and `o` index), unique per set of
    /// moves: for hashing positions.
    #[inline]
    pub(crate) const fn bits(self) -> u32 {
        self.0
    }

    /// Bits of the `x` squares of the canonical pattern.
    #[inline]
    pub(crate) const fn xmask(self) -> u32 {
        self.0 & ((1 << 25) - 1)
    }

    /// Index of the `o` in the canonical pattern.
    #[inline]
    pub(crate) const fn o_index(self) -> u32 {
        self.0 >> 25
    }

    /// The holder-view `(drow, dcol)` offsets, in pattern order (row by row).
    pub fn offsets(self) -> impl Iterator<Item = (i8, i8)> {
        let (or, oc) = ((self.o_index() / 5) as i8, (self.o_index() % 5) as i8);
        let mut m = self.xmask();
        std::iter::from_fn(move || {
            if m == 0 {
                return None;
            }
            let i = m.trailing_zeros() as i8;
            m &= m - 1;
            Some((i / 5 - or, i % 5 - oc))
        })
    }

    /// The offsets as `player` applies them on the board (negated for B).
    pub fn moves_for(self, player: Player) -> impl Iterator<Item = (i8, i8)> {
        let sign = if player == Player::A { 1 } else { -1 };
        self.offsets().map(move |(dr, dc)| (sign * dr, sign * dc))
    }

    /// Does `player` holding this card have the board offset `(drow, dcol)`?
    pub fn allows(self, player: Player, drow: i8, dcol: i8) -> bool {
        self.moves_for(player).any(|o| o == (drow, dcol))
    }

    /// Number of moves (`x` marks) on the card.
    pub const fn len(self) -> u32 {
        self.xmask().count_ones()
    }

    /// Does the card have no move at all (an `o` and no `x`)?
    pub const fn is_empty(self) -> bool {
        self.xmask() == 0
    }

    /// How a caller writes this card drawn as `rows`: its name when it has one and is drawn
    /// in its canonical rows, else the rows joined by '/'.
    pub fn written(self, rows: &[String; 5]) -> String {
        match self.name() {
            Some(name) if *rows == self.rows() => name.to_owned(),
            _ => rows.join("/"),
        }
    }

    /// The canonical pattern: 5 rows of `.`, `x` and one `o`.
    pub fn rows(self) -> [String; 5] {
        std::array::from_fn(|r| {
            (0..5)
                .map(|c| {
                    let i = (r * 5 + c) as u32;
                    if i == self.o_index() {
                        'o'
                    } else if self.xmask() & (1 << i) != 0 {
                        'x'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
    }

    /// The canonical pattern as one string, rows separated by `/`.
    pub fn pattern(self) -> String {
        self.rows().join("/")
    }
}

impl fmt::Display for Card {
    /// The standard name if there is one, else the pattern (both read by
    /// [`Card::from_text`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => f.write_str(n),
            None => f.write_str(&self.pattern()),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Card({self})")
    }
}

/// Tiger: two up, one down.
pub const TIGER: Card = Card::from_rows_const(["..x..", ".....", "..o..", "..x..", "....."]);
/// Dragon: up-and-two-sideways both ways, one down-diagonal both ways.
pub const DRAGON: Card = Card::from_rows_const([".....", "x...x", "..o..", ".x.x.", "....."]);
/// Frog.
pub const FROG: Card = Card::from_rows_const([".....", ".x...", "x.o..", "...x.", "....."]);
/// Rabbit.
pub const RABBIT: Card = Card::from_rows_const([".....", "...x.", "..o.x", ".x...", "....."]);
/// Crab.
pub const CRAB: Card = Card::from_rows_const([".....", "..x..", "x.o.x", ".....", "....."]);
/// Elephant.
pub const ELEPHANT: Card = Card::from_rows_const([".....", ".x.x.", ".xox.", ".....", "....."]);
/// Goose.
pub const GOOSE: Card = Card::from_rows_const([".....", ".x...", ".xox.", "...x.", "....."]);
/// Rooster.
pub const ROOSTER: Card = Card::from_rows_const([".....", "...x.", ".xox.", ".x...", "....."]);
/// Monkey: the four diagonals.
pub const MONKEY: Card = Card::from_rows_const([".....", ".x.x.", "..o..", ".x.x.", "....."]);
/// Mantis.
pub const MANTIS: Card = Card::from_rows_const([".....", ".x.x.", "..o..", "..x..", "....."]);
/// Horse.
pub const HORSE: Card = Card::from_rows_const([".....", "..x..", ".xo..", "..x..", "....."]);
/// Ox.
pub const OX: Card = Card::from_rows_const([".....", "..x..", "..ox.", "..x..", "....."]);
/// Crane.
pub const CRANE: Card = Card::from_rows_const([".....", "..x..", "..o..", ".x.x.", "....."]);
/// Boar.
pub const BOAR: Card = Card::from_rows_const([".....", "..x..", ".xox.", ".....", "....."]);
/// Eel.
pub const EEL: Card = Card::from_rows_const([".....", ".x...", "..ox.", ".x...", "....."]);
/// Cobra.
pub const COBRA: Card = Card::from_rows_const([".....", "...x.", ".xo..", "...x.", "....."]);

/// The 16 cards of the base game, in the order of `standard_cards.json`.
pub const STANDARD_CARDS: [Card; 16] = [
    TIGER, DRAGON, FROG, RABBIT, CRAB, ELEPHANT, GOOSE, ROOSTER, MONKEY, MANTIS, HORSE, OX, CRANE,
    BOAR, EEL, COBRA,
];

/// The stamp colour of each of [`STANDARD_CARDS`] (same order), which decides who moves
/// first in standard Onitama when the cards are dealt at random: the player whose colour
/// is on the side card. Blue (`true`) is player A (row `e`), red (`false`) is player B.
pub const STANDARD_BLUE: [bool; 16] = [
    true, false, false, true, true, false, true, false, true, false, false, true, true, false,
    true, false,
];

/// The names of [`STANDARD_CARDS`], same order.
pub const STANDARD_NAMES: [&str; 16] = [
    "Tiger", "Dragon", "Frog", "Rabbit", "Crab", "Elephant", "Goose", "Rooster", "Monkey",
    "Mantis", "Horse", "Ox", "Crane", "Boar", "Eel", "Cobra",
];

/// Fox (Sensei's Path): the three squares of the column to the right.
pub const FOX: Card = Card::from_rows_const([".....", "...x.", "..ox.", "...x.", "....."]);
/// Dog (Sensei's Path): the three squares of the column to the left.
pub const DOG: Card = Card::from_rows_const([".....", ".x...", ".xo..", ".x...", "....."]);
/// Giraffe (Sensei's Path): up one and two sideways, both ways; one down.
pub const GIRAFFE: Card = Card::from_rows_const([".....", "x...x", "..o..", "..x..", "....."]);
/// Panda (Sensei's Path): up, up-right, down-left.
pub const PANDA: Card = Card::from_rows_const([".....", "..xx.", "..o..", ".x...", "....."]);
/// Bear (Sensei's Path): up, up-left, down-right.
pub const BEAR: Card = Card::from_rows_const([".....", ".xx..", "..o..", "...x.", "....."]);
/// Kirin (Sensei's Path): two up and one sideways, both ways; two down.
pub const KIRIN: Card = Card::from_rows_const([".x.x.", ".....", "..o..", ".....", "..x.."]);
/// Sea Snake (Sensei's Path): up, two right, down-left.
pub const SEA_SNAKE: Card = Card::from_rows_const([".....", "..x..", "..o.x", ".x...", "....."]);
/// Viper (Sensei's Path): up, two left, down-right.
pub const VIPER: Card = Card::from_rows_const([".....", "..x..", "x.o..", "...x.", "....."]);
/// Phoenix (Sensei's Path): both up-diagonals and two sideways both ways.
pub const PHOENIX: Card = Card::from_rows_const([".....", ".x.x.", "x.o.x", ".....", "....."]);
/// Mouse (Sensei's Path): up, right, down-left.
pub const MOUSE: Card = Card::from_rows_const([".....", "..x..", "..ox.", ".x...", "....."]);
/// Rat (Sensei's Path): up, left, down-right.
pub const RAT: Card = Card::from_rows_const([".....", "..x..", ".xo..", "...x.", "....."]);
/// Turtle (Sensei's Path): both down-diagonals and two sideways both ways.
pub const TURTLE: Card = Card::from_rows_const([".....", ".....", "x.o.x", ".x.x.", "....."]);
/// Tanuki (Sensei's Path): up, up one and two right, down-left.
pub const TANUKI: Card = Card::from_rows_const([".....", "..x.x", "..o..", ".x...", "....."]);
/// Iguana (Sensei's Path): up, up one and two left, down-right.
pub const IGUANA: Card = Card::from_rows_const([".....", "x.x..", "..o..", "...x.", "....."]);
/// Sable (Sensei's Path): up-right, two left, down-left.
pub const SABLE: Card = Card::from_rows_const([".....", "...x.", "x.o..", ".x...", "....."]);
/// Otter (Sensei's Path): up-left, two right, down-right.
pub const OTTER: Card = Card::from_rows_const([".....", ".x...", "..o.x", "...x.", "....."]);

/// The 16 cards of the Sensei's Path expansion.
pub const SENSEI_CARDS: [Card; 16] = [
    FOX, DOG, GIRAFFE, PANDA, BEAR, KIRIN, SEA_SNAKE, VIPER, PHOENIX, MOUSE, RAT, TURTLE, TANUKI,
    IGUANA, SABLE, OTTER,
];

/// The names of [`SENSEI_CARDS`], same order.
pub const SENSEI_NAMES: [&str; 16] = [
    "Fox",
    "Dog",
    "Giraffe",
    "Panda",
    "Bear",
    "Kirin",
    "Sea Snake",
    "Viper",
    "Phoenix",
    "Mouse",
    "Rat",
    "Turtle",
    "Tanuki",
    "Iguana",
    "Sable",
    "Otter",
];

/// The stamp colour of each of [`SENSEI_CARDS`] (same order; blue `true` is player A, as
/// for [`STANDARD_BLUE`]).
pub const SENSEI_BLUE: [bool; 16] = [
    false, true, true, false, true, false, true, false, true, true, false, false, true, false,
    true, false,
];

/// Two arrays of 16 end to end.
const fn concat<T: Copy>(a: [T; 16], b: [T; 16]) -> [T; 32] {
    let mut out = [a[0]; 32];
    let mut i = 0;
    while i < 16 {
        out[i] = a[i];
        out[16 + i] = b[i];
        i += 1;
    }
    out
}

/// Every standard card: the 16 base cards, then the 16 Sensei's Path cards.
pub const ALL_CARDS: [Card; 32] = concat(STANDARD_CARDS, SENSEI_CARDS);
/// The slot of a card's bits in [`CARD_SLOTS`] under the multiplier `magic`.
const fn card_hash(bits: u32, magic: u64) -> usize {
    ((bits as u64).wrapping_mul(magic) >> 57) as usize
}

/// A multiplier under which the 32 cards of [`ALL_CARDS`] hash to distinct slots of 128:
/// the first of a fixed pseudo-random sequence that works, found at compile time.
const CARD_HASH_MAGIC: u64 = {
    let mut m = 0x9e37_79b9_7f4a_7c15u64;
    loop {
        let mut used = [false; 128];
        let mut ok = true;
        let mut i = 0;
        while i < 32 {
            let h = card_hash(ALL_CARDS[i].0, m | 1);
            if used[h] {
                ok = false;
                break;
            }
            used[h] = true;
            i += 1;
        }
        if ok {
            break m | 1;
        }
        m = m
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
    }
};

/// For each hash slot, 1 + the index in [`ALL_CARDS`] of the card there, 0 for none.
const CARD_SLOTS: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 32 {
        t[card_hash(ALL_CARDS[i].0, CARD_HASH_MAGIC)] = i as u8 + 1;
        i += 1;
    }
    t
};

/// The names of [`ALL_CARDS`], same order.
pub const ALL_NAMES: [&str; 32] = concat(STANDARD_NAMES, SENSEI_NAMES);
/// The stamp colours of [`ALL_CARDS`], same order.
pub const ALL_BLUE: [bool; 32] = concat(STANDARD_BLUE, SENSEI_BLUE);

/// The cards a random standard deal draws from: the 16 base cards, the 16 Sensei's Path
/// cards, or all 32.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CardSet {
    /// The 16 cards of the base game.
    #[default]
    Base,
    /// The 16 cards of the Sensei's Path expansion.
    Sensei,
    /// All 32.
    All,
}

impl CardSet {
    /// The three sets, in the order of their names in [`CardSet::NAMES`].
    pub const EVERY: [CardSet; 3] = [CardSet::Base, CardSet::Sensei, CardSet::All];
    /// The sets' names: `base`, `sensei`, `all`.
    pub const NAMES: [&'static str; 3] = ["base", "sensei", "all"];

    /// The set's name (`base`, `sensei` or `all`).
    pub const fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The set named `name` (any case). Errors: another name, saying the three.
    pub fn from_name(name: &str) -> Result<CardSet, OnitamaError> {
        Self::EVERY
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                OnitamaError::BadCard(format!(
                    "'{}' is not a card set: the sets are {}",
                    excerpt(name),
                    Self::NAMES.join(", ")
                ))
            })
    }

    /// The set's cards.
    pub fn cards(self) -> &'static [Card] {
        match self {
            CardSet::Base => &STANDARD_CARDS,
            CardSet::Sensei => &SENSEI_CARDS,
            CardSet::All => &ALL_CARDS,
        }
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Five different standard cards (`A1 A2 B1 B2 side`) drawn at random from `seed`: the
/// same seed always deals the same cards.
pub fn deal_cards(seed: u64) -> [Card; 5] {
    let mut rng = Rng::new(seed);
    let mut deck = STANDARD_CARDS;
    for i in 0..5 {
        let j = i + rng.below((deck.len() - i) as u32) as usize;
        deck.swap(i, j);
    }
    [deck[0], deck[1], deck[2], deck[3], deck[4]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_is_written_by_name_only_when_drawn_canonically() {
        let tiger = Card::from_text("Tiger").unwrap();
        assert_eq!(tiger.written(&tiger.rows()), "Tiger");
        let mut rows = tiger.rows();
        rows[0] = rows[0].replace('.', "_");
        assert_eq!(tiger.written(&rows), rows.join("/"));
    }

    #[test]
    fn canonical_form_ignores_o_position_and_filler() {
        let a = Card::parse(&[".....", ".x...", ".xo.x", ".....", "....."]).unwrap();
        let b = Card::parse(&["x....", "xo.x.", "     ", "-----", "....."]).unwrap();
        assert_eq!(a, b);
        let offs: Vec<_> = a.offsets().collect();
        assert_eq!(offs, vec![(-1, -1), (0, -1), (0, 2)]);
        assert_eq!(Card::from_offsets(&[(0, 2), (-1, -1), (0, -1)]).unwrap(), a);
        assert_eq!(a.pattern(), "...../.x.../.xo.x/...../.....");
    }

    #[test]
    fn far_offsets_and_round_trip() {
        let far = Card::from_offsets(&[(4, 4), (0, 1)]).unwrap();
        assert_eq!(far.len(), 2);
        assert_eq!(Card::from_text(&far.pattern()).unwrap(), far);
        assert!(far.allows(Player::B, -4, -4));
        assert!(!far.allows(Player::A, -4, -4));
        assert!(Card::from_offsets(&[(4, 0), (-1, 0)]).is_err());
        assert!(Card::from_offsets(&[(0, 0)]).is_err());
        let empty = Card::parse(&[".....", ".....", "....o", ".....", "....."]).unwrap();
        assert!(empty.is_empty());
        assert_eq!(empty.pattern(), "...../...../..o../...../.....");
    }

    #[test]
    fn standard_names() {
        for (card, name) in STANDARD_CARDS.iter().zip(STANDARD_NAMES) {
            assert_eq!(card.name(), Some(name));
            assert_eq!(Card::standard(&name.to_uppercase()), Some(*card));
            assert_eq!(card.to_string(), name);
        }
        let tiger: Vec<_> = TIGER.offsets().collect();
        assert_eq!(tiger, vec![(-2, 0), (1, 0)]);
    }

    #[test]
    fn parse_errors() {
        assert!(Card::parse(&["....", ".....", "..o..", ".....", "....."]).is_err());
        assert!(Card::parse(&[".....", ".....", "..o..", "....."]).is_err());
        assert!(Card::parse(&[".....", ".....", "..x..", ".....", "....."]).is_err());
        assert!(Card::parse(&["o....", ".....", "..o..", ".....", "....."]).is_err());
        assert!(Card::from_text("Unicorn").is_err());
        assert!(Card::from_text("").is_err());
        assert!(Card::from_text("_ -").is_err());
    }

    #[test]
    fn index_and_mirror() {
        for (i, card) in ALL_CARDS.iter().enumerate() {
            assert_eq!(card.index(), Some(i), "{card:?}");
            let m: Vec<_> = card.offsets().map(|(r, c)| (r, -c)).collect();
            assert_eq!(card.mirrored(), Card::from_offsets(&m).unwrap());
            assert!(
                card.mirrored().index().is_some(),
                "the set is closed under mirroring"
            );
        }
        // Every pattern with one or two moves near the pawn: none outside the set is
        // mistaken for one in it.
        let all: std::collections::HashSet<Card> = ALL_CARDS.iter().copied().collect();
        let offs: Vec<(i8, i8)> = (-2..=2)
            .flat_map(|r| (-2..=2).map(move |c| (r, c)))
            .filter(|&o| o != (0, 0))
            .collect();
        for a in &offs {
            for b in &offs {
                let card = Card::from_offsets(&[*a, *b]).unwrap();
                assert_eq!(card.index().is_some(), all.contains(&card));
            }
        }
    }

    #[test]
    fn sensei_cards() {
        let all: std::collections::HashSet<Card> = ALL_CARDS.iter().copied().collect();
        assert_eq!(all.len(), 32, "no two standard cards have the same moves");
        for (card, name) in ALL_CARDS.iter().zip(ALL_NAMES) {
            assert_eq!(card.name(), Some(name));
            assert_eq!(Card::standard(&name.to_lowercase()), Some(*card));
            let word = card.name_word().unwrap();
            assert!(!word.contains(' '));
            assert_eq!(Card::standard(&word), Some(*card));
            assert_eq!(Card::from_text(&card.to_string()).unwrap(), *card);
        }
        for name in ["sea snake", "SeaSnake", "sea-snake", "SEA_SNAKE"] {
            assert_eq!(Card::standard(name), Some(SEA_SNAKE), "{name}");
        }
        // (drow, dcol) offsets, up is -1 and right is +1, as on the printed cards.
        let moves = |c: Card| {
            let mut v: Vec<_> = c.offsets().collect();
            v.sort();
            v
        };
        assert_eq!(moves(KIRIN), vec![(-2, -1), (-2, 1), (2, 0)]);
        assert_eq!(moves(SEA_SNAKE), vec![(-1, 0), (0, 2), (1, -1)]);
        assert_eq!(moves(PHOENIX), vec![(-1, -1), (-1, 1), (0, -2), (0, 2)]);
        assert_eq!(moves(TURTLE), vec![(0, -2), (0, 2), (1, -1), (1, 1)]);
        assert_eq!(moves(GIRAFFE), vec![(-1, -2), (-1, 2), (1, 0)]);
        // Mirror pairs have opposite stamps.
        for (a, b) in [(FOX, DOG), (PANDA, BEAR), (SEA_SNAKE, VIPER), (MOUSE, RAT)]
            .into_iter()
            .chain([(TANUKI, IGUANA), (SABLE, OTTER)])
        {
            let mirror: Vec<_> = a.offsets().map(|(r, c)| (r, -c)).collect();
            assert_eq!(Card::from_offsets(&mirror).unwrap(), b);
            assert_ne!(a.first_player(), b.first_player());
        }
        assert_eq!(KIRIN.first_player(), Some(Player::B));
        assert_eq!(PHOENIX.first_player(), Some(Player::A));
    }

    #[test]
    fn card_sets() {
        for set in CardSet::EVERY {
            assert_eq!(CardSet::from_name(&set.name().to_uppercase()).unwrap(), set);
        }
        assert_eq!(CardSet::Base.cards(), &STANDARD_CARDS);
        assert_eq!(CardSet::Sensei.cards(), &SENSEI_CARDS);
        assert_eq!(CardSet::All.cards().len(), 32);
        let e = CardSet::from_name("promo").unwrap_err().to_string();
        assert!(e.contains("base, sensei, all"), "{e}");
    }
}
