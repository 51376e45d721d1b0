//! A game's save format: JSON with the rules, start, moves and position as notation, and the
//! die's seed. Reading it replays the moves, so a saved game is checked like a played one.

use super::*;
use crate::common::json::Json;

/// The `format` field of a saved game.
pub const JSON_FORMAT: &str = "ludogame-game/1";

/// A game as saved: its record and, for a game made with a seed, that seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGame {
    /// The game and its history.
    pub record: GameRecord,
    /// The seed the game was made with (`None` for a game read from a position).
    pub seed: Option<u64>,
}

fn invalid(what: impl Into<String>) -> LudoError {
    LudoError::InvalidNotation(what.into())
}

/// What kind of JSON value `v` is, for messages.
fn kind(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "a bool",
        Json::Number(_) => "a number",
        Json::Str(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

impl SavedGame {
    /// The JSON text: `{"format": ..., "seed": ..., "start": ..., "moves": ..., "position": ...}`.
    pub fn to_json(&self) -> String {
        Json::Object(vec![
            ("format".into(), Json::Str(JSON_FORMAT.into())),
            (
                "seed".into(),
                self.seed
                    .map_or(Json::Null, |s| Json::Number(s.to_string())),
            ),
            ("start".into(), Json::Str(self.record.start().to_notation())),
            ("moves".into(), Json::Str(self.record.moves_text())),
            (
                "position".into(),
                Json::Str(self.record.game().to_notation()),
            ),
        ])
        .dump()
    }

    /// A game read from [`SavedGame::to_json`]'s text: the moves are replayed and checked.
    /// `format`, `start` and `moves` are required strings; `position`, when present, must be
    /// the position the moves reach; `seed`, when not null, must be the seed that gives the
    /// start position's die state.
    pub fn from_json(text: &str) -> Result<SavedGame, LudoError> {
        let value =
            Json::parse(text).map_err(|e| invalid(format!("the text is not JSON ({e})")))?;
        if !matches!(value, Json::Object(_)) {
            return Err(invalid("a game's JSON must be an object"));
        }
        // A text field: missing (None) or a string; anything else is refused.
        let field = |name: &str| -> Result<Option<String>, LudoError> {
            match value.get(name) {
                None => Ok(None),
                Some(Json::Str(s)) => Ok(Some(s.clone())),
                Some(other) => Err(invalid(format!(
                    "the JSON's field '{name}' must be a string, not {}",
                    kind(other)
                ))),
            }
        };
        let required = |name: &str| -> Result<String, LudoError> {
            field(name)?.ok_or_else(|| invalid(format!("the JSON has no field '{name}'")))
        };
        if required("format")? != JSON_FORMAT {
            return Err(invalid(format!(
                "the JSON is not in format '{JSON_FORMAT}'"
            )));
        }
        let seed = match value.get("seed") {
            None | Some(Json::Null) => None,
            Some(Json::Bool(_)) => return Err(invalid("the JSON's seed is a bool, not an int")),
            Some(v) => Some(
                v.as_u64()
                    .ok_or_else(|| invalid("the JSON's seed is not an int from 0 to 2**64-1"))?,
            ),
        };
        let start = Game::from_notation(&required("start")?)?;
        // A game made with a seed starts with the die in the state the seed gives.
        if let Some(seed) = seed
            && Rng::new(seed) != start.rng()
        {
            return Err(invalid(format!(
                "the JSON's seed {seed} does not match the start position's die state \
                 {:016x} (a game made with seed s starts with the die state s)",
                start.rng().state()
            )));
        }
        let record = GameRecord::replay(start, &required("moves")?)?;
        if let Some(position) = field("position")?
            && position != record.game().to_notation()
        {
            return Err(invalid(
                "replaying the moves does not reach the JSON's position",
            ));
        }
        Ok(SavedGame { record, seed })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ludo::Rules;
    use crate::ludo::seat::seat_list;

    #[test]
    fn saved_games_round_trip_and_bad_fields_are_named() {
        let mut record =
            GameRecord::new(Game::new(Rules::GT, &seat_list(&[0, 1, 2, 3]), 7).unwrap());
        record.roll(Some(6)).unwrap();
        let mv = record.game().legal_moves().get(0).unwrap();
        record.play(mv).unwrap();
        let saved = SavedGame {
            record,
            seed: Some(7),
        };
        let text = saved.to_json();
        assert!(text.starts_with(r#"{"format": "ludogame-game/1", "seed": 7, "start": "#));
        assert_eq!(SavedGame::from_json(&text).unwrap(), saved);
        let big = SavedGame {
            seed: Some(u64::MAX),
            record: GameRecord::new(
                Game::new(Rules::CS162, &seat_list(&[0, 1]), u64::MAX).unwrap(),
            ),
        };
        assert_eq!(SavedGame::from_json(&big.to_json()).unwrap(), big);
        let bad = text.replace(r#""seed": 7"#, r#""seed": 7.0"#);
        assert!(SavedGame::from_json(&bad).is_err());
        let bad = text.replace(r#""moves": ""#, r#""moves": 3, "x": ""#);
        let err = SavedGame::from_json(&bad).unwrap_err().to_string();
        assert!(
            err.contains("'moves' must be a string, not a number"),
            "{err}"
        );
    }
}
