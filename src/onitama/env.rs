//! The learning-environment encoding: a fixed numbering of every possible action, the
//! legal-action mask, and the observation planes, all from the point of view of one player
//! (the board turned 180° for B, so that every player sees itself at the bottom, row `e`).
//!
//! **Actions** (numbered for the side to move, in its own view):
//! `index = ((slot * 25 + from) * 25 + to) * 6 + wall` for a pawn move, below
//! [`MOVE_ACTIONS`] (7,500), where `slot` is 0 or 1 (card slot 1 or 2), `from` and `to` are
//! square indices `row * 5 + col` in the mover's view, and `wall` is 0..5 for the wall step
//! `u r d l s` in the mover's view, or 5 for a winning move (which has no wall step). Then
//! the passes: `index = 7,500 + slot * 5 + wall` (`wall` 0..5 as before). [`ACTIONS`] =
//! 7,510 in all. For A the view is the board as it is; for B, square `i` is `24 - i` and
//! the wall steps `u`/`d` and `r`/`l` trade places.
//!
//! **Observation** ([`CHANNELS`] × 5 × 5 floats, square `row * 5 + col` in the observer's
//! view): the observer's general, its soldiers, the opponent's general, its soldiers, the
//! wall (1 where it stands); then the observer's cards in slots 1 and 2, the opponent's
//! cards in slots 1 and 2, and the side card, each drawn as a 5×5 card: 1 on every target
//! square, −1 on the pawn's square (the centre for every card whose moves reach at most two
//! squares, as all the standard cards do), each as its holder moves on the observer's
//! board (the observer's cards and the side card as written, the opponent's turned 180°);
//! last, `1 / plies left` everywhere (1 on the last ply; 0 once none are left).
//!
//! **Standard Onitama** (no wall) uses the same numbering and planes: a pawn move is
//! numbered with the wall part 4 (`s`, "stays"), a winning move with 5 and a pass with the
//! wall part 4, so only those numbers are ever legal; the wall plane is all 0. The cards
//! of a deal may be any standard ones, the Sensei's Path cards included.

use super::action::{Action, Slot};
use super::card::Card;
use super::error::OnitamaError;
use super::position::Position;
use super::square::{Player, Square, WallDir};

/// Wall choices of a pawn move in the numbering: `u r d l s`, and none (a winning move).
pub const WALL_CHOICES: usize = 6;
/// Number of pawn-move actions (`2 * 25 * 25 * 6`); the passes come after them.
pub const MOVE_ACTIONS: usize = 2 * 25 * 25 * WALL_CHOICES;
/// Number of pass actions (two slots, five wall steps).
pub const PASS_ACTIONS: usize = 2 * 5;
/// Size of the action numbering.
pub const ACTIONS: usize = MOVE_ACTIONS + PASS_ACTIONS;
/// Planes of an observation.
pub const CHANNELS: usize = 11;
/// Floats in an observation (`CHANNELS * 25`).
pub const OBSERVATION_LEN: usize = CHANNELS * 25;

/// The number of the winning move's wall part (no wall step).
const WIN_WALL: usize = 5;

/// A square index in `viewer`'s view (and back: the turn is its own inverse).
#[inline]
fn view_square(index: usize, viewer: Player) -> usize {
    match viewer {
        Player::A => index,
        Player::B => 24 - index,
    }
}

/// A wall step in `viewer`'s view (and back).
#[inline]
fn view_wall(dir: WallDir, viewer: Player) -> WallDir {
    match (viewer, dir) {
        (Player::A, d) | (Player::B, d @ WallDir::Stay) => d,
        (Player::B, WallDir::Up) => WallDir::Down,
        (Player::B, WallDir::Down) => WallDir::Up,
        (Player::B, WallDir::Right) => WallDir::Left,
        (Player::B, WallDir::Left) => WallDir::Right,
    }
}

/// The number of `action` when the side to move in `pos` plays it (see the module
/// documentation). Any action has a number, legal or not.
pub fn action_index(action: &Action, pos: &Position) -> usize {
    let viewer = pos.side();
    let slot = action.slot().index();
    let wall = |w: WallDir| view_wall(w, viewer) as usize;
    match (action.from(), action.to()) {
        (Some(from), Some(to)) => {
            let f = view_square(from.index(), viewer);
            let t = view_square(to.index(), viewer);
            let w = action.wall().map_or(WIN_WALL, wall);
            ((slot * 25 + f) * 25 + t) * WALL_CHOICES + w
        }
        _ => {
            // A pass always has a wall step; `Stay` only guards a malformed action.
            MOVE_ACTIONS + slot * 5 + wall(action.wall().unwrap_or(WallDir::Stay))
        }
    }
}

/// The action numbered `index` for the side to move in `pos` (the inverse of
/// [`action_index`]); it may be illegal there. Errors: `index` not below [`ACTIONS`].
pub fn action_of(index: usize, pos: &Position) -> Result<Action, OnitamaError> {
    if index >= ACTIONS {
        return Err(OnitamaError::BadActionIndex {
            last: ACTIONS - 1,
            index: index.to_string(),
            legal: legal_text(pos),
        });
    }
    let viewer = pos.side();
    let slot = |s: usize| if s == 0 { Slot::One } else { Slot::Two };
    let wall = |w: usize| view_wall(WallDir::ALL[w], viewer);
    if index >= MOVE_ACTIONS {
        let i = index - MOVE_ACTIONS;
        return Ok(Action::pass(slot(i / 5), wall(i % 5)));
    }
    let w = index % WALL_CHOICES;
    let t = index / WALL_CHOICES % 25;
    let f = index / WALL_CHOICES / 25 % 25;
    let s = index / WALL_CHOICES / 625;
    let square = |i: usize| Square::from_index(view_square(i, viewer) as u8).expect("below 25");
    let (from, to) = (square(f), square(t));
    Ok(if w == WIN_WALL {
        Action::winning(slot(s), from, to)
    } else {
        Action::step(slot(s), from, to, wall(w))
    })
}

/// The numbers of the legal actions in `pos`, ascending (none once the game is over).
pub fn legal_indices(pos: &Position) -> Vec<usize> {
    let mut v: Vec<usize> = pos
        .legal_actions()
        .iter()
        .map(|a| action_index(a, pos))
        .collect();
    v.sort_unstable();
    v
}

/// An action number a front end was given, checked: `index` the whole number it stands
/// for (`None` when it is none, `shown` saying what it was), from 0 to [`ACTIONS`] - 1;
/// the error names it and the legal numbers of `pos`.
pub fn index_arg(
    index: Option<i128>,
    shown: impl FnOnce() -> String,
    pos: &Position,
) -> Result<usize, OnitamaError> {
    let bad = |index: String| OnitamaError::BadActionIndex {
        last: ACTIONS - 1,
        index,
        legal: legal_text(pos),
    };
    match index {
        None => Err(bad(shown())),
        Some(n) => (usize::try_from(n).ok())
            .filter(|&i| i < ACTIONS)
            .ok_or_else(|| bad(n.to_string())),
    }
}

/// The legal numbers of `pos` as text, for error messages: `[3, 17, ...]`, or that there
/// are none.
pub fn legal_text(pos: &Position) -> String {
    let v = legal_indices(pos);
    if v.is_empty() {
        "none (the game is over)".to_owned()
    } else {
        let parts: Vec<String> = v.iter().map(usize::to_string).collect();
        format!("[{}]", parts.join(", "))
    }
}

/// The legal action numbered `index` in `pos`. Errors: the game is over
/// ([`OnitamaError::GameOver`]); `index` out of range ([`OnitamaError::BadActionIndex`]);
/// the action is not legal ([`OnitamaError::IllegalAction`], saying why and listing the
/// legal numbers).
pub fn legal_action_of(index: usize, pos: &Position) -> Result<Action, OnitamaError> {
    if pos.is_over() {
        return Err(super::game::game_over(pos));
    }
    let action = action_of(index, pos)?;
    if pos.is_legal(action) {
        Ok(action)
    } else {
        Err(OnitamaError::IllegalAction {
            action: format!("{index} ({action})"),
            reason: format!(
                "{}. The legal action numbers are {}",
                super::referee::why_illegal(pos, action).trim_end_matches('.'),
                legal_text(pos)
            ),
        })
    }
}

/// Write the legal-action mask of `pos` into `out` (length [`ACTIONS`]): 1 at the number
/// of every legal action, 0 elsewhere (all 0 once the game is over).
///
/// # Panics
/// If `out` is not [`ACTIONS`] long.
pub fn write_mask(pos: &Position, out: &mut [u8]) {
    assert_eq!(out.len(), ACTIONS, "a mask has {ACTIONS} entries");
    out.fill(0);
    for a in &pos.legal_actions() {
        out[action_index(a, pos)] = 1;
    }
}

/// Draw `card` into a 25-float plane, turned 180° when `turned`.
fn draw_card(card: Card, turned: bool, plane: &mut [f32]) {
    let at = |i: u32| if turned { 24 - i as usize } else { i as usize };
    let mut xs = card.xmask();
    while xs != 0 {
        plane[at(xs.trailing_zeros())] = 1.0;
        xs &= xs - 1;
    }
    plane[at(card.o_index())] = -1.0;
}

/// Write the observation of `pos` from `viewer`'s point of view into `out` (length
/// [`OBSERVATION_LEN`], planes of 25 squares in the order of the module documentation).
///
/// # Panics
/// If `out` is not [`OBSERVATION_LEN`] long.
pub fn write_observation(pos: &Position, viewer: Player, out: &mut [f32]) {
    assert_eq!(
        out.len(),
        OBSERVATION_LEN,
        "an observation has {OBSERVATION_LEN} floats"
    );
    out.fill(0.0);
    let opp = viewer.other();
    let masks = [
        pos.generals[viewer.index()],
        pos.soldiers[viewer.index()],
        pos.generals[opp.index()],
        pos.soldiers[opp.index()],
        pos.wall().map_or(0, Square::bit),
    ];
    let (pieces, rest) = out.split_at_mut(5 * 25);
    for (plane, mask) in pieces.chunks_exact_mut(25).zip(masks) {
        for sq in Square::iter_mask(mask) {
            plane[view_square(sq.index(), viewer)] = 1.0;
        }
    }
    let (cards, plies) = rest.split_at_mut(5 * 25);
    let mut planes = cards.chunks_exact_mut(25);
    for (holder, turned) in [(viewer, false), (opp, true)] {
        for slot in Slot::BOTH {
            let plane = planes.next().expect("five card planes");
            draw_card(pos.hand_card(holder, slot), turned, plane);
        }
    }
    let side = planes.next().expect("five card planes");
    draw_card(pos.card(super::position::CardSlot::Side), false, side);
    let left = pos.plies_left();
    plies.fill(if left == 0 {
        0.0
    } else {
        1.0 / f32::from(left)
    });
}

/// The deal of [`Onitama.dealt`]'s cards (kept here under its first home's name).
pub use super::card::deal_cards;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::rng::Rng;
    use crate::onitama::position::CardSlot;
    use crate::onitama::setups::SETUPS;

    /// `pos` turned 180° with the players' roles swapped: B's army becomes A's, the cards
    /// change hands, the other side moves. The rules are the same seen from either side.
    fn mirror(pos: &Position) -> Position {
        let turn = |m: u32| {
            Square::iter_mask(m).fold(0u32, |acc, sq| {
                acc | 1 << view_square(sq.index(), Player::B)
            })
        };
        let sq = |m: u32| Square::iter_mask(m).next();
        let generals = [sq(turn(pos.generals[1])), sq(turn(pos.generals[0]))];
        let soldiers = [turn(pos.soldiers[1]), turn(pos.soldiers[0])];
        let wall = Square::from_index(view_square(pos.wall_square().index(), Player::B) as u8)
            .expect("on the board");
        let c = pos.cards();
        Position::from_parts(
            generals,
            soldiers,
            wall,
            [c[2], c[3], c[0], c[1], c[4]],
            pos.side().other(),
            pos.plies_left(),
        )
        .expect("a mirrored position is valid")
    }

    /// Every position met in random playouts from every setup and from dealt cards.
    fn playout_positions() -> Vec<Position> {
        let mut starts: Vec<Position> = SETUPS.iter().map(|s| s.position(Some(30))).collect();
        let board = SETUPS[0].board;
        for seed in 0..40 {
            for side in Player::BOTH {
                starts.push(Position::from_rows(&board, deal_cards(seed), side, 40).unwrap());
            }
        }
        let mut rng = Rng::new(7);
        let mut out = Vec::new();
        for start in starts {
            for _ in 0..2 {
                let mut pos = start;
                out.push(pos);
                while !pos.is_over() {
                    let legal = pos.legal_actions();
                    let a = legal.as_slice()[rng.below(legal.len() as u32) as usize];
                    pos.play(a).unwrap();
                    out.push(pos);
                }
            }
        }
        out
    }

    #[test]
    fn sizes() {
        assert_eq!(MOVE_ACTIONS, 7500);
        assert_eq!(ACTIONS, 7510);
        assert_eq!(OBSERVATION_LEN, 275);
    }

    #[test]
    fn numbers_round_trip_and_masks_equal_the_legal_actions() {
        let positions = playout_positions();
        assert!(positions.len() > 1500, "{}", positions.len());
        let mut mask = vec![0u8; ACTIONS];
        let (mut passes, mut wins) = (0, 0);
        for pos in &positions {
            let legal = pos.legal_actions();
            let mut seen = std::collections::HashSet::new();
            for &a in &legal {
                let i = action_index(&a, pos);
                assert!(i < ACTIONS);
                assert_eq!(action_of(i, pos).unwrap(), a, "{pos:?} {a}");
                assert_eq!(legal_action_of(i, pos).unwrap(), a);
                assert!(seen.insert(i), "two actions numbered {i}");
                passes += usize::from(a.is_pass());
                wins += usize::from(a.is_win());
            }
            write_mask(pos, &mut mask);
            let ones: Vec<usize> = (0..ACTIONS).filter(|&i| mask[i] == 1).collect();
            assert!(mask.iter().all(|&m| m <= 1));
            assert_eq!(ones, legal_indices(pos));
            assert_eq!(ones.len(), legal.len());
            // Every number outside the mask is refused, and no number is out of reach.
            for i in (0..ACTIONS).step_by(53).filter(|i| mask[*i] == 0) {
                let a = action_of(i, pos).unwrap();
                assert_eq!(action_index(&a, pos), i);
                assert!(!pos.is_legal(a));
                assert!(legal_action_of(i, pos).is_err());
            }
        }
        assert!(passes > 0 && wins > 0, "passes {passes}, wins {wins}");
    }

    #[test]
    fn out_of_range_and_game_over_are_errors() {
        let pos = SETUPS[0].position(None);
        let e = action_of(ACTIONS, &pos).unwrap_err();
        assert!(matches!(e, OnitamaError::BadActionIndex { .. }), "{e}");
        assert!(e.to_string().contains("7510"), "{e}");
        let over = pos.with_plies_left(0);
        assert!(matches!(
            legal_action_of(0, &over),
            Err(OnitamaError::GameOver(_))
        ));
        let mut mask = vec![1u8; ACTIONS];
        write_mask(&over, &mut mask);
        assert!(mask.iter().all(|&m| m == 0));
        let illegal = (0..ACTIONS).find(|&i| !pos.is_legal(action_of(i, &pos).unwrap()));
        let e = legal_action_of(illegal.unwrap(), &pos).unwrap_err();
        let text = e.to_string();
        let first = legal_indices(&pos)[0].to_string();
        assert!(
            text.contains(&first) && text.contains("The legal action numbers are"),
            "{text}"
        );
    }

    #[test]
    fn the_view_is_the_same_from_both_sides() {
        let mut a = vec![0f32; OBSERVATION_LEN];
        let mut b = vec![0f32; OBSERVATION_LEN];
        let (mut ma, mut mb) = (vec![0u8; ACTIONS], vec![0u8; ACTIONS]);
        for pos in playout_positions().iter().step_by(5) {
            let m = mirror(pos);
            for viewer in Player::BOTH {
                write_observation(pos, viewer, &mut a);
                write_observation(&m, viewer.other(), &mut b);
                assert_eq!(a, b, "{pos:?} seen by {viewer}");
            }
            write_mask(pos, &mut ma);
            write_mask(&m, &mut mb);
            assert_eq!(ma, mb, "{pos:?}");
        }
    }

    #[test]
    fn observation_planes() {
        let pos = SETUPS
            .iter()
            .find(|s| s.id == "case22")
            .unwrap()
            .position(None);
        let mut o = vec![0f32; OBSERVATION_LEN];
        write_observation(&pos, Player::A, &mut o);
        let plane = |k: usize| &o[k * 25..(k + 1) * 25];
        // Board "bbBbb / / W / / aaAaa", A to move: A's general on e3 (22).
        assert_eq!(plane(0)[22], 1.0);
        assert_eq!(plane(0).iter().sum::<f32>(), 1.0);
        assert_eq!(plane(1).iter().sum::<f32>(), 4.0);
        assert_eq!(plane(2)[2], 1.0);
        assert_eq!(plane(4)[10], 1.0);
        assert!(plane(10).iter().all(|&v| v == 1.0 / 20.0));
        // Seen by B: B's general on its own base at the bottom, the wall on c5.
        write_observation(&pos, Player::B, &mut o);
        let plane = |k: usize| &o[k * 25..(k + 1) * 25];
        assert_eq!(plane(0)[22], 1.0);
        assert_eq!(plane(2)[2], 1.0);
        assert_eq!(plane(4)[14], 1.0);
        // Cards: B's own slot 1 as written, A's slot 1 turned.
        let own = pos.card(CardSlot::B1);
        assert_eq!(plane(5)[own.o_index() as usize], -1.0);
        assert_eq!(
            plane(5).iter().filter(|&&v| v == 1.0).count(),
            own.len() as usize
        );
        let theirs = pos.card(CardSlot::A1);
        assert_eq!(plane(7)[24 - theirs.o_index() as usize], -1.0);
    }

    #[test]
    fn standard_positions_use_the_stay_and_win_numbers() {
        use crate::onitama::card::CardSet;
        let mut rng = Rng::new(3);
        let mut mask = vec![0u8; ACTIONS];
        let mut obs = vec![0f32; OBSERVATION_LEN];
        let (mut wins, mut moves) = (0, 0);
        for set in CardSet::EVERY {
            for seed in 0..20 {
                let mut pos = Position::standard_deal_from(seed, set, 200);
                while !pos.is_over() {
                    write_mask(&pos, &mut mask);
                    let legal = pos.legal_actions();
                    for &a in &legal {
                        let i = action_index(&a, &pos);
                        assert_eq!(mask[i], 1);
                        assert_eq!(action_of(i, &pos).unwrap(), a);
                        let part = if a.is_pass() {
                            (i - MOVE_ACTIONS) % 5
                        } else {
                            i % 6
                        };
                        assert_eq!(part, if a.is_win() { WIN_WALL } else { 4 }, "{a}");
                        wins += usize::from(a.is_win());
                        moves += 1;
                    }
                    assert_eq!(mask.iter().filter(|&&m| m == 1).count(), legal.len());
                    write_observation(&pos, pos.side(), &mut obs);
                    assert!(obs[4 * 25..5 * 25].iter().all(|&v| v == 0.0));
                    let a = legal.as_slice()[rng.below(legal.len() as u32) as usize];
                    pos.play(a).unwrap();
                }
            }
        }
        assert!(wins > 0 && moves > 1000, "{wins} {moves}");
    }

    #[test]
    fn deals_are_seeded_and_distinct() {
        assert_eq!(deal_cards(3), deal_cards(3));
        let mut differ = 0;
        for seed in 0..50 {
            let d = deal_cards(seed);
            for i in 0..5 {
                for j in 0..i {
                    assert_ne!(d[i], d[j]);
                }
            }
            differ += usize::from(d != deal_cards(seed + 1));
        }
        assert!(differ > 45);
    }
}
