//! The CS162 decisions (D1–D13 of docs/rules.md) as data, the readings of the open ones
//! that the engine can play, and the decision tags of a turn.
//!
//! The engine reads every decision one way ([`Readings::ENGINE`], what `LudoGame()` plays and
//! what the course's published cases expect). Where the assignment leaves a decision open,
//! other readings are allowed too: a [`Readings`] value names one reading per option, and a
//! game played with it answers as a solution that reads the decision that way would. Every
//! reading listed here agrees with every published case (`python_tests/test_decisions.py`),
//! so a student's answers that equal the engine's under one of them follow an allowed
//! reading, and `ludo check` reports them as such rather than as mistakes.

use std::fmt;

use super::super::error::LudoError;

/// One of the decisions D1–D13: its number, what it decides, and whether the assignment text
/// leaves part of it open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// `"D1"` … `"D13"`.
    pub id: &'static str,
    /// What it decides, in one line.
    pub summary: &'static str,
    /// Whether the assignment leaves part of it open (the engine's reading is a documented
    /// choice, not the only one).
    pub open: bool,
}

const fn decision(id: &'static str, summary: &'static str, open: bool) -> Decision {
    Decision { id, summary, open }
}

/// The decisions, in order (docs/rules.md has the full text of each).
pub const DECISIONS: [Decision; 13] = [
    decision(
        "D1",
        "step counts and space names: -1 H, 0 R, 1-50 the track, 51-56 <pos>1-<pos>6, 57 E",
        false,
    ),
    decision(
        "D2",
        "get_player_by_position: the live Player, else 'Player not found!'",
        false,
    ),
    decision(
        "D3",
        "play_game's answer: the space of p then q of each position, in players order",
        false,
    ),
    decision(
        "D4",
        "a token leaves the yard only on a 6, onto R; the 6 is used up",
        false,
    ),
    decision(
        "D5",
        "from R a roll r gives step r; a move past E bounces back; a finished token stays",
        false,
    ),
    decision(
        "D6",
        "R is off the track: never kicked, never stacked, blocks nothing",
        true,
    ),
    decision(
        "D7",
        "kicking: only the landing space, start spaces ordinary, a stack goes home as two tokens",
        true,
    ),
    decision(
        "D8",
        "stacking: two tokens on one space move together, also in the home squares",
        true,
    ),
    decision(
        "D9",
        "which token moves: the priority rules 1-4, p on a tie",
        false,
    ),
    decision(
        "D10",
        "turns in list order, no bonus check; a finished player's turns are ignored",
        true,
    ),
    decision("D11", "every play_game call starts a fresh game", true),
    decision(
        "D12",
        "move_token moves the named token as a turn would",
        true,
    ),
    decision("D13", "invalid arguments raise a clear error", true),
];

/// The priority rules of D9, in the order they apply (`"D9.1"` … `"D9.4"`).
pub const PRIORITY_RULES: [(&str, &str); 4] = [
    (
        "D9.1",
        "rule 1: a 6 with a token in the yard brings it out (p if both)",
    ),
    (
        "D9.2",
        "rule 2: a token on the home squares that reaches E exactly moves",
    ),
    (
        "D9.3",
        "rule 3: a token whose move kicks an opponent moves (p if both)",
    ),
    (
        "D9.4",
        "rule 4: the token with the lower step count moves (R counts as 0), p on a tie",
    ),
];

/// One value of a [`ReadingOption`]: its name, what it means, and the course's published
/// cases that rule it out (empty for an allowed reading).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadingValue {
    /// The value's name (`"one"` …).
    pub name: &'static str,
    /// What a game played with it does differently.
    pub text: &'static str,
    /// The published cases (of `python_tests/data/known_cases.json`) whose expected answers
    /// the engine does not give under this reading, comma-separated: such a reading is not
    /// one the course allows. Empty for the engine's reading and the allowed ones.
    pub ruled_out_by: &'static str,
}

const fn value(name: &'static str, text: &'static str, ruled_out_by: &'static str) -> ReadingValue {
    ReadingValue {
        name,
        text,
        ruled_out_by,
    }
}

/// One option of [`Readings`]: the decision it reads, its name, and its values (the first
/// is the engine's own reading).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadingOption {
    /// The decision it reads (`"D6"` …).
    pub decision: &'static str,
    /// The option's name (`"kick"` …), as `LudoGame(kick="one")` takes it.
    pub name: &'static str,
    /// Every value; the first is the engine's reading.
    pub values: &'static [ReadingValue],
}

/// Index of each option in [`READING_OPTIONS`] (and in a [`Readings`] value).
const READY: usize = 0;
const KICK: usize = 1;
const STACKING: usize = 2;
const END: usize = 3;
const GAMES: usize = 4;
const MOVE_STACK: usize = 5;
const MOVE_FROM_YARD: usize = 6;
const OPTIONS: usize = 7;

/// Every option of the open decisions and its values.
pub const READING_OPTIONS: [ReadingOption; OPTIONS] = [
    ReadingOption {
        decision: "D6",
        name: "ready",
        values: &[
            value(
                "off_track",
                "R is off the track: a token there is never kicked or stacked",
                "",
            ),
            value(
                "stack",
                "two tokens on R form a stack and move together",
                "grader_kick_rule3",
            ),
            value(
                "start_space",
                "R is on the start space: an opponent landing there kicks the tokens on R, \
                 and a token coming out onto R kicks the opponents standing there",
                "",
            ),
        ],
    },
    ReadingOption {
        decision: "D7",
        name: "kick",
        values: &[
            value(
                "all",
                "every opponent token on the landing space goes home, both tokens of a stack",
                "",
            ),
            value(
                "one",
                "a kick sends one token home (the first in the players' order, p before \
                 q): of a stack, p goes home and q stays",
                "instructor_case_6, grader_kick_rule3",
            ),
            value(
                "passed",
                "a move also kicks the opponents on the spaces it passes over",
                "spec_example",
            ),
            value(
                "start_safe",
                "nobody is kicked on a start space (1, 15, 29, 43)",
                "",
            ),
        ],
    },
    ReadingOption {
        decision: "D8",
        name: "stacking",
        values: &[
            value(
                "track_and_home",
                "two tokens on one track space or home square form a stack",
                "",
            ),
            value(
                "track",
                "only on the track: in the home squares the tokens move alone",
                "",
            ),
            value(
                "none",
                "never: every token moves alone",
                "spec_example, instructor_case_3, instructor_case_6",
            ),
        ],
    },
    ReadingOption {
        decision: "D10",
        name: "end",
        values: &[
            value(
                "full_ranking",
                "a finished player's turns are ignored and the others play on",
                "",
            ),
            value(
                "first_winner",
                "the game ends when a player finishes: every later turn is ignored",
                "instructor_case_5",
            ),
        ],
    },
    ReadingOption {
        decision: "D11",
        name: "games",
        values: &[
            value("fresh", "every play_game call starts a fresh game", ""),
            value(
                "continued",
                "a second play_game call on the same object keeps the tokens of the \
                 positions that played before",
                "",
            ),
        ],
    },
    ReadingOption {
        decision: "D12",
        name: "move_stack",
        values: &[
            value("together", "move_token moves the whole stack", ""),
            value(
                "token",
                "move_token moves only the named token of a stack",
                "",
            ),
        ],
    },
    ReadingOption {
        decision: "D12",
        name: "move_from_yard",
        values: &[
            value(
                "six",
                "move_token brings a yard token to R only with 6 steps",
                "",
            ),
            value(
                "any",
                "move_token brings a yard token to R whatever the steps",
                "",
            ),
        ],
    },
];

/// A reading of every open decision: for each option of [`READING_OPTIONS`], the index of
/// its value. The default is the engine's reading ([`Readings::ENGINE`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Readings([u8; OPTIONS]);

impl Readings {
    /// The engine's reading of every decision (what `LudoGame()` plays).
    pub const ENGINE: Readings = Readings([0; OPTIONS]);

    /// Is this the engine's reading of every decision?
    #[inline]
    pub fn is_engine(&self) -> bool {
        *self == Readings::ENGINE
    }

    /// Set option `name` to `value` (both as [`READING_OPTIONS`] writes them); an unknown
    /// option or value is an error naming what is allowed.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), LudoError> {
        let Some(k) = READING_OPTIONS.iter().position(|o| o.name == name) else {
            let names: Vec<&str> = READING_OPTIONS.iter().map(|o| o.name).collect();
            return Err(LudoError::InvalidRules(format!(
                "unknown CS162 reading '{}': expected one of {}",
                crate::common::excerpt::excerpt(name),
                names.join(", ")
            )));
        };
        let option = &READING_OPTIONS[k];
        let Some(v) = option.values.iter().position(|v| v.name == value) else {
            let values: Vec<String> = option
                .values
                .iter()
                .map(|v| format!("'{}'", v.name))
                .collect();
            return Err(LudoError::InvalidRules(format!(
                "the CS162 reading {name} must be one of {}, not '{}'",
                values.join(", "),
                crate::common::excerpt::excerpt(value)
            )));
        };
        self.0[k] = v as u8;
        Ok(())
    }

    /// Every option with its value, in [`READING_OPTIONS`] order.
    pub fn values(
        &self,
    ) -> impl Iterator<Item = (&'static ReadingOption, &'static ReadingValue)> + '_ {
        READING_OPTIONS
            .iter()
            .zip(self.0)
            .map(|(o, v)| (o, &o.values[v as usize]))
    }

    /// The options that differ from the engine's reading, with their values.
    pub fn changed(
        &self,
    ) -> impl Iterator<Item = (&'static ReadingOption, &'static ReadingValue)> + '_ {
        self.values()
            .zip(self.0)
            .filter(|&(_, v)| v != 0)
            .map(|(pair, _)| pair)
    }

    fn is(&self, option: usize, value: u8) -> bool {
        self.0[option] == value
    }

    /// D6: two tokens on R form a stack.
    pub(crate) fn ready_stacks(&self) -> bool {
        self.is(READY, 1)
    }

    /// D6: R is on the start space (kicked there, kicking when coming out).
    pub(crate) fn ready_on_start(&self) -> bool {
        self.is(READY, 2)
    }

    /// D7: a kick sends only one token of a stack home.
    pub(crate) fn kick_one(&self) -> bool {
        self.is(KICK, 1)
    }

    /// D7: a move kicks the opponents on the spaces it passes over too.
    pub(crate) fn kicks_passed(&self) -> bool {
        self.is(KICK, 2)
    }

    /// D7: nobody is kicked on a start space.
    pub(crate) fn start_safe(&self) -> bool {
        self.is(KICK, 3)
    }

    /// D8: can two tokens at `step` (1..=56) form a stack?
    pub(crate) fn stacks_at(&self, step: i8) -> bool {
        match self.0[STACKING] {
            0 => (1..=56).contains(&step),
            1 => (1..=50).contains(&step),
            _ => false,
        }
    }

    /// D10: the game ends with its first finished player.
    pub(crate) fn first_winner(&self) -> bool {
        self.is(END, 1)
    }

    /// D11: a second `play_game` on the same object continues the positions of the first.
    pub fn continues_games(&self) -> bool {
        self.is(GAMES, 1)
    }

    /// D12: `move_token` moves only the named token of a stack.
    pub(crate) fn move_token_alone(&self) -> bool {
        self.is(MOVE_STACK, 1)
    }

    /// D12: `move_token` brings a yard token to R whatever the steps.
    pub(crate) fn move_from_yard_any(&self) -> bool {
        self.is(MOVE_FROM_YARD, 1)
    }

    /// Do the moves of turns play by the engine's own rules (the fast path)? Readings of
    /// `play_game`'s later calls, completion and `move_token` do not change a move.
    pub(crate) fn moves_as_engine(&self) -> bool {
        self.is(READY, 0) && self.is(KICK, 0) && self.is(STACKING, 0)
    }
}

/// The decisions one turn touched (bit `n` for `Dn`), and which priority rule chose the
/// token when D9 made a choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tags {
    mask: u16,
    rule: u8,
}

impl Tags {
    /// Note decision `n` (4..=10).
    pub(crate) fn add(&mut self, n: u8) {
        self.mask |= 1 << n;
    }

    /// Note that priority rule `rule` (1..=4) chose the token (D9).
    pub(crate) fn chose(&mut self, rule: u8) {
        self.add(9);
        self.rule = rule;
    }

    /// Does the turn touch decision `n`?
    pub fn has(&self, n: u8) -> bool {
        self.mask & (1 << n) != 0
    }

    /// The priority rule (1..=4) that chose the token, if D9 made a choice.
    pub fn rule(&self) -> Option<u8> {
        (self.rule != 0).then_some(self.rule)
    }

    /// The decisions as text, in order: `"D4"`, `"D9.1"`, …
    pub fn names(&self) -> Vec<String> {
        (1..=13u8)
            .filter(|&n| self.has(n))
            .map(|n| match (n, self.rule()) {
                (9, Some(r)) => format!("D9.{r}"),
                _ => format!("D{n}"),
            })
            .collect()
    }
}

impl fmt::Display for Tags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.names().join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_are_set_by_name_and_listed() {
        let mut r = Readings::ENGINE;
        assert!(r.is_engine() && r.changed().count() == 0);
        r.set("kick", "one").unwrap();
        r.set("stacking", "none").unwrap();
        assert!(r.kick_one() && !r.stacks_at(3) && !r.moves_as_engine());
        let changed: Vec<(&str, &str)> = r.changed().map(|(o, v)| (o.name, v.name)).collect();
        assert_eq!(changed, [("kick", "one"), ("stacking", "none")]);
        assert_eq!(r.values().count(), READING_OPTIONS.len());
        let err = r.set("kick", "two").unwrap_err().to_string();
        assert!(
            err.contains("'all', 'one'") && err.contains("'two'"),
            "{err}"
        );
        assert!(
            READING_OPTIONS
                .iter()
                .all(|o| o.values[0].ruled_out_by.is_empty())
        );
        assert!(
            r.set("colour", "red")
                .unwrap_err()
                .to_string()
                .contains("ready")
        );
        r.set("kick", "all").unwrap();
        r.set("stacking", "track_and_home").unwrap();
        assert!(r.is_engine());
    }

    #[test]
    fn the_decisions_are_numbered_in_order() {
        for (k, d) in DECISIONS.iter().enumerate() {
            assert_eq!(d.id, format!("D{}", k + 1));
        }
        for o in READING_OPTIONS {
            let d = DECISIONS.iter().find(|d| d.id == o.decision).unwrap();
            assert!(d.open, "{} reads {}, which is not open", o.name, d.id);
            assert!(o.values.len() >= 2);
        }
    }

    #[test]
    fn tags_name_the_priority_rule() {
        let mut t = Tags::default();
        t.add(4);
        t.chose(1);
        assert_eq!(t.names(), ["D4", "D9.1"]);
        assert_eq!(t.to_string(), "D4 D9.1");
        assert_eq!(t.rule(), Some(1));
    }
}
