//! Seeded random playouts: 100,000 whole games per rule set (with random option
//! combinations on top of each preset), checking the engine's invariants after every roll
//! and move, and that undo, replay and the text notations give back exactly the same
//! states.

use ludogame::ludo::board::in_yard;
use ludogame::ludo::rules::{OwnTokens, Preset};
use ludogame::ludo::{Event, Game, GameRecord, Phase, Rng, Rules, Seat};

const GAMES: u64 = 100_000;
const MAX_EVENTS: usize = 20_000;

/// A preset with some of its options changed at random (only valid combinations).
fn random_rules(base: Rules, rng: &mut Rng) -> Rules {
    let mut r = base;
    if rng.below(2) == 0 {
        return r;
    }
    if base.preset == Preset::Standard {
        r.tokens = [2, 4][rng.below(2) as usize];
        r.own_tokens =
            [OwnTokens::Share, OwnTokens::Block, OwnTokens::Stack][rng.below(3) as usize];
        r.safe_squares = rng.below(2) == 0;
        r.six_limit = [0, 3][rng.below(2) as usize];
    }
    r.capture_bonus = rng.below(2) == 0;
    r.finish_bonus = rng.below(2) == 0;
    r.validate().expect("random options are valid");
    r
}

fn random_seats(rng: &mut Rng) -> Vec<Seat> {
    let n = 2 + rng.below(3) as usize;
    let mut seats: Vec<Seat> = Seat::ALL.to_vec();
    for i in (1..seats.len()).rev() {
        seats.swap(i, rng.below(i as u32 + 1) as usize);
    }
    seats.truncate(n);
    seats
}

fn check_invariants(g: &Game, prev: &Game) {
    let r = g.rules();
    let n = r.tokens as usize;
    let b = g.board();
    let seats: Vec<Seat> = g.seats().collect();
    for &seat in &seats {
        let steps = &b.seat_steps(seat)[..n];
        for &s in steps {
            assert!(s <= r.finish_step, "step {s} past the end");
            if in_yard(s) {
                let lowest = if r.yard_slots { -(n as i8) } else { -1 };
                assert!(s >= lowest, "yard step {s}");
            }
        }
        if r.yard_slots {
            let mut slots: Vec<i8> = steps.iter().copied().filter(|&s| in_yard(s)).collect();
            slots.sort();
            slots.dedup();
            assert_eq!(
                slots.len(),
                steps.iter().filter(|&&s| in_yard(s)).count(),
                "two tokens on one start slot"
            );
        }
        if r.own_tokens == OwnTokens::Bump {
            for i in 0..n {
                for j in i + 1..n {
                    assert!(
                        in_yard(steps[i]) || steps[i] != steps[j],
                        "two own tokens on one square"
                    );
                }
            }
        }
        if prev.is_finished(seat) {
            assert_eq!(
                b.seat_steps(seat),
                prev.board().seat_steps(seat),
                "a finished seat moved"
            );
        }
    }
    // No two seats on one track square unless it is safe (a landing captures).
    for (i, &a) in seats.iter().enumerate() {
        for &c in &seats[i + 1..] {
            for ta in r.all_tokens() {
                for tc in r.all_tokens() {
                    let (sa, sc) = (
                        r.track_square(a, b.step(a, ta)),
                        r.track_square(c, b.step(c, tc)),
                    );
                    if let (Some(x), Some(y)) = (sa, sc) {
                        assert!(
                            x != y || r.is_safe_square(x),
                            "seats {a} and {c} share square {x}"
                        );
                    }
                }
            }
        }
    }
    // Ranking: finished seats, each once; over exactly when the end condition says.
    let ranking: Vec<Seat> = g.ranking().collect();
    for &seat in &seats {
        if g.is_finished(seat) {
            assert!(ranking.contains(&seat));
        }
    }
    if g.is_over() {
        assert!(g.winner().is_some());
        assert!(g.legal_moves().is_empty());
    } else {
        assert!(seats.iter().filter(|&&s| !g.is_finished(s)).count() >= 2);
        assert!(!g.is_finished(g.current_player()));
    }
    if let Phase::Move(_) = g.phase() {
        assert!(!g.legal_moves().is_empty());
    }
}

fn playouts(base: Rules, salt: u64, games: u64) {
    let mut meta = Rng::new(salt);
    let mut total_events = 0usize;
    for game_no in 0..games {
        let rules = random_rules(base, &mut meta);
        let seats = random_seats(&mut meta);
        let mut policy = Rng::new(meta.next_u64());
        let start = Game::new(rules, &seats, meta.next_u64()).unwrap();
        let mut rec = GameRecord::new(start);
        let check_undo = game_no % 100 == 0;
        while !rec.game().is_over() {
            assert!(rec.len() < MAX_EVENTS, "game {game_no} does not end");
            let before = *rec.game();
            let event = match before.phase() {
                Phase::Roll => rec.roll(None).unwrap(),
                Phase::Move(_) => {
                    let moves = before.legal_moves();
                    let pick = policy.below(moves.len() as u32) as usize;
                    rec.play(moves.iter().nth(pick).unwrap()).unwrap()
                }
                Phase::Over => unreachable!(),
            };
            check_invariants(rec.game(), &before);
            if check_undo {
                let after = *rec.game();
                let text = after.to_notation();
                assert_eq!(Game::from_notation(&text), Ok(after), "notation {text}");
                assert_eq!(rec.undo(), Some(event));
                assert_eq!(*rec.game(), before);
                let again = match event {
                    Event::Roll { .. } => rec.roll(None).unwrap(),
                    Event::Move { mv, .. } => rec.play(mv).unwrap(),
                };
                assert_eq!(again, event);
                assert_eq!(*rec.game(), after);
            }
        }
        total_events += rec.len();
        if check_undo {
            let text = rec.moves_text();
            assert_eq!(GameRecord::replay(start, &text).as_ref(), Ok(&rec));
            while rec.undo().is_some() {}
            assert_eq!(*rec.game(), start);
        }
    }
    assert!(total_events as u64 > games * 20);
}

#[test]
fn cs162_playouts() {
    playouts(Rules::CS162, 1, GAMES);
}

// Standard games are the longest: two tests of half each, so that the test threads share
// them.
#[test]
fn standard_playouts() {
    playouts(Rules::STANDARD, 2, GAMES / 2);
}

#[test]
fn standard_playouts_second_half() {
    playouts(Rules::STANDARD, 4, GAMES / 2);
}

#[test]
fn gt_playouts() {
    playouts(Rules::GT, 3, GAMES);
}
