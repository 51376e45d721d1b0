//! A refereed game saved as text: the game's own JSON ([`Game::to_json`]: start, setup,
//! card drawings, every action) with the match's result added. One format serves the saved
//! games files, the replay page and pickling; [`Game::from_json`] reads it as a game.
//!
//! ```
//! use ludogame::onitama::{Answer, Game, MatchConfig, SavedMatch, play_refereed};
//!
//! let start = Game::from_setup("21", None).unwrap();
//! let config = MatchConfig::default();
//! // An AI that answers card 7 loses on its first ply.
//! let mut bad = |_: &ludogame::onitama::Position| Ok(Answer::new(7, "e3", "d3", "u"));
//! let mut also_bad = |_: &ludogame::onitama::Position| Ok(Answer::new(7, "a3", "b3", "u"));
//! let record = play_refereed(&config, start.position(), &mut bad, &mut also_bad);
//! let saved = SavedMatch { start, record, names: [Some("me".into()), None] };
//! let text = saved.to_json().unwrap();
//! assert_eq!(SavedMatch::from_json(&text).unwrap(), saved);
//! ```

use super::error::OnitamaError;
use super::game::Game;
use super::referee::{Answer, EndReason, GameResult, MatchRecord, judge};
use super::square::Player;
use crate::common::json::Json;

/// A refereed game with the names of its two sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedMatch {
    /// The game it started from (setup, card drawings, start position).
    pub start: Game,
    /// How it went.
    pub record: MatchRecord,
    /// Who played A and B, where known.
    pub names: [Option<String>; 2],
}

fn text_or_null(s: Option<String>) -> Json {
    s.map_or(Json::Null, Json::Str)
}

fn letter(p: Player) -> String {
    p.to_string()
}

impl SavedMatch {
    /// The saved text: [`Game::to_json`] of the game as played, plus `a`, `b` (names or
    /// null), `result` (`A won`, `B won`, `tie`, `interrupted`), `winner`, `reason`
    /// ([`EndReason::name`]), `detail`, `failed` (the side whose AI failed), `plies` and
    /// `answer` (the rejected `[card, from, to, wall]` of an invalid move, else null).
    /// Errors: actions that do not replay from the start (a record not of this game).
    pub fn to_json(&self) -> Result<String, OnitamaError> {
        let game = self.start.replayed(&self.record.actions)?;
        let Ok(Json::Object(mut fields)) = Json::parse(&game.to_json()) else {
            return Err(OnitamaError::BadNotation(
                "the game's JSON is not an object".into(),
            ));
        };
        let rec = &self.record;
        let answer = match &rec.reason {
            EndReason::InvalidAnswer {
                answer:
                    Answer::Move {
                        card,
                        from,
                        to,
                        wall,
                    },
                ..
            } => Json::Array(vec![
                Json::Number(card.to_string()),
                Json::Str(from.clone()),
                Json::Str(to.clone()),
                Json::Str(wall.clone()),
            ]),
            _ => Json::Null,
        };
        let [a, b] = self.names.clone();
        fields.extend([
            ("a".into(), text_or_null(a)),
            ("b".into(), text_or_null(b)),
            ("result".into(), Json::Str(rec.result_text())),
            ("winner".into(), text_or_null(rec.winner().map(letter))),
            ("reason".into(), Json::Str(rec.reason.name().into())),
            ("detail".into(), Json::Str(rec.reason.detail())),
            (
                "failed".into(),
                text_or_null(rec.reason.failed_by().map(letter)),
            ),
            ("plies".into(), Json::Number(rec.plies.to_string())),
            ("answer".into(), answer),
        ]);
        Ok(Json::Object(fields).dump())
    }

    /// A saved game read back: the actions are replayed (and checked) from the start, and a
    /// rejected answer is judged again in the final position. Errors: text that is not such
    /// a save ([`OnitamaError::BadNotation`] naming what is wrong), or an illegal action.
    pub fn from_json(text: &str) -> Result<SavedMatch, OnitamaError> {
        let bad = |what: &str| OnitamaError::BadNotation(format!("not a saved match: {what}"));
        let value = Json::parse(text)
            .map_err(|e| OnitamaError::BadNotation(format!("the text is not JSON ({e})")))?;
        let played = Game::from_json_value(&value)?;
        let string = |name: &str| -> Result<Option<String>, OnitamaError> {
            match value.get(name) {
                None | Some(Json::Null) => Ok(None),
                Some(v) => v
                    .as_str()
                    .map(|s| Some(s.to_owned()))
                    .ok_or_else(|| bad(&format!("'{name}' is not a string"))),
            }
        };
        let player = |name: &str| -> Result<Option<Player>, OnitamaError> {
            match string(name)? {
                None => Ok(None),
                Some(t) => t
                    .parse::<char>()
                    .ok()
                    .and_then(Player::from_letter)
                    .map(Some)
                    .ok_or_else(|| bad(&format!("'{name}' is not 'A' or 'B'"))),
            }
        };
        let actions: Vec<_> = played.actions().collect();
        let mut start = played.clone();
        while start.undo().is_ok() {}
        let end = *played.position();
        let reason_name = string("reason")?.ok_or_else(|| bad("it has no 'reason'"))?;
        let detail = string("detail")?.unwrap_or_default();
        let failed = || player("failed")?.ok_or_else(|| bad("no side failed"));
        let answer = match value.get("answer") {
            None | Some(Json::Null) => None,
            Some(v) => {
                let items = v.as_array().unwrap_or_default();
                match items {
                    [card, from, to, wall] => Some(Answer::new(
                        card.as_i64().ok_or_else(|| bad("the answer's card"))?,
                        from.as_str().ok_or_else(|| bad("the answer's start"))?,
                        to.as_str().ok_or_else(|| bad("the answer's target"))?,
                        wall.as_str().ok_or_else(|| bad("the answer's wall"))?,
                    )),
                    _ => return Err(bad("'answer' is not [card, from, to, wall]")),
                }
            }
        };
        let reason = match (reason_name.as_str(), answer) {
            ("base_reached", _) => EndReason::Base,
            ("general_captured", _) => EndReason::Capture,
            ("ply_limit", _) => EndReason::PlyLimit,
            ("interrupted", _) => EndReason::Interrupted,
            ("programming_error", _) => EndReason::Error {
                by: failed()?,
                message: detail,
            },
            ("timeout", _) => EndReason::Timeout {
                by: failed()?,
                message: detail,
            },
            ("invalid_move", None) => EndReason::Malformed {
                by: failed()?,
                message: detail,
            },
            ("invalid_move", Some(answer)) => {
                let Answer::Move {
                    card,
                    from,
                    to,
                    wall,
                } = &answer
                else {
                    return Err(bad("the answer is not a move"));
                };
                let reason = match judge(&end, *card, from, to, wall) {
                    Err(reason) => reason,
                    Ok(_) => return Err(bad("the rejected answer is valid")),
                };
                EndReason::InvalidAnswer {
                    by: failed()?,
                    answer,
                    reason,
                }
            }
            _ => return Err(bad(&format!("unknown reason '{reason_name}'"))),
        };
        let result = match player("winner")? {
            Some(p) => GameResult::Won(p),
            None => GameResult::Tie,
        };
        let plies = value
            .get("plies")
            .and_then(Json::as_u64)
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| bad("'plies' is not a count"))?;
        let record = MatchRecord {
            start: *start.position(),
            actions,
            end,
            plies,
            result,
            reason,
        };
        Ok(SavedMatch {
            start,
            record,
            names: [string("a")?, string("b")?],
        })
    }
}
