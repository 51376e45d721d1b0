//! A game's save format: JSON with the rules, start, moves and position as notation, and the
//! die's seed. Reading it replays the moves, so a saved game is checked like a played one.
//! A save may hide the die ([`SavedGame::to_json_hiding_die`]): no seed, the die's state
//! `-` in both positions and every roll a given value.

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
        self.json(true)
    }

    /// The JSON text of [`SavedGame::to_json`] without the die: the seed `null`, the die's
    /// state hidden (`-`) in `start` and `position`, and every roll a given value (`=6`).
    /// What players who must not know the coming rolls may download; it is read back with
    /// a die of the reader's ([`SavedGame::from_json_seeded`]).
    pub fn to_json_hiding_die(&self) -> String {
        self.json(false)
    }

    fn json(&self, die: bool) -> String {
        let (start, game) = (self.record.start(), self.record.game());
        let (seed, start, moves, position) = if die {
            (
                self.seed
                    .map_or(Json::Null, |s| Json::Number(s.to_string())),
                start.to_notation(),
                self.record.moves_text(),
                game.to_notation(),
            )
        } else {
            (
                Json::Null,
                start.to_notation_hiding_die(),
                self.record.moves_text_hiding_die(),
                game.to_notation_hiding_die(),
            )
        };
        Json::Object(vec![
            ("format".into(), Json::Str(JSON_FORMAT.into())),
            ("seed".into(), seed),
            ("start".into(), Json::Str(start)),
            ("moves".into(), Json::Str(moves)),
            ("position".into(), Json::Str(position)),
        ])
        .dump()
    }

    /// A game read from [`SavedGame::to_json`]'s text: the moves are replayed and checked.
    /// `format`, `start` and `moves` are required strings; `position`, when present, must be
    /// the position the moves reach; `seed`, when not null, must be the seed that gives the
    /// start position's die state. A save whose die is hidden is refused: see
    /// [`SavedGame::from_json_seeded`].
    pub fn from_json(text: &str) -> Result<SavedGame, LudoError> {
        SavedGame::from_json_seeded(text, DieSeed::Written)
    }

    /// A game read as [`SavedGame::from_json`] reads it, with its die from `die`. Where the
    /// save hides the die (`-` in `start`), its rolls must be given values and it has no
    /// seed. A die seeded by the caller (`DieSeed::Seed`, or `DieSeed::IfHidden` for a
    /// hidden die) plays on from the saved position, the saved rolls (checked against the
    /// saved die, if written) becoming given values; the seed is then the caller's.
    pub fn from_json_seeded(text: &str, die: DieSeed) -> Result<SavedGame, LudoError> {
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
        let (start, written) = Game::read_notation(&required("start")?)?;
        match (seed, written) {
            // A game made with a seed starts with the die in the state the seed gives.
            (Some(seed), Some(_)) if Rng::new(seed) != start.rng() => {
                return Err(invalid(format!(
                    "the JSON's seed {seed} does not match the start position's die state \
                     {:016x} (a game made with seed s starts with the die state s)",
                    start.rng().state()
                )));
            }
            (Some(_), None) => {
                return Err(invalid(
                    "the JSON has a seed, but its start position hides the die ('-')",
                ));
            }
            _ => {}
        }
        let moves = required("moves")?;
        if written.is_none()
            && let Some(word) = moves.split_whitespace().find(|w| w.parse::<u8>().is_ok())
        {
            return Err(invalid(format!(
                "a die roll '{}' in a game whose die is hidden ('-'): its rolls are given \
                 values ('={}')",
                excerpt(word),
                excerpt(word)
            )));
        }
        let record = GameRecord::replay(start, &moves)?;
        if let Some(position) = field("position")? {
            let reached = match written {
                Some(_) => record.game().to_notation(),
                None => record.game().to_notation_hiding_die(),
            };
            if position != reached {
                return Err(invalid(
                    "replaying the moves does not reach the JSON's position",
                ));
            }
        }
        match die.seed_for(written).map_err(invalid)? {
            None => Ok(SavedGame { record, seed }),
            Some(seed) => Ok(SavedGame {
                record: record.with_die(seed)?,
                seed: Some(seed),
            }),
        }
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
