//! Seeded random playouts: 20,000 games from random setups (random armies, wall, side,
//! ply limit; random standard cards, and in some games random arbitrary cards with
//! off-centre `o`s), checking after every ply the invariants of the rules, that
//! make/unmake and copy-make agree and restore the exact position, that the notation
//! round-trips, and that the referee accepts exactly the legal actions.

mod common;

use std::collections::BTreeSet;

use common::Rng;
use ludogame::onitama::{
    Action, Answer, Card, CardSlot, OnitamaError, Piece, Player, Position, STANDARD_CARDS, Slot,
    Square, Status, WallDir, WinKind, judge,
};

const GAMES: u64 = 20_000;

fn random_card(rng: &mut Rng) -> Card {
    let o = rng.below(25) as usize;
    let mut rows = [['.'; 5]; 5];
    rows[o / 5][o % 5] = 'o';
    for _ in 0..1 + rng.below(5) {
        let x = rng.below(25) as usize;
        if x != o {
            rows[x / 5][x % 5] = 'x';
        }
    }
    let rows: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    Card::parse(&rows).unwrap()
}

fn random_position(rng: &mut Rng) -> Position {
    let arbitrary = rng.below(5) == 0;
    let mut cards: Vec<Card> = Vec::new();
    while cards.len() < 5 {
        let c = if arbitrary && rng.below(2) == 0 {
            random_card(rng)
        } else {
            STANDARD_CARDS[rng.below(16) as usize]
        };
        if arbitrary || !cards.contains(&c) {
            cards.push(c);
        }
    }
    loop {
        let mut board = [[' '; 5]; 5];
        let mut free: Vec<usize> = (0..25).collect();
        let mut take = |rng: &mut Rng, allowed: &dyn Fn(usize) -> bool| loop {
            let i = rng.below(free.len() as u64) as usize;
            if allowed(free[i]) {
                return free.swap_remove(i);
            }
        };
        let w = take(rng, &|s| s != 2 && s != 22);
        board[w / 5][w % 5] = 'W';
        let a = take(rng, &|s| s != 2);
        board[a / 5][a % 5] = 'A';
        let b = take(rng, &|s| s != 22);
        board[b / 5][b % 5] = 'B';
        for ch in ['a', 'b'] {
            for _ in 0..rng.below(5) {
                let s = take(rng, &|_| true);
                board[s / 5][s % 5] = ch;
            }
        }
        let rows: Vec<String> = board.iter().map(|r| r.iter().collect()).collect();
        let side = if rng.below(2) == 0 {
            Player::A
        } else {
            Player::B
        };
        let n = 1 + rng.below(40) as u16;
        let cards: [Card; 5] = cards.clone().try_into().unwrap();
        if let Ok(p) = Position::from_rows(&rows, cards, side, n) {
            return p;
        }
    }
}

fn sorted_cards(p: &Position) -> Vec<Card> {
    let mut c = p.cards().to_vec();
    c.sort();
    c
}

fn answer_parts(a: Action) -> (i64, String, String, String) {
    match Answer::from(a) {
        Answer::Move {
            card,
            from,
            to,
            wall,
        } => (card, from, to, wall),
        Answer::Error(_) => unreachable!(),
    }
}

/// A raw answer, sometimes legal, mostly junk.
fn random_answer(rng: &mut Rng, legal: &[Action]) -> (i64, String, String, String) {
    if !legal.is_empty() && rng.below(2) == 0 {
        let (card, from, to, wall) = answer_parts(legal[rng.below(legal.len() as u64) as usize]);
        let wall = if rng.below(4) == 0 {
            ["u", "r", "d", "l", "s"][rng.below(5) as usize].to_owned()
        } else {
            wall
        };
        return (card, from, to, wall);
    }
    let square = |rng: &mut Rng| match rng.below(12) {
        0 => "XX".to_owned(),
        1 => "f9".to_owned(),
        _ => Square::from_index(rng.below(25) as u8).unwrap().to_string(),
    };
    let card = rng.below(4) as i64;
    let (from, to) = (square(rng), square(rng));
    let wall = ["u", "r", "d", "l", "s", "x", "U", ""][rng.below(8) as usize].to_owned();
    (card, from, to, wall)
}

/// What the referee must say about a raw answer, from the legal list alone.
fn expected_verdict(
    pos: &Position,
    legal: &[Action],
    ans: &(i64, String, String, String),
) -> Option<Action> {
    let (card, from, to, wall) = ans;
    let dir = {
        let mut cs = wall.chars();
        match (cs.next(), cs.next()) {
            (Some(c), None) => WallDir::from_letter(c),
            _ => None,
        }
    };
    if !pos.has_pawn_move() {
        let slot = if *card == 1 { Slot::One } else { Slot::Two };
        let a = Action::pass(slot, dir?);
        return legal.contains(&a).then_some(a);
    }
    let slot = Slot::from_number(*card)?;
    let (f, t) = (Square::parse(from)?, Square::parse(to)?);
    let win = Action::winning(slot, f, t);
    if legal.contains(&win) {
        return Some(win);
    }
    let a = Action::step(slot, f, t, dir?);
    legal.contains(&a).then_some(a)
}

fn check_position(p: &Position) {
    // Board, cards, side and plies read back through the validating constructor and the
    // notation: one wall not on a base, no overlap, armies within limits.
    let rows = p.board_rows();
    let again = Position::from_rows(&rows, p.cards(), p.side(), p.plies_left()).unwrap();
    assert_eq!(again, *p);
    assert_eq!(Position::from_notation(&p.to_notation()).unwrap(), *p);
    let walls = rows
        .iter()
        .flat_map(|r| r.chars())
        .filter(|&c| c == 'W')
        .count();
    assert_eq!(walls, 1);
    assert!(!p.wall_square().is_base());
    let mut seen = 0u32;
    for pl in Player::BOTH {
        assert_eq!(seen & p.pawns(pl), 0);
        seen |= p.pawns(pl);
        assert!(p.soldiers(pl).count_ones() <= 4);
    }
    assert_eq!(seen & p.wall_square().bit(), 0);
}

#[test]
fn random_playouts_keep_every_invariant() {
    let mut rng = Rng(0x5EED_0F0A_17A5);
    let (mut plies, mut passes, mut ties, mut bases, mut captures, mut swaps) =
        (0u64, 0u64, 0, 0, 0, 0u64);
    let mut checked_answers = 0u64;
    for _ in 0..GAMES {
        let mut pos = random_position(&mut rng);
        let cards = sorted_cards(&pos);
        check_position(&pos);
        loop {
            let legal = pos.legal_actions();
            let legal_vec = legal.as_slice().to_vec();
            if pos.status() != Status::Ongoing {
                assert!(legal.is_empty());
                let before = pos;
                let any = Action::pass(Slot::One, WallDir::Stay);
                assert!(matches!(pos.play(any), Err(OnitamaError::GameOver(_))));
                assert_eq!(pos, before);
                match pos.status() {
                    Status::Tie => ties += 1,
                    Status::Won {
                        by: WinKind::Base, ..
                    } => bases += 1,
                    Status::Won {
                        by: WinKind::Capture,
                        ..
                    } => captures += 1,
                    Status::Ongoing => unreachable!(),
                }
                break;
            }
            assert!(
                !legal.is_empty(),
                "a live position always has an action: {pos}"
            );
            assert_eq!(pos.count_actions(), legal.len() as u64);
            let distinct: BTreeSet<Action> = legal.iter().copied().collect();
            assert_eq!(distinct.len(), legal.len());
            let pass_position = !pos.has_pawn_move();
            assert!(legal.iter().all(|a| a.is_pass() == pass_position));
            // make/unmake and copy-make of every action restore / agree exactly.
            for &a in &legal {
                let mut q = pos;
                let undo = q.make_unchecked(a);
                assert_eq!(q, pos.after(a));
                q.unmake(undo);
                assert_eq!(q, pos, "unmake of {a}");
            }
            // The referee accepts exactly the legal actions.
            for _ in 0..4 {
                let ans = random_answer(&mut rng, &legal_vec);
                let got = judge(&pos, ans.0, &ans.1, &ans.2, &ans.3).ok();
                assert_eq!(
                    got,
                    expected_verdict(&pos, &legal_vec, &ans),
                    "{pos} {ans:?}"
                );
                checked_answers += 1;
            }
            // An illegal action is refused and changes nothing.
            let junk = Action::step(
                Slot::BOTH[rng.below(2) as usize],
                Square::from_index(rng.below(25) as u8).unwrap(),
                Square::from_index(rng.below(25) as u8).unwrap(),
                WallDir::ALL[rng.below(5) as usize],
            );
            if !legal.contains(junk) {
                let before = pos;
                assert!(matches!(
                    pos.play(junk),
                    Err(OnitamaError::IllegalAction { .. })
                ));
                assert_eq!(pos, before);
            }

            let a = legal.as_slice()[rng.below(legal.len() as u64) as usize];
            let (card, from, to, wall) = answer_parts(a);
            assert_eq!(judge(&pos, card, &from, &to, &wall), Ok(a));
            let before = pos;
            let me = pos.side();
            let place = CardSlot::of(me, a.slot());
            pos.play(a).unwrap();
            plies += 1;
            passes += a.is_pass() as u64;

            check_position(&pos);
            assert_eq!(pos.side(), me.other());
            assert_eq!(pos.plies_left() + 1, before.plies_left());
            assert_eq!(sorted_cards(&pos), cards, "card multiset");
            if a.is_win() {
                assert_eq!(pos.cards(), before.cards(), "no swap after a win");
                assert_eq!(pos.wall_square(), before.wall_square());
                assert!(matches!(pos.status(), Status::Won { winner, .. } if winner == me));
            } else {
                assert_eq!(pos.card(place), before.card(CardSlot::Side));
                assert_eq!(pos.card(CardSlot::Side), before.card(place));
                for other in CardSlot::ALL {
                    if other != place && other != CardSlot::Side {
                        assert_eq!(pos.card(other), before.card(other));
                    }
                }
                let dir = a.wall().unwrap();
                let target = if dir == WallDir::Stay {
                    before.wall_square()
                } else {
                    before.wall_square().step(dir).unwrap()
                };
                assert_eq!(pos.wall_square(), target);
                if before.piece_at(target) == Some(Piece::Soldier(me)) && dir != WallDir::Stay {
                    swaps += 1;
                }
                assert!(!matches!(pos.status(), Status::Won { .. }));
            }
            // One general per side, unless this ply captured it.
            for pl in Player::BOTH {
                let captured = a.is_win()
                    && pl == me.other()
                    && a.to()
                        .is_some_and(|t| before.piece_at(t) == Some(Piece::General(pl)));
                assert_eq!(pos.general(pl).is_some(), !captured);
            }
            // Pawns only ever disappear by capture, one at most per ply.
            let total =
                |p: &Position| p.pawns(Player::A).count_ones() + p.pawns(Player::B).count_ones();
            assert!(total(&before) - total(&pos) <= 1);
            assert_eq!(pos.pawns(me).count_ones(), before.pawns(me).count_ones());
        }
    }
    println!(
        "{GAMES} games, {plies} plies, {passes} passes, {swaps} wall swaps, {checked_answers} answers judged; \
         {bases} base wins, {captures} captures, {ties} ties"
    );
    assert!(passes > 0 && swaps > 0 && ties > 0 && bases > 0 && captures > 0);
}
