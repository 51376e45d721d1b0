//! Shared helpers of the Onitama tests: the golden data (copied from the shared data set
//! into `tests/data/onitama/`), a JSON reader, and a seeded random generator.

#![allow(dead_code)]

pub mod json;

use std::collections::BTreeSet;
use std::path::PathBuf;

use json::{Golden, Json};
use ludogame::onitama::{Action, Card, Player, Position};

/// Path of a golden data file.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/onitama")
        .join(name)
}

/// Read and parse a golden JSON file.
pub fn load(name: &str) -> Json {
    let path = data_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    json::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A card from its JSON rows.
pub fn card_of(rows: &Json) -> Card {
    Card::parse(&rows.strings()).expect("a valid card")
}

/// The five cards `A1 A2 B1 B2 side` of a JSON `cards` object.
pub fn cards_of(cards: &Json) -> [Card; 5] {
    ["A1", "A2", "B1", "B2", "side"].map(|k| card_of(cards.at(k)))
}

/// `"A"`/`"B"` as a player.
pub fn player_of(j: &Json) -> Player {
    match j.str() {
        "A" => Player::A,
        "B" => Player::B,
        other => panic!("not a player: {other}"),
    }
}

/// The position of a JSON object with `board` and `cards`, given side and plies left.
pub fn position_with(obj: &Json, side: Player, plies_left: u16) -> Position {
    Position::from_rows(
        &obj.at("board").strings(),
        cards_of(obj.at("cards")),
        side,
        plies_left,
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The position of a JSON object with `board`, `cards`, `to_move` and `plies_left` (or
/// `n`), all given.
pub fn position_of(obj: &Json) -> Position {
    let n = obj
        .get("plies_left")
        .or_else(|| obj.get("n"))
        .expect("plies_left or n");
    position_with(obj, player_of(obj.at("to_move")), n.int() as u16)
}

/// The setup with this id in `setups.json`.
pub fn setup(setups: &Json, id: &str) -> Json {
    setups
        .at("setups")
        .array()
        .iter()
        .find(|s| s.at("id").str() == id)
        .unwrap_or_else(|| panic!("no setup {id}"))
        .clone()
}

/// An action as `(card, from, to, wall)` text, as in the JSON files (`XX` for a pass,
/// no wall for a winning move).
pub type Key = (i64, String, String, Option<String>);

/// The key of an engine action.
pub fn key_of_action(a: Action) -> Key {
    let sq = |s: Option<ludogame::onitama::Square>| s.map_or("XX".to_owned(), |s| s.to_string());
    (
        a.slot().number() as i64,
        sq(a.from()),
        sq(a.to()),
        a.wall().map(|w| w.letter().to_string()),
    )
}

/// The key of a JSON action (`wall` missing or `null` for a winning move).
pub fn key_of_json(j: &Json) -> Key {
    let wall = match j.get("wall") {
        None | Some(Json::Null) => None,
        Some(w) => Some(w.str().to_owned()),
    };
    (
        j.at("card").int(),
        j.at("from").str().to_owned(),
        j.at("to").str().to_owned(),
        wall,
    )
}

/// The set of keys of every legal action of a position.
pub fn legal_keys(pos: &Position) -> BTreeSet<Key> {
    pos.legal_actions()
        .iter()
        .map(|&a| key_of_action(a))
        .collect()
}

/// SplitMix64: a tiny seeded generator, the same on every machine.
#[derive(Clone, Copy, Debug)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
}
