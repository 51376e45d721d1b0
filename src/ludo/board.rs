//! The position of every token, and how a move changes it. [`Board`] is small and `Copy`;
//! every function takes the [`Rules`] it plays by.

use super::rules::{MAX_SEATS, MAX_TOKENS, Overshoot, OwnTokens, Rules, Seat};

/// A token's progress along its route: −1 in the yard, 0 at the entry point, up to the
/// rule set's `finish_step`.
pub type Step = i8;

/// The step count of a token in its yard.
pub const YARD: Step = -1;

/// Where every token of every seat stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    steps: [[Step; MAX_TOKENS]; MAX_SEATS],
    seats: u8,
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
    /// The move ran past the finish and came back.
    pub bounced: bool,
    /// For each seat, the bit mask of its tokens sent back to the yard.
    pub captured: [u8; MAX_SEATS],
}

impl MoveOutcome {
    /// Did the move send any token back to its yard?
    pub fn captured_any(&self) -> bool {
        self.captured.iter().any(|&m| m != 0)
    }
}

impl Board {
    /// A board where the seats in `seat_mask` play, every token in its yard.
    pub fn new(seat_mask: u8) -> Board {
        Board {
            steps: [[YARD; MAX_TOKENS]; MAX_SEATS],
            seats: seat_mask & ((1 << MAX_SEATS) - 1),
        }
    }

    /// Does `seat` play on this board?
    #[inline]
    pub fn has_seat(&self, seat: Seat) -> bool {
        seat < MAX_SEATS && self.seats & (1 << seat) != 0
    }

    /// Bit mask of the seats that play.
    pub fn seat_mask(&self) -> u8 {
        self.seats
    }

    /// Step count of one token.
    #[inline]
    pub fn step(&self, seat: Seat, token: usize) -> Step {
        self.steps[seat][token]
    }

    /// Step counts of all token slots of one seat (only the first `rules.tokens` are used).
    pub fn seat_steps(&self, seat: Seat) -> &[Step; MAX_TOKENS] {
        &self.steps[seat]
    }

    /// Has every token of `seat` reached the finish?
    pub fn is_finished(&self, rules: &Rules, seat: Seat) -> bool {
        self.steps[seat][..rules.tokens as usize]
            .iter()
            .all(|&s| s == rules.finish_step)
    }

    /// Bit mask of `seat`'s tokens that move together with `token`: the tokens stacked on
    /// its square (track or home column, D8), or just `token` itself.
    pub fn piece_mask(&self, rules: &Rules, seat: Seat, token: usize) -> u8 {
        let s = self.steps[seat][token];
        let stackable = s >= rules.first_track_step && s < rules.finish_step;
        if !stackable || rules.own_tokens != OwnTokens::Stack {
            return 1 << token;
        }
        let mut mask = 0;
        for (t, &other) in self.steps[seat][..rules.tokens as usize].iter().enumerate() {
            if other == s {
                mask |= 1 << t;
            }
        }
        mask
    }

    /// The step `token` of `seat` would reach with a move of `roll` steps, or `None` when it
    /// cannot move (finished, or in the yard without the entering roll).
    pub fn target(&self, rules: &Rules, seat: Seat, token: usize, roll: u8) -> Option<Step> {
        let s = self.steps[seat][token];
        if s == YARD {
            return (roll == rules.enter_roll).then_some(0);
        }
        if s >= rules.finish_step {
            return None;
        }
        let finish = rules.finish_step as i16;
        let reached = s as i16 + roll as i16;
        if reached <= finish {
            return Some(reached as Step);
        }
        match rules.overshoot {
            Overshoot::Bounce => {
                let back = 2 * finish - reached;
                // A move longer than the whole route would bounce off the route's start.
                (back >= rules.first_track_step as i16).then_some(back as Step)
            }
        }
    }

    /// Would moving `token` of `seat` by `roll` land on an opponent and capture it?
    pub fn would_capture(&self, rules: &Rules, seat: Seat, token: usize, roll: u8) -> bool {
        match self.target(rules, seat, token, roll) {
            Some(to) => self.opponents_on(rules, seat, to) != [0; MAX_SEATS],
            None => false,
        }
    }

    /// For each opponent seat, the mask of its tokens on the track square that `seat`'s
    /// step `to` names (all zero when `to` is off the track).
    fn opponents_on(&self, rules: &Rules, seat: Seat, to: Step) -> [u8; MAX_SEATS] {
        let mut hit = [0u8; MAX_SEATS];
        let Some(square) = rules.track_square(seat, to) else {
            return hit;
        };
        for (other, mask) in hit.iter_mut().enumerate() {
            if other == seat || !self.has_seat(other) {
                continue;
            }
            for t in 0..rules.tokens as usize {
                if rules.track_square(other, self.steps[other][t]) == Some(square) {
                    *mask |= 1 << t;
                }
            }
        }
        hit
    }

    /// Move `token` of `seat` by `roll` steps: its whole stack moves, and opponents on the
    /// landing track square go back to their yards. A token that cannot move is left alone
    /// (the outcome's `moved` is 0). The caller checks `seat` and `token` exist.
    pub fn apply(&mut self, rules: &Rules, seat: Seat, token: usize, roll: u8) -> MoveOutcome {
        let from = self.steps[seat][token];
        let Some(to) = self.target(rules, seat, token, roll) else {
            return MoveOutcome {
                from,
                to: from,
                ..MoveOutcome::default()
            };
        };
        // Leaving the yard moves one token only: yard tokens are never stacked.
        let moved = if from == YARD {
            1 << token
        } else {
            self.piece_mask(rules, seat, token)
        };
        for t in 0..rules.tokens as usize {
            if moved & (1 << t) != 0 {
                self.steps[seat][t] = to;
            }
        }
        let captured = self.opponents_on(rules, seat, to);
        for (other, &mask) in captured.iter().enumerate() {
            for t in 0..rules.tokens as usize {
                if mask & (1 << t) != 0 {
                    self.steps[other][t] = YARD;
                }
            }
        }
        MoveOutcome {
            moved,
            from,
            to,
            bounced: from as i16 + roll as i16 > rules.finish_step as i16,
            captured,
        }
    }

    /// Set one token's step count directly (for tests and for loading positions). The
    /// caller guarantees the value is within `-1..=finish_step`.
    pub fn set_step(&mut self, seat: Seat, token: usize, step: Step) {
        self.steps[seat][token] = step;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: Rules = Rules::CS162;
    const AB: u8 = 0b0011;

    #[test]
    fn leaving_the_yard_needs_a_six() {
        let mut b = Board::new(AB);
        for roll in 1..6 {
            assert_eq!(b.target(&R, 0, 0, roll), None);
        }
        let out = b.apply(&R, 0, 0, 6);
        assert_eq!((out.moved, out.from, out.to), (1, -1, 0));
        assert_eq!(b.step(0, 0), 0);
        assert_eq!(b.step(0, 1), YARD);
    }

    #[test]
    fn bounce_off_the_finish() {
        let mut b = Board::new(AB);
        b.set_step(0, 0, 55);
        let out = b.apply(&R, 0, 0, 4);
        assert!(out.bounced);
        assert_eq!(b.step(0, 0), 55);
        b.apply(&R, 0, 0, 5);
        assert_eq!(b.step(0, 0), 54);
        b.apply(&R, 0, 0, 3);
        assert_eq!(b.step(0, 0), 57);
        assert!(
            b.target(&R, 0, 0, 1).is_none(),
            "a finished token never moves"
        );
    }

    #[test]
    fn stacks_move_together_and_split_when_captured() {
        let mut b = Board::new(AB);
        b.set_step(0, 0, 3);
        b.set_step(0, 1, 3);
        assert_eq!(b.piece_mask(&R, 0, 0), 0b11);
        b.apply(&R, 0, 1, 4);
        assert_eq!((b.step(0, 0), b.step(0, 1)), (7, 7));
        // B's step 49 is square 15 + 48 = 63 -> 7 (1-based), where the A stack stands.
        b.set_step(1, 0, 45);
        let out = b.apply(&R, 1, 0, 4);
        assert_eq!(out.captured, [0b11, 0, 0, 0]);
        assert_eq!((b.step(0, 0), b.step(0, 1)), (YARD, YARD));
    }

    #[test]
    fn ready_tokens_are_not_stacked_nor_captured() {
        let mut b = Board::new(AB);
        b.set_step(0, 0, 0);
        b.set_step(0, 1, 0);
        assert_eq!(b.piece_mask(&R, 0, 0), 0b01);
        b.set_step(1, 0, 40); // B step 40 = space 54; A's R is off the track.
        assert!(!b.would_capture(&R, 1, 0, 3));
    }

    #[test]
    fn only_the_landing_square_captures() {
        let mut b = Board::new(AB);
        b.set_step(0, 0, 16); // A on space 16
        b.set_step(1, 0, 0); // B ready; B's step 2 is space 16
        assert!(!b.would_capture(&R, 1, 0, 3));
        assert!(b.would_capture(&R, 1, 0, 2));
    }

    #[test]
    fn moving_n_equals_reaching_the_same_target() {
        // The target of a long move is the target of its steps taken one at a time,
        // as long as no bounce happens on the way.
        let b = Board::new(AB);
        let mut one = b;
        one.set_step(0, 0, 0);
        for _ in 0..50 {
            one.apply(&R, 0, 0, 1);
        }
        let mut many = b;
        many.set_step(0, 0, 0);
        many.apply(&R, 0, 0, 50);
        assert_eq!(one, many);
    }
}
