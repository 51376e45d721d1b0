//! The public API on hand-made positions: card and notation errors, every reason the
//! referee gives, illegal actions refused without change, wall steps judged after the
//! pawn move, B's rotated cards, and the match runner's endings.

use ludogame::onitama::{
    Action, Answer, Card, EndReason, GameResult, InvalidAnswer, OnitamaError, Piece, Player,
    Position, Slot, Square, Status, WallDir, WinKind, judge, play_match,
};

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// A to move; A1 Boar (up, left, right), A2 Tiger (two up, one down).
///
/// ```text
/// a  . . B . b
/// b  . A W b .
/// c  . . a a .
/// d  . . . . .
/// e  . . . . a
/// ```
fn crafted() -> Position {
    Position::from_notation(
        "..B.b/.AWb./..aa./...../....a A n=10 A1:Boar A2:Tiger B1:Ox B2:Crane side:Monkey",
    )
    .unwrap()
}

#[test]
fn card_errors_are_clear() {
    let err = |rows: &[&str]| Card::parse(rows).unwrap_err().to_string();
    assert!(err(&[".....", ".....", "..x..", ".....", "....."]).contains("none"));
    assert!(err(&["o....", ".....", "..o..", ".....", "....."]).contains("two"));
    assert!(err(&[".....", ".....", "..o...", ".....", "....."]).contains("6 characters"));
    assert!(err(&[".....", "..o..", "....."]).contains("5 rows, not 3"));
    assert!(matches!(
        Card::from_text("Unicorn"),
        Err(OnitamaError::BadCard(_))
    ));
    assert!(matches!(
        Card::from_offsets(&[(0, 0)]),
        Err(OnitamaError::BadCard(_))
    ));
    // Holder's view: B applies the pattern negated.
    let tiger = Card::standard("Tiger").unwrap();
    assert!(tiger.allows(Player::A, -2, 0) && tiger.allows(Player::B, 2, 0));
    assert!(!tiger.allows(Player::B, -2, 0));
}

#[test]
fn notation_errors_are_clear() {
    let e = Position::from_notation(
        "bbBbb/...../...../...../aaAaa A n=20 A1:Boar A2:Ox B1:Eel B2:Frog side:Crab",
    )
    .unwrap_err();
    assert!(matches!(e, OnitamaError::BadNotation(_)));
    assert!(e.to_string().contains("no wall"), "{e}");
    let e = Position::from_notation("bbBbb/...../W..../...../aaAaa A A1:Boar").unwrap_err();
    assert!(e.to_string().contains("expected 8 fields"), "{e}");
    let e = Position::from_notation(
        "bbWbb/..B../...../...../aaAaa A n=20 A1:Boar A2:Ox B1:Eel B2:Frog side:Crab",
    )
    .unwrap_err();
    assert!(e.to_string().contains("the wall is on the base a3"), "{e}");
}

#[test]
fn referee_reasons_in_order() {
    let p = crafted();
    let j = |card: i64, from: &str, to: &str, wall: &str| judge(&p, card, from, to, wall);
    use InvalidAnswer::*;
    assert_eq!(j(3, "e5", "d5", "s"), Err(BadCardNumber(3)));
    assert_eq!(j(0, "XX", "XX", "s"), Err(BadCardNumber(0)));
    assert_eq!(j(1, "XX", "XX", "s"), Err(StartNotOnBoard("XX".into())));
    assert_eq!(j(1, "E5", "d5", "s"), Err(StartNotOnBoard("E5".into())));
    assert_eq!(j(1, "a5", "b5", "s"), Err(NoOwnPawn(sq("a5"))));
    assert_eq!(j(1, "b3", "a3", "s"), Err(NoOwnPawn(sq("b3"))));
    assert_eq!(j(1, "d4", "c4", "s"), Err(NoOwnPawn(sq("d4"))));
    assert_eq!(j(1, "e5", "e6", "s"), Err(TargetNotOnBoard("e6".into())));
    assert_eq!(
        j(1, "e5", "c5", "s"),
        Err(NotOnCard {
            slot: Slot::One,
            from: sq("e5"),
            to: sq("c5")
        })
    );
    assert_eq!(j(1, "c4", "c3", "s"), Err(TargetOwnPawn(sq("c3"))));
    assert_eq!(j(1, "b2", "b3", "s"), Err(TargetWall(sq("b3"))));
    assert_eq!(j(1, "e5", "d5", "U"), Err(BadWallLetter("U".into())));
    assert_eq!(j(1, "e5", "d5", ""), Err(BadWallLetter("".into())));
    assert_eq!(j(1, "e5", "d5", "ss"), Err(BadWallLetter("ss".into())));
    assert_eq!(j(1, "e5", "d5", "u"), Err(WallOnBase(sq("a3"))));
    assert_eq!(j(1, "e5", "d5", "l"), Err(WallOnOwnGeneral(sq("b2"))));
    assert_eq!(j(1, "e5", "d5", "r"), Err(WallOnOpponent(sq("b4"))));
    assert_eq!(
        j(1, "e5", "d5", "d"),
        Ok(Action::step(Slot::One, sq("e5"), sq("d5"), WallDir::Down))
    );
    // The wall step is judged after the pawn move: the general left b2, the soldier on b4
    // was captured.
    assert_eq!(
        j(1, "b2", "b1", "l"),
        Ok(Action::step(Slot::One, sq("b2"), sq("b1"), WallDir::Left))
    );
    assert_eq!(
        j(1, "c4", "b4", "r"),
        Ok(Action::step(Slot::One, sq("c4"), sq("b4"), WallDir::Right))
    );
    // A winning move: its wall letter is never read.
    assert_eq!(
        j(2, "c3", "a3", "zz"),
        Ok(Action::winning(Slot::Two, sq("c3"), sq("a3")))
    );
    // Reference wording.
    assert_eq!(
        j(1, "XX", "XX", "s").unwrap_err().to_string(),
        "Invalid input, the start position is invalid."
    );
    assert_eq!(
        j(1, "e5", "c5", "s").unwrap_err().to_string(),
        "Not a valid move by card 1."
    );
    assert_eq!(
        j(1, "a5", "b5", "s").unwrap_err().to_string(),
        "You have no pawn at a5."
    );
    assert_eq!(
        j(1, "e5", "d5", "u").unwrap_err().to_string(),
        "You cannot move the wall to a military base."
    );
}

#[test]
fn wall_swaps_with_an_own_soldier() {
    let mut p = crafted();
    p.play(Action::step(Slot::One, sq("c4"), sq("b4"), WallDir::Right))
        .unwrap();
    assert_eq!(p.wall_square(), sq("b4"));
    assert_eq!(p.piece_at(sq("b3")), Some(Piece::Soldier(Player::A)));
    assert_eq!(p.piece_at(sq("c4")), None);
    assert_eq!(p.soldiers(Player::B).count_ones(), 1);
    // The used card (Boar) went to the side, the side card (Monkey) into slot A1.
    assert_eq!(
        p.card(ludogame::onitama::CardSlot::A1).name(),
        Some("Monkey")
    );
    assert_eq!(
        p.card(ludogame::onitama::CardSlot::Side).name(),
        Some("Boar")
    );
    assert_eq!(p.side(), Player::B);
    assert_eq!(p.plies_left(), 9);
}

#[test]
fn pass_positions() {
    // README "no possible move" diagram: A's pawns are stuck, so A passes.
    let p = Position::from_notation(
        "...../...../Wb.B./a..../A.... A n=5 \
         A1:...../...../.xx../..o../..... A2:...../..x../.xo../...../..... \
         B1:...../..x../..o../.x.../..... B2:...../.x.x./..o../.x.../..... \
         side:...../.x.../.xo.x/...../.....",
    )
    .unwrap();
    assert!(!p.has_pawn_move());
    let legal: Vec<String> = p.legal_actions().iter().map(|a| a.to_string()).collect();
    assert_eq!(
        legal,
        [
            "1 XX XX u",
            "1 XX XX d",
            "1 XX XX s",
            "2 XX XX u",
            "2 XX XX d",
            "2 XX XX s"
        ]
    );
    // Only the wall step is checked: the card number and the squares are not read.
    assert_eq!(
        judge(&p, 1, "XX", "XX", "u"),
        Ok(Action::pass(Slot::One, WallDir::Up))
    );
    assert_eq!(
        judge(&p, 2, "e2", "zz", "s"),
        Ok(Action::pass(Slot::Two, WallDir::Stay))
    );
    assert_eq!(
        judge(&p, 7, "XX", "XX", "s"),
        Ok(Action::pass(Slot::Two, WallDir::Stay))
    );
    assert_eq!(
        judge(&p, 1, "XX", "XX", "r"),
        Err(InvalidAnswer::WallOnOpponent(sq("c2")))
    );
    // The wall swaps with the own soldier on d1.
    assert_eq!(
        judge(&p, 1, "XX", "XX", "d"),
        Ok(Action::pass(Slot::One, WallDir::Down))
    );
    let mut q = p;
    q.play(Action::pass(Slot::One, WallDir::Down)).unwrap();
    assert_eq!(q.board_rows()[2], "ab B ");
    assert_eq!(q.wall_square(), sq("d1"));
    assert_eq!(
        judge(&p, 1, "XX", "XX", "l"),
        Err(InvalidAnswer::WallOffBoard(WallDir::Left))
    );
    assert_eq!(
        judge(&p, 1, "XX", "XX", "?"),
        Err(InvalidAnswer::BadWallLetter("?".into()))
    );
}

#[test]
fn illegal_actions_are_refused_unchanged() {
    let mut p = crafted();
    let before = p;
    let reason = |p: &mut Position, a: Action| match p.play(a) {
        Err(OnitamaError::IllegalAction { reason, .. }) => reason,
        other => panic!("{other:?}"),
    };
    let r = reason(
        &mut p,
        Action::step(Slot::Two, sq("c3"), sq("a3"), WallDir::Stay),
    );
    assert!(r.contains("wins"), "{r}");
    let r = reason(&mut p, Action::winning(Slot::One, sq("e5"), sq("d5")));
    assert!(r.contains("does not win"), "{r}");
    let r = reason(&mut p, Action::pass(Slot::One, WallDir::Stay));
    assert!(r.contains("start position"), "{r}");
    let r = reason(
        &mut p,
        Action::step(Slot::One, sq("e5"), sq("d5"), WallDir::Up),
    );
    assert_eq!(r, "You cannot move the wall to a military base.");
    assert_eq!(p, before);
    let text = p
        .play(Action::step(Slot::One, sq("e5"), sq("c5"), WallDir::Up))
        .unwrap_err()
        .to_string();
    assert_eq!(
        text,
        "illegal action 1 e5 c5 u: Not a valid move by card 1."
    );
    // A win ends the game; any further move is refused.
    p.play(Action::winning(Slot::Two, sq("c3"), sq("a3")))
        .unwrap();
    assert_eq!(
        p.status(),
        Status::Won {
            winner: Player::A,
            by: WinKind::Capture
        }
    );
    assert_eq!(p.general(Player::B), None);
    let after = p;
    assert!(matches!(
        p.play(Action::pass(Slot::One, WallDir::Stay)),
        Err(OnitamaError::GameOver(_))
    ));
    assert_eq!(p, after);
    // The finished position has a notation too (B to move, no B general).
    assert_eq!(Position::from_notation(&p.to_notation()).unwrap(), p);
    // No plies left: a tie, no actions.
    let tie = crafted().with_plies_left(0);
    assert_eq!(tie.status(), Status::Tie);
    assert!(tie.legal_actions().is_empty());
}

#[test]
fn make_and_unmake_round_trip() {
    let p = crafted();
    for &a in &p.legal_actions() {
        let mut q = p;
        let undo = q.make_unchecked(a);
        assert_ne!(q, p);
        q.unmake(undo);
        assert_eq!(q, p, "{a}");
    }
}

#[test]
fn matches_end_every_way() {
    let first = |p: &Position| Answer::from(p.legal_actions().as_slice()[0]);
    // Two engine players: a full game, every ply accepted.
    let start = Position::from_notation(
        "bbBbb/...../W..../...../aaAaa A n=20 A1:Monkey A2:Crane B1:Boar B2:Ox side:Tiger",
    )
    .unwrap();
    let r = play_match(&start, first, first);
    assert_eq!(r.plies as usize, r.actions.len());
    assert_eq!(r.start, start);
    assert!(r.end.is_over());
    match r.reason {
        EndReason::PlyLimit => assert_eq!((r.result, r.plies), (GameResult::Tie, 20)),
        EndReason::Base | EndReason::Capture => assert!(r.winner().is_some()),
        ref other => panic!("{other:?}"),
    }
    // An error raised by B's AI, or a panic in it, loses at once.
    let r = play_match(&start, first, |_| Answer::error("oops"));
    assert_eq!(r.result, GameResult::Won(Player::A));
    assert_eq!(
        r.reason,
        EndReason::Error {
            by: Player::B,
            message: "oops".into()
        }
    );
    assert_eq!((r.plies, r.actions.len()), (2, 1));
    let r = play_match(&start, |_| -> Answer { panic!("boom") }, first);
    assert_eq!(
        r.reason,
        EndReason::Error {
            by: Player::A,
            message: "boom".into()
        }
    );
    assert_eq!(r.result, GameResult::Won(Player::B));
    // An invalid answer loses at once, with the reason.
    let r = play_match(&start, |_| Answer::new(1, "XX", "XX", "s"), first);
    assert_eq!(r.result, GameResult::Won(Player::B));
    assert_eq!((r.plies, r.actions.len()), (1, 0));
    assert!(matches!(
        r.reason,
        EndReason::InvalidAnswer {
            by: Player::A,
            reason: InvalidAnswer::StartNotOnBoard(_),
            ..
        }
    ));
    // A game that is over before it starts.
    let r = play_match(&start.with_plies_left(0), first, first);
    assert_eq!((r.result, r.plies), (GameResult::Tie, 0));
    // A one-move win.
    let r = play_match(&crafted(), |_| Answer::new(2, "c3", "a3", "?"), first);
    assert_eq!(
        (r.result, r.reason.clone(), r.plies),
        (GameResult::Won(Player::A), EndReason::Capture, 1)
    );
}

/// How a game starts is the engine's: a standard game from given cards or from a seeded
/// deal (never both, nor a first mover with a deal), the dealt wall game, and a game taken
/// back to its start with its first mover.
#[test]
fn games_start_as_the_engine_says() {
    use ludogame::onitama::{CardSet, Game, Outcome, Variant, notation::WrittenAction};
    let cards: Vec<_> = ["Tiger", "Crab", "Monkey", "Crane", "Dragon"]
        .iter()
        .map(|n| {
            let c = Card::from_text(n).unwrap();
            (c, c.rows())
        })
        .collect();
    let given = Game::standard(Some(cards.clone()), Some(Player::B), None, None, None).unwrap();
    assert_eq!(
        (given.first(), given.position().rules()),
        (Player::B, Variant::Standard)
    );
    assert_eq!(
        given.position().plies_left(),
        ludogame::onitama::setups::STANDARD_PLIES
    );
    let dealt = Game::standard(None, None, Some(7), Some(CardSet::Sensei), Some(30)).unwrap();
    assert_eq!(dealt.position().plies_left(), 30);
    let refused = [
        Game::standard(Some(cards.clone()), None, Some(7), None, None),
        Game::standard(None, None, None, None, None),
        Game::standard(None, Some(Player::A), Some(7), None, None),
        Game::standard(Some(cards.clone()), None, None, Some(CardSet::All), None),
        Game::standard(Some(cards[..4].to_vec()), None, None, None, None),
    ];
    for r in refused {
        assert!(matches!(r, Err(OnitamaError::BadCard(_))), "{r:?}");
    }
    let wall = Game::dealt(5, None).unwrap();
    assert_eq!(
        (wall.first(), wall.position().rules()),
        (Player::A, Variant::Wall)
    );
    assert_eq!(Game::dealt(5, None).unwrap(), wall);

    let mut game = given.clone();
    for _ in 0..3 {
        let a = game.legal_actions()[0];
        game.play(a).unwrap();
    }
    let start = game.at_start();
    assert_eq!((start.actions().len(), start.first()), (0, Player::B));
    assert_eq!(start, given);
    // an action written for the other variant is refused, naming both
    let wall_move = WrittenAction {
        action: game.legal_actions()[0],
        variant: Variant::Wall,
    };
    let e = game.play_written(wall_move).unwrap_err();
    assert!(
        e.to_string().contains("this game plays the standard rules"),
        "{e}"
    );
    assert_eq!(
        Outcome::GeneralCaptured(Player::B).ranking(),
        [Player::B, Player::A]
    );
    assert!(Outcome::PlyLimit.ranking().is_empty() && Outcome::PlyLimit.win_message().is_none());
}
