//! Legal actions, exactly as the reference referee allows them.
//!
//! A pawn move uses an offset of the chosen card (negated for B) from an own pawn to a
//! square on the board that holds neither an own pawn nor the wall (an opponent piece
//! there is captured). A winning move (own general onto the opponent's base, or any pawn
//! onto the opponent's general) is one action with no wall part. Any other pawn move is
//! followed by a wall step judged on the board after the move: `s` always, `u r d l` onto
//! a square on the board that is not a base, holds no opponent piece and is not the
//! mover's own general (an own soldier there swaps with the wall). Only when neither card
//! gives a pawn move does the player pass: `(slot, wall step)` on the unchanged board.
//!
//! Under the standard rules ([`Variant::Standard`](super::position::Variant)) there is no wall:
//! a pawn move is one action (packed with the wall part "stays", or as a win), and a
//! player with no pawn move plays either card without moving (a pass, `1 XX XX`).
//!
//! The generator works offset by offset on 25-bit masks: one shift of the own-pawn mask
//! per card offset gives every target of that offset at once.

use super::action::{Action, ActionList};
use super::card::{ALL_CARDS, Card};
use super::position::{NO_WALL, Position, Status};
use super::square::{BASES, BOARD_MASK, NEIGHBOUR, Player, SOURCE_OK, WALL_STEPS, shift};

const STAY: u16 = 4;
const WIN: u16 = 7;

/// The offset of bit `b` of `card`'s pattern as player `p` (index) plays it (negated for
/// B): the squares from which it stays on the board, and the square delta it moves by (as
/// [`shift`] takes it).
#[inline(always)]
pub(crate) const fn card_step(card: Card, b: u32, p: usize) -> (u32, i32) {
    let (o, b) = (card.o_index() as i32, b as i32);
    let dir = if p == 0 { 1 } else { -1 };
    let (dr, dc) = (dir * (b / 5 - o / 5), dir * (b % 5 - o % 5));
    (SOURCE_OK[(dr + 4) as usize][(dc + 4) as usize], dr * 5 + dc)
}

/// `STEPS[c][p]`: the offsets of card `ALL_CARDS[c]` for player `p` (index), each as the
/// squares from which it stays on the board and the shifts (left, right) that make it; a
/// card of fewer than four offsets is padded with offsets from nowhere.
pub(crate) static STEPS: StepTable = TABLES.0;

/// `REACH[c][p][t]`: the squares from which player `p` (index) reaches square `t` with
/// card `ALL_CARDS[c]` (the reverse of its moves), for the winning-threat test.
static REACH: ReachTable = TABLES.1;

type StepTable = [[[(u32, u32, u32); 4]; 2]; ALL_CARDS.len()];
type ReachTable = [[[u32; 25]; 2]; ALL_CARDS.len()];

/// [`STEPS`] and [`REACH`], built in one pass over the 32 cards and both players.
const TABLES: (StepTable, ReachTable) = {
    let mut steps = [[[(0u32, 0u32, 0u32); 4]; 2]; ALL_CARDS.len()];
    let mut reach = [[[0u32; 25]; 2]; ALL_CARDS.len()];
    let mut c = 0;
    while c < ALL_CARDS.len() {
        let mut p = 0;
        while p < 2 {
            let (mut xs, mut n) = (ALL_CARDS[c].xmask(), 0);
            while xs != 0 {
                let (ok, delta) = card_step(ALL_CARDS[c], xs.trailing_zeros(), p);
                xs &= xs - 1;
                let (left, right) = if delta >= 0 { (delta, 0) } else { (0, -delta) };
                assert!(n < 4, "a card of the 32 has at most four offsets");
                steps[c][p][n] = (ok, left as u32, right as u32);
                n += 1;
                // Every source of the offset reaches its target.
                let mut from = ok;
                while from != 0 {
                    let s = from.trailing_zeros() as i32;
                    from &= from - 1;
                    reach[c][p][(s + delta) as usize] |= 1 << s;
                }
            }
            p += 1;
        }
        c += 1;
    }
    (steps, reach)
};

impl Position {
    /// Call `f(slot_index, from_index, to_index)` for every pawn move of the side to move
    /// (winning or not), card slot 1 first.
    #[inline(always)]
    fn for_each_pawn_move(&self, mut f: impl FnMut(usize, u32, u32)) {
        let p = self.side.index();
        let own = self.generals[p] | self.soldiers[p];
        let free = !(own | (1 << self.wall)) & BOARD_MASK;
        for k in 0..2 {
            let card = self.cards[2 * p + k];
            let mut xs = card.xmask();
            while xs != 0 {
                let (ok, delta) = card_step(card, xs.trailing_zeros(), p);
                xs &= xs - 1;
                let mut targets = shift(own & ok, delta) & free;
                while targets != 0 {
                    let t = targets.trailing_zeros();
                    targets &= targets - 1;
                    f(k, (t as i32 - delta) as u32, t);
                }
            }
        }
    }

    /// Fill `list` with every legal action, assuming nobody has won yet (only the ply
    /// limit is checked). This is the search's generator; [`Position::legal_actions`]
    /// checks the status first.
    pub fn generate(&self, list: &mut ActionList) {
        list.clear();
        if self.plies_left == 0 {
            return;
        }
        if self.wall == NO_WALL {
            self.generate_standard(list);
            return;
        }
        let p = self.side.index();
        let own_g = self.generals[p];
        let opp_g = self.generals[1 - p];
        let opp = opp_g | self.soldiers[1 - p];
        let goal = self.side.target_base().bit();
        let nb = NEIGHBOUR[self.wall as usize];
        self.for_each_pawn_move(|k, f, t| {
            let (fb, tb) = (1u32 << f, 1u32 << t);
            let (k, f, t) = (k as u16, f as u16, t as u16);
            let is_general = fb == own_g;
            if tb & opp_g != 0 || (is_general && tb == goal) {
                list.push(Action::pack(k, f, t, WIN));
                return;
            }
            let general_after = if is_general { tb } else { own_g };
            let forbidden = BASES | (opp & !tb) | general_after;
            for (d, &n) in nb.iter().enumerate() {
                if n < 25 && forbidden & (1 << n) == 0 {
                    list.push(Action::pack(k, f, t, d as u16));
                }
            }
            list.push(Action::pack(k, f, t, STAY));
        });
        if list.is_empty() {
            let forbidden = BASES | opp | own_g;
            for k in 0..2u16 {
                for (d, &n) in nb.iter().enumerate() {
                    if n < 25 && forbidden & (1 << n) == 0 {
                        list.push(Action::pack(k, 31, 31, d as u16));
                    }
                }
                list.push(Action::pack(k, 31, 31, STAY));
            }
        }
    }

    /// The number of pawn moves of the side to move (both cards), by one popcount per
    /// card offset: the standard rules' bulk count.
    #[inline]
    fn count_pawn_moves(&self) -> u64 {
        // The offsets written out: through `card_step` this loop compiled to 3.6% more
        // instructions in standard perft.
        let p = self.side.index();
        let own = self.generals[p] | self.soldiers[p];
        let free = !own & BOARD_MASK;
        let sign = if p == 0 { 1 } else { -1 };
        let mut n = 0;
        for k in 0..2 {
            let card = self.cards[2 * p + k];
            let o = card.o_index() as i32;
            let (or, oc) = (o / 5, o % 5);
            let mut xs = card.xmask();
            while xs != 0 {
                let i = xs.trailing_zeros() as i32;
                xs &= xs - 1;
                let (dr, dc) = (sign * (i / 5 - or), sign * (i % 5 - oc));
                let src = own & SOURCE_OK[(dr + 4) as usize][(dc + 4) as usize];
                n += (shift(src, dr * 5 + dc) & free).count_ones() as u64;
            }
        }
        n
    }

    /// [`Position::for_each_pawn_move`], reading the offsets of the 32 cards of
    /// [`ALL_CARDS`] from [`STEPS`] (in the same order): the standard rules' walk, where
    /// every card is one of them. (The wall variant keeps the loop: its custom cards, and
    /// its cards of fewer than four offsets, would pay for the lookup and the empty steps.)
    #[inline(always)]
    fn for_each_pawn_step(&self, mut f: impl FnMut(usize, u32, u32)) {
        let p = self.side.index();
        let own = self.generals[p] | self.soldiers[p];
        let free = !own & BOARD_MASK;
        let [Some(c0), Some(c1)] = [self.cards[2 * p].index(), self.cards[2 * p + 1].index()]
        else {
            return self.for_each_pawn_move(f);
        };
        for (k, c) in [c0, c1].into_iter().enumerate() {
            for &(ok, left, right) in &STEPS[c][p] {
                let mut targets = ((own & ok) << left) >> right & free;
                while targets != 0 {
                    let t = targets.trailing_zeros();
                    targets &= targets - 1;
                    f(k, t + right - left, t);
                }
            }
        }
    }

    /// [`Position::generate`] under the standard rules (no wall steps).
    fn generate_standard(&self, list: &mut ActionList) {
        let p = self.side.index();
        let own_g = self.generals[p];
        let opp_g = self.generals[1 - p];
        let goal = self.side.target_base().bit();
        self.for_each_pawn_step(|k, f, t| {
            let tb = 1u32 << t;
            let win = tb & opp_g != 0 || (tb == goal && own_g == 1 << f);
            list.push(Action::pack(
                k as u16,
                f as u16,
                t as u16,
                if win { WIN } else { STAY },
            ));
        });
        if list.is_empty() {
            for k in 0..2u16 {
                list.push(Action::pack(k, 31, 31, STAY));
            }
        }
    }

    /// The number of legal actions, counted without listing them (the same as
    /// `generate` then `len`; perft's bulk count at the last ply).
    #[inline]
    pub fn count_actions(&self) -> u64 {
        if self.plies_left == 0 {
            return 0;
        }
        let p = self.side.index();
        let own_g = self.generals[p];
        let opp_g = self.generals[1 - p];
        let opp = opp_g | self.soldiers[1 - p];
        let goal = self.side.target_base().bit();
        if self.wall == NO_WALL {
            let n = self.count_pawn_moves();
            return if n == 0 { 2 } else { n };
        }
        let steps = WALL_STEPS[self.wall as usize];
        let mut n = 0u64;
        self.for_each_pawn_move(|_, f, t| {
            let (fb, tb) = (1u32 << f, 1u32 << t);
            let is_general = fb == own_g;
            if tb & opp_g != 0 || (is_general && tb == goal) {
                n += 1;
            } else {
                let general_after = if is_general { tb } else { own_g };
                n += 1 + (steps & !((opp & !tb) | general_after)).count_ones() as u64;
            }
        });
        if n == 0 {
            n = 2 * (1 + (steps & !(opp | own_g)).count_ones() as u64);
        }
        n
    }

    /// Can the side to move win at once: a pawn onto the opponent's general, or its general
    /// onto the opponent's base? (Nobody must have won yet; the ply limit is not looked at.)
    #[inline]
    pub fn has_winning_move(&self) -> bool {
        self.threatens_win(self.side)
    }

    /// Could `player` win at once with its own two cards if it were to move now? For the
    /// side not to move, this is the threat the side to move must answer.
    #[inline]
    pub fn threatens_win(&self, player: Player) -> bool {
        let p = player.index();
        let own_g = self.generals[p];
        let own = own_g | self.soldiers[p];
        let opp_g = self.generals[1 - p];
        let goal = player.target_base();
        let goal_free = own & goal.bit() == 0;
        for k in 0..2 {
            let card = self.cards[2 * p + k];
            let Some(c) = card.index() else {
                return self.threatens_win_by_offsets(player);
            };
            let reach = &REACH[c][p];
            if opp_g != 0 && reach[opp_g.trailing_zeros() as usize] & own != 0 {
                return true;
            }
            if goal_free && reach[goal.index()] & own_g != 0 {
                return true;
            }
        }
        false
    }

    /// [`Position::threatens_win`] offset by offset, for cards not in [`ALL_CARDS`].
    #[cold]
    fn threatens_win_by_offsets(&self, player: Player) -> bool {
        let p = player.index();
        let own_g = self.generals[p];
        let own = own_g | self.soldiers[p];
        let opp_g = self.generals[1 - p];
        let goal = player.target_base().bit() & !own;
        for k in 0..2 {
            let card = self.cards[2 * p + k];
            let mut xs = card.xmask();
            while xs != 0 {
                let (ok, delta) = card_step(card, xs.trailing_zeros(), p);
                xs &= xs - 1;
                if shift(own & ok, delta) & opp_g != 0 || shift(own_g & ok, delta) & goal != 0 {
                    return true;
                }
            }
        }
        false
    }

    /// Does the side to move have any pawn move (with either card)? If not, it must pass.
    pub fn has_pawn_move(&self) -> bool {
        let mut any = false;
        self.for_each_pawn_move(|_, _, _| any = true);
        any
    }

    /// Every legal action (none once the game is over).
    pub fn legal_actions(&self) -> ActionList {
        let mut list = ActionList::new();
        if self.status() == Status::Ongoing {
            self.generate(&mut list);
        }
        list
    }

    /// Is `action` legal here?
    pub fn is_legal(&self, action: Action) -> bool {
        self.legal_actions().contains(action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::onitama::card::{BOAR, CRANE, MONKEY, OX, TIGER};

    /// The reverse tables answer as the offset loop does, for both players, in every
    /// position of random games dealt from all 32 cards.
    #[test]
    fn winning_threats_by_table_match_the_offsets() {
        use crate::onitama::card::CardSet;
        let mut checked = 0;
        for seed in 0..300u64 {
            let mut pos = Position::standard_deal_from(seed, CardSet::All, 200);
            let mut state = seed;
            while pos.status() == Status::Ongoing {
                for player in [Player::A, Player::B] {
                    assert_eq!(
                        pos.threatens_win(player),
                        pos.threatens_win_by_offsets(player),
                        "seed {seed}, {player:?}"
                    );
                    checked += 1;
                }
                let list = pos.legal_actions();
                state = crate::common::rng::splitmix64(state);
                pos = pos.after(list.as_slice()[(state % list.len() as u64) as usize]);
            }
        }
        assert!(checked > 5000, "{checked}");
    }

    #[test]
    fn count_matches_generate_at_the_start() {
        let p = Position::from_rows(
            &["bbBbb", "     ", "W    ", "     ", "aaAaa"],
            [MONKEY, CRANE, BOAR, OX, TIGER],
            Player::A,
            20,
        )
        .unwrap();
        let list = p.legal_actions();
        assert_eq!(list.len() as u64, p.count_actions());
        assert!(p.has_pawn_move());
        for &a in &list {
            assert!(!a.is_pass());
        }
    }
}
