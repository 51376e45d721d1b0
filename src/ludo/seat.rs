//! The small numbers every Ludo position is made of: [`Seat`] (a place at the table),
//! [`Token`] (one of a seat's tokens) and [`Step`] (how far a token has gone). Seats and
//! tokens are one-byte `Copy` newtypes, so they cost nothing over the bare numbers they
//! replace, but a seat cannot be passed where a token (or a square, or a step) is expected.

use std::fmt;
use std::ops::{Index, IndexMut};

/// The most seats any rule set has.
pub const MAX_SEATS: usize = 4;

/// The most tokens a seat can have in any rule set.
pub const MAX_TOKENS: usize = 4;

/// A seat, `0..MAX_SEATS`: seat `k` is the `k`-th of the rule set's seat labels, `'A'`..`'D'`
/// in every preset (which is how it displays).
#[repr(transparent)]
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(u8);

impl Seat {
    /// Every seat, in seat order.
    pub const ALL: [Seat; MAX_SEATS] = [Seat(0), Seat(1), Seat(2), Seat(3)];

    /// The seat with this index, if there is one (`index < MAX_SEATS`).
    #[inline]
    pub const fn new(index: usize) -> Option<Seat> {
        if index < MAX_SEATS {
            Some(Seat(index as u8))
        } else {
            None
        }
    }

    /// The seat with this index taken modulo [`MAX_SEATS`]: for indices that are in range
    /// by construction (table entries, bit positions), without a check on the hot path.
    #[inline(always)]
    pub(crate) const fn wrapping(index: usize) -> Seat {
        Seat((index % MAX_SEATS) as u8)
    }

    /// The index, `0..MAX_SEATS`, for indexing per-seat arrays. (The mask changes nothing,
    /// the index is in range by construction: it tells the compiler so, which drops bounds
    /// checks and range tests on the hot paths.)
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize & (MAX_SEATS - 1)
    }

    /// The index as the byte it is stored in (for packed per-seat bytes).
    #[inline(always)]
    pub(crate) const fn byte(self) -> u8 {
        self.0
    }

    /// The seat's bit in a seat mask (bit `index`).
    #[inline(always)]
    pub const fn bit(self) -> u8 {
        1 << self.index()
    }

    /// The seat `k` places after this one in seat order (wrapping around after `D`).
    #[inline]
    pub const fn offset(self, k: usize) -> Seat {
        Seat::wrapping(self.index() + k)
    }

    /// How many places after `origin` this seat comes in seat order, `0..MAX_SEATS`
    /// (the inverse of [`Seat::offset`]: `origin.offset(s.seats_after(origin)) == s`).
    #[inline]
    pub const fn seats_after(self, origin: Seat) -> usize {
        (self.index() + MAX_SEATS - origin.index()) % MAX_SEATS
    }

    /// The seats whose bits are set in `mask`, in seat order.
    pub fn in_mask(mask: u8) -> impl Iterator<Item = Seat> {
        Seat::ALL.into_iter().filter(move |s| mask & s.bit() != 0)
    }

    /// The seat's letter in every preset, `'A'`..`'D'`.
    pub const fn letter(self) -> char {
        (b'A' + self.0) as char
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl fmt::Debug for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seat({})", self.letter())
    }
}

/// One of a seat's tokens, `0..MAX_TOKENS` (`0` is the first: `p` in CS162, `1` in standard
/// Ludo). Its name depends on the rule set and the seat, so it has no `Display`: ask
/// [`crate::ludo::rules::Rules::token_label`].
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Token(u8);

impl Token {
    /// The first token (also the one a stack is named by when it is the stack's lowest).
    pub const FIRST: Token = Token(0);

    /// The token with this index, if there is one (`index < MAX_TOKENS`).
    #[inline]
    pub const fn new(index: usize) -> Option<Token> {
        if index < MAX_TOKENS {
            Some(Token(index as u8))
        } else {
            None
        }
    }

    /// The token with this index taken modulo [`MAX_TOKENS`] (see [`Seat::wrapping`]).
    #[inline(always)]
    pub(crate) const fn wrapping(index: usize) -> Token {
        Token((index % MAX_TOKENS) as u8)
    }

    /// The lowest token of a non-empty token mask (token 0 for an empty one).
    #[inline(always)]
    pub(crate) const fn lowest_in(mask: u8) -> Token {
        Token::wrapping(mask.trailing_zeros() as usize)
    }

    /// The index, `0..MAX_TOKENS`, for indexing per-token arrays (masked as
    /// [`Seat::index`] is).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize & (MAX_TOKENS - 1)
    }

    /// The token's bit in a token mask (bit `index`).
    #[inline(always)]
    pub const fn bit(self) -> u8 {
        1 << self.index()
    }

    /// The first `count` tokens (at most [`MAX_TOKENS`]), in order: a seat's tokens when
    /// `count` is the rule set's `tokens`.
    #[inline]
    pub fn first(count: u8) -> impl Iterator<Item = Token> + Clone {
        (0..count.min(MAX_TOKENS as u8)).map(Token)
    }
}

/// Per-seat arrays are indexed by seat (no bounds check: see [`Seat::index`]).
impl<T> Index<Seat> for [T; MAX_SEATS] {
    type Output = T;

    #[inline(always)]
    fn index(&self, seat: Seat) -> &T {
        &self[seat.index()]
    }
}

impl<T> IndexMut<Seat> for [T; MAX_SEATS] {
    #[inline(always)]
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self[seat.index()]
    }
}

/// Per-token arrays are indexed by token (see the per-seat arrays).
impl<T> Index<Token> for [T; MAX_TOKENS] {
    type Output = T;

    #[inline(always)]
    fn index(&self, token: Token) -> &T {
        &self[token.index()]
    }
}

impl<T> IndexMut<Token> for [T; MAX_TOKENS] {
    #[inline(always)]
    fn index_mut(&mut self, token: Token) -> &mut T {
        &mut self[token.index()]
    }
}

// The masks above need powers of two.
const _: () = assert!(MAX_SEATS.is_power_of_two() && MAX_TOKENS.is_power_of_two());

/// A token's progress along its route: negative in the yard (−1, or −1 − slot with start
/// slots), 0 at the entry point, up to the rule set's `finish_step`.
///
/// An alias rather than a newtype, unlike [`Seat`] and [`Token`]: a step is a
/// quantity, not an index. The move code adds rolls to it, compares it with the rules'
/// step fields, and packs it into board bytes and table entries; a newtype would need all of
/// that arithmetic re-exposed and would put a conversion at every one of those places on the
/// hottest path, without a confusion to prevent (nothing else is an `i8`).
pub type Step = i8;

/// The step count of a token in its yard (its first start slot).
pub const YARD: Step = -1;

/// Is this step count in the yard?
#[inline]
pub fn in_yard(step: Step) -> bool {
    step < 0
}

/// The seat with index `i`, for tests (panics out of range).
#[cfg(test)]
pub(crate) fn seat_no(i: usize) -> Seat {
    Seat::new(i).expect("a seat index below MAX_SEATS")
}

/// The seats with these indices, for tests (panics out of range).
#[cfg(test)]
pub(crate) fn seat_list(indices: &[usize]) -> Vec<Seat> {
    indices.iter().map(|&i| seat_no(i)).collect()
}

/// The token with index `i`, for tests (panics out of range).
#[cfg(test)]
pub(crate) fn token_no(i: usize) -> Token {
    Token::new(i).expect("a token index below MAX_TOKENS")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_check_the_range() {
        assert_eq!(Seat::new(3).map(Seat::index), Some(3));
        assert_eq!(Seat::new(MAX_SEATS), None);
        assert_eq!(Token::new(3).map(Token::index), Some(3));
        assert_eq!(Token::new(MAX_TOKENS), None);
        assert_eq!(Seat::wrapping(5), Seat::ALL[1]);
        assert_eq!(Token::lowest_in(0b1100), Token::new(2).unwrap());
    }

    #[test]
    fn seats_display_as_letters_and_iterate_in_order() {
        let letters: String = Seat::ALL.iter().map(|s| s.to_string()).collect();
        assert_eq!(letters, "ABCD");
        let odd: Vec<usize> = Seat::in_mask(0b1010).map(Seat::index).collect();
        assert_eq!(odd, [1, 3]);
        assert_eq!(format!("{:?}", Seat::ALL[2]), "Seat(C)");
        let tokens: Vec<u8> = Token::first(3).map(Token::bit).collect();
        assert_eq!(tokens, [1, 2, 4]);
        assert_eq!(Token::first(9).count(), MAX_TOKENS);
    }
}
