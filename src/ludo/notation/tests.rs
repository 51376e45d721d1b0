//! Tests of the notations: round trips, refused positions and turn states, replays.

use super::*;
use crate::ludo::game::Move;
use crate::ludo::seat::{seat_list, seat_no, token_no};

#[test]
fn rules_notation_round_trips() {
    let mut r = Rules::STANDARD;
    assert_eq!(r.to_string(), "standard");
    r.tokens = 2;
    r.safe_squares = true;
    r.own_tokens = OwnTokens::Block;
    let text = r.to_string();
    assert_eq!(
        text,
        "standard[tokens=2,own_tokens=block,safe_squares=true]"
    );
    assert_eq!(text.parse::<Rules>(), Ok(r));
    assert!("standard[tokens=9]".parse::<Rules>().is_err());
    assert!("standard[colour=red]".parse::<Rules>().is_err());
    assert!("standard[tokens=2".parse::<Rules>().is_err());
}

/// Every value each option takes (and a few it refuses).
fn option_values(name: &str) -> Vec<OptionValue> {
    let s = |v: &str| OptionValue::Str(v.to_owned());
    match name {
        "tokens" | "six_limit" => (0..=5).map(OptionValue::Int).collect(),
        "overshoot" => vec![s("bounce"), s("stay"), s("illegal")],
        "own_tokens" => vec![s("stack"), s("share"), s("bump"), s("block")],
        "six_bonus" => vec![s("never"), s("once"), s("always")],
        "end" => vec![s("first-winner"), s("full-ranking")],
        _ => vec![OptionValue::Bool(false), OptionValue::Bool(true)],
    }
}

#[test]
fn every_preset_and_option_parses_back_from_its_display() {
    let mut checked = 0;
    for preset in [Rules::CS162, Rules::STANDARD, Rules::GT] {
        assert_eq!(preset.to_string().parse::<Rules>(), Ok(preset));
        for (name, value) in preset.options() {
            assert_eq!(value.to_string().parse::<OptionValue>(), Ok(value.clone()));
            for v in option_values(name) {
                assert_eq!(v.to_string().parse::<OptionValue>(), Ok(v.clone()));
                let mut r = preset;
                r.set_option(name, &v).unwrap();
                if r.validate().is_ok() {
                    assert_eq!(r.to_string().parse::<Rules>(), Ok(r), "{r}");
                    checked += 1;
                }
            }
        }
    }
    // Random combinations of options, too.
    let mut rng = Rng::new(9);
    for _ in 0..2000 {
        let mut r = [Rules::CS162, Rules::STANDARD, Rules::GT][rng.below(3) as usize];
        for name in OPTION_NAMES {
            let values = option_values(name);
            if rng.below(2) == 0 {
                let v = &values[rng.below(values.len() as u32) as usize];
                r.set_option(name, v).unwrap();
            }
        }
        if r.validate().is_ok() {
            assert_eq!(r.to_string().parse::<Rules>(), Ok(r), "{r}");
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn game_notation_round_trips() {
    let mut g = Game::new(Rules::CS162, &seat_list(&[0, 1]), 42).unwrap();
    assert_eq!(
        g.to_notation(),
        "cs162 A-1.-1/B-1.-1 A:r:0:0 - - 000000000000002a"
    );
    g.roll(6).unwrap();
    assert_eq!(Game::from_notation(&g.to_notation()), Ok(g));
    g.play(Move {
        seat: seat_no(0),
        token: token_no(0),
        roll: 6,
    })
    .unwrap();
    g.roll(3).unwrap();
    assert_eq!(
        g.to_notation(),
        "cs162 A0.-1/B-1.-1 A:m3:0:1 - - 000000000000002a"
    );
    assert_eq!(Game::from_notation(&g.to_notation()), Ok(g));
    g.play(Move {
        seat: seat_no(0),
        token: token_no(0),
        roll: 3,
    })
    .unwrap();
    g.roll(2).unwrap(); // B cannot move
    let text = g.to_notation();
    assert_eq!(text, "cs162 A3.-1/B-1.-1 A:r:0:0 B - 000000000000002a");
    assert_eq!(Game::from_notation(&text), Ok(g));
}

#[test]
fn long_runs_of_sixes_round_trip() {
    let mut g = Game::new(Rules::GT, &seat_list(&[0, 1, 2, 3]), 1).unwrap();
    for _ in 0..300 {
        g.roll(6).unwrap();
        let mv = g.legal_moves().iter().next().unwrap();
        g.play(mv).unwrap();
        if g.is_over() {
            break;
        }
        assert_eq!(Game::from_notation(&g.to_notation()), Ok(g));
    }
}

#[test]
fn impossible_positions_are_refused() {
    for text in [
        "cs162 A3.-1/B-1.-1 C:r:0:0 - - 0",             // C does not play
        "cs162 A58.-1/B-1.-1 A:r:0:0 - - 0",            // past the end
        "cs162 A3.-1/B45.-1 A:r:0:0 - - 0",             // B's 45 is space 3: shared
        "cs162 A57.57/B-1.-1 A:r:0:0 - - 0",            // A finished but not ranked, game over
        "cs162 A3.-1/B-1.-1 A:m3:0:0 - - 0",            // fine
        "cs162 A-1.-1/B-1.-1 A:m3:0:0 - - 0",           // pending 3 with nothing to move
        "gt A-1.-1/B-2.-1/C-1.-2/D-1.-2 A:r:0:0 - - 0", // A's tokens on one slot
        "cs162 A3.-1/B-1.-1 A:r:0:0 - - xyz",
        "cs162 A3.-1 A:r:0:0 - -",
        "gt A40.41/B40.41/C-1.-2/D-1.-2 A:o:0:0 - AB 0000000000000001",
        "cs162 A57.57/C57.57 A:o:0:0 - AC 0000000000000000",
        "cs162 A3.-1/B-1.-1 A:r:5:1 - - 0", // five 6s with one bonus per 6
        "cs162 A3.-1/B-1.-1 A:r:1:0 - - 0", // a run of 6s without an extra roll
        "cs162 A3.-1/B-1.-1 A:m6:0:0 - - 0", // a pending 6 not counted
        "cs162 A3.-1/B-1.-1 A:m3:1:1 - - 0", // a 3 does not continue a run
    ] {
        let ok = Game::from_notation(text);
        assert_eq!(
            ok.is_ok(),
            text == "cs162 A3.-1/B-1.-1 A:m3:0:0 - - 0",
            "{text}: {ok:?}"
        );
    }
}

#[test]
fn impossible_turn_states_are_refused_with_the_reason() {
    for (text, reason) in [
        // cs162 has no six limit: nobody forfeits.
        (
            "cs162 A3.-1/C-1.-1 C:r:0:0 A! - 0000000000000001",
            "no six limit",
        ),
        // cs162 gives extra rolls only for a 6 (no capture or finish bonus).
        (
            "cs162 A3.-1/C-1.-1 A:r:0:1 - - 0000000000000001",
            "counters 0:1 cannot occur",
        ),
        // A second 6 in a row on a turn that never had an extra roll.
        (
            "cs162 A3.-1/C-1.-1 A:m6:2:0 - - 0000000000000001",
            "counters 2:0 with a pending 6",
        ),
        // A first 6 cannot be an extra roll without a bonus.
        (
            "cs162 A3.-1/C-1.-1 A:m6:1:1 - - 0000000000000001",
            "counters 1:1 with a pending 6",
        ),
        // Three 6s in a row: cs162's 6 on the extra roll gives no roll.
        (
            "cs162 A3.-1/C-1.-1 A:m6:3:1 - - 0000000000000001",
            "counters 3:1 with a pending 6",
        ),
        (
            "cs162 A3.-1/C-1.-1 A:r:2:1 - - 0000000000000001",
            "counters 2:1 cannot occur",
        ),
        // The six limit: the third 6 forfeits.
        (
            "standard[six_limit=3] A3.-1.-1.-1/C-1.-1.-1.-1 A:m6:3:1 - - 0000000000000001",
            "reach the six limit of 3",
        ),
        // A pass by a player who is not the one before the current player.
        (
            "standard A3.-1.-1.-1/B-1.-1.-1.-1/C-1.-1.-1.-1 C:r:0:0 A - 0000000000000001",
            "not to the current player",
        ),
        // The next player has not rolled yet.
        (
            "standard A3.-1.-1.-1/C-1.-1.-1.-1 C:r:1:1 A - 0000000000000001",
            "counters are not 0:0",
        ),
        // Its own turn passed (a 6 it could not use) but no extra roll: impossible.
        (
            "standard A55.55.55.55/C-1.-1.-1.-1 A:r:0:0 A - 0000000000000001",
            "own turn passed",
        ),
        // A's tokens on the track move with any roll (they bounce back from the end).
        (
            "cs162 A3.10/C-1.-1 C:r:0:0 A - 0000000000000001",
            "has a legal move with every roll",
        ),
        // An own pass after a 6 that could have moved.
        (
            "standard A3.-1.-1.-1/C-1.-1.-1.-1 A:r:1:1 A - 0000000000000001",
            "has a legal move with every roll",
        ),
        // cs162 never gives a roll for a 6 on an extra roll: no own pass with two 6s.
        (
            "cs162 A57.57/B-1.-1/C57.52 C:r:2:1 C A 0000000000000001",
            "after the player's own pass",
        ),
        // Game over: the turn stays with the last player to finish.
        (
            "gt A40.41/B3.-2/C-1.-2/D-1.-2 B:o:0:0 - A 0000000000000001",
            "not the last to finish",
        ),
        (
            "cs162 A57.57/C57.57 A:r:0:0 C AC 0000000000000001",
            "the phase does not match",
        ),
    ] {
        match Game::from_notation(text) {
            Err(LudoError::InvalidNotation(msg)) => {
                assert!(msg.contains(reason), "{text}: {msg}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn bad_rules_in_a_position_are_invalid_notation() {
    for text in [
        "chess A3.-1/C-1.-1 A:r:0:0 - - 0",
        "cs162[colour=red] A3.-1/C-1.-1 A:r:0:0 - - 0",
        "standard[six_limit=1] A3.-1.-1.-1/C-1.-1.-1.-1 A:r:0:0 - - 0",
    ] {
        assert!(
            matches!(
                Game::from_notation(text),
                Err(LudoError::InvalidNotation(_))
            ),
            "{text}"
        );
    }
}

#[test]
fn possible_turn_states_are_read() {
    for text in [
        // Standard: every 6 rolls again, so a 6 that could not be used passes to itself.
        "standard A55.55.55.55/C-1.-1.-1.-1 A:r:3:1 A - 0000000000000001",
        "standard[six_limit=3] A3.-1.-1.-1/C-1.-1.-1.-1 C:r:0:0 A! - 0000000000000001",
        "standard[six_limit=3] A3.-1.-1.-1/C-1.-1.-1.-1 A:m6:2:1 - - 0000000000000001",
        // A capture bonus gives an extra roll without a 6, and a 6 on it counts on.
        "cs162[capture_bonus=true] A3.-1/C-1.-1 A:r:0:1 - - 0000000000000001",
        "cs162[capture_bonus=true] A3.-1/C-1.-1 A:m6:3:1 - - 0000000000000001",
        "cs162 A3.-1/C-1.-1 A:m6:2:1 - - 0000000000000001",
        "cs162 A3.-1/C-1.-1 A:m3:0:1 - - 0000000000000001",
        "cs162 A-1.-1/C-1.-1 C:r:0:0 A - 0000000000000001",
        "cs162 A57.-1/C-1.-1 C:r:0:0 A - 0000000000000001",
        // One player: its turn passes to itself.
        "cs162 A-1.-1 A:r:0:0 A - 0000000000000001",
        "gt A40.41/B3.-2/C-1.-2/D-1.-2 A:o:0:0 - A 0000000000000001",
        "cs162 A57.57/B-1.-1/C57.57 C:o:0:0 - ACB 0000000000000001",
    ] {
        let g = Game::from_notation(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(g.to_notation(), text);
    }
}

/// The turn part of a position, apart from the board and the die: what the turn checks
/// of [`Game::from_notation`] judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct TurnKey {
    /// 'r' roll, 'm' a pending roll other than 6, '6' a pending 6, 'o' over.
    phase: char,
    sixes: u8,
    extra: bool,
    /// '-' nobody, 'p' the player before the current one, 's' the current player.
    passed: char,
    forfeit: bool,
}

fn key_of(g: &Game) -> TurnKey {
    let (sixes, extra) = g.turn_counters();
    let phase = match g.phase() {
        Phase::Roll => 'r',
        Phase::Move(6) => '6',
        Phase::Move(_) => 'm',
        Phase::Over => 'o',
    };
    let (passed, forfeit) = match g.passed() {
        None => ('-', false),
        Some((p, f)) if p == g.current_player() => ('s', f),
        Some((_, f)) => ('p', f),
    };
    TurnKey {
        phase,
        sixes,
        extra,
        passed,
        forfeit,
    }
}

/// The seat before `seat`, going round, among those that have not finished.
fn previous_active(g: &Game, seat: Seat) -> Seat {
    let active: Vec<Seat> = g.seats().filter(|&s| !g.is_finished(s)).collect();
    active
        .iter()
        .rev()
        .copied()
        .find(|&s| s < seat)
        .or_else(|| active.last().copied())
        .unwrap_or(seat)
}

/// Brute force: for rule variants of every preset (the 6s' extra rolls, the six limit,
/// capture and finish bonuses), one and several players, collect the turn states that
/// random play (with a die loaded towards 6s, for long runs) reaches; then put every
/// small turn state on sampled positions of those games. Every reached position is read
/// back exactly, and every turn state `from_notation` accepts is one that play reached.
fn accepted_turn_states_are_the_reached_ones(base: Rules, seed: u64) {
    use crate::ludo::rules::SixBonus;
    let mut meta = Rng::new(seed);
    let mut checked = 0usize;
    for (bonus, limit) in [
        (SixBonus::Never, 0),
        (SixBonus::Once, 0),
        (SixBonus::Once, 2),
        (SixBonus::Always, 0),
        (SixBonus::Always, 2),
        (SixBonus::Always, 3),
    ] {
        for (capture, finish) in [(false, false), (true, false), (false, true)] {
            for players in [1, 2, 4] {
                let mut rules = base;
                rules.six_bonus = bonus;
                rules.six_limit = limit;
                rules.capture_bonus = capture;
                rules.finish_bonus = finish;
                rules.validate().unwrap();
                checked += check_variant(rules, players, &mut meta);
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

// One test a rule set, so that the test threads share the work.
#[test]
fn accepted_turn_states_are_the_reached_ones_cs162() {
    accepted_turn_states_are_the_reached_ones(Rules::CS162, 2024);
}

#[test]
fn accepted_turn_states_are_the_reached_ones_standard() {
    accepted_turn_states_are_the_reached_ones(Rules::STANDARD, 2025);
}

#[test]
fn accepted_turn_states_are_the_reached_ones_gt() {
    accepted_turn_states_are_the_reached_ones(Rules::GT, 2026);
}

/// A random position of `rules` with `seats`, waiting for a player's first roll: tokens
/// anywhere, many of them where a 6 captures or brings a token home (so that runs of
/// 6s with bonus rolls come up often). One that [`Game::from_notation`] reads.
fn random_board(rules: Rules, seats: &[Seat], meta: &mut Rng) -> Game {
    let n = rules.tokens as usize;
    loop {
        let mut g = Game::new(rules, seats, meta.next_u64()).unwrap();
        let mover = seats[meta.below(seats.len() as u32) as usize];
        let mut turn = TurnBuilder::new(g.board.seat_mask());
        turn.current(mover).unwrap();
        g.turn = turn.build();
        let random_step = |meta: &mut Rng, t: usize| match meta.below(3) {
            0 => -1 - t as Step * Step::from(rules.yard_slots),
            _ => meta.below(rules.finish_step as u32 + 1) as Step,
        };
        for t in 0..n {
            let step = match meta.below(3) {
                0 => rules.home_step - 6 * (1 + meta.below(2) as Step),
                _ => random_step(meta, t),
            };
            g.board.set_step(mover, token_no(t), step);
        }
        for &seat in seats.iter().filter(|&&s| s != mover) {
            for t in 0..n {
                let own = g.board.step(mover, token_no(meta.below(n as u32) as usize));
                let ahead = rules
                    .track_square(mover, own)
                    .map(|sq| (sq as u32 + 6 * (1 + meta.below(3))) % rules.track_len as u32)
                    .and_then(|sq| rules.step_on_square(seat, sq as u8));
                let step = match ahead {
                    Some(step) if meta.below(3) != 0 => step,
                    _ => random_step(meta, t),
                };
                g.board.set_step(seat, token_no(t), step);
            }
        }
        g.refresh_pending();
        if let Ok(read) = Game::from_notation(&g.to_notation()) {
            return read;
        }
    }
}

/// [`accepted_turn_states_are_the_reached_ones`] for one rule set and number of
/// players; returns the number of notations tried.
fn check_variant(rules: Rules, players: usize, meta: &mut Rng) -> usize {
    let seats = rules.default_seats(players).unwrap();
    let mut reached: HashSet<TurnKey> = HashSet::new();
    let mut samples: Vec<Game> = Vec::new();
    // Whole games from the start, and stretches of play from random boards.
    for game_no in 0..300 {
        let (mut g, length) = if game_no % 2 == 0 {
            (Game::new(rules, &seats, meta.next_u64()).unwrap(), 5_000)
        } else {
            (random_board(rules, &seats, meta), 60)
        };
        reached.insert(key_of(&g));
        let mut steps = 0;
        while !g.is_over() && steps < length {
            steps += 1;
            match g.phase() {
                Phase::Roll => {
                    let value = if meta.below(2) == 0 {
                        6
                    } else {
                        1 + meta.below(5) as u8
                    };
                    g.roll(value).unwrap();
                }
                _ => {
                    // Mostly a move that earns a bonus roll, if there is one.
                    let moves = g.legal_moves();
                    let earns = |mv: &Move| {
                        let mut h = g;
                        matches!(h.play(*mv), Ok(Event::Move { outcome, .. })
                            if outcome.captured_any() || outcome.reached_home)
                    };
                    let mv = match moves.iter().find(earns) {
                        Some(mv) if meta.below(4) != 0 => mv,
                        _ => g.random_move(meta).unwrap(),
                    };
                    g.play(mv).unwrap();
                }
            }
            reached.insert(key_of(&g));
            let keep = if g.passed().is_some() || g.is_over() {
                8
            } else {
                200
            };
            if samples.len() < 100 && meta.below(keep) == 0 {
                assert_eq!(Game::from_notation(&g.to_notation()), Ok(g));
                samples.push(g);
            }
        }
    }
    let mut tried = 0;
    for g in &samples {
        let text = g.to_notation();
        let f: Vec<&str> = text.split(' ').collect();
        let labels = g.rules().seat_labels;
        let current = g.current_player();
        let before = previous_active(g, current);
        for phase in ["r", "m3", "m6", "o"] {
            for sixes in 0..=3 {
                for extra in 0..=1 {
                    for passed in ['-', 'p', 's'] {
                        for forfeit in ["", "!"] {
                            let passed_field = match passed {
                                '-' if forfeit.is_empty() => "-".to_owned(),
                                '-' => continue,
                                'p' if before == current => continue,
                                'p' => format!("{}{forfeit}", labels[before]),
                                _ => format!("{}{forfeit}", labels[current]),
                            };
                            let turn = format!("{}:{phase}:{sixes}:{extra}", labels[current]);
                            let candidate =
                                [f[0], f[1], &turn, &passed_field, f[4], f[5]].join(" ");
                            tried += 1;
                            if let Ok(read) = Game::from_notation(&candidate) {
                                assert_eq!(read.to_notation(), candidate);
                                let key = key_of(&read);
                                if !reached.contains(&key) {
                                    eprintln!(
                                        "{candidate} is accepted, but play never reached {key:?} ({players} players)"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    tried
}

#[test]
fn moves_text_replays_exactly() {
    let start = Game::new(Rules::GT, &seat_list(&[0, 1, 2, 3]), 5).unwrap();
    let mut rec = GameRecord::new(start);
    let mut rng = Rng::new(9);
    rec.roll(Some(6)).unwrap();
    for _ in 0..400 {
        if rec.game().is_over() {
            break;
        }
        match rec.game().phase() {
            Phase::Roll => {
                rec.roll(None).unwrap();
            }
            _ => {
                let moves = rec.game().legal_moves();
                let mv = moves
                    .iter()
                    .nth(rng.below(moves.len() as u32) as usize)
                    .unwrap();
                rec.play(mv).unwrap();
            }
        }
    }
    let text = rec.moves_text();
    assert!(text.starts_with("=6 "));
    let again = GameRecord::replay(start, &text).unwrap();
    assert_eq!(again, rec);
    assert!(GameRecord::replay(start, "=6 B").is_err());
    assert!(GameRecord::replay(start, "=7").is_err());
}

#[test]
fn validate_accepts_what_play_reaches_and_refuses_a_hand_made_impossibility() {
    let mut g = Game::new(Rules::CS162, &seat_list(&[0, 1]), 3).unwrap();
    let mut rng = Rng::new(9);
    for _ in 0..200 {
        if g.is_over() {
            break;
        }
        assert_eq!(g.validate(), Ok(()), "{}", g.to_notation());
        match g.phase() {
            Phase::Move(_) => g.play(g.random_move(&mut rng).unwrap()).unwrap(),
            _ => g.roll_die().unwrap(),
        };
    }
    // Both of A's tokens home, yet A is not ranked and the game goes on.
    let mut h = Game::new(Rules::CS162, &seat_list(&[0, 1]), 3).unwrap();
    h.set_step(seat_no(0), token_no(0), 57);
    h.set_step(seat_no(0), token_no(1), 57);
    assert!(matches!(h.validate(), Err(LudoError::InvalidNotation(_))));
}

/// A CS162 game of two seats with seed `seed`, played by random moves for `events` events.
fn played(seed: u64, events: usize) -> GameRecord {
    let mut rec = GameRecord::new(Game::new(Rules::CS162, &seat_list(&[0, 1]), seed).unwrap());
    let mut rng = Rng::new(3);
    while rec.len() < events && !rec.game().is_over() {
        match rec.game().phase() {
            Phase::Roll => {
                rec.roll(None).unwrap();
            }
            _ => {
                let mv = rec.game().random_move(&mut rng).unwrap();
                rec.play(mv).unwrap();
            }
        }
    }
    rec
}

#[test]
fn a_hidden_die_is_written_as_a_dash_and_read_only_with_a_seed() {
    let seed = 0x0123_4567_89ab_cdef;
    let rec = played(seed, 40);
    let game = *rec.game();
    let hidden = game.to_notation_hiding_die();
    let full = game.to_notation();
    assert_eq!(hidden.rsplit_once(' ').unwrap().1, HIDDEN_DIE);
    assert_eq!(
        hidden.rsplit_once(' ').unwrap().0,
        full.rsplit_once(' ').unwrap().0
    );
    assert!(!hidden.contains(&format!("{:016x}", game.rng().state())));
    // refused without a seed, with a message saying so; seeded, the same position
    let err = Game::from_notation(&hidden).unwrap_err().to_string();
    assert!(err.contains("hidden"), "{err}");
    let (read, used) = Game::from_notation_seeded(&hidden, DieSeed::IfHidden(7)).unwrap();
    assert_eq!(used, Some(7));
    assert_eq!(read.rng(), Rng::new(7));
    assert_eq!(read.to_notation_hiding_die(), hidden);
    // a written die is kept unless a seed replaces it
    let (kept, none) = Game::from_notation_seeded(&full, DieSeed::IfHidden(7)).unwrap();
    assert_eq!((kept, none), (game, None));
    let (replaced, used) = Game::from_notation_seeded(&full, DieSeed::Seed(9)).unwrap();
    assert_eq!((replaced.rng(), used), (Rng::new(9), Some(9)));
    assert!(Game::from_notation(&hidden.replace(" -", " x")).is_err());
}

#[test]
fn a_save_hiding_the_die_has_no_seed_nor_die_state_and_plays_on_with_another_die() {
    let seed = 0x0123_4567_89ab_cdef;
    let rec = played(seed, 60);
    let saved = SavedGame {
        record: rec.clone(),
        seed: Some(seed),
    };
    let public = saved.to_json_hiding_die();
    // nothing of the die: not the seed (decimal or hex), no die state of any event
    assert!(!public.contains(&seed.to_string()));
    for (before, _) in rec.entries() {
        assert!(!public.contains(&format!("{:016x}", before.rng().state())));
    }
    assert!(!public.contains(&format!("{:016x}", rec.game().rng().state())));
    assert!(public.contains(r#""seed": null"#));
    assert!(
        !rec.moves_text_hiding_die()
            .split(' ')
            .any(|w| w.parse::<u8>().is_ok())
    );
    // refused without a die; with one, the same game with every roll given
    assert!(SavedGame::from_json(&public).is_err());
    let read = SavedGame::from_json_seeded(&public, DieSeed::IfHidden(11)).unwrap();
    assert_eq!(read.seed, Some(11));
    assert_eq!(read.record, rec.with_die(11).unwrap());
    assert_eq!(read.to_json_hiding_die(), public);
    // ... and it plays on with that die, and saves and loads as any game
    let mut on = read.record.clone();
    let mut die = Rng::new(11);
    if on.game().phase() == Phase::Roll {
        let Event::Roll {
            value, die: true, ..
        } = on.roll(None).unwrap()
        else {
            panic!("a die roll")
        };
        assert_eq!(value, die.die());
    }
    let again = SavedGame {
        record: on,
        seed: Some(11),
    };
    assert_eq!(SavedGame::from_json(&again.to_json()).unwrap(), again);
    // a die roll in a save whose die is hidden is refused by name
    let moves = rec.moves_text_hiding_die();
    let first = moves.split(' ').next().unwrap();
    let bad = public.replacen(first, &first[1..], 1);
    let err = SavedGame::from_json_seeded(&bad, DieSeed::IfHidden(1))
        .unwrap_err()
        .to_string();
    assert!(err.contains("hidden"), "{err}");
    // a seed beside a hidden die is refused; a full save continued with another die keeps
    // its moves, checked against its own die first
    let with_seed = public.replace(r#""seed": null"#, r#""seed": 5"#);
    assert!(SavedGame::from_json_seeded(&with_seed, DieSeed::IfHidden(1)).is_err());
    let full = saved.to_json();
    let continued = SavedGame::from_json_seeded(&full, DieSeed::Seed(12)).unwrap();
    assert_eq!(continued.record, rec.with_die(12).unwrap());
    let first = rec.moves_text().split(' ').next().unwrap().to_owned();
    let other = if first == "6" { "5" } else { "6" };
    let tampered = full.replacen(
        &format!(r#""moves": "{first} "#),
        &format!(r#""moves": "{other} "#),
        1,
    );
    assert_ne!(tampered, full);
    assert!(SavedGame::from_json_seeded(&tampered, DieSeed::Seed(12)).is_err());
}
