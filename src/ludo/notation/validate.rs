//! Whether a position read from notation is one the engine itself could reach: the board,
//! the ranking and the turn agree ([`check_consistent`]), and the turn's counters are a
//! state that play produces from the start of a turn ([`turn_reach`]).

use super::*;

impl Game {
    /// Whether this state is one play can reach: the board, the ranking and the turn agree,
    /// and the turn's counters are a state play produces from the start of a turn. Every
    /// state the engine plays into passes; [`Game::from_notation`] refuses any that does not.
    pub fn validate(&self) -> Result<(), LudoError> {
        check_consistent(self).map_err(LudoError::InvalidNotation)
    }
}

/// The checks that tie the turn, the ranking and the board together (listed at
/// [`Game::from_notation`]).
pub(super) fn check_consistent(g: &Game) -> Result<(), String> {
    let seats: Vec<Seat> = g.seats().collect();
    let finished: Vec<Seat> = seats
        .iter()
        .copied()
        .filter(|&s| g.is_finished(s))
        .collect();
    let ranked: Vec<Seat> = g.ranking().collect();
    let left = seats.len() - finished.len();
    let over = match g.rules.end {
        EndCondition::FirstWinner => !finished.is_empty(),
        EndCondition::FullRanking => left == 0 || (seats.len() > 1 && left <= 1),
    };
    let fail = |what: &str| Err(what.to_owned());
    if over != (g.turn.phase() == Phase::Over) {
        return fail("the phase does not match whether the game is over");
    }
    for &s in &finished {
        if !ranked.contains(&s) {
            return fail("a finished player is missing from the ranking");
        }
    }
    let full = g.rules.end == EndCondition::FullRanking && over;
    for (i, &s) in ranked.iter().enumerate() {
        let last_of_full = full && i == ranked.len() - 1 && ranked.len() == seats.len();
        if !g.is_finished(s) && !last_of_full {
            return fail("the ranking names a player who has not finished");
        }
    }
    if full && ranked.len() != seats.len() {
        return fail("a finished game must rank every player");
    }
    // Play stops at the first finisher (first-winner) or when one player is left
    // (full ranking): no more players can have finished than that.
    let most = match g.rules.end {
        EndCondition::FirstWinner => 1,
        EndCondition::FullRanking => seats.len().saturating_sub(1).max(1),
    };
    if finished.len() > most {
        return fail("more players have finished than the game lets finish");
    }
    let current = g.turn.current();
    if over {
        // The move that ends the game leaves the turn with its mover, the last to finish.
        if ranked.get(finished.len().wrapping_sub(1)) != Some(&current) {
            return fail("the game is over but the current player is not the last to finish");
        }
    } else if g.is_finished(current) {
        return fail("the current player has already finished");
    }
    if let Phase::Move(roll) = g.turn.phase()
        && g.moves_for(current, roll).is_empty()
    {
        return fail("a pending roll with no legal move");
    }
    if let Some(passer) = g.turn.passed_seat() {
        if g.turn.phase() != Phase::Roll {
            return fail("a pass is only shown while waiting for a roll");
        }
        if g.is_finished(passer) {
            return fail("the player whose turn passed has finished");
        }
        if passer != current && next_active(g, passer) != current {
            return fail("the turn passed, but not to the current player");
        }
    }
    if over {
        if g.turn.sixes() != 0 || g.turn.extra() {
            return fail("6s in a row or an extra roll counted after the game is over");
        }
        return Ok(());
    }
    match turn_reach(g) {
        Reach::Yes => Ok(()),
        Reach::NotOnThisBoard => Err(format!(
            "player {} has a legal move with every roll that would have passed its turn",
            g.rules.seat_label(g.turn.passed_seat().unwrap_or_default())
        )),
        Reach::No => Err(unreachable_turn(g)),
    }
}

/// The next seat after `seat`, going round, that has not finished.
fn next_active(g: &Game, seat: Seat) -> Seat {
    let seats: Vec<Seat> = g.seats().filter(|&s| !g.is_finished(s)).collect();
    seats
        .iter()
        .copied()
        .find(|&s| s > seat)
        .or_else(|| seats.first().copied())
        .unwrap_or(seat)
}

/// Whether play reaches a position's turn state.
#[derive(Debug, PartialEq, Eq)]
enum Reach {
    /// It does.
    Yes,
    /// The turn rules produce it, but the last step into it does not fit the board (a
    /// pass for want of a move by a player who can move).
    NotOnThisBoard,
    /// The turn rules never produce it.
    No,
}

/// Can play reach the turn state of `g` (which is not over)? The engine's own turn rules
/// ([`Turn::begin_roll`], [`Turn::cannot_move`], [`Turn::after_move`]) are run from the
/// start of a turn over every die value and every outcome the board may give: a roll with
/// or without a legal move, a move with or without a capture and with or without a token
/// brought home (when these give extra rolls, no more of them than the board shows: a
/// token captured this turn is still in its yard, a token brought home is still home). The
/// turn runs on two stand-in seats, 0 for the player whose turn it is (or whose turn just
/// passed) and 1 for the next one, or on one seat when one player is left. The last step
/// into the state must also fit the board: a turn that passed for want of a move needs a
/// roll with which the passer has no move now (a pass changes nothing on the board).
fn turn_reach(g: &Game) -> Reach {
    let r = &g.rules;
    let t = &g.turn;
    let active = g.seats().filter(|&s| !g.is_finished(s)).count();
    let playing: u8 = if active > 1 { 0b11 } else { 0b01 };
    let start = Turn::new(playing);
    let [first, second, ..] = Seat::ALL;
    let mut target = TurnBuilder::new(playing);
    target.phase(t.phase()).counters(t.sixes(), t.extra());
    if let Some(passer) = t.passed_seat() {
        let moved_on = passer != t.current();
        let stand_in = target
            .passed(Some(first), t.passed_by_forfeit())
            .and_then(|b| if moved_on { b.current(second) } else { Ok(b) });
        if stand_in.is_err() {
            // The turn passed on although one player is left: no turn rule does that.
            return Reach::No;
        }
    }
    let target = target.build();
    // The stand-in seat 0: whoever passed, or else the current player.
    let mover = t.passed_seat().unwrap_or(t.current());
    // Bonus rolls need board events that leave their mark: every capture of this turn sent
    // an opponent's token to its yard, every token brought home is still home.
    let tokens = |seat: Seat| r.all_tokens().map(move |t| g.board.step(seat, t));
    let captures = if r.capture_bonus {
        g.seats()
            .filter(|&s| s != mover)
            .map(|s| tokens(s).filter(|&x| in_yard(x)).count())
            .sum::<usize>()
    } else {
        0
    };
    let homes = if r.finish_bonus {
        tokens(mover).filter(|&x| x >= r.home_step).count()
    } else {
        0
    };
    // A run of 6s longer than the target's needs not be followed: a roll other than 6
    // leads to the same states from any run of 6s. A forfeit needs the run to reach the six
    // limit, though it resets the count: runs up to the limit are followed too.
    let cap = t.sixes().max(r.six_limit).saturating_add(2);
    if target == start {
        return Reach::Yes;
    }
    // A state of the search: the turn, and the captures and tokens brought home so far.
    let mut seen: HashSet<(Turn, usize, usize)> = HashSet::from([(start, 0, 0)]);
    let mut todo = vec![(start, 0, 0)];
    let mut found = false;
    while let Some((s, captured_so_far, home_so_far)) = todo.pop() {
        if s.current() != first {
            continue; // the turn passed on: the next player's turn starts like this one's
        }
        let mut next: Vec<(Turn, usize, usize, bool)> = Vec::new();
        match s.phase() {
            Phase::Roll => {
                for value in 1..=6 {
                    let mut rolled = s;
                    let (c, h) = (captured_so_far, home_so_far);
                    if !rolled.begin_roll(r, playing, value) {
                        next.push((rolled, c, h, true)); // forfeit
                        continue;
                    }
                    let mut stuck = rolled;
                    stuck.cannot_move(r, playing, value);
                    next.push((stuck, c, h, g.moves_for(mover, value).is_empty()));
                    rolled.await_move(value);
                    next.push((rolled, c, h, true));
                }
            }
            Phase::Move(roll) => {
                for captured in [false, captured_so_far < captures] {
                    for reached_home in [false, home_so_far < homes] {
                        let mut moved = s;
                        moved.after_move(r, playing, roll, false, captured, reached_home);
                        let c = captured_so_far + usize::from(captured);
                        let h = home_so_far + usize::from(reached_home);
                        next.push((moved, c, h, true));
                    }
                }
            }
            Phase::Over => {}
        }
        for (n, c, h, fits) in next {
            if n == target {
                if fits {
                    return Reach::Yes;
                }
                found = true;
            }
            if n.sixes() <= cap && seen.insert((n, c, h)) {
                todo.push((n, c, h));
            }
        }
    }
    if found {
        Reach::NotOnThisBoard
    } else {
        Reach::No
    }
}

/// Why the turn state of `g` is one play never reaches (the first reason that applies).
fn unreachable_turn(g: &Game) -> String {
    let r = &g.rules;
    let t = &g.turn;
    let passed = t.passed_seat();
    let passed_on = passed.is_some_and(|p| p != t.current());
    let option = |name: &str| {
        r.options()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.quoted())
            .unwrap_or_default()
    };
    let reason = if passed.is_some() && t.passed_by_forfeit() && r.six_limit == 0 {
        "a turn passed by forfeit ('!'), but these rules have no six limit".to_owned()
    } else if r.six_limit > 0 && t.sixes() >= r.six_limit {
        format!(
            "{} 6s in a row reach the six limit of {}, which forfeits the turn",
            t.sixes(),
            r.six_limit
        )
    } else if matches!(t.phase(), Phase::Move(roll) if roll != 6) && t.sixes() != 0 {
        "6s in a row counted under a pending roll that is not a 6".to_owned()
    } else if t.phase() == Phase::Move(6) && t.sixes() == 0 {
        "a pending 6 not counted among the 6s in a row".to_owned()
    } else if t.phase() == Phase::Roll && t.sixes() > 0 && !t.extra() {
        "6s in a row counted without an extra roll".to_owned()
    } else if passed_on && (t.sixes() != 0 || t.extra()) {
        "the turn just passed, but the current player's counters are not 0:0".to_owned()
    } else if passed == Some(t.current()) && !t.extra() && g.seats().count() > 1 {
        "the current player's own turn passed, but without another roll".to_owned()
    } else {
        format!(
            "the counters {}:{} {}cannot occur in these rules (six_bonus={}, six_limit={}, \
             capture_bonus={}, finish_bonus={})",
            t.sixes(),
            u8::from(t.extra()),
            match t.phase() {
                Phase::Move(roll) => format!("with a pending {roll} "),
                _ if passed == Some(t.current()) => "after the player's own pass ".to_owned(),
                _ => String::new(),
            },
            option("six_bonus"),
            option("six_limit"),
            option("capture_bonus"),
            option("finish_bonus")
        )
    };
    format!("an impossible turn: {reason}")
}
