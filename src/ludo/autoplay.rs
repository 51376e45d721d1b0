//! Playing a game on with a chooser in every seat: a built-in [`Bot`], or a [`Caller`]
//! outside the engine (a Python callable, a person at a front end) whose moves are checked
//! here. The loop behind `Game.autoplay` and behind simulations where some seats are
//! callers.
//!
//! ```
//! use ludogame::ludo::autoplay::{autoplay, Chooser, MAX_ROLLS};
//! use ludogame::ludo::play::{CutOff, Ending, Limits};
//! use ludogame::ludo::{Bot, Game, LudoError, Rng, Rules, Seat};
//!
//! let seats: Vec<Seat> = [0, 2].into_iter().filter_map(Seat::new).collect();
//! let mut game = Game::new(Rules::CS162, &seats, 7).unwrap();
//! let limits = Limits { max_rolls: u64::from(MAX_ROLLS), cut_off: CutOff::BeforeEachStep, stop: None };
//! // A plays the cs162 bot; C is a caller who always plays the first legal move.
//! let choosers = [Chooser::Bot(Bot::Cs162), Chooser::Caller];
//! let mut first = |_: usize, g: &Game| g.legal_moves().get(0).ok_or(LudoError::IllegalMove("none".into()));
//! let played = autoplay(&mut game, &seats, &choosers, &mut Rng::new(1), limits, &mut first).unwrap();
//! assert_eq!(played.ending, Ending::Over);
//! assert!(game.is_over());
//! ```

use super::bots::Bot;
use super::error::LudoError;
use super::game::{Game, Move};
pub use super::play::MAX_ROLLS;
use super::play::{Limits, Played, Table, play};
use super::rng::Rng;
use super::seat::Seat;

/// Who chooses one seat's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chooser {
    /// A built-in bot, played by the engine.
    Bot(Bot),
    /// Someone outside the engine: the [`Caller`] of [`autoplay`] chooses.
    Caller,
}

/// The former name of [`Chooser`].
#[deprecated(note = "renamed Chooser (one `Player` per meaning)")]
pub type Player = Chooser;

/// Whoever chooses for the [`Chooser::Caller`] seats: a Python callable, a person at a
/// front end. The one way moves come into the engine from outside; the engine checks them
/// ([`check_caller_move`]). A closure `FnMut(usize, &Game) -> Result<Move, E>` is a caller.
pub trait Caller {
    /// What choosing may fail with (the engine's refusals become it too).
    type Error: From<LudoError>;

    /// The move of player `k` (its index in turn order) in `game`, which waits for a move.
    fn choose(&mut self, k: usize, game: &Game) -> Result<Move, Self::Error>;

    /// Called before each game of a run of several ([`SimConfig::run_with`]): an error
    /// ends the run there (e.g. Ctrl-C seen between games).
    ///
    /// [`SimConfig::run_with`]: super::sim::SimConfig::run_with
    fn between_games(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

impl<E: From<LudoError>, F: FnMut(usize, &Game) -> Result<Move, E>> Caller for F {
    type Error = E;

    fn choose(&mut self, k: usize, game: &Game) -> Result<Move, E> {
        self(k, game)
    }
}

/// The caller of games whose seats are all built-in bots: it is never asked.
pub struct NoCaller;

impl Caller for NoCaller {
    type Error = LudoError;

    fn choose(&mut self, _: usize, _: &Game) -> Result<Move, LudoError> {
        Err(LudoError::InvalidBot("no bot for this player".into()))
    }
}

/// The move a built-in bot plays in `game`, which waits for a move.
fn bot_move(bot: Bot, game: &Game, rng: &mut Rng, limits: &Limits<'_>) -> Result<Move, LudoError> {
    bot.choose_until(game, rng, limits.stop)
        .ok_or_else(|| LudoError::IllegalMove("no legal move to choose".into()))
}

/// The bots a caller names for a game's players (`T`: one bot as the caller holds it),
/// before [`bots_for`] matches them to the players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GivenBots<T> {
    /// One bot for every player.
    One(T),
    /// One bot per player in turn order; a list of one plays every player.
    List(Vec<T>),
    /// One bot per player in turn order, exactly.
    Each(Vec<T>),
    /// One bot per player by position label (turn order), `None` where none was given.
    ByLabel(Vec<(char, Option<T>)>),
}

/// One bot per player of `game` (turn order) from what the caller gave: a missing
/// player's bot, or a list of another length than the players, is
/// [`LudoError::InvalidBot`].
pub fn bots_for<T: Clone>(game: &Game, given: GivenBots<T>) -> Result<Vec<T>, LudoError> {
    let players = game.seats().count();
    let list = match given {
        GivenBots::One(bot) => vec![bot; players],
        GivenBots::List(list) if list.len() == 1 => vec![list[0].clone(); players],
        GivenBots::List(list) | GivenBots::Each(list) => list,
        GivenBots::ByLabel(bots) => (bots.into_iter())
            .map(|(l, bot)| bot.ok_or_else(|| bad_bot(format!("no bot for player '{l}'"))))
            .collect::<Result<_, _>>()?,
    };
    if list.len() != players {
        let n = list.len();
        return Err(bad_bot(format!(
            "{n} bots for {players} players: give one bot per player"
        )));
    }
    Ok(list)
}

/// A caller's value that is not a bot (`shown`: how it looks): an [`LudoError::InvalidBot`]
/// saying what a bot is.
pub fn not_a_bot(shown: &str) -> LudoError {
    bad_bot(format!(
        "a bot is a name such as 'cs162' or a callable bot(game) -> move, not {shown}"
    ))
}

/// A caller's bots argument that is not a list, a dict or one bot (`shown`: how it looks).
pub fn not_bots(shown: &str) -> LudoError {
    bad_bot(format!(
        "bots must be a list, a dict or one bot, not {shown}"
    ))
}

/// A caller asked for the move of player `k`, which it has no bot for.
pub fn no_caller_for(k: usize) -> LudoError {
    bad_bot(format!("no Python bot for player {k}"))
}

impl Chooser {
    /// The chooser's name: the bot's, or `caller` (the caller's name for its bot;
    /// "python" when it has none).
    pub fn name(&self, caller: Option<String>) -> String {
        match self {
            Chooser::Bot(b) => b.to_string(),
            Chooser::Caller => caller.unwrap_or_else(|| "python".to_owned()),
        }
    }
}

fn bad_bot(what: String) -> LudoError {
    LudoError::InvalidBot(what)
}

/// The error of a caller who gave no usable move (`what`: "raised ...", "failed: ...",
/// "chose ..."), naming its seat.
pub fn caller_failed(game: &Game, seat: Seat, what: impl std::fmt::Display) -> LudoError {
    LudoError::InvalidBot(format!(
        "the bot of player '{}' {what}",
        game.rules().seat_label(seat)
    ))
}

/// A caller's bot that gave something its caller cannot read as a move (`shown`: how it
/// looks), as [`caller_failed`] words it.
pub fn not_a_move(game: &Game, seat: Seat, shown: &str) -> LudoError {
    let what = format!("failed: it returned {shown}, not a Move or a move name");
    caller_failed(game, seat, what)
}

/// Why a caller's autoplay keeps none of its moves: the game it played on a copy of was
/// changed meanwhile (by a bot or another thread).
pub const CHANGED_MEANWHILE: &str = "the game was changed while autoplay ran (by a bot or \
    another thread): autoplay's moves were not kept";

/// Check a caller's move: a move that is not legal now is [`LudoError::InvalidBot`] naming
/// the seat and the move.
pub fn check_caller_move(game: &Game, seat: Seat, mv: Move) -> Result<Move, LudoError> {
    if game.legal_moves().contains(&mv) {
        return Ok(mv);
    }
    let name = game.move_name(&mv);
    Err(caller_failed(
        game,
        seat,
        format_args!("chose {name}, which is not a legal move"),
    ))
}

/// Play `table` on until the game is over or `limits` end it. `seats` are the seats that
/// play, in turn order, and `choosers[k]` chooses for `seats[k]`: a built-in bot (drawing
/// from `rng`), or [`Chooser::Caller`], for whom `caller.choose(k, game)` gives the move,
/// checked by [`check_caller_move`]. The first error (a caller's, an illegal move, the
/// table's, a seat that does not play) ends the loop and is returned; what was played
/// stays played.
pub fn autoplay<T, C>(
    table: &mut T,
    seats: &[Seat],
    choosers: &[Chooser],
    rng: &mut Rng,
    limits: Limits<'_>,
    caller: &mut C,
) -> Result<Played, C::Error>
where
    T: Table,
    C: Caller,
    C::Error: From<T::Error>,
{
    if choosers.len() != seats.len() {
        return Err(LudoError::InvalidBot(format!(
            "{} players for {} seats: give one player per seat",
            choosers.len(),
            seats.len()
        ))
        .into());
    }
    play(table, limits, |g| {
        let seat = g.current_player();
        let k = seats
            .iter()
            .position(|&s| s == seat)
            .ok_or_else(|| LudoError::PositionNotPlaying(g.rules().seat_label(seat).to_string()))?;
        let mv = match choosers[k] {
            Chooser::Bot(bot) => bot_move(bot, g, rng, &limits)?,
            Chooser::Caller => check_caller_move(g, seat, caller.choose(k, g)?)?,
        };
        Ok(Some(mv))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ludo::Rules;
    use crate::ludo::play::{CutOff, Ending};
    use crate::ludo::seat::seat_list;

    #[test]
    fn given_bots_are_matched_to_the_players() {
        let game = Game::new(Rules::CS162, &seat_list(&[0, 2, 3]), 1).unwrap();
        let bad = |m: &str| LudoError::InvalidBot(m.into());
        assert_eq!(bots_for(&game, GivenBots::One('x')), Ok(vec!['x'; 3]));
        assert_eq!(
            bots_for(&game, GivenBots::List(vec!['x'])),
            Ok(vec!['x'; 3])
        );
        assert_eq!(
            bots_for(&game, GivenBots::Each(vec!['x'])),
            Err(bad("1 bots for 3 players: give one bot per player"))
        );
        let by_label = vec![('A', Some(1)), ('C', Some(2)), ('D', None)];
        let missing = bots_for(&game, GivenBots::ByLabel(by_label));
        assert_eq!(missing, Err(bad("no bot for player 'D'")));
        let by_label = vec![('A', Some(1)), ('C', Some(2)), ('D', Some(3))];
        assert_eq!(
            bots_for(&game, GivenBots::ByLabel(by_label)),
            Ok(vec![1, 2, 3])
        );
        assert_eq!(Chooser::Caller.name(None), "python");
        assert_eq!(Chooser::Bot(Bot::Random).name(None), "random");
    }

    fn limits() -> Limits<'static> {
        Limits::autoplay(None)
    }

    #[test]
    fn autoplay_limits_and_a_callers_unreadable_move_are_worded_here() {
        let l = limits();
        assert_eq!(
            (l.max_rolls, l.cut_off),
            (u64::from(MAX_ROLLS), CutOff::BeforeEachStep)
        );
        assert_eq!(Limits::autoplay(Some(7)).max_rolls, 7);
        let game = Game::new(Rules::CS162, &seat_list(&[0, 2]), 1).unwrap();
        let e = not_a_move(&game, game.current_player(), "int (3)");
        let want = "the bot of player 'A' failed: it returned int (3), not a Move or a move name";
        assert_eq!(e, LudoError::InvalidBot(want.into()));
        assert!(CHANGED_MEANWHILE.contains("autoplay's moves were not kept"));
    }

    /// A caller that plays as a bot would plays the bot's game, roll for roll.
    #[test]
    fn a_caller_playing_like_a_bot_plays_the_bots_game() {
        let seats = seat_list(&[0, 1, 2, 3]);
        let bots = [Bot::Cs162, Bot::Safe, Bot::Random, Bot::Aggressive];
        let all_bots: Vec<Chooser> = bots.iter().map(|&b| Chooser::Bot(b)).collect();
        let mut a = Game::new(Rules::STANDARD, &seats, 11).unwrap();
        let mut rng = Rng::new(3);
        autoplay(&mut a, &seats, &all_bots, &mut rng, limits(), &mut NoCaller).unwrap();
        // Seat B (index 1, a deterministic bot) played from outside instead.
        let mut with_caller = all_bots.clone();
        with_caller[1] = Chooser::Caller;
        let mut b = Game::new(Rules::STANDARD, &seats, 11).unwrap();
        let mut rng = Rng::new(3);
        let mut spare = Rng::new(0);
        let mut safe = |k: usize, g: &Game| {
            assert_eq!(k, 1);
            Ok::<_, LudoError>(Bot::Safe.choose(g, &mut spare).unwrap())
        };
        let played = autoplay(&mut b, &seats, &with_caller, &mut rng, limits(), &mut safe).unwrap();
        assert_eq!(played.ending, Ending::Over);
        assert_eq!(a, b);
    }

    /// An illegal move from a caller is refused, naming the seat; the game keeps what was
    /// played before it.
    #[test]
    fn an_illegal_caller_move_is_an_invalid_bot_error() {
        let seats = seat_list(&[0, 2]);
        let players = [Chooser::Caller, Chooser::Caller];
        let mut g = Game::new(Rules::CS162, &seats, 5).unwrap();
        let mut rng = Rng::new(0);
        // A move with the roll of the die plus one is never legal.
        let mut wrong_roll = |_: usize, g: &Game| {
            let m = g.legal_moves().get(0).expect("a legal move");
            Ok::<_, LudoError>(Move {
                roll: m.roll % 6 + 1,
                ..m
            })
        };
        let e = autoplay(
            &mut g,
            &seats,
            &players,
            &mut rng,
            limits(),
            &mut wrong_roll,
        )
        .unwrap_err();
        assert!(matches!(&e, LudoError::InvalidBot(m) if m.contains("the bot of player")));
        assert!(e.to_string().contains("which is not a legal move"), "{e}");
    }

    /// One player per seat, or a clear error.
    #[test]
    fn players_must_match_the_seats() {
        let seats = seat_list(&[0, 1]);
        let mut g = Game::new(Rules::CS162, &seats, 5).unwrap();
        let e = autoplay(
            &mut g,
            &seats,
            &[Chooser::Bot(Bot::Random)],
            &mut Rng::new(0),
            limits(),
            &mut NoCaller,
        )
        .unwrap_err();
        assert!(e.to_string().contains("1 players for 2 seats"), "{e}");
    }
}
