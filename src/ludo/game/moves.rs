//! Phases, moves, move lists, roll results and events: what a game shows and records.

use super::*;
use crate::common::value::Value;

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The current player rolls the die.
    Roll,
    /// The current player moves one of the offered tokens with this roll.
    Move(u8),
    /// The game is over.
    Over,
}

/// A move: a token of a seat, moved by a roll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move {
    /// The moving seat.
    pub seat: Seat,
    /// The token (for a stack, its lowest token).
    pub token: Token,
    /// The roll it moves by.
    pub roll: u8,
}

/// Up to [`MAX_TOKENS`] moves, without allocating.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveList {
    moves: [Move; MAX_TOKENS],
    len: u8,
}

impl MoveList {
    /// The moves of `seat` with `roll` of the tokens in `mask` (token order).
    #[inline]
    pub fn of_mask(seat: Seat, roll: u8, mask: u8) -> MoveList {
        let mut list = MoveList::default();
        let mut rest = mask;
        for slot in list.moves.iter_mut() {
            if rest == 0 {
                break;
            }
            *slot = Move {
                seat,
                token: Token::lowest_in(rest),
                roll,
            };
            rest &= rest - 1;
            list.len += 1;
        }
        list
    }

    /// The `i`-th move, if there is one.
    #[inline]
    pub fn get(&self, i: usize) -> Option<Move> {
        self.moves[..self.len as usize].get(i).copied()
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// No moves?
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves, in token order.
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves[..self.len as usize].iter().copied()
    }

    /// Is `mv` one of them?
    pub fn contains(&self, mv: &Move) -> bool {
        self.iter().any(|m| m == *mv)
    }
}

/// What a roll led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RollResult {
    /// The player now moves.
    ToMove,
    /// No token can move: the turn passes (or the same player rolls again after a 6).
    CannotMove,
    /// The six limit was reached: the roll is not played and the turn passes.
    Forfeit,
}

/// One step of a game's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A die roll.
    Roll {
        /// Who rolled.
        seat: Seat,
        /// The value.
        value: u8,
        /// What happened.
        result: RollResult,
        /// The value came from the seeded die (not given by the caller).
        die: bool,
    },
    /// A move.
    Move {
        /// The move.
        mv: Move,
        /// What it did.
        outcome: MoveOutcome,
        /// The mover rolls again.
        extra_roll: bool,
        /// The mover brought its last token home.
        finished: bool,
    },
}

impl Phase {
    /// The phase's name: `roll`, `move` or `over`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Roll => "roll",
            Phase::Move(_) => "move",
            Phase::Over => "over",
        }
    }
}

impl RollResult {
    /// What the roll allowed, in words: `move`, `cannot move` or `forfeit`.
    pub fn name(self) -> &'static str {
        match self {
            RollResult::ToMove => "move",
            RollResult::CannotMove => "cannot move",
            RollResult::Forfeit => "forfeit",
        }
    }
}

impl Event {
    /// A move's names of the tokens it moved (every token of a stack) and of the tokens it
    /// captured (with their seats', as move names), read in `before`, the game just
    /// before it; none for a roll.
    pub fn token_names(&self, before: &Game) -> (Vec<String>, Vec<String>) {
        let Event::Move { mv, outcome, .. } = *self else {
            return (Vec::new(), Vec::new());
        };
        let r = before.rules();
        let tokens = |mask: u8| r.all_tokens().filter(move |t| mask & t.bit() != 0);
        let moved = tokens(outcome.moved).map(|t| r.token_label(mv.seat, t).to_string());
        let captured = (Seat::ALL.into_iter()).flat_map(|seat| {
            tokens(outcome.captured[seat]).map(move |token| {
                before.move_name(&Move {
                    seat,
                    token,
                    roll: 0,
                })
            })
        });
        (moved.collect(), captured.collect())
    }

    /// The event as its history entry's fields, by name, read in `before` (the game just
    /// before it): the `kind` (`roll` or `move`) first, then a roll's player, value, die
    /// and result, or a move's player, name, roll, step counts, squares (when its tokens
    /// changed square), token names and effects. `Game.history` hands them to Python as
    /// `RollEvent`s and `MoveEvent`s.
    pub fn fields(&self, before: &Game) -> Vec<(&'static str, Value)> {
        let r = before.rules();
        match *self {
            Event::Roll {
                seat,
                value,
                result,
                die,
            } => vec![
                ("kind", "roll".into()),
                ("player", r.seat_label(seat).into()),
                ("value", value.into()),
                ("die", die.into()),
                ("result", result.name().into()),
            ],
            Event::Move {
                mv,
                outcome: o,
                extra_roll,
                finished,
            } => {
                let mut f = vec![
                    ("kind", "move".into()),
                    ("player", r.seat_label(mv.seat).into()),
                    ("move", before.move_name(&mv).into()),
                    ("roll", mv.roll.into()),
                    ("from", o.from.into()),
                    ("to", o.to.into()),
                ];
                if let Some((from, to)) = self.squares(r) {
                    f.extend([("from_square", from.into()), ("to_square", to.into())]);
                }
                let (moved, captured) = self.token_names(before);
                f.extend([
                    ("tokens", moved.into()),
                    ("captured", captured.into()),
                    ("bumped", o.bumped.into()),
                    ("bounced", o.bounced.into()),
                    ("stayed", o.stayed.into()),
                    ("reached_home", o.reached_home.into()),
                    ("extra_roll", extra_roll.into()),
                    ("finished", finished.into()),
                ]);
                f
            }
        }
    }

    /// A move's squares by the board's names ([`Rules::square_name`]): where its tokens
    /// left and where they ended. `None` for a roll, and for a move whose tokens ended on
    /// the square they left (a stay, or a bounce back to it).
    pub fn squares(&self, rules: &Rules) -> Option<(String, String)> {
        match *self {
            Event::Move { mv, outcome, .. } if outcome.from != outcome.to => Some((
                rules.square_name(mv.seat, outcome.from),
                rules.square_name(mv.seat, outcome.to),
            )),
            _ => None,
        }
    }
}
