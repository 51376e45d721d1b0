//! All 258 logged tournament games of `tournament.json` (252 round robin, 6 against the
//! professor's AI) replayed answer by answer through the referee: every winner, reason
//! (base, capture, invalid answer with the referee's message, programming error, tie) and
//! ply count is reproduced.

mod common;

use common::json::Golden;

use std::cell::Cell;

use common::json::Json;
use common::{load, player_of, position_of, setup};
use ludogame::onitama::{Answer, EndReason, GameResult, Player, play_match};

fn answer_of(m: &Json) -> Answer {
    let m = m.array();
    Answer::new(m[0].int(), m[1].str(), m[2].str(), m[3].str())
}

#[test]
fn every_logged_game_replays_to_its_result() {
    let setups = load("setups.json");
    let data = load("tournament.json");
    assert_eq!(data.at("rules").at("ply_limit_n").int(), 20);
    let games = data.at("games").array();
    assert_eq!(games.len(), 258);
    let mut reasons = std::collections::BTreeMap::new();
    for g in games {
        let name = format!(
            "{} game {}",
            g.at("log").str().rsplit('/').next().unwrap(),
            g.at("game").int()
        );
        let start = position_of(&setup(&setups, &format!("case{}", g.at("setup").int())));
        assert_eq!(
            (start.side(), start.plies_left()),
            (Player::A, 20),
            "{name}"
        );
        let moves = g.at("moves").array();
        let next = Cell::new(0usize);
        let error_message = g
            .get("error")
            .map(|e| e.at("message").str().to_owned())
            .unwrap_or_else(|| "the log has no more answers".to_owned());
        // Both players read the one logged answer list, in order; past its end the AI
        // "raises" the logged error.
        let answer = |pos: &ludogame::onitama::Position, me: Player| {
            assert_eq!(pos.side(), me);
            let i = next.get();
            next.set(i + 1);
            match moves.get(i) {
                Some(m) => answer_of(m),
                None => Answer::error(error_message.clone()),
            }
        };
        let record = play_match(&start, |p| answer(p, Player::A), |p| answer(p, Player::B));

        let winner = match g.at("winner") {
            Json::Null => None,
            w => Some(player_of(w)),
        };
        assert_eq!(record.winner(), winner, "{name}: winner");
        assert_eq!(record.plies as i64, g.at("plies").int(), "{name}: plies");
        assert_eq!(
            record.actions.len() as i64,
            g.at("plies_completed").int(),
            "{name}: plies completed"
        );
        let reason = g.at("reason").str();
        *reasons.entry(reason.to_owned()).or_insert(0) += 1;
        match (reason, &record.reason) {
            ("general_captured", EndReason::Capture) | ("base_reached", EndReason::Base) => {
                assert_eq!(next.get(), moves.len(), "{name}: every answer used");
            }
            ("ply_limit", EndReason::PlyLimit) => {
                assert_eq!(record.result, GameResult::Tie, "{name}");
                assert_eq!(record.plies, 20, "{name}");
                assert_eq!(next.get(), moves.len(), "{name}");
            }
            ("invalid_move", EndReason::InvalidAnswer { by, answer, reason }) => {
                let inv = g.at("invalid");
                assert_eq!(*by, player_of(inv.at("by")), "{name}");
                assert_eq!(*answer, answer_of(inv.at("answer")), "{name}");
                assert_eq!(
                    reason.to_string(),
                    inv.at("referee_message").str(),
                    "{name}: referee message"
                );
                assert_eq!(
                    next.get(),
                    moves.len(),
                    "{name}: the last answer was rejected"
                );
            }
            ("programming_error", EndReason::Error { by, message }) => {
                let err = g.at("error");
                assert_eq!(*by, player_of(err.at("by")), "{name}");
                assert_eq!(*message, err.at("message").str(), "{name}");
                assert_eq!(next.get(), moves.len() + 1, "{name}");
            }
            (want, got) => panic!("{name}: logged {want}, replayed {got:?}"),
        }
        // The accepted actions are the logged answers (a win's wall letter is not read).
        for (a, m) in record.actions.iter().zip(moves) {
            let m = m.array();
            assert_eq!(a.slot().number() as i64, m[0].int(), "{name}");
            let sq =
                |s: Option<ludogame::onitama::Square>| s.map_or("XX".into(), |s| s.to_string());
            assert_eq!(sq(a.from()), m[1].str(), "{name}");
            assert_eq!(sq(a.to()), m[2].str(), "{name}");
            if let Some(w) = a.wall() {
                assert_eq!(w.letter().to_string(), m[3].str(), "{name}");
            }
        }
        // The record replays to its end position.
        assert_eq!(*record.positions().last().unwrap(), record.end, "{name}");
    }
    let counts: Vec<(String, i32)> = reasons.into_iter().collect();
    assert_eq!(
        counts,
        [
            ("base_reached".to_owned(), 33),
            ("general_captured".to_owned(), 156),
            ("invalid_move".to_owned(), 6),
            ("ply_limit".to_owned(), 18),
            ("programming_error".to_owned(), 45),
        ]
    );
}
