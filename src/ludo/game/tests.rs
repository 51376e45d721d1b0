//! The game's tests.

use super::*;
use crate::ludo::seat::{seat_list, seat_no, token_no};

fn gt() -> Game {
    Game::new(Rules::GT, &seat_list(&[0, 1, 2, 3]), 7).unwrap()
}

/// Seat A's two token steps (CS162 games).
fn a_steps(g: &Game) -> (Step, Step) {
    (
        g.board().step(seat_no(0), token_no(0)),
        g.board().step(seat_no(0), token_no(1)),
    )
}

fn names(g: &Game) -> Vec<String> {
    g.legal_moves().iter().map(|m| g.move_name(&m)).collect()
}

/// GT seed: emptyGame, playerArolls6, playerAentersTokenA, playerAmovesTokenA.
#[test]
fn gt_seed_examples() {
    let mut g = gt();
    assert!(!g.is_over());
    assert_eq!(g.winner(), None);
    assert_eq!(g.current_player(), seat_no(0));
    assert_eq!(g.phase(), Phase::Roll);
    assert_eq!(g.status(), "Player A to roll the die.");

    g.roll(6).unwrap();
    assert_eq!(g.current_player(), seat_no(0));
    assert_eq!(g.phase(), Phase::Move(6));
    assert_eq!(names(&g), ["A", "a"]);
    assert_eq!(g.status(), "Player A to move.");

    g.play(Move {
        seat: seat_no(0),
        token: token_no(0),
        roll: 6,
    })
    .unwrap();
    assert_eq!(g.board().step(seat_no(0), token_no(0)), 0); // square 1
    assert_eq!(g.current_player(), seat_no(0));
    assert_eq!(g.phase(), Phase::Roll);
    assert_eq!(g.tokens_to_move(), 0);

    g.roll(5).unwrap();
    assert_eq!(names(&g), ["A"]);
    g.play(Move {
        seat: seat_no(0),
        token: token_no(0),
        roll: 5,
    })
    .unwrap();
    assert_eq!(g.board().step(seat_no(0), token_no(0)), 5); // square 6
    assert_eq!(g.current_player(), seat_no(1));
    assert_eq!(g.phase(), Phase::Roll);
    assert_eq!(g.status(), "Player B to roll the die.");
}

#[test]
fn gt_cannot_move_passes_the_turn() {
    let mut g = gt();
    let e = g.roll(3).unwrap();
    assert!(matches!(
        e,
        Event::Roll {
            result: RollResult::CannotMove,
            ..
        }
    ));
    assert_eq!(g.current_player(), seat_no(1));
    assert_eq!(
        g.status(),
        "Player A cannot move. Player B to roll the die."
    );
}

#[test]
fn gt_entering_onto_own_token_bumps_and_capture_on_entry_square() {
    let mut g = gt();
    g.roll(6).unwrap();
    g.play(Move {
        seat: seat_no(0),
        token: token_no(0),
        roll: 6,
    })
    .unwrap();
    g.roll(6).unwrap();
    assert_eq!(
        names(&g),
        ["a"],
        "entering is forced while a token is parked"
    );
    g.play(Move {
        seat: seat_no(0),
        token: token_no(1),
        roll: 6,
    })
    .unwrap();
    assert_eq!(a_steps(&g), (0, 1));
    // B's token on A's entry square (B's step 30 is square 40 -> 0-based 0).
    let mut g = gt();
    g.set_step(seat_no(1), token_no(0), 30);
    g.roll(6).unwrap();
    let e = g
        .play(Move {
            seat: seat_no(0),
            token: token_no(0),
            roll: 6,
        })
        .unwrap();
    let Event::Move { outcome, .. } = e else {
        panic!()
    };
    assert_eq!(outcome.captured, [0, 1, 0, 0]);
    assert_eq!(g.board().step(seat_no(1), token_no(0)), -1);
}

#[test]
fn gt_overshoot_uses_the_move_and_six_rolls_again() {
    let mut g = gt();
    g.set_step(seat_no(0), token_no(0), 39);
    g.set_step(seat_no(0), token_no(1), 40);
    g.roll(6).unwrap();
    assert_eq!(names(&g), ["A"], "a token in goal is not offered");
    g.play(Move {
        seat: seat_no(0),
        token: token_no(0),
        roll: 6,
    })
    .unwrap();
    assert_eq!(g.board().step(seat_no(0), token_no(0)), 39);
    assert_eq!(
        g.current_player(),
        seat_no(0),
        "a 6 rolls again even after an overshoot"
    );
    g.roll(2).unwrap();
    g.play(Move {
        seat: seat_no(0),
        token: token_no(0),
        roll: 2,
    })
    .unwrap();
    assert_eq!(g.board().step(seat_no(0), token_no(0)), 41);
    assert!(g.is_over());
    assert_eq!(g.winner(), Some(seat_no(0)));
    assert_eq!(g.status(), "Player A has won!");
    assert_eq!(g.roll(3), Err(LudoError::GameOver));
}

/// Roll `value` and, when a move is offered, play the token named `token`.
fn roll_and_play(g: &mut Game, value: u8, token: &str) {
    g.roll(value).unwrap();
    let mv = g.parse_move(token).unwrap();
    g.play(mv).unwrap();
}

/// GT: a token on a goal square is out of play. A enters, a enters and runs to goal
/// square 49 (step 40); after B, C and D roll 1, A's 6 offers only A (entering is not
/// forced: nothing is parked), never the goal token.
#[test]
fn gt_token_in_goal_is_not_offered_after_a_six() {
    let mut g = gt();
    roll_and_play(&mut g, 6, "A");
    for _ in 0..7 {
        roll_and_play(&mut g, 6, "a");
    }
    roll_and_play(&mut g, 3, "a");
    assert_eq!(
        g.board().step(seat_no(0), token_no(1)),
        40,
        "a stands on goal square 49"
    );
    for _ in 0..3 {
        g.roll(1).unwrap();
    }
    g.roll(6).unwrap();
    assert_eq!(names(&g), ["A"]);
    assert_eq!(g.tokens_to_move(), 0b01);
    let mut goal = g;
    assert!(goal.play(goal.parse_move("a").unwrap()).is_err());
    assert_eq!(goal, g, "the refused move changed nothing");
}

/// GT: with A on goal square 49 and a parked, a roll of 3 moves nothing: "Player A
/// cannot move. Player B to roll the die." (the goal token is not moved from goal 1 to
/// goal 2 by a later 1 either).
#[test]
fn gt_player_with_only_a_goal_token_and_no_six_cannot_move() {
    let mut g = gt();
    roll_and_play(&mut g, 6, "A");
    for _ in 0..8 {
        roll_and_play(&mut g, 5, "A");
        for _ in 0..3 {
            g.roll(1).unwrap();
        }
    }
    assert_eq!(
        g.board().step(seat_no(0), token_no(0)),
        40,
        "A stands on goal square 49"
    );
    assert_eq!(g.board().step(seat_no(0), token_no(1)), -2, "a is parked");
    let e = g.roll(3).unwrap();
    assert!(matches!(
        e,
        Event::Roll {
            result: RollResult::CannotMove,
            ..
        }
    ));
    assert_eq!(
        g.status(),
        "Player A cannot move. Player B to roll the die."
    );
    for _ in 0..3 {
        g.roll(2).unwrap();
    }
    let e = g.roll(1).unwrap();
    assert!(matches!(
        e,
        Event::Roll {
            result: RollResult::CannotMove,
            ..
        }
    ));
    assert_eq!(
        g.board().step(seat_no(0), token_no(0)),
        40,
        "a roll of 1 leaves it on goal 1"
    );
}

#[test]
fn out_of_phase_calls_change_nothing() {
    let mut g = gt();
    let before = g;
    assert!(
        g.play(Move {
            seat: seat_no(0),
            token: token_no(0),
            roll: 6
        })
        .is_err()
    );
    g.roll(6).unwrap();
    let pending = g;
    assert!(matches!(g.roll(6), Err(LudoError::IllegalMove(_))));
    assert!(
        g.play(Move {
            seat: seat_no(1),
            token: token_no(0),
            roll: 6
        })
        .is_err()
    );
    assert!(
        g.play(Move {
            seat: seat_no(0),
            token: token_no(0),
            roll: 5
        })
        .is_err()
    );
    assert_eq!(g, pending);
    assert_ne!(g, before);
    assert!(matches!(gt().roll(7), Err(LudoError::InvalidRoll(_))));
}

#[test]
fn cs162_one_bonus_roll_per_six() {
    let mut g = Game::new(Rules::CS162, &seat_list(&[0, 1]), 1).unwrap();
    g.roll(6).unwrap();
    g.play(Move {
        seat: seat_no(0),
        token: token_no(0),
        roll: 6,
    })
    .unwrap();
    assert_eq!(g.current_player(), seat_no(0));
    g.roll(6).unwrap();
    g.play(Move {
        seat: seat_no(0),
        token: token_no(1),
        roll: 6,
    })
    .unwrap();
    assert_eq!(
        g.current_player(),
        seat_no(1),
        "a 6 on the bonus roll gives no further roll"
    );
}

#[test]
fn standard_six_limit_forfeits() {
    let mut r = Rules::STANDARD;
    r.six_limit = 3;
    let mut g = Game::new(r, &seat_list(&[0, 2]), 1).unwrap();
    for _ in 0..2 {
        g.roll(6).unwrap();
        let mv = g.legal_moves().iter().next().unwrap();
        g.play(mv).unwrap();
        assert_eq!(g.current_player(), seat_no(0));
    }
    let e = g.roll(6).unwrap();
    assert!(matches!(
        e,
        Event::Roll {
            result: RollResult::Forfeit,
            ..
        }
    ));
    assert_eq!(g.current_player(), seat_no(2));
    assert!(g.status().starts_with("Player A rolled too many 6s"));
}

#[test]
fn stacks_are_one_move() {
    let mut g = Game::new(Rules::CS162, &seat_list(&[0, 1]), 1).unwrap();
    g.set_step(seat_no(0), token_no(0), 5);
    g.set_step(seat_no(0), token_no(1), 5);
    g.roll(3).unwrap();
    assert_eq!(g.legal_moves().len(), 1);
    assert_eq!(g.tokens_to_move(), 0b11);
    g.play(Move {
        seat: seat_no(0),
        token: token_no(1),
        roll: 3,
    })
    .unwrap();
    assert_eq!(a_steps(&g), (8, 8));
}

#[test]
fn full_ranking_and_record_undo() {
    let mut rec = GameRecord::new(Game::new(Rules::CS162, &seat_list(&[0, 1, 2]), 99).unwrap());
    let mut guard = 0;
    while !rec.game().is_over() {
        guard += 1;
        assert!(guard < 100_000);
        match rec.game().phase() {
            Phase::Roll => {
                rec.roll(None).unwrap();
            }
            Phase::Move(_) => {
                let mv = rec.game().legal_moves().iter().next().unwrap();
                rec.play(mv).unwrap();
            }
            Phase::Over => unreachable!(),
        }
    }
    let order: Vec<Seat> = rec.game().ranking().collect();
    assert_eq!(order.len(), 3);
    let end = *rec.game();
    let n = rec.len();
    while rec.undo().is_some() {}
    assert_eq!(rec.game(), rec.start());
    assert!(n > 0);
    // Replaying the same seed gives the same game.
    let mut again = GameRecord::new(*rec.start());
    while !again.game().is_over() {
        match again.game().phase() {
            Phase::Roll => {
                again.roll(None).unwrap();
            }
            _ => {
                let mv = again.game().legal_moves().iter().next().unwrap();
                again.play(mv).unwrap();
            }
        }
    }
    assert_eq!(*again.game(), end);
}

#[test]
fn the_turn_builder_refuses_seats_that_do_not_play() {
    let (a, b, c) = (seat_no(0), seat_no(1), seat_no(2));
    let playing = a.bit() | c.bit();
    let mut turn = TurnBuilder::new(playing);
    assert_eq!(
        turn.current(b).err(),
        Some("the current player does not play")
    );
    assert_eq!(
        turn.passed(Some(b), false).err(),
        Some("the passed player does not play")
    );
    let twice = "the ranking names a player twice or one who does not play";
    assert_eq!(turn.rank(b).err(), Some(twice));
    turn.current(c)
        .unwrap()
        .phase(Phase::Move(6))
        .counters(1, false)
        .passed(Some(a), true)
        .unwrap()
        .rank(a)
        .unwrap();
    assert_eq!(turn.rank(a).err(), Some(twice));
    let t = turn.build();
    assert_eq!(
        (t.current(), t.phase(), t.sixes(), t.extra()),
        (c, Phase::Move(6), 1, false)
    );
    assert_eq!((t.passed_seat(), t.passed_by_forfeit()), (Some(a), true));
    assert_eq!((t.ranked(), t.ranking_bytes()[0]), (1, 0));
}

/// A move event names the squares its tokens left and reached, by the board's names (as
/// `Game.squares` shows them before and after); a roll names none.
#[test]
fn a_move_event_names_its_squares() {
    let seats = seat_list(&[0, 2]);
    let mut g = Game::new(Rules::CS162, &seats, 1).unwrap();
    let roll = g.roll(6).unwrap();
    assert_eq!(roll.squares(g.rules()), None);
    let mv = g.parse_move("Ap").unwrap();
    let event = g.play(mv).unwrap();
    assert_eq!(event.squares(g.rules()), Some(("H".into(), "R".into())));
    g.roll(4).unwrap();
    let event = g.play(g.parse_move("Ap").unwrap()).unwrap();
    assert_eq!(event.squares(g.rules()), Some(("R".into(), "4".into())));
    assert_eq!(g.rules().square_name(seat_no(0), 4), "4");
}
