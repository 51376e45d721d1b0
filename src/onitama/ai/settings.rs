//! [`AiSettings`]: what a front end says about a built-in AI, with the one set of defaults
//! (`BuiltinAI()`, `Onitama.best_move()`, `Onitama.analyse()`, `builtin_ai()`).

use std::fmt;

use super::{Ai, Limits};
use crate::onitama::error::OnitamaError;

/// A built-in AI's settings: its level, its budget a move (seconds, or nodes; a depth
/// cap), its seed and the threads its search runs on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AiSettings {
    /// 0 (random), 1 (the coursework baseline) or 2 (search).
    pub level: u8,
    /// Seconds a move of the search (`None`: no time limit); not used under a node budget.
    pub time: Option<f64>,
    /// The seed of every random choice.
    pub seed: u64,
    /// A node budget a move (deterministic), instead of the time.
    pub nodes: Option<u64>,
    /// A depth cap.
    pub depth: Option<u32>,
    /// The threads a search runs on (1 to [`AiSettings::MAX_THREADS`]; more than 1 is not
    /// deterministic, even under a node budget: see [`Ai::set_threads`]).
    pub threads: usize,
}

impl AiSettings {
    /// The longest time a move (and a refereed match's time budget an answer): a day.
    pub const MAX_SECONDS: f64 = 86_400.0;

    /// The largest node budget.
    pub const MAX_NODES: u64 = i64::MAX as u64;

    /// The deepest depth cap.
    pub const MAX_DEPTH: u32 = 1000;

    /// The most threads of a search (and of an endgame table's build).
    pub const MAX_THREADS: usize = 64;

    /// The settings when none are said: the search, one second a move, seed 0, one thread.
    pub const DEFAULT: AiSettings = AiSettings {
        level: 2,
        time: Some(1.0),
        seed: 0,
        nodes: None,
        depth: None,
        threads: 1,
    };

    /// The level named `name` (`random`, `baseline`, `search`).
    pub fn level_of(name: &str) -> Result<u8, OnitamaError> {
        super::level_of_name(name).ok_or_else(|| Self::level_error(format!("level '{name}'")))
    }

    /// The error of a level that does not exist (`what` says which), listing the levels.
    pub fn level_error(what: String) -> OnitamaError {
        let levels: Vec<String> = (super::LEVEL_NAMES.iter().enumerate())
            .map(|(n, name)| format!("{n} ({name})"))
            .collect();
        let (last, rest) = levels.split_last().expect("three levels");
        OnitamaError::BadAi(format!(
            "{what}: the levels are {} and {last}, by number or name",
            rest.join(", ")
        ))
    }

    /// The search's limits a move.
    pub fn limits(&self) -> Limits {
        Limits::budget(self.time, self.nodes, self.depth)
    }

    /// The AI (an [`OnitamaError::BadAi`] for a level that does not exist, or threads out
    /// of range).
    pub fn ai(&self) -> Result<Ai, OnitamaError> {
        let mut ai = Ai::new(self.level, self.seed, self.limits())?;
        ai.set_threads(self.threads)?;
        Ok(ai)
    }

    /// The time a move that limits the AI: `None` when it does not search or searches
    /// under a node budget.
    pub fn time_used(&self) -> Option<f64> {
        self.time
            .filter(|_| self.level >= 2 && self.nodes.is_none())
    }
}

impl Default for AiSettings {
    fn default() -> AiSettings {
        AiSettings::DEFAULT
    }
}

/// The settings that matter, as keyword arguments: `level=2, time=1, seed=0` (a level
/// below 2 shows no budget nor threads; a node budget shows no time; one thread is not
/// shown).
impl fmt::Display for AiSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level={}", self.level)?;
        if self.level >= 2 {
            match (self.nodes, self.time) {
                (Some(n), _) => write!(f, ", nodes={n}")?,
                (None, Some(t)) => write!(f, ", time={t}")?,
                (None, None) => f.write_str(", time=None")?,
            }
            if let Some(d) = self.depth {
                write!(f, ", depth={d}")?;
            }
            if self.threads != 1 {
                write!(f, ", threads={}", self.threads)?;
            }
        }
        write!(f, ", seed={}", self.seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_show_what_limits_the_ai() {
        let shown = |s: AiSettings| s.to_string();
        assert_eq!(shown(AiSettings::DEFAULT), "level=2, time=1, seed=0");
        let nodes = AiSettings {
            nodes: Some(5),
            depth: Some(3),
            ..AiSettings::DEFAULT
        };
        assert_eq!(shown(nodes), "level=2, nodes=5, depth=3, seed=0");
        let threads = AiSettings {
            threads: 2,
            ..AiSettings::DEFAULT
        };
        assert_eq!(shown(threads), "level=2, time=1, threads=2, seed=0");
        assert_eq!(threads.ai().unwrap().threads(), 2);
        assert_eq!(nodes.time_used(), None);
        let random = AiSettings {
            level: 0,
            seed: 7,
            ..AiSettings::DEFAULT
        };
        assert_eq!(shown(random), "level=0, seed=7");
        let random_threads = AiSettings {
            threads: 2,
            ..random
        };
        assert_eq!(shown(random_threads), "level=0, seed=7");
        assert_eq!(random.time_used(), None);
        assert_eq!(AiSettings::default().time_used(), Some(1.0));
        assert!(
            AiSettings {
                level: 3,
                ..AiSettings::DEFAULT
            }
            .ai()
            .is_err()
        );
        for threads in [0, AiSettings::MAX_THREADS + 1] {
            let s = AiSettings {
                threads,
                ..AiSettings::DEFAULT
            };
            assert!(s.ai().is_err(), "{threads} threads");
        }
    }
}
