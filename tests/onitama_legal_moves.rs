//! `legal_moves.json` and `winning_moves.json` reproduced exactly, as sets: the Part 2
//! "All possible output" tables, the Part 1 pawn-move listings, the computed lists of the
//! basic-test positions, and every one-move win.

mod common;

use common::json::Golden;

use std::collections::BTreeSet;

use common::json::Json;
use common::{Key, key_of_json, legal_keys, load, position_of, setup};
use ludogame::onitama::{Position, WinKind, judge};

/// The position of an entry: its own `position`, which must agree with its setup.
fn entry_position(entry: &Json, setups: &Json) -> Position {
    let pos = position_of(entry.at("position"));
    assert_eq!(pos.side(), common::player_of(entry.at("player")));
    if let Json::Str(id) = entry.at("setup_id") {
        let s = setup(setups, id);
        let same_start = s.at("board").strings() == pos.board_rows().to_vec()
            && s.at("n").int() == pos.plies_left() as i64;
        if same_start {
            assert_eq!(position_of(&s), pos, "{id}: same as the setup");
        }
    }
    pos
}

fn judge_json(pos: &Position, j: &Json) -> Result<ludogame::onitama::Action, String> {
    let wall = match j.get("wall") {
        Some(Json::Str(w)) => w.as_str(),
        _ => "s",
    };
    judge(
        pos,
        j.at("card").int(),
        j.at("from").str(),
        j.at("to").str(),
        wall,
    )
    .map_err(|e| e.to_string())
}

/// `(card, from, to)` of every legal pawn move, winning ones included.
fn pawn_moves(pos: &Position) -> BTreeSet<(i64, String, String)> {
    legal_keys(pos)
        .into_iter()
        .filter(|k| k.1 != "XX")
        .map(|(c, f, t, _)| (c, f, t))
        .collect()
}

#[test]
fn full_action_tables_and_pawn_listings() {
    let setups = load("setups.json");
    let data = load("legal_moves.json");
    let entries = data.at("positions").array();
    assert_eq!(entries.len(), 11);
    for e in entries {
        let id = e.at("id").str();
        let pos = entry_position(e, &setups);
        let actions = e.at("actions").array();
        assert_eq!(actions.len() as i64, e.at("action_count").int(), "{id}");
        match e.at("kind").str() {
            "full_actions" => {
                let want: BTreeSet<Key> = actions.iter().map(key_of_json).collect();
                assert_eq!(want.len(), actions.len(), "{id}: no duplicates in the data");
                assert_eq!(legal_keys(&pos), want, "{id}");
                assert_eq!(pos.legal_actions().len(), actions.len(), "{id}");
                assert_eq!(pos.count_actions(), actions.len() as u64, "{id}");
                assert_eq!(
                    !pos.has_pawn_move(),
                    e.at("is_pass_position").boolean(),
                    "{id}"
                );
                // Every listed answer is accepted by the referee as exactly that action.
                for a in actions {
                    let got = judge_json(&pos, a).unwrap_or_else(|r| panic!("{id}: {r}"));
                    assert_eq!(common::key_of_action(got), key_of_json(a), "{id}");
                }
                let sample = e.at("sample_ai_output");
                assert!(want.contains(&key_of_json(sample)), "{id}: sample output");
            }
            "pawn_moves_only" => {
                let want: BTreeSet<(i64, String, String)> = actions
                    .iter()
                    .map(|a| {
                        (
                            a.at("card").int(),
                            a.at("from").str().to_owned(),
                            a.at("to").str().to_owned(),
                        )
                    })
                    .collect();
                assert_eq!(pawn_moves(&pos), want, "{id}");
                for a in actions {
                    let action = judge_json(&pos, a).unwrap_or_else(|r| panic!("{id}: {r}"));
                    let wins = a.get("wins_by").map(|w| w.str().to_owned());
                    let kind = action.is_win().then(|| {
                        let (f, t) = (action.from().unwrap(), action.to().unwrap());
                        match pos.win_kind(f, t).unwrap() {
                            WinKind::Base => "base".to_owned(),
                            WinKind::Capture => "capture".to_owned(),
                        }
                    });
                    assert_eq!(kind, wins, "{id}: {a:?}");
                }
                assert_eq!(
                    pos.legal_actions().len() as i64,
                    e.at("computed_full_action_count").int(),
                    "{id}: full action count"
                );
            }
            other => panic!("{id}: unknown kind {other}"),
        }
    }
}

#[test]
fn observed_accepted_answers() {
    let setups = load("setups.json");
    let data = load("legal_moves.json");
    let entries = data.at("observed_accepted_answers").array();
    assert_eq!(entries.len(), 2);
    for e in entries {
        let id = e.at("id").str();
        let pos = entry_position(e, &setups);
        assert_eq!(pos, position_of(&setup(&setups, id)), "{id}");
        let want: BTreeSet<Key> = e
            .at("computed_full_actions")
            .array()
            .iter()
            .map(key_of_json)
            .collect();
        assert_eq!(legal_keys(&pos), want, "{id}");
        let observed = e.at("observed_answer");
        let action = judge_json(&pos, observed).unwrap_or_else(|r| panic!("{id}: {r}"));
        assert_eq!(common::key_of_action(action), key_of_json(observed), "{id}");
    }
}

#[test]
fn every_one_move_win() {
    let setups = load("setups.json");
    let data = load("winning_moves.json");
    let entries = data.at("positions").array();
    assert_eq!(entries.len(), 13);
    for e in entries {
        let id = e.at("id").str();
        let pos = entry_position(e, &setups);
        let wins: BTreeSet<(i64, String, String, String)> = pos
            .legal_actions()
            .iter()
            .filter(|a| a.is_win())
            .map(|a| {
                let (f, t) = (a.from().unwrap(), a.to().unwrap());
                let by = match pos.win_kind(f, t).unwrap() {
                    WinKind::Base => "base",
                    WinKind::Capture => "capture",
                };
                (
                    a.slot().number() as i64,
                    f.to_string(),
                    t.to_string(),
                    by.to_owned(),
                )
            })
            .collect();
        let key = |j: &Json| {
            (
                j.at("card").int(),
                j.at("from").str().to_owned(),
                j.at("to").str().to_owned(),
                j.at("wins_by").str().to_owned(),
            )
        };
        let want: BTreeSet<_> = e
            .at("all_winning_actions_computed")
            .array()
            .iter()
            .map(key)
            .collect();
        assert_eq!(wins, want, "{id}");
        let stated = e.at("stated_winning_action");
        assert!(wins.contains(&key(stated)), "{id}: stated win");
        // The stated AI output (with a wall letter that is never read) is that win.
        if let Some(out) = e.get("stated_ai_output") {
            let a = judge_json(&pos, out).unwrap_or_else(|r| panic!("{id}: {r}"));
            assert!(a.is_win(), "{id}");
            let mut after = pos;
            after.play(a).unwrap();
            assert!(after.is_over());
            assert!(after.legal_actions().is_empty());
        }
    }
}
