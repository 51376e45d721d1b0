//! The built-in AIs: level 2 finds every win in one, never misses a forced win in two or
//! three of its own plies (checked against an exhaustive solver on positions found by
//! seeded random play), never plays an illegal action, is deterministic under a node
//! budget, and beats the level-1 baseline in a short seeded match series.

mod common;

use common::Rng;
use ludogame::onitama::{
    Ai, Answer, Card, GameResult, Limits, MATE_BOUND, Player, Position, STANDARD_CARDS, Status,
    Variant, baseline_action, find_setup, play_match,
};

/// Can the side to move force a win within `k` of its own plies?
fn forced_win(pos: &Position, k: u32) -> bool {
    if pos.status() != Status::Ongoing {
        return false;
    }
    if pos.has_winning_move() {
        return true;
    }
    if k <= 1 || pos.plies_left() < 3 {
        return false;
    }
    pos.legal_actions()
        .iter()
        .any(|&a| forces_after(&pos.after(a), k - 1))
}

/// After the mover's (non-winning) action, does every reply of the opponent (to move in
/// `q`) leave the mover a forced win within `k` plies?
fn forces_after(q: &Position, k: u32) -> bool {
    if q.status() != Status::Ongoing || q.has_winning_move() {
        return false;
    }
    q.legal_actions()
        .iter()
        .all(|&b| forced_win(&q.after(b), k))
}

/// Five distinct standard cards.
fn random_cards(rng: &mut Rng) -> [Card; 5] {
    let mut cards: Vec<Card> = Vec::new();
    while cards.len() < 5 {
        let c = STANDARD_CARDS[rng.below(16) as usize];
        if !cards.contains(&c) {
            cards.push(c);
        }
    }
    cards.try_into().unwrap()
}

/// A tournament start (setup 21 or 22's board) with random standard cards.
fn random_start(rng: &mut Rng) -> Position {
    let board = if rng.below(2) == 0 {
        ["bbBbb", "     ", "    W", "     ", "aaAaa"]
    } else {
        ["bbBbb", "     ", "W    ", "     ", "aaAaa"]
    };
    Position::from_rows(&board, random_cards(rng), Player::A, 20).unwrap()
}

/// Positions met in seeded games of two baseline players from random starts, after at
/// least 4 plies, that satisfy `keep`.
fn positions(seed: u64, want: usize, keep: impl Fn(&Position) -> bool) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut found = Vec::new();
    let mut games = 0;
    while found.len() < want && games < 5_000 {
        games += 1;
        let mut pos = random_start(&mut rng);
        pos = pos.with_plies_left(40);
        let mut ply = 0;
        while pos.status() == Status::Ongoing {
            if ply >= 4 && keep(&pos) {
                found.push(pos);
                break;
            }
            let a = if rng.below(3) == 0 {
                let list = pos.legal_actions();
                list.as_slice()[rng.below(list.len() as u64) as usize]
            } else {
                baseline_action(&pos, rng.next_u64()).unwrap()
            };
            pos.play(a).unwrap();
            ply += 1;
        }
    }
    assert_eq!(found.len(), want, "only {} positions found", found.len());
    found
}

fn search_ai(nodes: u64, seed: u64) -> Ai {
    Ai::new(2, seed, Limits::nodes(nodes)).unwrap()
}

#[test]
fn level_2_takes_every_win_in_one() {
    // The golden positions with a one-move win (as both players where there are two).
    for id in ["aitest3_A", "aitest3_B", "basic43_A", "basic43_B"] {
        let pos = find_setup(id).unwrap().position(None);
        let a = search_ai(1_000, 0).choose(&pos).unwrap();
        assert!(a.is_win(), "{id}: {a}");
    }
    for pos in positions(1, 40, |p| p.has_winning_move()) {
        for level in [1, 2] {
            let a = Ai::new(level, 3, Limits::nodes(1_000))
                .unwrap()
                .choose(&pos)
                .unwrap();
            assert!(a.is_win(), "level {level} in {pos}: {a}");
        }
    }
}

#[test]
fn level_2_never_misses_a_forced_win_in_two() {
    let cases = positions(2, 25, |p| !p.has_winning_move() && forced_win(p, 2));
    for pos in cases {
        let info = search_ai(50_000, 0).analyse(&pos).unwrap();
        assert!(info.score > MATE_BOUND, "{pos}: {info:?}");
        assert!(forces_after(&pos.after(info.action), 1), "{pos}: {info:?}");
    }
}

#[test]
fn level_2_never_misses_a_forced_win_in_three() {
    let cases = positions(3, 6, |p| {
        !p.has_winning_move() && !forced_win(p, 2) && forced_win(p, 3)
    });
    for pos in cases {
        let info = search_ai(400_000, 0).analyse(&pos).unwrap();
        assert!(info.score > MATE_BOUND, "{pos}: {info:?}");
        assert!(forces_after(&pos.after(info.action), 2), "{pos}: {info:?}");
    }
}

#[test]
fn level_1_avoids_giving_a_win_in_one() {
    for pos in positions(4, 30, |p| {
        !p.has_winning_move()
            && p.legal_actions()
                .iter()
                .any(|&a| p.after(a).has_winning_move())
    }) {
        let safe_exists = pos
            .legal_actions()
            .iter()
            .any(|&a| !pos.after(a).has_winning_move());
        for seed in 0..4 {
            let a = baseline_action(&pos, seed).unwrap();
            if safe_exists {
                assert!(!pos.after(a).has_winning_move(), "{pos}: {a}");
            }
        }
    }
}

/// Any card: a random `o` and one to five `x`s anywhere on the 5x5 pattern.
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

/// A random valid position: random armies and wall, standard or arbitrary cards, either
/// side to move, 1 to 30 plies left (possibly already won).
fn random_position(rng: &mut Rng) -> Position {
    loop {
        let mut cards = random_cards(rng);
        if rng.below(3) == 0 {
            for c in cards.iter_mut() {
                if rng.below(2) == 0 {
                    *c = random_card(rng);
                }
            }
        }
        let mut board = [[' '; 5]; 5];
        let mut free: Vec<usize> = (0..25).collect();
        let mut take = |rng: &mut Rng| free.swap_remove(rng.below(free.len() as u64) as usize);
        for ch in ['W', 'A', 'B'] {
            let s = take(rng);
            board[s / 5][s % 5] = ch;
        }
        for ch in ['a', 'b'] {
            for _ in 0..rng.below(5) {
                let s = take(rng);
                board[s / 5][s % 5] = ch;
            }
        }
        let rows: Vec<String> = board.iter().map(|r| r.iter().collect()).collect();
        let side = [Player::A, Player::B][rng.below(2) as usize];
        let n = 1 + rng.below(30) as u16;
        if let Ok(p) = Position::from_rows(&rows, cards, side, n) {
            return p;
        }
    }
}

#[test]
fn every_level_plays_legal_actions_on_random_positions() {
    let mut rng = Rng(5);
    let mut ais: Vec<Ai> = (0..=2)
        .map(|l| Ai::new(l, 11, Limits::nodes(300)).unwrap())
        .collect();
    let mut checked = 0;
    for _ in 0..400 {
        let pos = random_position(&mut rng);
        for ai in ais.iter_mut() {
            match ai.choose(&pos) {
                Some(a) => {
                    assert!(pos.is_legal(a), "level {} in {pos}: {a}", ai.level());
                    checked += 1;
                }
                None => assert!(pos.is_over(), "level {} in {pos}", ai.level()),
            }
        }
    }
    assert!(checked > 600);
}

#[test]
fn the_win_test_agrees_with_the_generator() {
    let mut rng = Rng(6);
    let (mut wins, mut checked) = (0, 0);
    for _ in 0..20_000 {
        let pos = random_position(&mut rng);
        if pos.status() != Status::Ongoing {
            continue;
        }
        let generated = pos.legal_actions().iter().any(|a| a.is_win());
        assert_eq!(pos.has_winning_move(), generated, "{pos}");
        let other = pos.side().other();
        let flipped = pos
            .with_side(other)
            .map(|q| q.legal_actions().iter().any(|a| a.is_win()));
        if let Ok(f) = flipped {
            assert_eq!(pos.threatens_win(other), f, "{pos}");
        }
        wins += generated as u32;
        checked += 1;
    }
    assert!(checked > 15_000 && wins > 1_000, "{checked} {wins}");
}

#[test]
fn the_search_is_deterministic_under_a_node_budget() {
    let pos = find_setup("23").unwrap().position(None);
    let mut one = search_ai(20_000, 9);
    let first = one.analyse(&pos).unwrap();
    // The same AI again (its tables are reused) and a fresh one agree.
    let again = one.analyse(&pos).unwrap();
    let fresh = search_ai(20_000, 9).analyse(&pos).unwrap();
    assert_eq!(first, again);
    assert_eq!(first, fresh);
    assert!(first.nodes <= 20_000 + 1_000);
}

#[test]
fn time_limited_searches_of_one_ai_share_its_table_and_the_others_do_not() {
    let pos = Position::standard_deal(3, 1000);
    let depth_only = Limits {
        depth: Some(8),
        ..Limits::default()
    };
    // A time limit that depth 8 never reaches: these searches end at depth 8.
    let timed = Limits {
        time: Some(std::time::Duration::from_secs(600)),
        ..depth_only
    };
    let mut ai = Ai::new(2, 0, depth_only).unwrap();
    let first = ai.analyse(&pos).unwrap();
    assert_eq!(
        ai.analyse(&pos).unwrap(),
        first,
        "no time limit: a fresh table each time"
    );
    ai.set_limits(timed);
    let timed_first = ai.analyse(&pos).unwrap();
    assert_eq!(
        timed_first.nodes, first.nodes,
        "the first timed search found nothing kept"
    );
    let timed_again = ai.analyse(&pos).unwrap();
    assert_eq!(timed_again.depth, 8);
    assert!(
        timed_again.nodes * 4 < first.nodes,
        "the second timed search reuses the first's table: {} nodes, {} before",
        timed_again.nodes,
        first.nodes
    );
    // A node budget always starts afresh, so it gives the same answer as a fresh AI.
    ai.set_limits(Limits {
        nodes: Some(20_000),
        ..timed
    });
    let budgeted = ai.analyse(&pos).unwrap();
    let fresh = Ai::new(2, 0, Limits::budget(None, Some(20_000), Some(8)))
        .unwrap()
        .analyse(&pos)
        .unwrap();
    assert_eq!(budgeted, fresh);
}

#[test]
fn new_weights_do_not_find_the_entries_of_the_old_ones() {
    use ludogame::onitama::Searcher;
    use ludogame::onitama::ai::eval::weights;
    let pos = Position::standard_deal(3, 1000);
    let timed = Limits {
        time: Some(std::time::Duration::from_secs(600)),
        depth: Some(8),
        ..Limits::default()
    };
    let mut s = Searcher::new();
    let first = s.search(&pos, 0, timed).unwrap();
    s.set_weights(Variant::Standard, *weights(Variant::Standard));
    // the same weights again, but set anew: the table starts afresh
    assert_eq!(s.search(&pos, 0, timed).unwrap(), first);
    assert!(s.search(&pos, 0, timed).unwrap().nodes * 4 < first.nodes);
}

#[test]
fn the_search_is_exact_near_the_horizon() {
    // Two plies left, nobody can win at once: every action ties.
    let pos = find_setup("21").unwrap().position(Some(2));
    let info = search_ai(1_000_000, 0).analyse(&pos).unwrap();
    assert!(info.exact);
    assert_eq!(info.score, 0);
}

/// The game's value for the side to move (1 a win, 0 a tie, -1 a loss), by trying every line.
fn game_value(pos: &Position) -> i32 {
    match pos.status() {
        Status::Won { winner, .. } => {
            if winner == pos.side() {
                1
            } else {
                -1
            }
        }
        Status::Tie => 0,
        Status::Ongoing => pos
            .legal_actions()
            .iter()
            .map(|&a| -game_value(&pos.after(a)))
            .max()
            .unwrap(),
    }
}

#[test]
fn an_exact_search_finds_the_games_value() {
    // Positions a few plies from the ply limit, where the search's last iteration is exact
    // (reductions and pruning off, and no entry of an earlier iteration standing in for it).
    let wall = positions(7, 12, |p| p.legal_actions().len() > 1)
        .into_iter()
        .map(|p| p.with_plies_left(4));
    let mut rng = Rng(8);
    let standard = (0..12).filter_map(|_| {
        let mut pos = Position::standard_deal(rng.next_u64(), 1000);
        for _ in 0..rng.below(12) {
            let list = pos.legal_actions();
            let a = list.as_slice()[rng.below(list.len() as u64) as usize];
            if pos.after(a).status() != Status::Ongoing {
                break;
            }
            pos.play(a).unwrap();
        }
        let pos = pos.with_plies_left(5);
        (pos.legal_actions().len() > 1).then_some(pos)
    });
    let mut checked = 0;
    for pos in wall.chain(standard) {
        checked += 1;
        let info = search_ai(10_000_000, 0).analyse(&pos).unwrap();
        assert!(info.exact, "{pos}: {info:?}");
        let found = if info.score > MATE_BOUND {
            1
        } else if info.score < -MATE_BOUND {
            -1
        } else {
            assert_eq!(info.score, 0, "{pos}: {info:?}");
            0
        };
        assert_eq!(found, game_value(&pos), "{pos}: {info:?}");
    }
    assert!(checked >= 20, "{checked}");
}

/// Points of `ai` (2 a win, 1 a tie) over setups 21, 22, 23 with both colours, against
/// the baseline with each seed.
fn series(nodes: u64, seeds: std::ops::Range<u64>) -> (u32, u32) {
    let (mut points, mut games) = (0, 0);
    for seed in seeds {
        for id in ["21", "22", "23"] {
            let start = find_setup(id).unwrap().position(None);
            for strong in [Player::A, Player::B] {
                let mut search = search_ai(nodes, seed);
                let mut base = Ai::new(1, seed, Limits::default()).unwrap();
                let mut strong_f = |p: &Position| search.answer(p);
                let mut base_f = |p: &Position| base.answer(p);
                let r = if strong == Player::A {
                    play_match(&start, &mut strong_f, &mut base_f)
                } else {
                    play_match(&start, &mut base_f, &mut strong_f)
                };
                games += 1;
                points += match r.result {
                    GameResult::Won(p) if p == strong => 2,
                    GameResult::Tie => 1,
                    _ => 0,
                };
            }
        }
    }
    (points, games)
}

#[test]
fn level_2_beats_the_baseline() {
    let (points, games) = series(20_000, 0..2);
    assert!(points * 4 >= games * 2 * 3, "{points} of {}", 2 * games);
}

#[test]
fn answers_follow_the_referee_contract() {
    let pos = find_setup("aitest2_A").unwrap().position(None);
    match search_ai(1_000, 0).answer(&pos) {
        Answer::Move { from, to, .. } => assert_eq!((from.as_str(), to.as_str()), ("XX", "XX")),
        Answer::Error(e) => panic!("{e}"),
    }
    let over = find_setup("21").unwrap().position(Some(0));
    assert!(matches!(
        search_ai(1_000, 0).answer(&over),
        Answer::Error(_)
    ));
}

/// Level 2 under a small node budget (deterministic) outscores the coursework baseline on
/// seeded random starts, each played once with either colour: at least 80% of the points
/// (2 a win, 1 a tie). The time-limited match against the baseline is
/// `benches/onitama_strength.py`; search speed, `cargo bench --bench onitama_search_rust`.
#[test]
fn level_2_outscores_the_baseline_on_random_starts() {
    let mut rng = Rng(77);
    let (mut points, mut total) = (0, 0);
    for g in 0..6 {
        let start = random_start(&mut rng);
        for strong in [Player::A, Player::B] {
            let mut search = search_ai(5_000, g);
            let mut base = Ai::new(1, g, Limits::default()).unwrap();
            let mut strong_f = |p: &Position| search.answer(p);
            let mut base_f = |p: &Position| base.answer(p);
            let r = if strong == Player::A {
                play_match(&start, &mut strong_f, &mut base_f)
            } else {
                play_match(&start, &mut base_f, &mut strong_f)
            };
            total += 2;
            points += match r.result {
                GameResult::Won(p) if p == strong => 2,
                GameResult::Tie => 1,
                _ => 0,
            };
        }
    }
    assert!(points * 5 >= total * 4, "{points} of {total} points");
}

#[test]
fn the_evaluation_is_its_features_times_its_weights() {
    use ludogame::onitama::CardSet;
    use ludogame::onitama::ai::eval::{
        Evaluator, N_FEATURES, WEIGHT_SCALE, evaluate_with, features, weights,
    };
    use ludogame::onitama::ai::evaluate;
    let mut rng = Rng(23);
    let mut weights_now = *weights(Variant::Standard);
    let mut evaluator = Evaluator::new(&weights_now);
    for i in 0..2000 {
        let pos = if i % 2 == 0 {
            random_position(&mut rng)
        } else {
            Position::standard_deal_from(rng.next_u64(), CardSet::All, 1000)
        };
        let f = features(&pos);
        let w: [i32; N_FEATURES] = std::array::from_fn(|_| rng.below(401) as i32 - 200);
        let dot: i32 = f.iter().zip(&w).map(|(a, b)| a * b).sum();
        assert_eq!(
            evaluate_with(&pos, &w),
            dot.div_euclid(WEIGHT_SCALE),
            "{pos}"
        );
        if i % 50 == 0 {
            evaluator = Evaluator::new(&w);
            weights_now = w;
        }
        assert_eq!(
            evaluator.evaluate(&pos),
            evaluate_with(&pos, &weights_now),
            "{pos}"
        );
        assert_eq!(evaluate(&pos), evaluate_with(&pos, weights(pos.rules())));
    }
}

#[test]
fn the_card_set_evaluation_is_the_evaluation() {
    use ludogame::onitama::CardSet;
    use ludogame::onitama::ai::eval::{CardSetEvaluator, Evaluator, N_FEATURES, weights};
    use std::sync::Arc;
    let mut rng = Rng(29);
    let mut specialised = 0;
    let mut other_rules = 0;
    for i in 0..300 {
        let pos = if i % 2 == 0 {
            random_position(&mut rng)
        } else {
            Position::standard_deal_from(rng.next_u64(), CardSet::All, 1000)
        };
        let w: [i32; N_FEATURES] = if i % 4 < 2 {
            *weights(pos.rules())
        } else {
            std::array::from_fn(|_| rng.below(401) as i32 - 200)
        };
        let ev = Arc::new(Evaluator::new(&w));
        let Some(set) = CardSetEvaluator::new(Arc::clone(&ev), &pos) else {
            assert!(pos.cards().iter().any(|c| c.index().is_none()), "{pos}");
            continue;
        };
        specialised += 1;
        // The five cards in every place (120 orders), either side to move.
        let cards = pos.cards();
        let mut order = [0, 1, 2, 3, 4];
        for k in 0..120 {
            let mut rest: Vec<usize> = (0..5).collect();
            let mut code = k;
            for (slot, radix) in order.iter_mut().zip([5, 4, 3, 2, 1]) {
                *slot = rest.remove(code % radix);
                code /= radix;
            }
            for side in [Player::A, Player::B] {
                let Ok(q) = Position::from_rows_with(
                    pos.rules(),
                    &pos.board_rows(),
                    order.map(|j| cards[j]),
                    side,
                    pos.plies_left(),
                ) else {
                    continue;
                };
                assert!(set.covers(&q), "{q}");
                assert_eq!(set.evaluate(&q), ev.evaluate(&q), "{q}");
            }
        }
        // The same pieces and cards under the other rules: not covered, evaluated as before.
        if let Some(q) = with_other_rules(&pos) {
            assert!(!set.covers(&q), "{q}");
            assert_eq!(set.evaluate(&q), ev.evaluate(&q), "{q}");
            other_rules += 1;
        }
        // Another deal's cards: not covered, the same.
        let other = Position::standard_deal_from(rng.next_u64(), CardSet::All, 1000);
        let sorted = |p: &Position| {
            let mut c = p.cards().map(|c| c.index());
            c.sort();
            c
        };
        let same = sorted(&other) == sorted(&pos) && other.rules() == pos.rules();
        assert_eq!(set.covers(&other), same);
        assert_eq!(set.evaluate(&other), ev.evaluate(&other));
    }
    assert!(specialised >= 150, "{specialised} specialised");
    assert!(other_rules >= 100, "{other_rules} under the other rules");
}

/// `pos`'s pieces and cards under the other rules (the wall put on a free square, or taken
/// off), if that is a position.
fn with_other_rules(pos: &Position) -> Option<Position> {
    let mut rows: Vec<Vec<char>> = pos
        .board_rows()
        .iter()
        .map(|r| r.chars().collect())
        .collect();
    let rules = if pos.is_standard() {
        let free = rows.iter().flatten().position(|&c| c == ' ')?;
        rows[free / 5][free % 5] = 'W';
        Variant::Wall
    } else {
        for c in rows.iter_mut().flatten() {
            if *c == 'W' {
                *c = ' ';
            }
        }
        Variant::Standard
    };
    let rows: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    Position::from_rows_with(rules, &rows, pos.cards(), pos.side(), pos.plies_left()).ok()
}

/// A searcher evaluates with its weights of each rule set whatever it searched before: its
/// evaluation specialised to a root's cards, then new weights, then the same cards under
/// the other rules.
#[test]
fn a_searcher_evaluates_with_its_weights_after_any_search() {
    use ludogame::onitama::CardSet;
    use ludogame::onitama::ai::Searcher;
    use ludogame::onitama::ai::eval::{Weights, evaluate_with, weights};
    let mut rng = Rng(31);
    let mut searcher = Searcher::new();
    let mut standard = *weights(Variant::Standard);
    let mut checked = 0;
    let mut check = |searcher: &Searcher, seen: &[Position], standard: &Weights| {
        for q in seen {
            let w = if q.is_standard() {
                standard
            } else {
                weights(Variant::Wall)
            };
            assert_eq!(searcher.evaluate(q), evaluate_with(q, w), "{q}");
            checked += 1;
        }
    };
    for i in 0..40 {
        let root = Position::standard_deal_from(rng.next_u64(), CardSet::All, 1000);
        let mut seen = vec![root];
        seen.extend(with_other_rules(&root));
        if i % 2 == 1 {
            seen.reverse(); // the wall game's search first, now and then
        }
        let mut pos = root;
        for _ in 0..6 {
            let actions = pos.legal_actions();
            if pos.status() != Status::Ongoing || actions.is_empty() {
                break;
            }
            pos = pos.after(actions.as_slice()[rng.below(actions.len() as u64) as usize]);
            seen.push(pos);
            seen.extend(with_other_rules(&pos));
        }
        searcher.search(&seen[0], 0, Limits::nodes(300));
        check(&searcher, &seen, &standard);
        if i % 4 == 2 {
            // New weights for these very cards: before and after another search of them.
            standard = std::array::from_fn(|_| rng.below(401) as i32 - 200);
            searcher.set_weights(Variant::Standard, standard);
            check(&searcher, &seen, &standard);
            searcher.search(&root, 0, Limits::nodes(300));
            check(&searcher, &seen, &standard);
        }
    }
    assert!(checked >= 300, "{checked} positions");
}

/// `pos` seen from the other side: the board turned half a turn, the armies and the hands
/// swapped, the other side to move.
fn swap_colours(pos: &Position) -> Position {
    let rows = pos.board_rows();
    let swapped: Vec<String> = rows
        .iter()
        .rev()
        .map(|r| {
            r.chars()
                .rev()
                .map(|c| match c {
                    'a' => 'b',
                    'b' => 'a',
                    'A' => 'B',
                    'B' => 'A',
                    c => c,
                })
                .collect()
        })
        .collect();
    let c = pos.cards();
    Position::from_rows(
        &swapped,
        [c[2], c[3], c[0], c[1], c[4]],
        pos.side().other(),
        pos.plies_left(),
    )
    .unwrap()
}

#[test]
fn the_evaluation_does_not_depend_on_colour() {
    use ludogame::onitama::ai::eval::features;
    let mut rng = Rng(29);
    for _ in 0..2000 {
        let pos = random_position(&mut rng);
        let other = swap_colours(&pos);
        assert_eq!(features(&pos), features(&other), "{pos} / {other}");
    }
}

/// A random standard deal from all 32 cards after up to `max_plies - 1` random plies
/// (fewer if the game ends).
fn random_deal_position(rng: &mut Rng, max_plies: u64) -> Position {
    let mut pos =
        Position::standard_deal_from(rng.next_u64(), ludogame::onitama::CardSet::All, 1000);
    for k in 0..rng.below(max_plies) {
        if pos.is_over() {
            break;
        }
        pos = pos.after(ludogame::onitama::random_action(&pos, k).unwrap());
    }
    pos
}

/// `pos` mirrored left to right, its cards too.
fn mirror(pos: &Position) -> Position {
    let rows: Vec<String> = pos
        .board_rows()
        .iter()
        .map(|r| r.chars().rev().collect())
        .collect();
    Position::from_rows_with(
        pos.rules(),
        &rows,
        pos.cards().map(|c| c.mirrored()),
        pos.side(),
        pos.plies_left(),
    )
    .unwrap()
}

#[test]
fn the_evaluation_does_not_depend_on_the_wing() {
    use ludogame::onitama::ai::eval::{F_TABLE, features};
    let mut rng = Rng(31);
    let mut tables_used = 0;
    for i in 0..2000 {
        let pos = if i % 2 == 0 {
            random_position(&mut rng)
        } else {
            random_deal_position(&mut rng, 12)
        };
        let f = features(&pos);
        tables_used += f[F_TABLE..].iter().filter(|&&v| v != 0).count();
        assert_eq!(f, features(&mirror(&pos)), "{pos}");
    }
    assert!(
        tables_used > 10_000,
        "the card tables are used: {tables_used}"
    );
}

#[test]
fn the_card_tables_count_each_piece_under_each_card_of_its_blocks() {
    use ludogame::onitama::ai::eval::{
        F_FREE_TARGETS, F_TABLE, N_FEATURES, features, table_feature,
    };
    let mut rng = Rng(37);
    for _ in 0..300 {
        let pos = random_deal_position(&mut rng, 16);
        use ludogame::onitama::ai::eval::Block;
        use ludogame::onitama::{CardSlot, Piece, Slot, Square};
        let mut want = [0i32; N_FEATURES];
        let at = |r: usize, c: usize| pos.piece_at(Square::new(r as u8, c as u8).unwrap());
        let mut found = Vec::new();
        for r in 0..5 {
            for c in 0..5 {
                match at(r, c) {
                    Some(Piece::General(p)) => found.push((r, c, p, true)),
                    Some(Piece::Soldier(p)) => found.push((r, c, p, false)),
                    _ => {}
                }
            }
        }
        let phase = (found.len() as i32 - 4).clamp(0, 6);
        for (r, c, owner, general) in found {
            let sign = if owner == pos.side() { 1 } else { -1 };
            // The owner's view: row from its back row, column from its left.
            let view = if owner == Player::A {
                (4 - r) * 5 + c
            } else {
                r * 5 + 4 - c
            };
            let mut tables = vec![];
            for slot in [Slot::One, Slot::Two] {
                tables.push((Block::Hand, pos.hand_card(owner, slot)));
                tables.push((Block::OpponentHand, pos.hand_card(owner.other(), slot)));
            }
            let next = if sign == 1 {
                Block::MoverNext
            } else {
                Block::OpponentNext
            };
            tables.push((next, pos.card(CardSlot::Side)));
            for (block, card) in tables {
                let f = table_feature(block, card.index().unwrap(), general, view);
                want[f] += sign * phase;
                want[f + 1] += sign * (6 - phase);
            }
        }
        let tables = F_TABLE..F_FREE_TARGETS;
        assert_eq!(features(&pos)[tables.clone()], want[tables], "{pos}");
    }
}

/// The tactical features, counted square by square from the cards' moves: a side's
/// pieces cover every square their hand cards take them to (on the board), attack those
/// of them that hold no own piece and not the wall.
#[test]
fn the_tactical_features_count_attacked_and_covered_soldiers() {
    use ludogame::onitama::ai::eval::{
        F_ANY_FREE_TARGET, F_ANY_HANGING, F_DEFENDED, F_FREE_TARGETS, F_HANGING, F_MOVER_HITS,
        features,
    };
    use ludogame::onitama::{Piece, Slot, Square};
    let mut rng = Rng(47);
    let mut seen = [0usize; 3];
    for i in 0..3000 {
        let pos = if i % 2 == 0 {
            random_position(&mut rng)
        } else {
            random_deal_position(&mut rng, 30)
        };
        // covers[p], attacks[p], soldiers[p] of player p (0 = the side to move).
        let players = [pos.side(), pos.side().other()];
        let mut covers = [0u32; 2];
        let mut attacks = [0u32; 2];
        let mut soldiers = [0u32; 2];
        let mut own = [0u32; 2];
        for (k, &p) in players.iter().enumerate() {
            for sq in Square::all() {
                let bit = 1u32 << (sq.row() * 5 + sq.col());
                match pos.piece_at(sq) {
                    Some(Piece::Soldier(o)) if o == p => {
                        soldiers[k] |= bit;
                        own[k] |= bit;
                    }
                    Some(Piece::General(o)) if o == p => own[k] |= bit,
                    _ => {}
                }
            }
            for sq in Square::all() {
                if own[k] & (1 << (sq.row() * 5 + sq.col())) == 0 {
                    continue;
                }
                for slot in [Slot::One, Slot::Two] {
                    for (dr, dc) in pos.hand_card(p, slot).moves_for(p) {
                        let (r, c) = (sq.row() as i8 + dr, sq.col() as i8 + dc);
                        if let Some(t) = Square::new(r as u8, c as u8).filter(|_| r >= 0 && c >= 0)
                        {
                            let bit = 1u32 << (t.row() * 5 + t.col());
                            covers[k] |= bit;
                            if own[k] & bit == 0 && pos.wall() != Some(t) {
                                attacks[k] |= bit;
                            }
                        }
                    }
                }
            }
        }
        let f = features(&pos);
        let free = attacks[0] & soldiers[1] & !covers[1];
        let hanging = attacks[1] & soldiers[0] & !covers[0];
        let n = |m: u32| m.count_ones() as i32;
        assert_eq!(f[F_MOVER_HITS], n(attacks[0] & soldiers[1]), "{pos}");
        assert_eq!(f[F_FREE_TARGETS], n(free), "{pos}");
        assert_eq!(f[F_ANY_FREE_TARGET], (free != 0) as i32, "{pos}");
        assert_eq!(f[F_HANGING], n(hanging), "{pos}");
        assert_eq!(f[F_ANY_HANGING], (hanging != 0) as i32, "{pos}");
        let defended = n(soldiers[0] & covers[0]) - n(soldiers[1] & covers[1]);
        assert_eq!(f[F_DEFENDED], defended, "{pos}");
        seen[0] += (free != 0) as usize;
        seen[1] += (hanging != 0) as usize;
        seen[2] += (defended != 0) as usize;
    }
    assert!(seen.iter().all(|&s| s > 100), "{seen:?}");
}
