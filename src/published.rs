//! The defaults, limits and tables the engines publish to their callers, by name: the
//! Python package reads them as constants of `LudoGame._core` (`MAX_ROLLS`, `SIM_BOT`,
//! `ONITAMA_AI_SETTINGS`, ...), so that each has its one home in the engine and the
//! binding only converts [`Value`]s.

pub use crate::common::value::Value;
use crate::ludo::{bots, cs162, env, play, sim};
use crate::onitama::{AiSettings, CardSet, coursework, setups};

/// A tuple of `items`, each converted.
fn tuple<T: Into<Value>>(items: impl IntoIterator<Item = T>) -> Value {
    Value::Tuple(items.into_iter().map(Into::into).collect())
}

/// Every published value, by the name the Python package knows it by.
pub fn values() -> Vec<(&'static str, Value)> {
    let ai = AiSettings::DEFAULT;
    let decisions =
        cs162::DECISIONS.map(|d| tuple::<Value>([d.id.into(), d.summary.into(), d.open.into()]));
    let priority = cs162::PRIORITY_RULES.map(|(a, b)| tuple([a, b]));
    let readings = (cs162::READING_OPTIONS.iter())
        .flat_map(|o| {
            o.values
                .iter()
                .map(|v| tuple([o.decision, o.name, v.name, v.text, v.ruled_out_by]))
        })
        .collect::<Vec<_>>();
    let texts = coursework::texts();
    vec![
        ("MAX_ROLLS", u64::from(play::MAX_ROLLS).into()),
        ("ENV_PLAYERS", (env::DEFAULT_PLAYERS as u64).into()),
        (
            "ENV_TABLE_PLAYERS",
            (env::DEFAULT_TABLE_PLAYERS as u64).into(),
        ),
        ("ENV_MAX_ROLLS", env::DEFAULT_MAX_ROLLS.into()),
        ("CS162_DECISIONS", tuple(decisions)),
        ("CS162_PRIORITY_RULES", tuple(priority)),
        ("CS162_READINGS", tuple(readings)),
        ("SIM_COUNT", sim::DEFAULT_COUNT.into()),
        ("SIM_THREADS", (sim::DEFAULT_THREADS as u64).into()),
        ("SIM_BOT", sim::DEFAULT_BOT.into()),
        ("SIM_SEED", sim::DEFAULT_SEED.into()),
        ("BEST_MOVE_BOT", bots::BEST_MOVE_BOT.into()),
        ("ENV_OPPONENT", env::DEFAULT_OPPONENT.to_string().into()),
        ("ENV_THREADS", (env::DEFAULT_THREADS as u64).into()),
        ("ENV_AUTORESET", env::Autoreset::default().name().into()),
        (
            "ONITAMA_AI_SETTINGS",
            Value::Dict(vec![
                ("level", u64::from(ai.level).into()),
                ("time", ai.time.into()),
                ("seed", ai.seed.into()),
                ("nodes", ai.nodes.into()),
                ("depth", ai.depth.map(u64::from).into()),
                ("threads", (ai.threads as u64).into()),
            ]),
        ),
        ("ONITAMA_MATCH_SETUP", setups::MATCH_SETUP.into()),
        (
            "ONITAMA_DEFAULT_PLIES",
            u64::from(setups::DEFAULT_PLIES).into(),
        ),
        (
            "ONITAMA_TEXTS",
            Value::Dict(texts.into_iter().map(|(k, v)| (k, v.into())).collect()),
        ),
        ("ONITAMA_CARD_SETS", tuple(CardSet::NAMES)),
        ("RL_INSTALL", crate::common::RL_INSTALL.into()),
        ("__version__", env!("CARGO_PKG_VERSION").into()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(name: &str) -> Value {
        let all = values();
        all.into_iter().find(|(n, _)| *n == name).unwrap().1
    }

    #[test]
    fn every_name_is_published_once() {
        let mut names: Vec<_> = values().into_iter().map(|(n, _)| n).collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count);
    }

    #[test]
    fn the_values_are_the_engines_constants() {
        assert_eq!(get("SIM_BOT"), Value::Text(sim::DEFAULT_BOT.into()));
        assert_eq!(get("MAX_ROLLS"), Value::Int(u64::from(play::MAX_ROLLS)));
        let Value::Dict(ai) = get("ONITAMA_AI_SETTINGS") else {
            panic!("not a dict")
        };
        assert_eq!(ai[1], ("time", Value::Float(1.0)));
        assert_eq!(ai[3], ("nodes", Value::None));
        let Value::Tuple(decisions) = get("CS162_DECISIONS") else {
            panic!("not a tuple")
        };
        assert_eq!(decisions.len(), cs162::DECISIONS.len());
        assert_eq!(
            decisions[0],
            tuple::<Value>([
                cs162::DECISIONS[0].id.into(),
                cs162::DECISIONS[0].summary.into(),
                cs162::DECISIONS[0].open.into()
            ])
        );
    }
}
