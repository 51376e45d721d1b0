//! The position of every token, and how a move changes it. [`Board`] is small and `Copy`;
//! every function takes the [`Rules`] it plays by, so one board serves every rule set.
//!
//! (The file passes 600 lines only with its unit tests, kept next to the code they pin
//! down; the code itself is about 460 lines.)

use super::rules::{MAX_SEATS, MAX_TOKENS, OwnTokens, Rules, Seat, Token};
pub use super::seat::{Step, YARD, in_yard};
use super::tables::Geometry;

/// Where every token of every seat stands.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// Every token's step, one byte each, a word per seat (token 0 in the low byte). A
    /// seat's bytes are always written as one word, so reads never wait on a narrower
    /// write to the same bytes.
    steps: [u32; MAX_SEATS],
    seats: u8,
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let seats: Vec<[Step; MAX_TOKENS]> =
            Seat::ALL.into_iter().map(|s| self.seat_steps(s)).collect();
        f.debug_struct("Board")
            .field("steps", &seats)
            .field("seats", &self.seats)
            .finish()
    }
}

/// What one move did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveOutcome {
    /// Bit mask of the mover's tokens that moved (several for a stack; 0 if nothing moved).
    pub moved: u8,
    /// Step count before the move.
    pub from: Step,
    /// Step count after the move.
    pub to: Step,
    /// The move ran past the end of the route and came back.
    pub bounced: bool,
    /// The move ran past the end of the route and the token stayed where it was.
    pub stayed: bool,
    /// Squares the mover was bumped on by its own tokens.
    pub bumped: u8,
    /// For each seat, the bit mask of its tokens sent back to the yard.
    pub captured: [u8; MAX_SEATS],
    /// The move brought the token(s) home.
    pub reached_home: bool,
}

impl MoveOutcome {
    /// Did the move send any token back to its yard?
    pub fn captured_any(&self) -> bool {
        self.captured.iter().any(|&m| m != 0)
    }
}

/// For each mask of seats, the mask with the four token bits of each of those seats set.
const SEAT_NIBBLES: [u16; 16] = {
    let mut out = [0u16; 16];
    let mut m = 0;
    while m < 16 {
        let mut s = 0;
        while s < MAX_SEATS {
            if m & (1 << s) != 0 {
                out[m] |= 0xF << (MAX_TOKENS * s);
            }
            s += 1;
        }
        m += 1;
    }
    out
};

// The masks below pack four tokens to a seat, four seats to a board.
const _: () = assert!(MAX_TOKENS == 4 && MAX_SEATS == 4);

/// For each mask of four tokens, the word whose bytes are 0xFF at those tokens.
const BYTES_OF_TOKENS: [u32; 16] = {
    let mut out = [0u32; 16];
    let mut m = 0;
    while m < 16 {
        let mut t = 0;
        while t < 4 {
            if m & (1 << t) != 0 {
                out[m] |= 0xFF << (8 * t);
            }
            t += 1;
        }
        m += 1;
    }
    out
};

/// The top bit of byte `k` set where byte `k` of `a` equals byte `k` of `b`.
#[inline(always)]
fn equal_byte_tops(a: u64, b: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let x = a ^ b;
    // Top bit of each byte set where the byte of x is zero (no carry crosses bytes).
    !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7)
}

/// Bit `k` set where byte `k` of `a` equals byte `k` of `b`, for the eight bytes at once.
#[inline(always)]
pub(crate) fn equal_bytes(a: u64, b: u64) -> u8 {
    // The eight top bits gathered into the top byte by one multiply.
    ((equal_byte_tops(a, b) >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// Does some byte of `a` equal the same byte of `b`? (`equal_bytes(a, b) != 0`, cheaper.)
#[inline(always)]
pub(crate) fn any_equal_byte(a: u64, b: u64) -> bool {
    equal_byte_tops(a, b) != 0
}

/// The track square on which a move of `seat` from step `from` to step `to` sends
/// opponents home, if it can send any: the mover moved, and landed on a track square that is
/// not safe. (The capture rule; every capture test asks it.)
#[inline(always)]
pub(crate) fn capture_square<G: Geometry + ?Sized>(
    g: &G,
    seat: Seat,
    from: Step,
    to: Step,
) -> Option<u8> {
    g.track_square(seat, to)
        .filter(|&square| (to != from) & !g.is_safe_square(square))
}

impl Board {
    /// A board where the seats in `seat_mask` play, every token in its yard (on its own
    /// start slot when the rules number them).
    pub fn new(rules: &Rules, seat_mask: u8) -> Board {
        let mut b = Board {
            steps: [u32::from_le_bytes([YARD as u8; MAX_TOKENS]); MAX_SEATS],
            seats: seat_mask & ((1 << MAX_SEATS) - 1),
        };
        if rules.yard_slots {
            for seat in Seat::ALL {
                for t in Token::first(MAX_TOKENS as u8) {
                    b.set_step(seat, t, YARD - t.index() as Step);
                }
            }
        }
        b
    }

    /// Does `seat` play on this board?
    #[inline]
    pub fn has_seat(&self, seat: Seat) -> bool {
        self.seats & seat.bit() != 0
    }

    /// Bit mask of the seats that play.
    pub fn seat_mask(&self) -> u8 {
        self.seats
    }

    /// The four token bytes of `seat` as one word (token 0 lowest).
    #[inline(always)]
    fn seat_word(&self, seat: Seat) -> u32 {
        self.steps[seat]
    }

    /// Replace the four token bytes of `seat`.
    #[inline(always)]
    fn set_seat_word(&mut self, seat: Seat, word: u32) {
        self.steps[seat] = word;
    }

    /// Step count of one token.
    #[inline]
    pub fn step(&self, seat: Seat, token: Token) -> Step {
        // A shift of the seat's word (indexing its bytes would go through memory).
        (self.seat_word(seat) >> (8 * token.index())) as u8 as Step
    }

    /// Step counts of all token slots of one seat (only the first `rules.tokens` are used).
    #[inline(always)]
    pub fn seat_steps(&self, seat: Seat) -> [Step; MAX_TOKENS] {
        self.seat_word(seat).to_le_bytes().map(|b| b as Step)
    }

    /// Has every token of `seat` come home?
    #[inline]
    pub fn is_finished(&self, rules: &Rules, seat: Seat) -> bool {
        self.seat_steps(seat)[..rules.tokens as usize]
            .iter()
            .all(|&s| s >= rules.home_step)
    }

    /// Bit mask of `seat`'s tokens that move together with `token`: with stacking, the
    /// tokens on its square (track or home column, D8); otherwise just `token` itself.
    #[inline(always)]
    pub fn piece_mask(&self, rules: &Rules, seat: Seat, token: Token) -> u8 {
        if rules.own_tokens != OwnTokens::Stack {
            return token.bit();
        }
        let s = self.step(seat, token);
        let stackable = rules.can_stack_at(s);
        // Chosen without a branch: whether the token stands in a stack follows the dice.
        let pick = 0u8.wrapping_sub(stackable as u8);
        (self.tokens_at(rules, seat, s) & pick) | (token.bit() & !pick)
    }

    /// Bit mask of `seat`'s tokens at `step`.
    #[inline(always)]
    pub(crate) fn tokens_at(&self, rules: &Rules, seat: Seat, step: Step) -> u8 {
        // All four token slots compared at once (the upper four bytes of both words are
        // zero, so they match too, and the token mask drops them).
        let word = self.seat_word(seat) as u64;
        let want = (step as u8 as u64).wrapping_mul(0x0101_0101);
        equal_bytes(word, want) & ((1u8 << rules.tokens) - 1)
    }

    /// For each seat other than `seat`, the mask of its tokens on 0-based track `square`.
    #[inline(always)]
    fn others_on_square<G: Geometry + ?Sized>(
        &self,
        g: &G,
        seat: Seat,
        square: u8,
    ) -> [u8; MAX_SEATS] {
        let m = self.others_on_square_mask(g, seat, square);
        std::array::from_fn(|s| ((m >> (MAX_TOKENS * s)) & 0xF) as u8)
    }

    /// The tokens of the seats other than `seat` on track `square`, as one mask with bit
    /// `4 * seat + token` (all sixteen token slots compared at once).
    #[inline(always)]
    fn others_on_square_mask<G: Geometry + ?Sized>(&self, g: &G, seat: Seat, square: u8) -> u16 {
        let want = g.square_steps(square);
        let want = u128::from_le_bytes(want.map(|s| s as u8));
        let [a, b, c, d] = self.steps.map(|w| w as u64);
        let (low, high) = (a | b << 32, c | d << 32);
        let (want_low, want_high) = (want as u64, (want >> 64) as u64);
        // Most moves land where no token stands: one test settles them.
        if !any_equal_byte(low, want_low) && !any_equal_byte(high, want_high) {
            return 0;
        }
        let hit = equal_bytes(low, want_low) as u16 | (equal_bytes(high, want_high) as u16) << 8;
        let others = (self.seats & !seat.bit()) as usize & 0xF;
        let tokens = ((1u16 << g.rules().tokens) - 1).wrapping_mul(0x1111);
        hit & SEAT_NIBBLES[others] & tokens
    }

    /// Is there an opponent block (two or more tokens of one other seat) on `square`?
    fn opponent_block<G: Geometry + ?Sized>(&self, g: &G, seat: Seat, square: u8) -> bool {
        self.others_on_square(g, seat, square)
            .iter()
            .any(|m| m.count_ones() >= 2)
    }

    /// With blocking rules, does an opponent block stop a token of `seat` at `from` from
    /// moving `roll` steps (entering counts as landing on the entry square)?
    #[inline(never)]
    fn blocked<G: Geometry + ?Sized>(&self, g: &G, seat: Seat, from: Step, roll: u8) -> bool {
        let rules = g.rules();
        let (first, last) = if in_yard(from) {
            (0, 0)
        } else {
            let reached = from as i16 + roll as i16;
            (from as i16 + 1, reached.min(rules.last_track_step as i16))
        };
        (first..=last).any(|step| {
            g.track_square(seat, step as Step)
                .is_some_and(|square| self.opponent_block(g, seat, square))
        })
    }

    /// The step `token` of `seat` would reach with a move of `roll` steps before own-token
    /// bumps, or `None` when the move is not legal (a finished token, a yard token without
    /// the entering roll, an illegal overshoot, an opponent block in the way).
    #[inline(always)]
    pub fn target<G: Geometry + ?Sized>(
        &self,
        g: &G,
        seat: Seat,
        token: Token,
        roll: u8,
    ) -> Option<Step> {
        let from = self.step(seat, token);
        let to = g.route_target(from, roll)?;
        if g.rules().own_tokens == OwnTokens::Block && self.blocked(g, seat, from, roll) {
            return None;
        }
        Some(to)
    }

    /// Would moving `token` of `seat` by `roll` capture an opponent?
    pub fn would_capture<G: Geometry + ?Sized>(
        &self,
        g: &G,
        seat: Seat,
        token: Token,
        roll: u8,
    ) -> bool {
        self.landing(g, seat, token, roll)
            .is_some_and(|to| self.captures_on(g, seat, self.step(seat, token), to))
    }

    /// Would a move of `seat` from step `from` ending at step `to` capture an opponent?
    pub fn captures_on<G: Geometry + ?Sized>(
        &self,
        g: &G,
        seat: Seat,
        from: Step,
        to: Step,
    ) -> bool {
        capture_square(g, seat, from, to)
            .is_some_and(|square| self.others_on_square_mask(g, seat, square) != 0)
    }

    /// Where a move would end, own-token bumps included, or `None` when it is not legal.
    pub fn landing<G: Geometry + ?Sized>(
        &self,
        g: &G,
        seat: Seat,
        token: Token,
        roll: u8,
    ) -> Option<Step> {
        self.target(g, seat, token, roll)
            .map(|target| self.bump(g.rules(), seat, token, target))
    }

    /// With bumping, the first square from `target` on that no other own token holds (the
    /// mover's own square when that runs past the end of the route); else `target`.
    #[inline(always)]
    fn bump(&self, rules: &Rules, seat: Seat, token: Token, target: Step) -> Step {
        let from = self.step(seat, token);
        if rules.own_tokens != OwnTokens::Bump || target == from {
            return target;
        }
        let mut to = target;
        while rules
            .all_tokens()
            .any(|t| t != token && self.step(seat, t) == to)
        {
            if to >= rules.finish_step {
                return from;
            }
            to += 1;
        }
        to
    }

    /// Move `token` of `seat` by `roll` steps: its whole stack moves, own tokens bump it on
    /// (with bumping), and opponents on the landing track square go back to their yards
    /// (unless the square is safe). A move that is not legal leaves the board alone (the
    /// outcome's `moved` is 0). The caller checks `seat` and `token` exist.
    #[inline(always)]
    pub fn apply<G: Geometry + ?Sized>(
        &mut self,
        g: &G,
        seat: Seat,
        token: Token,
        roll: u8,
    ) -> MoveOutcome {
        let from = self.step(seat, token);
        let Some(target) = self.target(g, seat, token, roll) else {
            return MoveOutcome {
                from,
                to: from,
                ..MoveOutcome::default()
            };
        };
        self.apply_to(g, seat, token, roll, target)
    }

    /// [`Board::apply`] for a move whose [`Board::target`] is known to be `target`.
    #[inline(always)]
    fn apply_to<G: Geometry + ?Sized>(
        &mut self,
        g: &G,
        seat: Seat,
        token: Token,
        roll: u8,
        target: Step,
    ) -> MoveOutcome {
        let rules = g.rules();
        let from = self.step(seat, token);
        let to = self.bump(rules, seat, token, target);
        let stayed = target == from;
        let bounced = !in_yard(from) & (from as i16 + roll as i16 > rules.finish_step as i16);
        let bumped = if to == from && !stayed {
            // Bumped past the end: count the own tokens it ran into.
            (target..=rules.finish_step).count() as u8
        } else {
            (to - target) as u8
        };
        // Leaving the yard moves one token only: yard tokens are never stacked.
        let moved = self.piece_mask(rules, seat, token);
        // Opponents on the landing square go home. Off the track (no square) there is no
        // one to compare with, so only an actual capture branches.
        let square = capture_square(g, seat, from, to).unwrap_or(u8::MAX);
        let hit = self.others_on_square_mask(g, seat, square);
        // Every moved token takes the new step, in one word.
        let m = BYTES_OF_TOKENS[moved as usize & 0xF];
        let word = (self.seat_word(seat) & !m) | ((to as u8 as u32).wrapping_mul(0x0101_0101) & m);
        self.set_seat_word(seat, word);
        let mut captured = [0u8; MAX_SEATS];
        if hit != 0 {
            self.capture(rules, hit, &mut captured);
        }
        MoveOutcome {
            moved: if to == from && !stayed { 0 } else { moved },
            from,
            to,
            bounced,
            stayed,
            bumped,
            captured,
            reached_home: from < rules.home_step && to >= rules.home_step,
        }
    }

    /// Send the tokens of `hit` (bit `4 * seat + token`) back to their yards, and note them
    /// in `captured` (kept out of line: captures are rare next to plain moves).
    #[inline(never)]
    pub(crate) fn capture(&mut self, rules: &Rules, hit: u16, captured: &mut [u8; MAX_SEATS]) {
        for (other, mask) in Seat::ALL.into_iter().zip(captured.iter_mut()) {
            *mask = ((hit >> (MAX_TOKENS * other.index())) & 0xF) as u8;
            for t in rules.all_tokens() {
                if *mask & t.bit() != 0 {
                    self.send_to_yard(rules, other, t);
                }
            }
        }
    }

    /// Put a token back in its yard: at −1, or on its owner's first free start slot.
    fn send_to_yard(&mut self, rules: &Rules, seat: Seat, token: Token) {
        let mut slot = YARD;
        if rules.yard_slots {
            let taken = self.seat_steps(seat);
            while taken[..rules.tokens as usize].contains(&slot) {
                slot -= 1;
            }
        }
        self.set_step(seat, token, slot);
    }

    /// Set one token's step count directly (for tests and for loading positions). The
    /// caller guarantees the value fits the rules.
    pub fn set_step(&mut self, seat: Seat, token: Token, step: Step) {
        let mut steps = self.seat_steps(seat);
        steps[token] = step;
        self.set_seat_word(seat, u32::from_le_bytes(steps.map(|s| s as u8)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ludo::seat::{seat_no, token_no};

    const R: Rules = Rules::CS162;
    const AB: u8 = 0b0011;

    #[test]
    fn equal_bytes_finds_every_equal_byte() {
        let mut rng = crate::ludo::rng::Rng::new(3);
        for i in 0..20_000 {
            let a = rng.next_u64();
            // Make some bytes equal, some differ by one bit only, some entirely.
            let mut b = rng.next_u64();
            let pick = rng.next_u64();
            for k in 0..8 {
                let byte = 0xFFu64 << (8 * k);
                match (pick >> (2 * k)) & 3 {
                    0 | 1 => b = (b & !byte) | (a & byte),
                    2 => b = (b & !byte) | ((a ^ (1u64 << (8 * k + (i % 8)))) & byte),
                    _ => {}
                }
            }
            let want = (0..8).fold(0u8, |m, k| {
                m | ((((a >> (8 * k)) as u8 == (b >> (8 * k)) as u8) as u8) << k)
            });
            assert_eq!(equal_bytes(a, b), want, "{a:#x} {b:#x}");
        }
    }

    #[test]
    fn leaving_the_yard_needs_a_six() {
        let mut b = Board::new(&R, AB);
        for roll in 1..6 {
            assert_eq!(b.target(&R, seat_no(0), token_no(0), roll), None);
        }
        let out = b.apply(&R, seat_no(0), token_no(0), 6);
        assert_eq!((out.moved, out.from, out.to), (1, -1, 0));
        assert_eq!(b.step(seat_no(0), token_no(0)), 0);
        assert_eq!(b.step(seat_no(0), token_no(1)), YARD);
    }

    #[test]
    fn bounce_off_the_finish() {
        let mut b = Board::new(&R, AB);
        b.set_step(seat_no(0), token_no(0), 55);
        let out = b.apply(&R, seat_no(0), token_no(0), 4);
        assert!(out.bounced);
        assert_eq!(b.step(seat_no(0), token_no(0)), 55);
        b.apply(&R, seat_no(0), token_no(0), 5);
        assert_eq!(b.step(seat_no(0), token_no(0)), 54);
        let out = b.apply(&R, seat_no(0), token_no(0), 3);
        assert!(out.reached_home);
        assert_eq!(b.step(seat_no(0), token_no(0)), 57);
        assert!(
            b.target(&R, seat_no(0), token_no(0), 1).is_none(),
            "a finished token never moves"
        );
    }

    #[test]
    fn stacks_move_together_and_split_when_captured() {
        let mut b = Board::new(&R, AB);
        b.set_step(seat_no(0), token_no(0), 3);
        b.set_step(seat_no(0), token_no(1), 3);
        assert_eq!(b.piece_mask(&R, seat_no(0), token_no(0)), 0b11);
        b.apply(&R, seat_no(0), token_no(1), 4);
        assert_eq!(
            (
                b.step(seat_no(0), token_no(0)),
                b.step(seat_no(0), token_no(1))
            ),
            (7, 7)
        );
        // B's step 49 is square 15 + 48 = 63 -> 7 (1-based), where the A stack stands.
        b.set_step(seat_no(1), token_no(0), 45);
        let out = b.apply(&R, seat_no(1), token_no(0), 4);
        assert_eq!(out.captured, [0b11, 0, 0, 0]);
        assert_eq!(
            (
                b.step(seat_no(0), token_no(0)),
                b.step(seat_no(0), token_no(1))
            ),
            (YARD, YARD)
        );
    }

    #[test]
    fn ready_tokens_are_not_stacked_nor_captured() {
        let mut b = Board::new(&R, AB);
        b.set_step(seat_no(0), token_no(0), 0);
        b.set_step(seat_no(0), token_no(1), 0);
        assert_eq!(b.piece_mask(&R, seat_no(0), token_no(0)), 0b01);
        b.set_step(seat_no(1), token_no(0), 40); // B step 40 = space 54; A's R is off the track.
        assert!(!b.would_capture(&R, seat_no(1), token_no(0), 3));
    }

    #[test]
    fn only_the_landing_square_captures() {
        let mut b = Board::new(&R, AB);
        b.set_step(seat_no(0), token_no(0), 16); // A on space 16
        b.set_step(seat_no(1), token_no(0), 0); // B ready; B's step 2 is space 16
        assert!(!b.would_capture(&R, seat_no(1), token_no(0), 3));
        assert!(b.would_capture(&R, seat_no(1), token_no(0), 2));
        assert_eq!(
            b.step(seat_no(0), token_no(0)),
            16,
            "would_capture changes nothing"
        );
    }

    #[test]
    fn standard_exact_finish_and_shared_squares() {
        let r = Rules::STANDARD;
        let mut b = Board::new(&r, 0b0101);
        b.set_step(seat_no(0), token_no(0), 54);
        assert_eq!(
            b.target(&r, seat_no(0), token_no(0), 3),
            None,
            "overshoot is illegal"
        );
        assert_eq!(b.target(&r, seat_no(0), token_no(0), 2), Some(56));
        b.set_step(seat_no(0), token_no(1), 10);
        b.set_step(seat_no(0), token_no(2), 7);
        b.apply(&r, seat_no(0), token_no(2), 3);
        assert_eq!(
            (
                b.step(seat_no(0), token_no(1)),
                b.step(seat_no(0), token_no(2))
            ),
            (10, 10),
            "own tokens share"
        );
        assert_eq!(
            b.piece_mask(&r, seat_no(0), token_no(1)),
            0b10,
            "and move separately"
        );
    }

    #[test]
    fn standard_entering_captures_on_the_start_square() {
        let r = Rules::STANDARD;
        let mut b = Board::new(&r, 0b0101);
        b.set_step(seat_no(2), token_no(0), 26); // C's step 26 is square 52 -> 0, A's start square
        let out = b.apply(&r, seat_no(0), token_no(0), 6);
        assert_eq!(out.to, 0);
        assert_eq!(out.captured, [0, 0, 1, 0]);
        assert_eq!(b.step(seat_no(2), token_no(0)), YARD);
    }

    #[test]
    fn safe_squares_protect() {
        let mut r = Rules::STANDARD;
        r.safe_squares = true;
        let mut b = Board::new(&r, 0b0101);
        b.set_step(seat_no(2), token_no(0), 26 + 8); // square 8 (A's start + 8): a star
        b.set_step(seat_no(0), token_no(0), 3);
        let out = b.apply(&r, seat_no(0), token_no(0), 5);
        assert!(!out.captured_any());
        assert_eq!(
            (
                b.step(seat_no(0), token_no(0)),
                b.step(seat_no(2), token_no(0))
            ),
            (8, 34)
        );
    }

    #[test]
    fn blocks_cannot_be_passed_or_landed_on() {
        let mut r = Rules::STANDARD;
        r.own_tokens = OwnTokens::Block;
        let mut b = Board::new(&r, 0b0101);
        b.set_step(seat_no(2), token_no(0), 30); // C's step 30 = square 4
        b.set_step(seat_no(2), token_no(1), 30);
        b.set_step(seat_no(0), token_no(0), 2);
        assert_eq!(b.target(&r, seat_no(0), token_no(0), 1), Some(3));
        assert_eq!(
            b.target(&r, seat_no(0), token_no(0), 2),
            None,
            "landing on a block"
        );
        assert_eq!(
            b.target(&r, seat_no(0), token_no(0), 5),
            None,
            "passing a block"
        );
        b.set_step(seat_no(2), token_no(1), 31);
        assert_eq!(
            b.target(&r, seat_no(0), token_no(0), 5),
            Some(7),
            "one token is no block"
        );
    }

    #[test]
    fn gt_bump_stay_and_start_slots() {
        let r = Rules::GT;
        let mut b = Board::new(&r, 0b1111);
        assert_eq!(
            (
                b.step(seat_no(0), token_no(0)),
                b.step(seat_no(0), token_no(1))
            ),
            (-1, -2),
            "start slots 41 and 42"
        );
        b.apply(&r, seat_no(0), token_no(0), 6);
        let out = b.apply(&r, seat_no(0), token_no(1), 6);
        assert_eq!(
            (out.to, out.bumped),
            (1, 1),
            "entering onto an own token bumps"
        );
        // A roll past the last goal square uses the move up in place.
        b.set_step(seat_no(0), token_no(0), 38);
        assert_eq!(b.target(&r, seat_no(0), token_no(0), 4), Some(38));
        let out = b.apply(&r, seat_no(0), token_no(0), 4);
        assert!(out.stayed && out.moved != 0);
        // A token in goal is out of play: no roll moves it.
        for goal in [40, 41] {
            b.set_step(seat_no(0), token_no(0), goal);
            assert!((1..=6).all(|roll| b.target(&r, seat_no(0), token_no(0), roll).is_none()));
        }
        // A capture sends the token to its owner's first free start slot, which need not
        // be the slot it started on.
        b.set_step(seat_no(1), token_no(1), -1); // B's second token on B's first slot
        b.set_step(seat_no(1), token_no(0), 5); // B's first token on square (10 + 5) = 15 (0-based)
        b.set_step(seat_no(0), token_no(0), 14); // A's first token on square 14
        let out = b.apply(&r, seat_no(0), token_no(0), 1);
        assert_eq!(out.captured, [0, 1, 0, 0]);
        assert_eq!(
            b.step(seat_no(1), token_no(0)),
            -2,
            "the first free slot is B's second"
        );
    }

    #[test]
    fn gt_bumped_past_the_end_stays() {
        let r = Rules::GT;
        let mut b = Board::new(&r, 0b0001);
        b.set_step(seat_no(0), token_no(1), 41);
        b.set_step(seat_no(0), token_no(0), 39);
        let out = b.apply(&r, seat_no(0), token_no(0), 2);
        assert_eq!(out.to, 39);
        assert_eq!(b.step(seat_no(0), token_no(0)), 39);
    }

    #[test]
    fn moving_n_equals_moving_one_n_times_standard_every_seat_and_step() {
        // The gist's own algorithm fails this on another colour's turning square; the
        // step-count representation must not.
        let r = Rules::STANDARD;
        for seat in 0..4 {
            for start in 0..=55 {
                for n in 1..=6u8 {
                    let mut b = Board::new(&r, 1 << seat);
                    b.set_step(seat_no(seat), token_no(0), start);
                    let mut one = b;
                    let whole = b.apply(&r, seat_no(seat), token_no(0), n);
                    let mut ok = true;
                    for _ in 0..n {
                        ok &= one.apply(&r, seat_no(seat), token_no(0), 1).moved != 0;
                    }
                    if whole.moved != 0 {
                        assert!(ok);
                        assert_eq!(b, one, "seat {seat} from {start} by {n}");
                    } else {
                        assert!(start as i16 + n as i16 > 56);
                    }
                }
            }
        }
    }
}
