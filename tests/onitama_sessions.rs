//! The 14 recorded Part 1 sessions (`transcripts/sessions.json`) replayed input by input:
//! every board and plies-left count, every rejected input with the program's message
//! (same check order as the referee), every "0" move listing (in the program's MATLAB
//! column-major order), the event messages and the final result.

mod common;

use common::json::Golden;

use common::{key_of_action, key_of_json, load, player_of, position_of, setup};
use ludogame::onitama::coursework::{listing, ply_messages as messages};
use ludogame::onitama::{Action, PawnChoice, Slot, Status, WinKind, judge_pawn, judge_wall};

#[test]
fn every_session_replays() {
    let setups = load("setups.json");
    let data = load("transcripts/sessions.json");
    let sessions = data.at("sessions").array();
    assert_eq!(sessions.len(), 14);
    let (mut rejections, mut listings) = (0, 0);
    for s in sessions {
        let id = s.at("id").str();
        let mut pos = position_of(&setup(&setups, s.at("setup_id").str()));
        for ply in s.at("plies").array() {
            let n = ply.at("ply").int();
            let at = format!("{id} ply {n}");
            assert_eq!(
                pos.board_rows().to_vec(),
                ply.at("board_before").strings(),
                "{at}"
            );
            assert_eq!(pos.plies_left() as i64, ply.at("turns_left").int(), "{at}");
            assert_eq!(pos.side(), player_of(ply.at("player")), "{at}");
            assert_eq!(
                ply.get("pass").is_some_and(Golden::boolean),
                !pos.has_pawn_move(),
                "{at}: pass"
            );
            if let Some(l) = ply.get("listing") {
                assert_eq!(listing(&pos), l.strings(), "{at}: listing");
                listings += 1;
            }
            let mut choice: Option<PawnChoice> = None;
            let mut action: Option<Action> = None;
            for attempt in ply.at("attempts").array() {
                let input = attempt.at("input");
                let outcome = attempt.at("outcome").str();
                let result = match attempt.at("stage").str() {
                    "card" => continue, // "0" listing, or the end of the transcript
                    "pawn" => {
                        let card = input.at("card").str().parse::<i64>().unwrap();
                        // A rejected start square is reported before the target is asked.
                        let to = input.get("to").map_or("", Golden::str);
                        let r = judge_pawn(&pos, card, input.at("from").str(), to);
                        r.map(|c| choice = Some(c)).map_err(|e| e.to_string())
                    }
                    "pass_card" => {
                        let card = input.str().parse::<i64>().unwrap();
                        let c = judge_pawn(&pos, card, "XX", "XX").unwrap();
                        assert!(c.is_pass(), "{at}");
                        assert_eq!(c.slot(), Slot::from_number(card).unwrap(), "{at}");
                        choice = Some(c);
                        Ok(())
                    }
                    "wall" => {
                        let c = choice.expect("a pawn part before the wall");
                        judge_wall(&pos, c, input.str())
                            .map(|a| action = Some(a))
                            .map_err(|e| e.to_string())
                    }
                    other => panic!("{at}: stage {other}"),
                };
                match outcome {
                    "accepted" => result.unwrap_or_else(|e| panic!("{at}: rejected: {e}")),
                    "rejected" => {
                        let want = attempt.at("message").str();
                        assert_eq!(result.err().as_deref(), Some(want), "{at}");
                        rejections += 1;
                    }
                    other => panic!("{at}: outcome {other}"),
                }
            }
            let Some(played) = ply.get("played") else {
                continue; // the transcript stops inside this ply
            };
            // A winning move is complete without a wall input.
            let action = action.unwrap_or_else(|| judge_wall(&pos, choice.unwrap(), "?").unwrap());
            assert_eq!(key_of_action(action), key_of_json(played), "{at}");
            let before = pos;
            pos.play(action).unwrap();
            assert_eq!(
                messages(&before, action, &pos),
                ply.at("messages").strings(),
                "{at}"
            );
        }
        if s.at("complete").boolean() {
            let r = s.at("result");
            match (pos.status(), r.at("reason").str()) {
                (
                    Status::Won {
                        winner,
                        by: WinKind::Capture,
                    },
                    "capture",
                )
                | (
                    Status::Won {
                        winner,
                        by: WinKind::Base,
                    },
                    "base",
                ) => {
                    assert_eq!(Some(winner), Some(player_of(r.at("winner"))), "{id}");
                }
                (Status::Tie, "ply_limit") => assert!(r.at("tie").boolean(), "{id}"),
                (got, want) => panic!("{id}: {got:?} but the session ends by {want}"),
            }
        } else {
            assert_eq!(pos.status(), Status::Ongoing, "{id}");
        }
    }
    assert_eq!(listings, 8);
    assert_eq!(rejections, 43);
}
