//! The 14 recorded Part 1 sessions (`transcripts/sessions.json`) replayed input by input:
//! every board and plies-left count, every rejected input with the program's message
//! (same check order as the referee), every "0" move listing (in the program's MATLAB
//! column-major order), the event messages and the final result.

mod common;

use common::json::Golden;

use common::{key_of_action, key_of_json, load, player_of, position_of, setup};
use ludogame::onitama::{
    Action, PawnChoice, Piece, Position, Slot, Square, Status, WinKind, judge_pawn, judge_wall,
};

/// Column-major index of a square (MATLAB's order: down column 1, then column 2, …).
fn col_major(sq: Square) -> u8 {
    sq.col() * 5 + sq.row()
}

/// The Part 1 program's "0" listing: every pawn move, by card, then start and target
/// square in column-major order.
fn listing(pos: &Position) -> Vec<String> {
    let mut moves: Vec<(Slot, Square, Square)> = pos
        .legal_actions()
        .iter()
        .filter_map(|a| Some((a.slot(), a.from()?, a.to()?)))
        .collect();
    moves.sort_by_key(|&(s, f, t)| (s, col_major(f), col_major(t)));
    moves.dedup();
    moves
        .into_iter()
        .map(|(s, f, t)| format!("Card {}, {f}->{t}", s.number()))
        .collect()
}

/// The event messages the Part 1 program prints for an action played in `before`.
fn messages(before: &Position, a: Action, after: &Position) -> Vec<String> {
    let me = before.side();
    let mut out = Vec::new();
    if a.is_pass() {
        out.push("There is no valid move.".to_owned());
    }
    if let (Some(f), Some(t)) = (a.from(), a.to()) {
        match before.win_kind(f, t) {
            Some(WinKind::Base) => out.push(format!(
                "Player {me}, your general reaches opponent's military base. You win."
            )),
            Some(WinKind::Capture) => out.push(format!(
                "Player {me}, you capture opponent's general. You win."
            )),
            None => {
                if before.piece_at(t) == Some(Piece::Soldier(me.other())) {
                    out.push(format!(
                        "Player {me}, you capture opponent's soldier. The soldier is removed from the board."
                    ));
                }
            }
        }
    }
    if after.status() == Status::Tie {
        out.push("This is the last turn. The game is tied.".to_owned());
    }
    out
}

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
