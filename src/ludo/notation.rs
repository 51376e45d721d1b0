//! Compact text notations that round-trip exactly:
//! - rules: the preset's name and any changed options, `standard[tokens=2,safe_squares=true]`;
//! - a position ([`Game::to_notation`]): rules, every token's step count, whose turn and
//!   phase, the turn's counters, the last pass, the ranking and the die's state, e.g.
//!   `cs162 A28.28/B21.-1 A:r:0:0 - - 000000000000002a`;
//! - a game's moves ([`GameRecord::moves_text`]): rolls and move names separated by
//!   spaces, a given (not rolled) value marked `=`: `6 Ap 4 Ap =3`.

use super::board::{Step, in_yard};
use super::error::LudoError;
use super::game::{Event, Game, GameRecord, NONE, Phase};
use super::rng::Rng;
use super::rules::{
    EndCondition, MAX_SEATS, OPTION_NAMES, OptionValue, OwnTokens, Rules, Seat, SixBonus,
};

fn bad(what: &str, text: &str) -> LudoError {
    LudoError::InvalidNotation(format!("{what} in '{text}'"))
}

impl Rules {
    /// The rules as text: the preset's name, then the options that differ from it.
    pub fn to_notation(&self) -> String {
        let base = Rules::preset(self.name()).unwrap_or(Rules::CS162).options();
        let changed: Vec<String> = self
            .options()
            .into_iter()
            .zip(base)
            .filter(|(a, b)| a != b)
            .map(|((name, value), _)| match value {
                OptionValue::Str(s) => format!("{name}={s}"),
                other => format!("{name}={other}"),
            })
            .collect();
        if changed.is_empty() {
            self.name().to_owned()
        } else {
            format!("{}[{}]", self.name(), changed.join(","))
        }
    }

    /// Read rules written by [`Rules::to_notation`] (and validate them).
    pub fn from_notation(text: &str) -> Result<Rules, LudoError> {
        let (name, options) = match text.split_once('[') {
            Some((name, rest)) => (
                name,
                rest.strip_suffix(']')
                    .ok_or_else(|| bad("unclosed option list", text))?,
            ),
            None => (text, ""),
        };
        let mut rules = Rules::preset(name)?;
        for item in options.split(',').filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| bad("an option without '='", text))?;
            if !OPTION_NAMES.contains(&key) {
                return Err(bad(&format!("unknown option '{key}'"), text));
            }
            let value = match value {
                "true" => OptionValue::Bool(true),
                "false" => OptionValue::Bool(false),
                v => match v.parse::<i64>() {
                    Ok(i) => OptionValue::Int(i),
                    Err(_) => OptionValue::Str(v.to_owned()),
                },
            };
            rules.set_option(key, &value)?;
        }
        rules.validate()?;
        Ok(rules)
    }
}

impl Game {
    /// The position as one line of text; [`Game::from_notation`] reads it back exactly.
    pub fn to_notation(&self) -> String {
        let r = &self.rules;
        let board: Vec<String> = self
            .seats()
            .map(|seat| {
                let steps: Vec<String> = self.board.seat_steps(seat)[..r.tokens as usize]
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                format!("{}{}", r.seat_labels[seat], steps.join("."))
            })
            .collect();
        let phase = match self.turn.phase {
            Phase::Roll => "r".to_owned(),
            Phase::Move(roll) => format!("m{roll}"),
            Phase::Over => "o".to_owned(),
        };
        let passed = match self.passed() {
            None => "-".to_owned(),
            Some((seat, forfeit)) => {
                format!("{}{}", r.seat_labels[seat], if forfeit { "!" } else { "" })
            }
        };
        let ranking: String = self.ranking().map(|s| r.seat_labels[s]).collect();
        format!(
            "{} {} {}:{}:{}:{} {} {} {:016x}",
            r.to_notation(),
            board.join("/"),
            r.seat_labels[self.turn.current as usize],
            phase,
            self.turn.sixes,
            u8::from(self.turn.extra),
            passed,
            if ranking.is_empty() {
                "-".to_owned()
            } else {
                ranking
            },
            self.rng.state()
        )
    }

    /// Read a position written by [`Game::to_notation`]. Anything that no game could
    /// reach in those rules (a step out of range, two players on one square, a ranking
    /// that does not match the finished players, ...) is refused.
    pub fn from_notation(text: &str) -> Result<Game, LudoError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [rules, board, turn, passed, ranking, rng] = fields[..] else {
            return Err(bad(
                "expected 6 fields (rules board turn passed ranking die)",
                text,
            ));
        };
        let rules = Rules::from_notation(rules)?;
        let seat_of = |c: char| {
            rules
                .seat_of(c)
                .ok_or_else(|| bad(&format!("unknown position '{c}'"), text))
        };

        let mut seats: Vec<Seat> = Vec::new();
        let mut steps: Vec<Vec<Step>> = Vec::new();
        for part in board.split('/') {
            let mut chars = part.chars();
            let seat = seat_of(
                chars
                    .next()
                    .ok_or_else(|| bad("an empty board part", text))?,
            )?;
            if seats.contains(&seat) {
                return Err(bad("a position listed twice", text));
            }
            let values: Result<Vec<Step>, _> = chars
                .as_str()
                .split('.')
                .map(|v| v.parse::<Step>())
                .collect();
            let values = values.map_err(|_| bad("a step count that is not a number", text))?;
            if values.len() != rules.tokens as usize {
                return Err(bad(
                    &format!(
                        "{} step counts for '{part}' (the rules have {} tokens)",
                        values.len(),
                        rules.tokens
                    ),
                    text,
                ));
            }
            seats.push(seat);
            steps.push(values);
        }
        let mut order = seats.clone();
        order.sort();
        let mut game = Game::new(rules, &order, 0)?;
        for (&seat, values) in seats.iter().zip(&steps) {
            for (t, &s) in values.iter().enumerate() {
                let lowest = if rules.yard_slots {
                    -(rules.tokens as Step)
                } else {
                    -1
                };
                if s < lowest || s > rules.finish_step {
                    return Err(bad(&format!("step count {s} out of range"), text));
                }
                game.board.set_step(seat, t, s);
            }
            if rules.yard_slots {
                let yard: Vec<Step> = values.iter().copied().filter(|&s| in_yard(s)).collect();
                if (1..yard.len()).any(|i| yard[..i].contains(&yard[i])) {
                    return Err(bad("two tokens on one start slot", text));
                }
            }
            if rules.own_tokens == OwnTokens::Bump {
                let out: Vec<Step> = values.iter().copied().filter(|&s| !in_yard(s)).collect();
                if (1..out.len()).any(|i| out[..i].contains(&out[i])) {
                    return Err(bad("two own tokens on one square (bumping rules)", text));
                }
            }
        }
        for (i, &a) in order.iter().enumerate() {
            for &c in &order[i + 1..] {
                for ta in 0..rules.tokens as usize {
                    for tc in 0..rules.tokens as usize {
                        let x = rules.track_square(a, game.board.step(a, ta));
                        if x.is_some()
                            && x == rules.track_square(c, game.board.step(c, tc))
                            && !rules.is_safe_square(x.unwrap_or(0))
                        {
                            return Err(bad("two players on one track square", text));
                        }
                    }
                }
            }
        }

        let tf: Vec<&str> = turn.split(':').collect();
        let [current, phase, sixes, extra] = tf[..] else {
            return Err(bad("the turn field is not current:phase:sixes:extra", text));
        };
        let mut cc = current.chars();
        let current = match (cc.next(), cc.next()) {
            (Some(c), None) => seat_of(c)?,
            _ => return Err(bad("the current player is not one position", text)),
        };
        if !order.contains(&current) {
            return Err(bad("the current player does not play", text));
        }
        game.turn.current = current as u8;
        game.turn.phase = match phase {
            "r" => Phase::Roll,
            "o" => Phase::Over,
            p if p.len() == 2 && p.starts_with('m') => match p[1..].parse::<u8>() {
                Ok(roll @ 1..=6) => Phase::Move(roll),
                _ => return Err(bad("a pending roll outside 1-6", text)),
            },
            _ => return Err(bad("the phase is not r, m1-m6 or o", text)),
        };
        game.turn.sixes = match sixes.parse::<u8>() {
            Ok(n) if rules.six_limit == 0 || n < rules.six_limit => n,
            _ => return Err(bad("the count of 6s in a row is out of range", text)),
        };
        game.turn.extra = match extra {
            "0" => false,
            "1" => true,
            _ => return Err(bad("the extra-roll flag is not 0 or 1", text)),
        };
        (game.turn.passed, game.turn.passed_by_forfeit) = match passed {
            "-" => (NONE, false),
            p => {
                let (label, forfeit) = match p.strip_suffix('!') {
                    Some(l) => (l, true),
                    None => (p, false),
                };
                let mut lc = label.chars();
                match (lc.next(), lc.next()) {
                    (Some(c), None) if order.contains(&seat_of(c)?) => (seat_of(c)? as u8, forfeit),
                    _ => return Err(bad("the passed player does not play", text)),
                }
            }
        };
        if ranking != "-" {
            for c in ranking.chars() {
                let seat = seat_of(c)?;
                if !order.contains(&seat) || game.ranking().any(|s| s == seat) {
                    return Err(bad(
                        "the ranking names a player twice or one who does not play",
                        text,
                    ));
                }
                game.turn.push_ranked(seat as u8);
            }
        }
        game.rng = Rng::new(
            u64::from_str_radix(rng, 16)
                .map_err(|_| bad("the die state is not hexadecimal", text))?,
        );
        // Only the state the engine itself could have reached: a rolled-back replay of
        // the checks the engine keeps while playing.
        game.refresh_pending();
        check_consistent(&game).map_err(|what| bad(what, text))?;
        Ok(game)
    }
}

/// The checks that tie the turn, the ranking and the board together.
fn check_consistent(g: &Game) -> Result<(), &'static str> {
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
    if over != (g.turn.phase == Phase::Over) {
        return Err("the phase does not match whether the game is over");
    }
    for &s in &finished {
        if !ranked.contains(&s) {
            return Err("a finished player is missing from the ranking");
        }
    }
    let full = g.rules.end == EndCondition::FullRanking && over;
    for (i, &s) in ranked.iter().enumerate() {
        let last_of_full = full && i == ranked.len() - 1 && ranked.len() == seats.len();
        if !g.is_finished(s) && !last_of_full {
            return Err("the ranking names a player who has not finished");
        }
    }
    if full && ranked.len() != seats.len() {
        return Err("a finished game must rank every player");
    }
    // Play stops at the first finisher (first-winner) or when one player is left
    // (full ranking): no more players can have finished than that.
    let most = match g.rules.end {
        EndCondition::FirstWinner => 1,
        EndCondition::FullRanking => seats.len().saturating_sub(1).max(1),
    };
    if finished.len() > most {
        return Err("more players have finished than the game lets finish");
    }
    if !over && g.is_finished(g.turn.current as Seat) {
        return Err("the current player has already finished");
    }
    if let Phase::Move(roll) = g.turn.phase
        && g.moves_for(g.turn.current as Seat, roll).is_empty()
    {
        return Err("a pending roll with no legal move");
    }
    if g.turn.passed != NONE && g.turn.phase != Phase::Roll {
        return Err("a pass is only shown while waiting for a roll");
    }
    if g.turn.extra && g.turn.phase == Phase::Over {
        return Err("an extra roll after the game is over");
    }
    // The count of 6s in a row: a pending 6 counts itself, any other pending roll ends the
    // run, and between rolls a run of 6s goes on only with an extra roll.
    match g.turn.phase {
        Phase::Move(6) if g.turn.sixes == 0 => return Err("a pending 6 not counted among the 6s"),
        Phase::Move(roll) if roll != 6 && g.turn.sixes != 0 => {
            return Err("6s in a row counted under a pending roll that is not a 6");
        }
        Phase::Roll if g.turn.sixes > 0 && !g.turn.extra => {
            return Err("6s in a row counted without an extra roll");
        }
        Phase::Over if g.turn.sixes != 0 => {
            return Err("6s in a row counted after the game is over");
        }
        _ => {}
    }
    let r = &g.rules;
    if r.six_bonus == SixBonus::Once
        && !r.capture_bonus
        && !r.finish_bonus
        && g.turn.sixes > if g.turn.phase == Phase::Roll { 1 } else { 2 }
    {
        return Err("more 6s in a row than one extra roll per 6 allows");
    }
    let _ = MAX_SEATS;
    Ok(())
}

impl GameRecord {
    /// Every roll and move so far as text: `6 Ap 4 Ap =3` (`=` marks a value given by the
    /// caller instead of rolled with the die).
    pub fn moves_text(&self) -> String {
        let mut words = Vec::with_capacity(self.past.len());
        for (before, event) in &self.past {
            words.push(match *event {
                Event::Roll {
                    value, die: true, ..
                } => value.to_string(),
                Event::Roll {
                    value, die: false, ..
                } => format!("={value}"),
                Event::Move { mv, .. } => before.move_name(&mv),
            });
        }
        words.join(" ")
    }

    /// Replay `text` (as written by [`GameRecord::moves_text`]) from `start`; every roll
    /// and move is checked as if played. Die rolls must match what the die gives.
    pub fn replay(start: Game, text: &str) -> Result<GameRecord, LudoError> {
        let mut record = GameRecord::new(start);
        for (i, word) in text.split_whitespace().enumerate() {
            let at = |e: LudoError| LudoError::InTurn {
                index: i,
                source: Box::new(e),
            };
            if let Some(v) = word.strip_prefix('=') {
                let value = v
                    .parse::<u8>()
                    .map_err(|_| at(LudoError::InvalidRoll(v.to_owned())))?;
                record.roll(Some(value)).map_err(at)?;
            } else if let Ok(value) = word.parse::<u8>() {
                let event = record.roll(None).map_err(at)?;
                if !matches!(event, Event::Roll { value: v, .. } if v == value) {
                    record.undo();
                    return Err(at(LudoError::InvalidNotation(format!(
                        "the die gives another value than {value} here"
                    ))));
                }
            } else {
                let mv = record.game().parse_move(word).map_err(at)?;
                record.play(mv).map_err(at)?;
            }
        }
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ludo::game::Move;

    #[test]
    fn rules_notation_round_trips() {
        let mut r = Rules::STANDARD;
        assert_eq!(r.to_notation(), "standard");
        r.tokens = 2;
        r.safe_squares = true;
        r.own_tokens = OwnTokens::Block;
        let text = r.to_notation();
        assert_eq!(
            text,
            "standard[tokens=2,own_tokens=block,safe_squares=true]"
        );
        assert_eq!(Rules::from_notation(&text), Ok(r));
        assert!(Rules::from_notation("standard[tokens=9]").is_err());
        assert!(Rules::from_notation("standard[colour=red]").is_err());
        assert!(Rules::from_notation("standard[tokens=2").is_err());
    }

    #[test]
    fn game_notation_round_trips() {
        let mut g = Game::new(Rules::CS162, &[0, 1], 42).unwrap();
        assert_eq!(
            g.to_notation(),
            "cs162 A-1.-1/B-1.-1 A:r:0:0 - - 000000000000002a"
        );
        g.roll(6).unwrap();
        assert_eq!(Game::from_notation(&g.to_notation()), Ok(g));
        g.play(Move {
            seat: 0,
            token: 0,
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
            seat: 0,
            token: 0,
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
        let mut g = Game::new(Rules::GT, &[0, 1, 2, 3], 1).unwrap();
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
    fn moves_text_replays_exactly() {
        let start = Game::new(Rules::GT, &[0, 1, 2, 3], 5).unwrap();
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
}
