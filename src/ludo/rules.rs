//! Rule sets as data. A [`Rules`] value says how big the board is, where each seat enters the
//! shared track, how many tokens each seat has and how moves resolve; the move code in
//! [`crate::ludo::board`] reads it instead of hard-coding any one game.

/// A seat index, `0..MAX_SEATS` (for the CS162 rules: 0 = 'A', 1 = 'B', 2 = 'C', 3 = 'D').
pub type Seat = usize;

/// The most seats any rule set has.
pub const MAX_SEATS: usize = 4;

/// The most tokens a seat can have in any rule set.
pub const MAX_TOKENS: usize = 4;

/// What happens when a roll would carry a token past the finishing step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Overshoot {
    /// The token walks to the finish and back by the remainder (CS162, D5).
    Bounce,
}

/// What happens when a token ends its move where its own tokens stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OwnTokens {
    /// They form a stack that moves as one piece until it finishes (CS162, D8).
    Stack,
}

/// A rule set. Step counts ("steps") measure a token's progress along its own route:
/// `-1` is the yard, `0` the entry point, then `first_track_step..=last_track_step` on the
/// shared track, then the seat's private home column up to `finish_step`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Short name of the rule set.
    pub name: &'static str,
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
    /// The step at which a token has finished.
    pub finish_step: i8,
    /// The roll that lets a token leave the yard.
    pub enter_roll: u8,
    /// Overshoot policy.
    pub overshoot: Overshoot,
    /// Own-token policy.
    pub own_tokens: OwnTokens,
    /// One-letter labels of the seats, in seat order.
    pub seat_labels: [char; MAX_SEATS],
    /// One-letter labels of the tokens, in token order.
    pub token_labels: [char; MAX_TOKENS],
}

impl Rules {
    /// The CS162 portfolio-project rules (DESIGN.md §2–§3): a 56-square track, seats A–D
    /// entering at squares 1, 15, 29, 43, two tokens `p` and `q`, steps −1..=57.
    pub const CS162: Rules = Rules {
        name: "cs162",
        track_len: 56,
        seat_offsets: [0, 14, 28, 42],
        tokens: 2,
        first_track_step: 1,
        last_track_step: 50,
        finish_step: 57,
        enter_roll: 6,
        overshoot: Overshoot::Bounce,
        own_tokens: OwnTokens::Stack,
        seat_labels: ['A', 'B', 'C', 'D'],
        token_labels: ['p', 'q', 'r', 's'],
    };

    /// The seat with this label, if any.
    pub fn seat_of(&self, label: char) -> Option<Seat> {
        self.seat_labels.iter().position(|&c| c == label)
    }

    /// The token with this label, if the rule set has it.
    pub fn token_of(&self, label: char) -> Option<usize> {
        self.token_labels[..self.tokens as usize]
            .iter()
            .position(|&c| c == label)
    }

    /// Is `step` on the shared track (where tokens capture and are captured)?
    pub fn on_track(&self, step: i8) -> bool {
        (self.first_track_step..=self.last_track_step).contains(&step)
    }

    /// Is `step` in the seat's private home column (before the finish)?
    pub fn in_home_column(&self, step: i8) -> bool {
        step > self.last_track_step && step < self.finish_step
    }

    /// 0-based shared-track square of `seat`'s token at `step`, if that step is on the track.
    pub fn track_square(&self, seat: Seat, step: i8) -> Option<u8> {
        if !self.on_track(step) {
            return None;
        }
        let along = (step - self.first_track_step) as u16;
        Some(((self.seat_offsets[seat] as u16 + along) % self.track_len as u16) as u8)
    }

    /// The longest single move the engine accepts (a move of this many steps from the entry
    /// point reaches the finish; with bouncing, no longer move stays on the route).
    pub fn max_move(&self) -> u8 {
        self.finish_step as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cs162_track_squares_match_the_assignment() {
        let r = Rules::CS162;
        // 1-based space = square + 1. A: 1..50, B: 15..8, C: 29..22, D: 43..36.
        let first_last: Vec<(u8, u8)> = (0..4)
            .map(|s| {
                (
                    r.track_square(s, 1).unwrap() + 1,
                    r.track_square(s, 50).unwrap() + 1,
                )
            })
            .collect();
        assert_eq!(first_last, vec![(1, 50), (15, 8), (29, 22), (43, 36)]);
        assert_eq!(r.track_square(1, 42).map(|q| q + 1), Some(56));
        assert_eq!(r.track_square(0, 0), None);
        assert_eq!(r.track_square(0, 51), None);
    }

    #[test]
    fn labels_round_trip() {
        let r = Rules::CS162;
        assert_eq!(r.seat_of('C'), Some(2));
        assert_eq!(r.seat_of('E'), None);
        assert_eq!(r.token_of('q'), Some(1));
        assert_eq!(r.token_of('r'), None);
    }
}
