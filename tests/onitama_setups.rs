//! Every position of `setups.json` parses, reads back its board, cards and offsets, and
//! its notation round-trips; the standard cards match `standard_cards.json`; the JSON
//! reader itself is checked on tricky input.

mod common;

use common::json::Golden;

use std::collections::BTreeSet;

use common::json::{self, Json};
use common::{card_of, load, position_with};
use ludogame::onitama::{Card, CardSlot, Player, Position, STANDARD_CARDS, STANDARD_NAMES};

fn offsets_of(j: &Json) -> BTreeSet<(i8, i8)> {
    j.array()
        .iter()
        .map(|o| {
            let o = o.array();
            (o[0].int() as i8, o[1].int() as i8)
        })
        .collect()
}

#[test]
fn every_setup_parses_and_round_trips() {
    let data = load("setups.json");
    let setups = data.at("setups").array();
    assert_eq!(setups.len(), 25);
    let mut checked = 0;
    for s in setups {
        let id = s.at("id").str();
        // A side or ply limit the source does not give: try every side and a few limits.
        let sides = match s.at("to_move") {
            Json::Null => vec![Player::A, Player::B],
            j => vec![common::player_of(j)],
        };
        let limits = match s.at("n") {
            Json::Null => vec![0, 1, 20, 50, u16::MAX],
            j => vec![j.int() as u16],
        };
        for &side in &sides {
            for &n in &limits {
                let pos = position_with(s, side, n);
                assert_eq!(pos.side(), side);
                assert_eq!(pos.plies_left(), n);
                assert_eq!(
                    pos.board_rows().to_vec(),
                    s.at("board").strings(),
                    "{id}: board"
                );
                for place in CardSlot::ALL {
                    let card = pos.card(place);
                    assert_eq!(card, card_of(s.at("cards").at(place.name())), "{id}");
                    let want = offsets_of(s.at("derived_offsets_holder_view").at(place.name()));
                    let got: BTreeSet<(i8, i8)> = card.offsets().collect();
                    assert_eq!(got, want, "{id} {}: offsets", place.name());
                    let for_b: BTreeSet<(i8, i8)> = card.moves_for(Player::B).collect();
                    let negated: BTreeSet<(i8, i8)> = want.iter().map(|&(r, c)| (-r, -c)).collect();
                    assert_eq!(for_b, negated, "{id}: B negates");
                }
                let text = pos.to_notation();
                let back =
                    Position::from_notation(&text).unwrap_or_else(|e| panic!("{id}: {text}: {e}"));
                assert_eq!(back, pos, "{id}: {text}");
                assert_eq!(back.to_notation(), text);
                assert_eq!(text.parse::<Position>().unwrap(), pos);
                checked += 1;
            }
        }
    }
    assert!(checked >= 25);
}

#[test]
fn case1_notation_reads_as_designed() {
    let data = load("setups.json");
    let case1 = common::setup(&data, "case1");
    let pos = common::position_of(&case1);
    assert_eq!(
        pos.to_notation(),
        "bbBbb/...../W..../...../aaAaa A n=50 A1:...../.x.../.xo.x/...../..... \
         A2:...../..x../..ox./...../..... B1:...../..x../..o../.x.../..... \
         B2:...../.x.x./..o../.x.../..... side:..x../...x./..o../...../....."
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    );
}

#[test]
fn standard_cards_match_the_data() {
    let data = load("standard_cards.json");
    let cards = data.array();
    assert_eq!(cards.len(), 16);
    for (i, c) in cards.iter().enumerate() {
        let name = c.at("name").str();
        assert_eq!(STANDARD_NAMES[i], name);
        let card = card_of(c.at("pattern"));
        assert_eq!(card, STANDARD_CARDS[i], "{name}");
        assert_eq!(Card::standard(name), Some(card));
        assert_eq!(
            card.rows().to_vec(),
            c.at("pattern").strings(),
            "{name}: canonical"
        );
        // moves_right_forward: [right, forward] from the holder's side.
        let want: BTreeSet<(i8, i8)> = c
            .at("moves_right_forward")
            .array()
            .iter()
            .map(|m| {
                let m = m.array();
                (-(m[1].int() as i8), m[0].int() as i8)
            })
            .collect();
        let got: BTreeSet<(i8, i8)> = card.offsets().collect();
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn json_reader_is_strict_and_complete() {
    let v = json::parse(
        r#" {"a": [1, -2.5e1, true, false, null], "s": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "o": {}} "#,
    )
    .unwrap();
    assert_eq!(v.at("a").array()[1].float(), -25.0);
    assert_eq!(v.at("s").str(), "x\"\\/\u{8}\u{c}\n\r\té😀");
    assert!(v.at("a").array()[4].is_null());
    assert!(v.at("a").array()[2].boolean());
    assert_eq!(v.at("o").object().len(), 0);
    for bad in [
        "",
        "[1,]",
        "{\"a\":1,}",
        "01",
        "1.",
        "-",
        "\"a",
        "\"\\x\"",
        "[1] x",
        "\"\\ud800\"",
        "{a:1}",
        "tru",
        "\"\u{1}\"",
        "[1 2]",
        "\"\\u12\"",
    ] {
        assert!(json::parse(bad).is_err(), "{bad:?}");
    }
    assert_eq!(json::parse("\"é\"").unwrap(), Json::Str("é".into()));
    assert_eq!(json::parse("[]").unwrap(), Json::Array(vec![]));
    assert_eq!(json::parse("0").unwrap(), Json::Number("0".into()));
}
