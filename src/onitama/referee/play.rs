//! Refereeing whole games between two AI functions: each ply the mover's function is asked
//! for an answer, the answer is judged, and the first failure (an invalid answer, an
//! error, a malformed answer, a slow answer) loses at once.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use super::{Answer, InvalidAnswer, judge};
use crate::onitama::position::{Position, Status, WinKind};
use crate::onitama::square::Player;

/// How a match is refereed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchConfig {
    /// Replaces the start position's ply limit.
    pub max_plies: Option<u16>,
    /// An answer slower than this loses the game (`None`: no limit).
    pub time_budget: Option<Duration>,
}

impl MatchConfig {
    /// How long a built-in AI may search: 4/5 of the time budget, so that it stays inside.
    pub fn search_cap(&self) -> Option<Duration> {
        self.time_budget.map(|b| b.mul_f64(0.8))
    }
}

/// Why an AI function gave no answer to judge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AiFailure {
    /// It raised an error (a programming error): its message.
    Raised(String),
    /// It returned something that is not an answer (a wrong type): why.
    Malformed(String),
    /// The match was stopped from outside (Ctrl-C): it is not the mover's failure.
    Interrupted,
}

impl AiFailure {
    /// The failure of an AI that returned something that is not an answer (`shown`: how
    /// the caller shows it).
    pub fn not_an_answer(shown: &str) -> AiFailure {
        let answer = "a tuple (card: int, move_from: str, move_to: str, wall_dir: str)";
        AiFailure::Malformed(format!("the AI returned {shown}, not {answer}"))
    }
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// This player won.
    Won(Player),
    /// Nobody won within the ply limit (or the match was interrupted).
    Tie,
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The winner's general reached the opponent's base.
    Base,
    /// The winner captured the opponent's general.
    Capture,
    /// The loser's AI gave an invalid answer.
    InvalidAnswer {
        /// Who answered.
        by: Player,
        /// The answer as given.
        answer: Answer,
        /// Why it is invalid.
        reason: InvalidAnswer,
    },
    /// The loser's AI raised an error (returned [`Answer::Error`] or
    /// [`AiFailure::Raised`], or panicked).
    Error {
        /// Whose AI.
        by: Player,
        /// The error message.
        message: String,
    },
    /// The loser's AI returned something that is not an answer ([`AiFailure::Malformed`]).
    Malformed {
        /// Whose AI.
        by: Player,
        /// What was wrong with it.
        message: String,
    },
    /// The loser's AI took longer than the time budget.
    Timeout {
        /// Whose AI.
        by: Player,
        /// The time taken and the budget, in words.
        message: String,
    },
    /// No plies left: a tie.
    PlyLimit,
    /// The match was stopped from outside ([`AiFailure::Interrupted`]): unfinished.
    Interrupted,
}

impl EndReason {
    /// The reason's name: `base_reached`, `general_captured`, `ply_limit`, `invalid_move`
    /// (an invalid or malformed answer), `programming_error`, `timeout` or `interrupted`.
    pub fn name(&self) -> &'static str {
        match self {
            EndReason::Base => "base_reached",
            EndReason::Capture => "general_captured",
            EndReason::PlyLimit => "ply_limit",
            EndReason::InvalidAnswer { .. } | EndReason::Malformed { .. } => "invalid_move",
            EndReason::Error { .. } => "programming_error",
            EndReason::Timeout { .. } => "timeout",
            EndReason::Interrupted => "interrupted",
        }
    }

    /// The player whose AI failed, if one did.
    pub fn failed_by(&self) -> Option<Player> {
        match self {
            EndReason::InvalidAnswer { by, .. }
            | EndReason::Error { by, .. }
            | EndReason::Malformed { by, .. }
            | EndReason::Timeout { by, .. } => Some(*by),
            _ => None,
        }
    }

    /// What went wrong: the referee's reason, the error, the malformed answer or the time
    /// taken; `the match was interrupted`; empty for a game played to its end.
    pub fn detail(&self) -> String {
        match self {
            EndReason::InvalidAnswer { reason, .. } => reason.to_string(),
            EndReason::Error { message, .. }
            | EndReason::Malformed { message, .. }
            | EndReason::Timeout { message, .. } => message.clone(),
            EndReason::Interrupted => "the match was interrupted".to_owned(),
            EndReason::Base | EndReason::Capture | EndReason::PlyLimit => String::new(),
        }
    }
}

/// Everything about one refereed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRecord {
    /// The position the game started from.
    pub start: Position,
    /// Every accepted action, in order.
    pub actions: Vec<crate::onitama::action::Action>,
    /// The position at the end (after the winning move, if any).
    pub end: Position,
    /// Plies started: every ply whose mover was asked, including a final winning, invalid
    /// or failing one (so `actions.len()`, plus one for an invalid answer or an error; an
    /// interrupted ply is not counted).
    pub plies: u32,
    /// Who won, or a tie.
    pub result: GameResult,
    /// How the game ended.
    pub reason: EndReason,
}

/// The former name of [`MatchRecord`] (Ludo's game with its history is
/// [`crate::ludo::GameRecord`]).
#[deprecated(note = "renamed MatchRecord (one `GameRecord` per meaning)")]
pub type GameRecord = MatchRecord;

impl MatchRecord {
    /// The winner (`None` for a tie).
    pub fn winner(&self) -> Option<Player> {
        match self.result {
            GameResult::Won(p) => Some(p),
            GameResult::Tie => None,
        }
    }

    /// The result in words: `A won`, `B won`, `tie`, or `interrupted` (unfinished).
    pub fn result_text(&self) -> String {
        match (self.winner(), &self.reason) {
            (_, EndReason::Interrupted) => self.reason.name().to_owned(),
            (Some(p), _) => format!("{p} won"),
            (None, _) => "tie".to_owned(),
        }
    }

    /// The tournament's points of `player`: 2 a win, 1 a tie, 0 a loss (0 each for an
    /// interrupted match).
    pub fn points(&self, player: Player) -> u32 {
        match self.winner() {
            None if self.reason == EndReason::Interrupted => 0,
            None => 1,
            Some(w) if w == player => 2,
            Some(_) => 0,
        }
    }

    /// The record in one line, e.g. `setup='case21', winner='A', reason='base_reached',
    /// plies=13` (`None` for no setup, or no winner), `setup` being the setup played.
    pub fn summary(&self, setup: Option<&str>) -> String {
        let quoted = |s: Option<String>| s.map_or("None".into(), |s| format!("'{s}'"));
        let (setup, winner) = (
            quoted(setup.map(str::to_owned)),
            quoted(self.winner().map(|p| p.to_string())),
        );
        let (reason, plies) = (self.reason.name(), self.plies);
        format!("setup={setup}, winner={winner}, reason='{reason}', plies={plies}")
    }

    /// Every position of the game: the start, then the one after each accepted action.
    pub fn positions(&self) -> Vec<Position> {
        let mut pos = self.start;
        let mut out = vec![pos];
        for &a in &self.actions {
            pos.make_unchecked(a);
            out.push(pos);
        }
        out
    }
}

/// Referee a game from `start` between two AI functions, as the tournament referee does:
/// each ply the mover's function is called with the position (whose
/// [`plies_left`](Position::plies_left) is the `turn` argument); an invalid answer or an
/// error (an [`Answer::Error`], or a panic inside the function) loses at once; a winning
/// move wins; the game is a tie when the plies run out. No ply limit or time budget
/// beyond the position's (see [`play_refereed`]).
pub fn play_match<FA, FB>(start: &Position, mut player_a: FA, mut player_b: FB) -> MatchRecord
where
    FA: FnMut(&Position) -> Answer,
    FB: FnMut(&Position) -> Answer,
{
    play_refereed(
        &MatchConfig::default(),
        start,
        |p: &Position| Ok(player_a(p)),
        |p: &Position| Ok(player_b(p)),
    )
}

/// Referee a game as [`play_match`] does, under `config` (its ply limit replaces the
/// start's; an answer slower than its time budget loses), with AI functions that may
/// fail ([`AiFailure`]): a raised error or a malformed answer loses, an interruption
/// stops the game unfinished ([`EndReason::Interrupted`]). The referee times each answer.
pub fn play_refereed<FA, FB>(
    config: &MatchConfig,
    start: &Position,
    mut player_a: FA,
    mut player_b: FB,
) -> MatchRecord
where
    FA: FnMut(&Position) -> Result<Answer, AiFailure>,
    FB: FnMut(&Position) -> Result<Answer, AiFailure>,
{
    let start = config
        .max_plies
        .map_or(*start, |n| start.with_plies_left(n));
    let mut pos = start;
    let mut actions = Vec::new();
    let mut plies = 0u32;
    let (result, reason) = loop {
        match pos.status() {
            Status::Won { winner, by } => {
                let reason = match by {
                    WinKind::Base => EndReason::Base,
                    WinKind::Capture => EndReason::Capture,
                };
                break (GameResult::Won(winner), reason);
            }
            Status::Tie => break (GameResult::Tie, EndReason::PlyLimit),
            Status::Ongoing => {}
        }
        let me = pos.side();
        plies += 1;
        let t0 = Instant::now();
        let called = catch_unwind(AssertUnwindSafe(|| match me {
            Player::A => player_a(&pos),
            Player::B => player_b(&pos),
        }));
        let took = t0.elapsed();
        let (card, from, to, wall) = match called {
            Ok(Err(AiFailure::Interrupted)) => {
                plies -= 1;
                break (GameResult::Tie, EndReason::Interrupted);
            }
            _ if config.time_budget.is_some_and(|b| took > b) => {
                let budget = config.time_budget.unwrap_or_default();
                let message = format!(
                    "the AI took {:.3} s, more than the time budget of {:.3} s",
                    took.as_secs_f64(),
                    budget.as_secs_f64()
                );
                break (
                    GameResult::Won(me.other()),
                    EndReason::Timeout { by: me, message },
                );
            }
            Ok(Ok(Answer::Move {
                card,
                from,
                to,
                wall,
            })) => (card, from, to, wall),
            Ok(Ok(Answer::Error(message)) | Err(AiFailure::Raised(message))) => {
                break (
                    GameResult::Won(me.other()),
                    EndReason::Error { by: me, message },
                );
            }
            Ok(Err(AiFailure::Malformed(message))) => {
                break (
                    GameResult::Won(me.other()),
                    EndReason::Malformed { by: me, message },
                );
            }
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "the AI panicked".to_owned());
                break (
                    GameResult::Won(me.other()),
                    EndReason::Error { by: me, message },
                );
            }
        };
        match judge(&pos, card, &from, &to, &wall) {
            Ok(action) => {
                pos.play(action)
                    .expect("an accepted answer is a legal action");
                actions.push(action);
            }
            Err(reason) => {
                break (
                    GameResult::Won(me.other()),
                    EndReason::InvalidAnswer {
                        by: me,
                        answer: Answer::new(card, from, to, wall),
                        reason,
                    },
                );
            }
        }
    };
    MatchRecord {
        start,
        actions,
        end: pos,
        plies,
        result,
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_sums_itself_up_in_one_line() {
        let start = crate::onitama::find_setup("21").unwrap().position(None);
        let pass = |_: &Position| Answer::Error("no".into());
        let record = play_match(&start, pass, pass);
        assert_eq!(
            record.summary(Some("case21")),
            "setup='case21', winner='B', reason='programming_error', plies=1"
        );
        assert!(record.summary(None).starts_with("setup=None, winner='B'"));
    }

    #[test]
    fn a_non_answer_is_a_malformed_failure_saying_what_an_answer_is() {
        let AiFailure::Malformed(text) = AiFailure::not_an_answer("int (3)") else {
            panic!("not malformed")
        };
        assert_eq!(
            text,
            "the AI returned int (3), not a tuple (card: int, move_from: str, move_to: str, \
             wall_dir: str)"
        );
    }
}
