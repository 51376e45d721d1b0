//! Endgame tables of standard Onitama: every value of a small table agrees with a second,
//! independent solver (a plain level-by-level fixed point over every position, both
//! colours to move, built from the engine's own move generator); its counts agree class by
//! class; a search using the table wins in the fewest plies and loses in the most; and a
//! search with a table answers exactly as one without in positions the table does not
//! cover.

mod common;

use std::collections::HashMap;
use std::sync::Arc;

use common::Rng;
use ludogame::onitama::ai::ClassCounts;
use ludogame::onitama::{
    ALL_CARDS, Ai, Card, EndgameTable, Limits, MATE, Player, Position, STANDARD_CARDS, Status,
    TableValue,
};
use ludogame::stop::Stop;

/// Plenty of memory for the tables of these tests.
const BYTES: u64 = 1 << 30;

fn table(cards: [Card; 5], pieces: u32) -> EndgameTable {
    table_on(cards, pieces, 1)
}

fn table_on(cards: [Card; 5], pieces: u32, threads: usize) -> EndgameTable {
    EndgameTable::build(cards, pieces, BYTES, threads, &Stop::new())
        .unwrap()
        .expect("not stopped")
}

/// Five distinct cards of `from`.
fn cards_of(rng: &mut Rng, from: &[Card]) -> [Card; 5] {
    let mut cards: Vec<Card> = Vec::new();
    while cards.len() < 5 {
        let c = from[rng.below(from.len() as u64) as usize];
        if !cards.contains(&c) {
            cards.push(c);
        }
    }
    cards.try_into().unwrap()
}

/// The solver's key of a position of `cards`: the masters, the students, the cards of A's
/// hand and the side card (whatever their slots) and the side to move, packed (the ply
/// limit left out: the table's game has none).
fn key(pos: &Position, cards: &[Card; 5]) -> u128 {
    let at = |c: Card| cards.iter().position(|&k| k == c).unwrap() as u128;
    let pc = pos.cards();
    let sq = |p: Player| pos.general(p).map_or(31, |s| s.index() as u128);
    sq(Player::A)
        | sq(Player::B) << 5
        | (pos.soldiers(Player::A) as u128) << 10
        | (pos.soldiers(Player::B) as u128) << 35
        | (1u128 << at(pc[0]) | 1u128 << at(pc[1])) << 60
        | at(pc[4]) << 65
        | (pos.side().index() as u128) << 68
}

/// Every standard position of `cards` with both masters, still going, and `students`
/// students in all (any split between the sides), both colours to move, A's hand in card
/// order.
fn all_positions(cards: [Card; 5], students: u32) -> Vec<Position> {
    let mut deals = Vec::new();
    for side in 0..5 {
        for a in 0..5 {
            for b in a + 1..5 {
                if a == side || b == side {
                    continue;
                }
                let rest: Vec<usize> = (0..5).filter(|&i| ![side, a, b].contains(&i)).collect();
                deals.push([
                    cards[a],
                    cards[b],
                    cards[rest[0]],
                    cards[rest[1]],
                    cards[side],
                ]);
            }
        }
    }
    assert_eq!(deals.len(), 30);
    let mut out = Vec::new();
    let squares = |mask: u32| (0..25).filter(move |s| mask & (1 << s) == 0);
    for ga in 0..25u32 {
        for gb in squares(1 << ga) {
            // every way to place `students` students, each A's or B's
            let mut placements: Vec<[u32; 2]> = vec![[0, 0]];
            for _ in 0..students {
                let mut next = Vec::new();
                for &[a, b] in &placements {
                    let taken = (1 << ga) | (1 << gb) | a | b;
                    let last = 32 - (a | b).leading_zeros(); // students in square order
                    for sq in squares(taken).filter(|&s| s >= last) {
                        next.push([a | 1 << sq, b]);
                        next.push([a, b | 1 << sq]);
                    }
                }
                placements = next;
            }
            for &[a, b] in &placements {
                if a.count_ones() > 4 || b.count_ones() > 4 {
                    continue;
                }
                for deal in &deals {
                    for side in Player::BOTH {
                        let sq = ludogame::onitama::Square::from_index;
                        let Ok(pos) = Position::standard_from_parts(
                            [sq(ga as u8), sq(gb as u8)],
                            [a, b],
                            *deal,
                            side,
                            1000,
                        ) else {
                            continue;
                        };
                        if pos.status() == Status::Ongoing {
                            out.push(pos);
                        }
                    }
                }
            }
        }
    }
    out
}

/// A quick hasher for the packed keys.
#[derive(Default)]
struct Fold(u64);

impl std::hash::Hasher for Fold {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u128 keys")
    }
    fn write_u128(&mut self, n: u128) {
        let x = (n as u64 ^ (n >> 64) as u64 ^ 0x9E37_79B9_7F4A_7C15)
            .wrapping_mul(0xBF58_476D_1CE4_E5B9);
        self.0 = x ^ (x >> 29);
    }
}

type ByKey = HashMap<u128, u32, std::hash::BuildHasherDefault<Fold>>;

/// The second solver: the value of every position with at most `pieces` pieces (0 a draw,
/// an odd d a win in d plies, an even d a loss in d plies), by levels: a position is won
/// in d (odd) when an action wins at once (d = 1) or leads to a position lost in d - 1; lost
/// in d (even) when every action leads to a position won (in at most d - 1 plies, so
/// exactly d - 1, or it would have been found before). Two empty levels in a row end it.
fn solve(cards: [Card; 5], pieces: u32) -> (Vec<Position>, Vec<u8>) {
    let positions: Vec<Position> = (0..=pieces - 2)
        .flat_map(|s| all_positions(cards, s))
        .collect();
    let index: ByKey = positions
        .iter()
        .enumerate()
        .map(|(i, p)| (key(p, &cards), i as u32))
        .collect();
    assert_eq!(index.len(), positions.len(), "positions are distinct");
    let mut value = vec![0u8; positions.len()];
    // every position's children, one after another
    let mut children: Vec<u32> = Vec::new();
    let mut first: Vec<u32> = Vec::with_capacity(positions.len() + 1);
    for (i, pos) in positions.iter().enumerate() {
        first.push(children.len() as u32);
        let actions = pos.legal_actions();
        if actions.iter().any(|a| a.is_win()) {
            value[i] = 1;
            continue;
        }
        children.extend(actions.iter().map(|&a| index[&key(&pos.after(a), &cards)]));
    }
    first.push(children.len() as u32);
    drop(index);
    let mut open: Vec<usize> = (0..positions.len()).filter(|&i| value[i] == 0).collect();
    let mut empty = 0;
    let mut d = 2u8;
    while empty < 2 {
        let solved: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&i| {
                let mut kids = children[first[i] as usize..first[i + 1] as usize]
                    .iter()
                    .map(|&c| value[c as usize]);
                if d % 2 == 1 {
                    kids.any(|v| v != 0 && v % 2 == 0)
                } else {
                    kids.all(|v| v % 2 == 1)
                }
            })
            .collect();
        for &i in &solved {
            value[i] = d;
        }
        open.retain(|&i| value[i] == 0);
        empty = if solved.is_empty() { empty + 1 } else { 0 };
        d += 1;
    }
    (positions, value)
}

fn as_value(v: u8) -> TableValue {
    match v {
        0 => TableValue::Draw,
        d if d % 2 == 1 => TableValue::Win(d as u32),
        d => TableValue::Loss(d as u32),
    }
}

/// The solver's counts by class (students of the side to move, of the other), for one
/// colour to move.
fn counts_of(solved: &(Vec<Position>, Vec<u8>), side: Player) -> Vec<ClassCounts> {
    let mut by: HashMap<(u32, u32), ClassCounts> = HashMap::new();
    for (pos, &v) in solved
        .0
        .iter()
        .zip(&solved.1)
        .filter(|(p, _)| p.side() == side)
    {
        let s = pos.soldiers(side).count_ones();
        let o = pos.soldiers(side.other()).count_ones();
        let c = by.entry((s, o)).or_insert(ClassCounts {
            mover_students: s,
            opponent_students: o,
            ..ClassCounts::default()
        });
        c.positions += 1;
        match as_value(v) {
            TableValue::Draw => c.draws += 1,
            TableValue::Win(d) => {
                c.wins += 1;
                c.longest_win = c.longest_win.max(d);
            }
            TableValue::Loss(d) => {
                c.losses += 1;
                c.longest_loss = c.longest_loss.max(d);
            }
        }
    }
    let mut v: Vec<ClassCounts> = by.into_values().collect();
    v.sort_by_key(|c| (c.mover_students, c.opponent_students));
    v
}

/// Check every value and count of the table of `cards` against the solver's; the number
/// of positions whose mover has no pawn move (and so plays a card without moving).
fn check_against_solver(cards: [Card; 5], pieces: u32) -> usize {
    let t = table(cards, pieces);
    let solved = solve(cards, pieces);
    let mut table_counts = t.counts();
    table_counts.sort_by_key(|c| (c.mover_students, c.opponent_students));
    for side in Player::BOTH {
        assert_eq!(
            counts_of(&solved, side),
            table_counts,
            "cards {cards:?}, {side} to move"
        );
    }
    for (pos, &v) in solved.0.iter().zip(&solved.1) {
        assert_eq!(t.probe(pos), Some(as_value(v)), "{pos}");
    }
    solved
        .0
        .iter()
        .filter(|p| p.legal_actions().iter().all(|a| a.is_pass()))
        .count()
}

#[test]
fn the_masters_alone_agree_with_the_solver() {
    let mut rng = Rng(1);
    let base = STANDARD_CARDS;
    check_against_solver(base[..5].try_into().unwrap(), 2);
    for _ in 0..3 {
        check_against_solver(cards_of(&mut rng, &ALL_CARDS), 2);
    }
}

#[test]
fn three_pieces_agree_with_the_solver() {
    let mut rng = Rng(2);
    check_against_solver(cards_of(&mut rng, &ALL_CARDS), 3);
}

#[test]
fn the_table_is_the_same_built_on_several_threads() {
    let mut rng = Rng(7);
    let cards = cards_of(&mut rng, &STANDARD_CARDS);
    let one = table_on(cards, 4, 1);
    assert!(one == table_on(cards, 4, 2));
    assert!(one == table_on(cards, 4, 3));
    assert!(one != table(cards, 3), "another size");
}

#[test]
fn bad_builds_are_refused_and_a_stop_ends_one() {
    let cards: [Card; 5] = STANDARD_CARDS[..5].try_into().unwrap();
    let twice = [cards[0], cards[1], cards[2], cards[3], cards[0]];
    assert!(EndgameTable::build(twice, 3, BYTES, 1, &Stop::new()).is_err());
    for pieces in [0, 1, 11] {
        assert!(EndgameTable::build(cards, pieces, BYTES, 1, &Stop::new()).is_err());
    }
    for threads in [0, 65] {
        assert!(EndgameTable::build(cards, 3, BYTES, threads, &Stop::new()).is_err());
    }
    let need = EndgameTable::build_bytes_for(4);
    assert!(EndgameTable::build(cards, 4, need - 1, 1, &Stop::new()).is_err());
    let stop = Stop::new();
    stop.request();
    assert_eq!(EndgameTable::build(cards, 4, need, 2, &stop), Ok(None));
}

#[test]
fn cards_of_one_long_move_agree_with_the_solver_their_passes_too() {
    // a piece near an edge often has no move: the mover then plays a card without one
    let one = |dr: i8, dc: i8| Card::from_offsets(&[(dr, dc)]).unwrap();
    let cards = [one(-2, 0), one(2, 0), one(0, 2), one(0, -2), one(-2, 2)];
    assert!(check_against_solver(cards, 2) > 100);
    assert!(check_against_solver(cards, 3) > 1_000);
}

/// Four pieces (1 + 1 students, or 2 + 0) on two card sets: about 80 s of CPU and 4.3 GB;
/// run with `cargo test --release --test onitama_endgame four_pieces -- --ignored`.
#[test]
#[ignore]
fn four_pieces_agree_with_the_solver() {
    let mut rng = Rng(3);
    check_against_solver(cards_of(&mut rng, &STANDARD_CARDS), 4);
    check_against_solver(cards_of(&mut rng, &ALL_CARDS), 4);
}

/// Random positions of `cards` with at most `pieces` pieces (both masters, the students
/// anywhere), either colour to move, `plies` plies left, still going.
fn random_positions(
    rng: &mut Rng,
    cards: [Card; 5],
    pieces: u32,
    plies: u16,
    n: usize,
) -> Vec<Position> {
    let mut out = Vec::new();
    while out.len() < n {
        let mut taken = 0u32;
        let mut square = |rng: &mut Rng| loop {
            let sq = rng.below(25) as u32;
            if taken & (1 << sq) == 0 {
                taken |= 1 << sq;
                return sq;
            }
        };
        let (ga, gb) = (square(rng), square(rng));
        let mut students = [0u32; 2];
        for _ in 0..rng.below(pieces as u64 - 1) {
            let sq = square(rng);
            students[rng.below(2) as usize] |= 1 << sq;
        }
        let mut deal = cards;
        for i in (1..5).rev() {
            deal.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let side = if rng.below(2) == 0 {
            Player::A
        } else {
            Player::B
        };
        let sq = |i: u32| ludogame::onitama::Square::from_index(i as u8);
        if let Ok(pos) =
            Position::standard_from_parts([sq(ga), sq(gb)], students, deal, side, plies)
            && pos.status() == Status::Ongoing
        {
            out.push(pos);
        }
    }
    out
}

fn table_ai(table: &Arc<EndgameTable>, seed: u64) -> Ai {
    let mut ai = Ai::new(2, seed, Limits::nodes(2_000)).unwrap();
    ai.set_endgame(Some(Arc::clone(table)));
    ai
}

#[test]
fn with_the_table_the_winner_wins_fastest_and_the_loser_holds_out_longest() {
    let mut rng = Rng(4);
    let cards = cards_of(&mut rng, &STANDARD_CARDS);
    let t = Arc::new(table(cards, 4));
    let mut played = 0;
    for pos in random_positions(&mut rng, cards, 4, 1000, 40) {
        let start = t.probe(&pos).unwrap();
        let (TableValue::Win(d) | TableValue::Loss(d)) = start else {
            continue;
        };
        let winner = match start {
            TableValue::Win(_) => pos.side(),
            _ => pos.side().other(),
        };
        let mut ai = table_ai(&t, rng.next_u64());
        let mut p = pos;
        let mut left = d;
        while p.status() == Status::Ongoing {
            let info = ai.analyse(&p).unwrap();
            let want = if p.side() == winner {
                MATE - left as i32
            } else {
                -(MATE - left as i32)
            };
            assert_eq!(info.score, want, "{p}: the exact score of the distance");
            p = p.after(info.action);
            left -= 1;
            played += 1;
            if p.status() == Status::Ongoing {
                let v = t.probe(&p).unwrap();
                let expected = if p.side() == winner {
                    TableValue::Win(left)
                } else {
                    TableValue::Loss(left)
                };
                assert_eq!(v, expected, "{pos}: one ply nearer the end");
            }
        }
        assert_eq!(left, 0, "{pos}: the game took its {d} plies");
        assert!(
            matches!(p.status(), Status::Won { winner: w, .. } if w == winner),
            "{pos}"
        );
    }
    assert!(played > 100, "{played} plies checked");
}

#[test]
fn the_distance_is_the_exhaustive_search_s() {
    // A forced win within k of one's own plies, checked by trying every line.
    fn forced_win(pos: &Position, k: u32) -> bool {
        if pos.status() != Status::Ongoing {
            return false;
        }
        if pos.has_winning_move() {
            return true;
        }
        k > 1
            && pos.legal_actions().iter().any(|&a| {
                let q = pos.after(a);
                q.status() == Status::Ongoing
                    && !q.has_winning_move()
                    && q.legal_actions()
                        .iter()
                        .all(|&b| forced_win(&q.after(b), k - 1))
            })
    }
    let mut rng = Rng(5);
    let cards = cards_of(&mut rng, &STANDARD_CARDS);
    let t = table(cards, 3);
    let mut seen = [0; 2];
    for pos in random_positions(&mut rng, cards, 3, 1000, 400) {
        match t.probe(&pos).unwrap() {
            TableValue::Win(d) if d <= 5 => {
                let k = d.div_ceil(2);
                assert!(forced_win(&pos, k), "{pos}: a win in {d}");
                assert!(
                    k == 1 || !forced_win(&pos, k - 1),
                    "{pos}: none faster than {d}"
                );
                seen[0] += 1;
            }
            TableValue::Loss(d) if d <= 4 => {
                // every action leaves the opponent a win within d - 1 plies, one not faster
                let worst = pos
                    .legal_actions()
                    .iter()
                    .map(|&a| pos.after(a))
                    .map(|q| (1..=3).find(|&k| forced_win(&q, k)).expect("lost"))
                    .max()
                    .unwrap();
                assert_eq!(worst, (d - 1).div_ceil(2), "{pos}: a loss in {d}");
                seen[1] += 1;
            }
            _ => {}
        }
    }
    assert!(seen[0] > 20 && seen[1] > 5, "{seen:?}");
}

#[test]
fn a_win_further_than_the_plies_left_is_a_tie() {
    let mut rng = Rng(6);
    let cards = cards_of(&mut rng, &STANDARD_CARDS);
    let t = Arc::new(table(cards, 3));
    let mut checked = 0;
    for pos in random_positions(&mut rng, cards, 3, 1000, 200) {
        let (TableValue::Win(d) | TableValue::Loss(d)) = t.probe(&pos).unwrap() else {
            continue;
        };
        let sign = if matches!(t.probe(&pos), Some(TableValue::Win(_))) {
            1
        } else {
            -1
        };
        let at = |n: u32| t.score(&pos.with_plies_left(n as u16), 3);
        assert_eq!(at(d), Some(sign * (MATE - 3 - d as i32)));
        assert_eq!(at(d + 7), Some(sign * (MATE - 3 - d as i32)));
        if d >= 2 {
            assert_eq!(at(d - 1), Some(0), "{pos}: {d} plies away, {} left", d - 1);
        }
        if (3..=9).contains(&d) {
            // searches to the horizon agree: with fewer plies left than the win needs, a tie
            let short = pos.with_plies_left(d as u16 - 1);
            let plain = Ai::new(2, 0, Limits::default())
                .unwrap()
                .analyse(&short)
                .unwrap();
            let with = table_ai(&t, 0).analyse(&short).unwrap();
            assert_eq!((plain.score, with.score), (0, 0), "{short}");
        }
        checked += 1;
    }
    assert!(checked > 50);
}

/// Build times and sizes (not a test of speed: it prints them, and checks each class's
/// values account for all its positions): `PIECES=5 THREADS=2 cargo
/// test --release --test onitama_endgame sizes -- --ignored --nocapture`.
#[test]
#[ignore]
fn sizes() {
    let cards: [Card; 5] = STANDARD_CARDS[..5].try_into().unwrap();
    let pieces: u32 = std::env::var("PIECES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4);
    let threads: usize = std::env::var("THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let t = table_on(cards, pieces, threads);
    println!(
        "{pieces} pieces on {threads} threads: {} bytes, {:.2} s",
        t.bytes(),
        t.build_seconds()
    );
    assert_eq!(t.bytes(), EndgameTable::bytes_for(pieces));
    for c in t.counts() {
        println!("{c:?}");
        assert_eq!(c.positions, c.wins + c.losses + c.draws, "{c:?}");
        assert_eq!(c.wins == 0, c.longest_win == 0, "{c:?}");
        assert_eq!(c.losses == 0, c.longest_loss == 0, "{c:?}");
    }
    let _ = (Arc::new(t), MATE, Ai::new(2, 0, Limits::nodes(1)).is_ok());
}
