//! The referee's match configuration and AI failures: ply limit, time budget (timed by
//! the referee), malformed answers, raised errors and interruptions.

use std::time::Duration;

use ludogame::onitama::{
    AiFailure, Answer, EndReason, GameResult, MatchConfig, Player, Position, find_setup,
    play_refereed,
};

fn start() -> Position {
    find_setup("21").unwrap().position(None)
}

fn first(p: &Position) -> Result<Answer, AiFailure> {
    Ok(Answer::from(p.legal_actions().as_slice()[0]))
}

#[test]
fn max_plies_replaces_the_start_limit() {
    let config = MatchConfig {
        max_plies: Some(0),
        time_budget: None,
    };
    let r = play_refereed(&config, &start(), first, first);
    assert_eq!(
        (r.result, r.reason.clone(), r.plies),
        (GameResult::Tie, EndReason::PlyLimit, 0)
    );
    assert_eq!((r.points(Player::A), r.points(Player::B)), (1, 1));
}

#[test]
fn a_slow_answer_loses_on_time() {
    let config = MatchConfig {
        max_plies: None,
        time_budget: Some(Duration::from_millis(5)),
    };
    let slow = |p: &Position| {
        std::thread::sleep(Duration::from_millis(20));
        first(p)
    };
    let r = play_refereed(&config, &start(), slow, first);
    assert_eq!(r.result, GameResult::Won(Player::B));
    assert_eq!(r.reason.name(), "timeout");
    assert_eq!(r.reason.failed_by(), Some(Player::A));
    assert!(
        r.reason.detail().starts_with("the AI took "),
        "{}",
        r.reason.detail()
    );
    assert_eq!((r.points(Player::A), r.points(Player::B)), (0, 2));
}

#[test]
fn failures_lose_and_an_interruption_stops_unfinished() {
    let cfg = MatchConfig::default();
    let malformed = |_: &Position| Err(AiFailure::Malformed("not a tuple".into()));
    let r = play_refereed(&cfg, &start(), malformed, first);
    assert_eq!(
        r.reason,
        EndReason::Malformed {
            by: Player::A,
            message: "not a tuple".into()
        }
    );
    assert_eq!((r.reason.name(), r.plies), ("invalid_move", 1));
    let raised = |_: &Position| Err(AiFailure::Raised("boom".into()));
    let r = play_refereed(&cfg, &start(), first, raised);
    assert_eq!(
        (r.reason.name(), r.reason.detail()),
        ("programming_error", "boom".into())
    );
    assert_eq!(r.winner(), Some(Player::A));
    let stop = |_: &Position| Err(AiFailure::Interrupted);
    let r = play_refereed(&cfg, &start(), first, stop);
    assert_eq!(
        (r.reason.clone(), r.winner(), r.plies),
        (EndReason::Interrupted, None, 1)
    );
    assert_eq!(r.actions.len(), 1);
    assert_eq!((r.points(Player::A), r.points(Player::B)), (0, 0));
}

#[test]
fn typed_answers_are_judged_part_by_part() {
    use ludogame::onitama::{InvalidAnswer, judge_typed};
    let pos = start();
    assert_eq!(
        judge_typed(&pos, "01", None, None),
        Err(InvalidAnswer::BadCardText("01".into()))
    );
    assert_eq!(judge_typed(&pos, "2", None, None), Ok(None));
    assert!(matches!(
        judge_typed(&pos, "1", Some("XX"), None),
        Err(InvalidAnswer::StartNotOnBoard(_))
    ));
    let a = pos.legal_actions().as_slice()[0];
    let card = a.slot().number().to_string();
    let from = a.from().map(|s| s.to_string());
    let to = a.to().map(|s| s.to_string());
    assert_eq!(judge_typed(&pos, &card, from.as_deref(), None), Ok(None));
    let choice = judge_typed(&pos, &card, from.as_deref(), to.as_deref())
        .unwrap()
        .unwrap();
    assert_eq!((choice.slot(), choice.is_pass()), (a.slot(), false));
}
