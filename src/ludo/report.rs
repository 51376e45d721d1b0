//! The results of a simulation together with what was simulated: the rules, the seats that
//! played and the name of each seat's bot. Reports of the same run add up (`a` then `b`),
//! give their statistics, and save to compact bytes (pickling uses them).
//!
//! ```
//! use ludogame::ludo::report::Report;
//! use ludogame::ludo::sim::SimConfig;
//! use ludogame::ludo::{Bot, Rules};
//!
//! let config = SimConfig { rules: Rules::CS162, seats: vec![0, 2], bots: vec![Bot::Cs162, Bot::Random], seed: 1 };
//! let names = vec!["cs162".to_owned(), "random".to_owned()];
//! let report = |start, count| Report::new(&config, names.clone(), config.run(start, count, 1)).unwrap();
//! let whole = Report::join(&[&report(0, 40), &report(40, 60)]).unwrap();
//! assert_eq!(whole, report(0, 100));
//! assert_eq!(Report::from_bytes(&whole.to_bytes()).unwrap(), whole);
//! ```

use std::collections::BTreeMap;

use super::error::LudoError;
use super::rules::Rules;
use super::seat::{MAX_SEATS, Seat};
use super::sim::{SimConfig, SimResult};

/// Results of a run with the rules, seats and bot names they belong to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The rules played.
    pub rules: Rules,
    /// The seats that played, in turn order.
    pub seats: Vec<Seat>,
    /// The name of each seat's bot (in `seats` order).
    pub bot_names: Vec<String>,
    /// The games' results.
    pub result: SimResult,
}

/// The first bytes of [`Report::to_bytes`].
const MAGIC: &[u8; 8] = b"LGSIM\x00\x00\x01";

impl Report {
    /// The report of `result`, games of `config`, with one bot name per seat.
    pub fn new(
        config: &SimConfig,
        bot_names: Vec<String>,
        result: SimResult,
    ) -> Result<Report, LudoError> {
        let report = Report {
            rules: config.rules,
            seats: config.playing()?,
            bot_names,
            result,
        };
        report.check()?;
        Ok(report)
    }

    /// The results in one line: games, each player's wins (with its bot) and the mean
    /// length, e.g. `games=100, wins: A(random)=52 C(cs162)=48, mean_length=71.3`.
    pub fn summary(&self) -> String {
        let wins: Vec<String> = (self.labels().iter().zip(&self.seats).zip(&self.bot_names))
            .map(|((l, &s), b)| format!("{l}({b})={}", self.result.wins[s]))
            .collect();
        format!(
            "games={}, wins: {}, mean_length={:.1}",
            self.result.games,
            wins.join(" "),
            self.mean_length()
        )
    }

    /// The seats' labels (`'A'`...), in turn order.
    pub fn labels(&self) -> Vec<char> {
        self.seats
            .iter()
            .map(|&s| self.rules.seat_label(s))
            .collect()
    }

    /// Mean game length in die rolls (0 without games).
    pub fn mean_length(&self) -> f64 {
        self.result.total_rolls as f64 / self.result.games.max(1) as f64
    }

    /// Mean captures per game (0 without games).
    pub fn mean_captures(&self) -> f64 {
        self.result.total_captures as f64 / self.result.games.max(1) as f64
    }

    /// How many games took each number of rolls.
    pub fn length_histogram(&self) -> BTreeMap<u32, u64> {
        let mut h = BTreeMap::new();
        for &r in &self.result.rolls {
            *h.entry(r).or_insert(0) += 1;
        }
        h
    }

    /// Refuse to add a report of other rules, players or bots.
    pub fn check_addable(&self, other: &Report) -> Result<(), LudoError> {
        if other.rules != self.rules {
            return Err(LudoError::InvalidRules(format!(
                "results of different rules cannot be added: '{}' and '{}'",
                self.rules, other.rules
            )));
        }
        if other.seats != self.seats {
            let names = |r: &Report| r.labels().into_iter().collect::<String>();
            // InvalidBot, as it has always been for different players.
            return Err(LudoError::InvalidBot(format!(
                "results of different players cannot be added: {} and {}",
                names(self),
                names(other)
            )));
        }
        if other.bot_names != self.bot_names {
            return Err(LudoError::InvalidBot(format!(
                "results of different bots cannot be added: {} and {}",
                self.bot_names.join(","),
                other.bot_names.join(",")
            )));
        }
        Ok(())
    }

    /// `parts[0]` followed by `parts[1]`... (the next games of the same run), in one pass.
    /// At least one part is needed, all of the same rules, players and bots.
    pub fn join(parts: &[&Report]) -> Result<Report, LudoError> {
        let Some(first) = parts.first() else {
            return Err(LudoError::InvalidArgument(
                "there are no results to join".into(),
            ));
        };
        let mut result = SimResult::default();
        let games: u64 = parts.iter().map(|p| p.result.games).sum();
        let n = usize::try_from(games).unwrap_or(0);
        result.rolls.reserve(n);
        result.captures.reserve(n);
        result
            .finishing
            .reserve(n.saturating_mul(first.seats.len()));
        for p in parts {
            first.check_addable(p)?;
            result.extend(p.result.clone());
        }
        Ok(Report {
            result,
            ..(*first).clone()
        })
    }

    /// One bot name per seat, and per-game data that match the number of games.
    fn check(&self) -> Result<(), LudoError> {
        if self.seats.is_empty() || self.bot_names.len() != self.seats.len() {
            return Err(bad("one bot name per player is needed"));
        }
        let r = &self.result;
        let n = usize::try_from(r.games).map_err(|_| bad("too many games"))?;
        if r.rolls.len() != n
            || r.captures.len() != n
            || n.checked_mul(self.seats.len()) != Some(r.finishing.len())
        {
            return Err(bad("the per-game data do not match the number of games"));
        }
        Ok(())
    }

    /// The report as bytes: a format tag, the rules notation, the seats, the bot names,
    /// the counts, then every game's rolls, captures and finishing order (little-endian).
    pub fn to_bytes(&self) -> Vec<u8> {
        let r = &self.result;
        let mut out = Vec::with_capacity(128 + r.rolls.len() * (6 + self.seats.len()));
        out.extend_from_slice(MAGIC);
        let text = |out: &mut Vec<u8>, s: &str| {
            out.extend_from_slice(&(s.len() as u64).to_le_bytes());
            out.extend_from_slice(s.as_bytes());
        };
        text(&mut out, &self.rules.to_string());
        out.push(self.seats.len() as u8);
        out.extend(self.seats.iter().map(|s| s.index() as u8));
        for name in &self.bot_names {
            text(&mut out, name);
        }
        for count in [r.games, r.unfinished, r.total_rolls, r.total_captures]
            .into_iter()
            .chain(r.wins)
        {
            out.extend_from_slice(&count.to_le_bytes());
        }
        out.extend(r.rolls.iter().flat_map(|x| x.to_le_bytes()));
        out.extend(r.captures.iter().flat_map(|x| x.to_le_bytes()));
        out.extend_from_slice(&r.finishing);
        out
    }

    /// A report read back from [`Report::to_bytes`]; anything else is
    /// [`LudoError::InvalidArgument`] saying what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Report, LudoError> {
        let rest = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or_else(|| bad("the format tag is missing"))?;
        let mut input = Reader(rest);
        let rules: Rules = input.text()?.parse()?;
        let n_seats = usize::from(input.take(1)?[0]);
        let seats = input
            .take(n_seats)?
            .iter()
            .map(|&i| Seat::new(usize::from(i)).ok_or_else(|| bad("a seat is out of range")))
            .collect::<Result<Vec<_>, _>>()?;
        let bot_names = (0..n_seats)
            .map(|_| input.text())
            .collect::<Result<Vec<_>, _>>()?;
        let [games, unfinished, total_rolls, total_captures] = [(); 4].map(|()| input.number());
        let mut wins = [0; MAX_SEATS];
        for w in &mut wins {
            *w = input.number()?;
        }
        let games = games?;
        let n = usize::try_from(games).map_err(|_| bad("too many games"))?;
        let sized = |per: usize| n.checked_mul(per).ok_or_else(|| bad("too many games"));
        let rolls = input
            .take(sized(4)?)?
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let captures = input
            .take(sized(2)?)?
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect();
        let finishing = input.take(sized(n_seats)?)?.to_vec();
        if !input.0.is_empty() {
            return Err(bad("there are bytes after the data"));
        }
        let report = Report {
            rules,
            seats,
            bot_names,
            result: SimResult {
                games,
                wins,
                rolls,
                captures,
                finishing,
                unfinished: unfinished?,
                total_rolls: total_rolls?,
                total_captures: total_captures?,
            },
        };
        report.check()?;
        // The seats must be a line-up the rules allow.
        super::game::Game::new(report.rules, &report.seats, 0)?;
        Ok(report)
    }
}

/// The error of bytes that are not a saved report.
fn bad(what: &str) -> LudoError {
    LudoError::InvalidArgument(format!("not a simulation result: {what}"))
}

/// Reads [`Report::to_bytes`]'s data front to back.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], LudoError> {
        if self.0.len() < n {
            return Err(bad("the data end too early"));
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Ok(head)
    }

    fn number(&mut self) -> Result<u64, LudoError> {
        let b = self.take(8)?;
        Ok(u64::from_le_bytes(
            b.try_into().map_err(|_| bad("a count"))?,
        ))
    }

    fn text(&mut self) -> Result<String, LudoError> {
        let len = usize::try_from(self.number()?).map_err(|_| bad("a text is too long"))?;
        String::from_utf8(self.take(len)?.to_vec()).map_err(|_| bad("a text is not UTF-8"))
    }
}
