//! Standard Onitama (no wall) in the one engine: perft against the community table
//! (TangilJ/Onitama's `test/perfttest.cpp`), the notation and action text, and the errors
//! for mixing the rule sets.
//!
//! Mapping of the table: its first-named hand is blue, which is player A here (row `e`,
//! cards as written); the second hand is red, player B (row `a`, cards rotated 180°). The
//! position is symmetric under that rotation, so which row blue starts on does not
//! change the counts; who moves first does.

use ludogame::onitama::{Card, Player, Position, Variant, perft, perft_divide, perft_make_unmake};

include!("common/onitama_standard_perft.rs");

fn start(names: [&str; 5], first: Player) -> Position {
    let cards = names.map(|n| Card::standard(n).expect("a base card"));
    Position::standard_start(cards, first, 1000).expect("a valid start")
}

#[test]
fn perft_agrees_with_the_community_table() {
    // Depth 6 of all four sets takes well under a second at opt-level 3; the deeper
    // counts are checked by `cargo bench --bench onitama_perft_rust -- standard`.
    for (names, first, counts) in TABLE {
        let pos = start(names, first);
        assert_eq!(pos.rules(), Variant::Standard);
        for (d, &want) in counts.iter().enumerate().take(6) {
            let depth = d as u32 + 1;
            assert_eq!(perft(&pos, depth), want, "{names:?} perft({depth})");
        }
    }
}

#[test]
fn make_unmake_and_divide_agree() {
    for (names, first, counts) in TABLE {
        let pos = start(names, first);
        assert_eq!(perft_make_unmake(&pos, 4), counts[3], "{names:?}");
        let divide: u64 = perft_divide(&pos, 4).iter().map(|(_, n)| n).sum();
        assert_eq!(divide, counts[3]);
    }
}

#[test]
fn notation_and_action_text_round_trip() {
    let pos = start(TABLE[0].0, Player::A);
    let text = pos.to_notation();
    assert_eq!(
        text,
        "bbBbb/...../...../...../aaAaa A n=1000 A1:Ox A2:Boar B1:Horse B2:Elephant \
         side:Crab standard"
    );
    assert_eq!(Position::from_notation(&text).unwrap(), pos);
    for &a in &pos.legal_actions() {
        let t = pos.action_text(a);
        assert_eq!(t.split_whitespace().count(), 3, "{t}");
        assert_eq!(pos.parse_action(&t).unwrap(), a);
    }
    // The rule sets do not mix: no wall on a standard board, a wall on a wall board.
    let with_wall = text.replacen("...../...../.....", "W..../...../.....", 1);
    assert!(Position::from_notation(&with_wall).is_err());
    let no_marker = text.trim_end_matches(" standard");
    assert!(Position::from_notation(no_marker).is_err());
    assert!(pos.parse_action("1 e2 d2 s").is_err());
    let wall = Position::from_notation(
        "bbBbb/...../W..../...../aaAaa A n=20 A1:Monkey A2:Crane B1:Boar B2:Ox side:Tiger",
    )
    .unwrap();
    assert!(wall.parse_action("1 e2 d2").is_err());
    assert!(wall.parse_action("1 e2 d1 s").is_ok());
    // Repeated cards are refused.
    let twice = text.replace("B2:Elephant", "B2:Ox");
    assert!(Position::from_notation(&twice).is_err());
}

#[test]
fn a_winning_move_typed_without_marking_wins() {
    // A's master one step from B's temple arch (a3), Boar moves it up.
    let pos = Position::from_notation(
        "bb.bb/..A../B..../...../aa.aa A n=50 A1:Ox A2:Boar B1:Horse B2:Elephant \
         side:Crab standard",
    )
    .unwrap();
    let a = pos.parse_action("1 b3 a3").unwrap();
    assert!(a.is_win());
    let mut p = pos;
    p.play(a).unwrap();
    assert!(p.is_over());
    let mut game = ludogame::onitama::Game::from_notation(&pos.to_notation()).unwrap();
    game.play(pos.parse_action("2 b3 b2").unwrap()).unwrap();
    let json = game.to_json();
    assert!(json.contains("\"2 b3 b2\""), "{json}");
    let back = ludogame::onitama::Game::from_json(&json).unwrap();
    assert_eq!(back.position(), game.position());
}

#[test]
fn random_deals_are_valid_and_the_side_card_picks_the_first_player() {
    for seed in 0..200 {
        let pos = Position::standard_deal(seed, 1000);
        let side = pos.cards()[4];
        assert_eq!(Some(pos.side()), side.first_player());
        assert_eq!(Position::from_notation(&pos.to_notation()).unwrap(), pos);
    }
    assert_ne!(Position::standard_deal(1, 9), Position::standard_deal(2, 9));
}

#[test]
fn the_built_in_ais_play_standard_games() {
    use ludogame::onitama::{Ai, Limits};
    // A mate in one: A's master captures B's master with Boar's step up.
    let pos = Position::from_notation(
        "bb.bb/..B../..A../...../aa.aa A n=50 A1:Ox A2:Boar B1:Horse B2:Elephant \
         side:Crab standard",
    )
    .unwrap();
    for level in 0..=2 {
        let mut ai = Ai::new(level, 7, Limits::budget(None, Some(20_000), None)).unwrap();
        let a = ai.choose(&pos).unwrap();
        assert!(pos.is_legal(a), "level {level}: {a:?}");
        if level == 2 {
            assert!(a.is_win(), "{a:?}");
        }
    }
    // Whole games, level 2 (small budget) against level 1, from random deals.
    for seed in 0..4 {
        let mut pos = Position::standard_deal(seed, 200);
        let mut ais = [
            Ai::new(2, seed, Limits::budget(None, Some(2_000), None)).unwrap(),
            Ai::new(1, seed, Limits::budget(None, None, None)).unwrap(),
        ];
        while !pos.is_over() {
            let a = ais[pos.side().index()].choose(&pos).unwrap();
            pos.play(a).unwrap();
        }
    }
}

#[test]
fn the_referee_plays_standard_matches() {
    use ludogame::onitama::{Ai, Answer, Limits, play_match};
    let start = Position::standard_deal(3, 120);
    let mut a = Ai::new(2, 1, Limits::budget(None, Some(1_000), None)).unwrap();
    let mut b = Ai::new(0, 2, Limits::budget(None, None, None)).unwrap();
    let record = play_match(
        &start,
        |p: &Position| Answer::from(a.choose(p).unwrap()),
        |p: &Position| Answer::from(b.choose(p).unwrap()),
    );
    assert!(
        record.reason.failed_by().is_none(),
        "{}",
        record.reason.detail()
    );
    let mut pos = start;
    for &act in &record.actions {
        pos.play(act).unwrap();
    }
    assert_eq!(pos, record.end);
    // A wall step in a standard answer is refused.
    let bad = ludogame::onitama::judge(&start, 1, "e1", "d1", "u");
    assert!(bad.is_err());
}

/// The Sensei's Path cards: dealt by `CardSet`, named in notation, JSON and SVG, and
/// searched by perft like any other card. No published perft counts for expansion cards
/// were found, so the three move generators are checked against each other.
#[test]
fn sensei_path_cards_deal_round_trip_and_perft() {
    use ludogame::onitama::{ALL_CARDS, CardSet, Game, SENSEI_CARDS, STANDARD_CARDS};
    for set in CardSet::EVERY {
        let mut seen = std::collections::HashSet::new();
        for seed in 0..300 {
            let pos = Position::standard_deal_from(seed, set, 1000);
            let cards = pos.cards();
            assert!(
                cards.iter().all(|c| set.cards().contains(c)),
                "{set} {seed}"
            );
            for i in 0..5 {
                assert!(cards[..i].iter().all(|&c| c != cards[i]));
            }
            assert_eq!(Some(pos.side()), cards[4].first_player());
            let text = pos.to_notation();
            assert!(!text.contains("Sea Snake"), "{text}");
            assert_eq!(Position::from_notation(&text).unwrap(), pos, "{text}");
            seen.extend(cards);
        }
        assert_eq!(seen.len(), set.cards().len(), "{set}: every card is dealt");
    }
    for seed in 0..50 {
        assert_eq!(
            Position::standard_deal_from(seed, CardSet::Base, 9),
            Position::standard_deal(seed, 9)
        );
    }
    assert_eq!(ALL_CARDS[..16], STANDARD_CARDS);
    // A hand with Sea Snake: notation, JSON and SVG name it.
    let pos = start(
        ["sea snake", "kirin", "Phoenix", "TURTLE", "otter"],
        Player::B,
    );
    let text = pos.to_notation();
    assert!(text.contains("A1:Sea_Snake A2:Kirin"), "{text}");
    let game = Game::from_position(pos, pos.cards().map(|c| (c, c.rows())).to_vec(), None);
    let json = game.to_json();
    let back = Game::from_json(&json).unwrap();
    assert_eq!(back.position(), &pos);
    let svg = game.svg();
    assert!(svg.contains(r#"data-name="Sea Snake""#), "{svg}");
    // Perft: the bulk counter and make/unmake agree on every Sensei's Path card, and the
    // first ply's moves are the card offsets that stay on the board off one's own pawns.
    for k in 0..4 {
        let cards: [Card; 5] = std::array::from_fn(|i| SENSEI_CARDS[(k * 4 + i) % 16]);
        for first in Player::BOTH {
            let pos = Position::standard_start(cards, first, 1000).unwrap();
            for depth in 1..=4 {
                let n = perft(&pos, depth);
                assert_eq!(n, perft_make_unmake(&pos, depth), "{cards:?} {depth}");
            }
            let mut want = std::collections::BTreeSet::new();
            for (slot, card) in [
                (1u8, pos.cards()[first.index() * 2]),
                (2, pos.cards()[first.index() * 2 + 1]),
            ] {
                for r in 0..5i8 {
                    for c in 0..5i8 {
                        let home = if first == Player::A { 4 } else { 0 };
                        if r != home {
                            continue;
                        }
                        for (dr, dc) in card.moves_for(first) {
                            let (tr, tc) = (r + dr, c + dc);
                            if (0..5).contains(&tr) && (0..5).contains(&tc) && tr != home {
                                want.insert((slot, r, c, tr, tc));
                            }
                        }
                    }
                }
            }
            let got: std::collections::BTreeSet<_> = pos
                .legal_actions()
                .iter()
                .map(|a| {
                    let (f, t) = (a.from().unwrap(), a.to().unwrap());
                    let sq =
                        |s: ludogame::onitama::Square| (s.index() as i8 / 5, s.index() as i8 % 5);
                    let ((r, c), (tr, tc)) = (sq(f), sq(t));
                    (a.slot().number(), r, c, tr, tc)
                })
                .collect();
            assert_eq!(got, want, "{cards:?} {first}");
        }
    }
}

#[test]
fn unknown_and_repeated_cards_are_errors() {
    use ludogame::onitama::CardSet;
    let cards = ["Sea Snake", "Viper", "Unicorn", "Dog", "Fox"];
    assert!(Card::from_text(cards[2]).is_err());
    let viper = Card::standard("viper").unwrap();
    let dup = ["Sea Snake", "Viper", "viper", "Dog", "Fox"].map(|n| Card::standard(n).unwrap());
    let e = Position::standard_start(dup, Player::A, 1000).unwrap_err();
    assert!(e.to_string().contains("different"), "{e}");
    assert_eq!(dup[1], viper);
    assert!(CardSet::from_name("Sensei's").is_err());
}
