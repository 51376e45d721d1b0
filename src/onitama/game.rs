//! A game of Onitama played action by action ([`Game`]): the start and current positions,
//! the history (so that plies can be taken back), how each card is drawn, the setup it
//! started from, its status in words, and its save formats (the one-line notation and the
//! JSON of a whole game).

use super::action::Action;
use super::card::{Card, CardSet, deal_cards};
use super::coursework;
use super::error::OnitamaError;
use super::json::Json;
use super::notation::WrittenAction;
use super::position::{CardSlot, Position, Status, WinKind};
use super::referee::{InvalidAnswer, judge, judge_typed, judge_wall};
use super::render::{self, Patterns};
use super::setups::{STANDARD_PLIES, find_setup};
use super::square::Player;

/// The `format` field of a game's JSON.
pub const JSON_FORMAT: &str = "ludogame-onitama/1";

/// Setup 22's board and cards: the default start (the README's start board).
pub const DEFAULT_SETUP: &str = "case22";

/// The ply limit of a game that does not give one.
pub use super::setups::DEFAULT_PLIES;

/// A card and the five rows it is drawn with.
pub type Drawing = (Card, [String; 5]);

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The winner's general reached the opponent's base.
    BaseReached(Player),
    /// The winner captured the opponent's general.
    GeneralCaptured(Player),
    /// No plies are left: a tie.
    PlyLimit,
}

impl Outcome {
    /// The winner (`None` for a tie).
    pub fn winner(self) -> Option<Player> {
        match self {
            Outcome::BaseReached(p) | Outcome::GeneralCaptured(p) => Some(p),
            Outcome::PlyLimit => None,
        }
    }

    /// The finishing order: the winner, then the loser; nobody in a tie.
    pub fn ranking(self) -> Vec<Player> {
        self.winner().map_or(Vec::new(), |w| vec![w, w.other()])
    }

    /// The coursework program's words for the winner of a won game (`None` for a tie).
    pub fn win_message(self) -> Option<String> {
        match self {
            Outcome::BaseReached(p) => Some(coursework::win_message(p, WinKind::Base)),
            Outcome::GeneralCaptured(p) => Some(coursework::win_message(p, WinKind::Capture)),
            Outcome::PlyLimit => None,
        }
    }

    /// The reason's name: `base_reached`, `general_captured` or `ply_limit`.
    pub fn reason(self) -> &'static str {
        match self {
            Outcome::BaseReached(_) => "base_reached",
            Outcome::GeneralCaptured(_) => "general_captured",
            Outcome::PlyLimit => "ply_limit",
        }
    }

    /// How `pos` ended, or `None` while it goes on.
    pub fn of(pos: &Position) -> Option<Outcome> {
        match pos.status() {
            Status::Ongoing => None,
            Status::Tie => Some(Outcome::PlyLimit),
            Status::Won { winner, by } => Some(match by {
                WinKind::Base => Outcome::BaseReached(winner),
                WinKind::Capture => Outcome::GeneralCaptured(winner),
            }),
        }
    }
}

/// A game: its start, every action played (with the position before it), the current
/// position, the rows each card is drawn with, and the setup it started from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start: Position,
    history: Vec<(Position, Action)>,
    pos: Position,
    /// The rows each card is drawn with (the first drawing given of each card).
    patterns: Vec<Drawing>,
    setup: Option<&'static str>,
}

/// Where a refereed match starts: a game (its current position) or a setup id.
#[derive(Clone, Debug)]
pub enum MatchStart {
    /// The game's current position, with its drawings.
    Game(Game),
    /// A coursework setup's id (see [`Game::from_setup`]).
    Setup(String),
}

impl Game {
    /// A game starting at `pos`, its cards drawn as in `patterns` (the first drawing of a
    /// card wins; a card without one is drawn with its own rows).
    pub fn from_position(
        pos: Position,
        patterns: impl IntoIterator<Item = Drawing>,
        setup: Option<&'static str>,
    ) -> Game {
        let mut unique: Vec<Drawing> = Vec::new();
        for (c, rows) in patterns {
            if !unique.iter().any(|(u, _)| *u == c) {
                unique.push((c, rows));
            }
        }
        Game {
            start: pos,
            history: Vec::new(),
            pos,
            patterns: unique,
            setup,
        }
    }

    /// A coursework setup by id (`"21"`, `"case21"`, ...); `max_plies` replaces its own ply
    /// limit.
    pub fn from_setup(id: &str, max_plies: Option<u16>) -> Result<Game, OnitamaError> {
        let s = find_setup(id)?;
        Ok(Game::from_position(
            s.position(max_plies),
            setup_drawings(id)?,
            Some(s.id),
        ))
    }

    /// A game from a board's rows, five drawn cards (`A1 A2 B1 B2 side`), the side to move
    /// and the plies left; each left out is the default setup's (A to move, with
    /// [`DEFAULT_PLIES`]).
    pub fn from_parts(
        rows: Option<Vec<String>>,
        cards: Option<Vec<Drawing>>,
        side: Option<Player>,
        plies: Option<u16>,
    ) -> Result<Game, OnitamaError> {
        let (side, plies) = (side.unwrap_or(Player::A), plies.unwrap_or(DEFAULT_PLIES));
        let default = find_setup(DEFAULT_SETUP)?;
        let rows = rows.unwrap_or_else(|| default.board.iter().map(|s| s.to_string()).collect());
        let cards = match cards {
            Some(c) => c,
            None => setup_drawings(DEFAULT_SETUP)?,
        };
        if cards.len() != 5 {
            return Err(OnitamaError::BadCard(format!(
                "five cards are needed (A1, A2, B1, B2, side), not {}",
                cards.len()
            )));
        }
        let values: [Card; 5] = std::array::from_fn(|i| cards[i].0);
        let pos = Position::from_rows(&rows, values, side, plies)?;
        Ok(Game::from_position(pos, cards, None))
    }

    /// The default start board (setup 22's) with five different standard cards dealt at
    /// random from `seed`, A to move, `max_plies` plies (`None`: [`DEFAULT_PLIES`]).
    pub fn dealt(seed: u64, max_plies: Option<u16>) -> Result<Game, OnitamaError> {
        let board = find_setup(DEFAULT_SETUP)?.board;
        let cards = deal_cards(seed);
        let plies = max_plies.unwrap_or(DEFAULT_PLIES);
        let pos = Position::from_rows(&board, cards, Player::A, plies)?;
        Ok(Game::from_position(pos, cards.map(|c| (c, c.rows())), None))
    }

    /// A game of standard Onitama (no wall): either the five `cards` (`A1 A2 B1 B2 side`)
    /// with `first` (`None`: A) to move, or five cards dealt from `card_set` (`None`: the
    /// base cards) by `seed`, the side card deciding who moves first; `max_plies` (`None`:
    /// [`STANDARD_PLIES`]) ends the game in a tie. Any other combination is refused.
    pub fn standard(
        cards: Option<Vec<Drawing>>,
        first: Option<Player>,
        seed: Option<u64>,
        card_set: Option<CardSet>,
        max_plies: Option<u16>,
    ) -> Result<Game, OnitamaError> {
        let plies = max_plies.unwrap_or(STANDARD_PLIES);
        let bad = |m: &str| OnitamaError::BadCard(m.into());
        let (pos, drawings) = match (cards, seed) {
            (Some(_), None) if card_set.is_some() => {
                return Err(bad(
                    "card_set chooses the cards of a random deal (seed); given cards are named \
                     one by one",
                ));
            }
            (Some(cards), None) => {
                if cards.len() != 5 {
                    return Err(bad("five cards are needed (A1, A2, B1, B2, side)"));
                }
                let values: [Card; 5] = std::array::from_fn(|i| cards[i].0);
                let first = first.unwrap_or(Player::A);
                (Position::standard_start(values, first, plies)?, cards)
            }
            (None, Some(_)) if first.is_some() => {
                return Err(bad("with a seed the side card decides who moves first"));
            }
            (None, Some(seed)) => {
                let set = card_set.unwrap_or(CardSet::Base);
                let pos = Position::standard_deal_from(seed, set, plies);
                (pos, pos.cards().map(|c| (c, c.rows())).to_vec())
            }
            _ => return Err(bad("give either cards or a seed")),
        };
        Ok(Game::from_position(pos, drawings, None))
    }

    /// This game taken back to its start: the start position with no history, from the
    /// same setup, its cards drawn the same way.
    pub fn at_start(&self) -> Game {
        Game {
            history: Vec::new(),
            pos: self.start,
            ..self.clone()
        }
    }

    /// The player who moved first (to move at the start).
    pub fn first(&self) -> Player {
        self.start.side()
    }

    /// A game at a position written by [`to_notation`](Game::to_notation) (no history),
    /// its cards drawn as written.
    pub fn from_notation(text: &str) -> Result<Game, OnitamaError> {
        let (pos, drawings) = Position::from_notation_drawn(text)?;
        let patterns = CardSlot::ALL
            .iter()
            .zip(drawings)
            .map(|(slot, rows)| (pos.card(*slot), rows));
        Ok(Game::from_position(pos, patterns, None))
    }

    /// The game a refereed match starts from when given setup `id`, or none (then
    /// [`MATCH_SETUP`](super::setups::MATCH_SETUP)), its ply limit replaced by `max_plies`.
    pub fn match_setup(id: Option<&str>, max_plies: Option<u16>) -> Result<Game, OnitamaError> {
        Game::from_setup(id.unwrap_or(super::setups::MATCH_SETUP), max_plies)
    }

    /// The game a refereed match starts from when given `start` (a game's position or a
    /// setup id; none: the match setup), its ply limit replaced by `max_plies`.
    pub fn match_start_of(
        start: Option<MatchStart>,
        max_plies: Option<u16>,
    ) -> Result<Game, OnitamaError> {
        match start {
            Some(MatchStart::Game(game)) => Ok(game.match_start(max_plies)),
            Some(MatchStart::Setup(id)) => Game::match_setup(Some(&id), max_plies),
            None => Game::match_setup(None, max_plies),
        }
    }

    /// The game a refereed match starts from: this position (its ply limit replaced by
    /// `max_plies`), its drawings, and its setup id only while no action has been played.
    pub fn match_start(&self, max_plies: Option<u16>) -> Game {
        let pos = max_plies.map_or(self.pos, |n| self.pos.with_plies_left(n));
        let setup = self.setup.filter(|_| self.history.is_empty());
        Game::from_position(pos, self.patterns.clone(), setup)
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The setup the game started from (`"case21"`, ...), if any.
    pub fn setup(&self) -> Option<&'static str> {
        self.setup
    }

    /// The actions played so far, oldest first.
    pub fn actions(&self) -> impl ExactSizeIterator<Item = Action> + '_ {
        self.history.iter().map(|&(_, a)| a)
    }

    /// Every legal action now (none once the game is over).
    pub fn legal_actions(&self) -> Vec<Action> {
        self.pos.legal_actions().as_slice().to_vec()
    }

    /// Play `action`; refused (nothing changes) when it is illegal or the game is over.
    pub fn play(&mut self, action: Action) -> Result<(), OnitamaError> {
        let before = self.pos;
        let action = before.normalize(action);
        self.pos.play(action)?;
        self.history.push((before, action));
        Ok(())
    }

    /// Play `written`, an action written for a variant: refused (nothing changes) when
    /// the game plays the other variant, when it is illegal or when the game is over.
    /// Returns the action played.
    pub fn play_written(&mut self, written: WrittenAction) -> Result<Action, OnitamaError> {
        let variant = self.pos.rules();
        if written.variant != variant {
            return Err(OnitamaError::IllegalAction {
                action: written.to_string(),
                reason: format!(
                    "an action of the {} rules, but this game plays the {} rules",
                    written.variant.name(),
                    variant.name()
                ),
            });
        }
        let action = self.pos.normalize(written.action);
        self.play(action)?;
        Ok(action)
    }

    /// This game with `actions` played after its current position (all or nothing: the
    /// first illegal one is the error).
    pub fn replayed(&self, actions: &[Action]) -> Result<Game, OnitamaError> {
        let mut game = self.clone();
        for &a in actions {
            game.play(a)?;
        }
        Ok(game)
    }

    /// Take back the last action and return it.
    pub fn undo(&mut self) -> Result<Action, OnitamaError> {
        let (before, action) = self.history.pop().ok_or(OnitamaError::NothingToUndo)?;
        self.pos = before;
        Ok(action)
    }

    /// Judge an AI's raw answer in the current position as the referee does.
    pub fn judge(
        &self,
        card: i64,
        from: &str,
        to: &str,
        wall: &str,
    ) -> Result<Action, InvalidAnswer> {
        judge(&self.pos, card, from, to, wall)
    }

    /// Judge a ply as a player types it, part by part (see [`judge_typed`]): `Ok(None)`
    /// while the parts given are right, and once the pawn move is complete, its action
    /// with the wall staying (a winning move has no wall step).
    pub fn judge_typed(
        &self,
        card: &str,
        from: Option<&str>,
        to: Option<&str>,
    ) -> Result<Option<Action>, InvalidAnswer> {
        match judge_typed(&self.pos, card, from, to)? {
            Some(choice) => judge_wall(&self.pos, choice, "s").map(Some),
            None => Ok(None),
        }
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        Outcome::of(&self.pos)
    }

    /// A sentence on where the game stands, e.g. `Player A to move, 20 plies left.`.
    pub fn status_text(&self) -> String {
        match self.outcome() {
            None => format!(
                "Player {} to move, {} plies left.",
                self.pos.side(),
                self.pos.plies_left()
            ),
            Some(Outcome::PlyLimit) => "The game is tied: no plies are left.".to_owned(),
            Some(Outcome::BaseReached(p)) => {
                format!("Player {p} won by reaching the opponent's military base.")
            }
            Some(Outcome::GeneralCaptured(p)) => {
                format!("Player {p} won by capturing the opponent's general.")
            }
        }
    }

    /// The rows `card` is drawn with in this game.
    pub fn rows_of(&self, card: Card) -> [String; 5] {
        self.patterns
            .iter()
            .find(|(c, _)| *c == card)
            .map_or_else(|| card.rows(), |(_, r)| r.clone())
    }

    /// The drawings of `pos`'s five cards, in slot order.
    pub fn patterns_of(&self, pos: &Position) -> Patterns {
        CardSlot::ALL.map(|slot| self.rows_of(pos.card(slot)))
    }

    /// `pos`'s notation with this game's card drawings.
    pub fn notation_of(&self, pos: &Position) -> String {
        pos.to_notation_drawn(&self.patterns_of(pos))
    }

    /// The current position's notation, cards drawn as in this game.
    pub fn to_notation(&self) -> String {
        self.notation_of(&self.pos)
    }

    /// The board and cards drawn as the coursework programs do, the side card as `viewer`
    /// sees it.
    pub fn draw(&self, viewer: Player) -> String {
        render::draw(&self.pos, &self.patterns_of(&self.pos), viewer)
    }

    /// The current position as an SVG image.
    pub fn svg(&self) -> String {
        render::svg(
            &self.pos,
            &self.patterns_of(&self.pos),
            self.pos.side(),
            &self.status_text(),
        )
    }

    /// The whole game (start, setup, card drawings, every action) as JSON text.
    pub fn to_json(&self) -> String {
        let strings = |v: Vec<String>| Json::Array(v.into_iter().map(Json::Str).collect());
        Json::Object(vec![
            ("format".into(), Json::Str(JSON_FORMAT.into())),
            (
                "setup".into(),
                self.setup.map_or(Json::Null, |s| Json::Str(s.into())),
            ),
            ("start".into(), Json::Str(self.notation_of(&self.start))),
            (
                "actions".into(),
                strings(
                    self.history
                        .iter()
                        .map(|(p, a)| p.action_text(*a))
                        .collect(),
                ),
            ),
            (
                "patterns".into(),
                Json::Array(
                    self.patterns
                        .iter()
                        .map(|(_, r)| strings(r.to_vec()))
                        .collect(),
                ),
            ),
            ("position".into(), Json::Str(self.to_notation())),
        ])
        .dump()
    }

    /// A game read from [`to_json`](Game::to_json)'s text: the actions are replayed and
    /// checked, and a `setup` id whose position is not the `start` (its ply limit aside)
    /// is refused.
    pub fn from_json(text: &str) -> Result<Game, OnitamaError> {
        let value = Json::parse(text)
            .map_err(|e| OnitamaError::BadNotation(format!("the text is not JSON ({e})")))?;
        Game::from_json_value(&value)
    }

    /// [`Game::from_json`] of JSON already read (a save that holds more than the game).
    pub fn from_json_value(value: &Json) -> Result<Game, OnitamaError> {
        let bad = |m: String| OnitamaError::BadNotation(m);
        if !matches!(value, Json::Object(_)) {
            return Err(bad("a game's JSON must be an object".into()));
        }
        let field = |name: &str| {
            value
                .get(name)
                .ok_or_else(|| bad(format!("the JSON has no field '{name}'")))
        };
        let string = |name: &str| {
            field(name)?
                .as_str()
                .ok_or_else(|| bad(format!("the JSON's '{name}' is not a string")))
        };
        if string("format")? != JSON_FORMAT {
            return Err(bad(format!("the JSON is not in format '{JSON_FORMAT}'")));
        }
        let (start, start_drawings) = Position::from_notation_drawn(string("start")?)?;
        let setup = match field("setup")? {
            Json::Null => None,
            v => {
                let id = v
                    .as_str()
                    .ok_or_else(|| bad("the JSON's 'setup' is not a string or null".into()))?;
                let s = find_setup(id)?;
                // A setup game may have another ply limit (`Onitama.setup(21, max_plies=30)`).
                let expected = s.position(Some(start.plies_left()));
                if expected != start {
                    return Err(bad(format!(
                        "the JSON's setup '{}' does not start at its 'start' position ({})",
                        s.id,
                        expected.to_notation()
                    )));
                }
                Some(s.id)
            }
        };
        let not_patterns = || bad("the JSON's 'patterns' is not a list of lists of strings".into());
        let Json::Array(raw) = field("patterns")? else {
            return Err(not_patterns());
        };
        let raw: Vec<Vec<String>> = raw
            .iter()
            .map(Json::as_strings)
            .collect::<Option<_>>()
            .ok_or_else(not_patterns)?;
        let mut patterns = Vec::new();
        for rows in raw {
            let card = Card::parse(&rows)?;
            let rows: [String; 5] = rows
                .try_into()
                .map_err(|_| OnitamaError::BadCard("a card has 5 rows".into()))?;
            patterns.push((card, rows));
        }
        // Drawings in the start's notation, for cards the patterns do not draw.
        for (slot, rows) in CardSlot::ALL.iter().zip(start_drawings) {
            patterns.push((start.card(*slot), rows));
        }
        let actions = field("actions")?
            .as_strings()
            .ok_or_else(|| bad("the JSON's 'actions' is not a list of strings".into()))?;
        let mut game = Game::from_position(start, patterns, setup);
        for a in actions {
            let action = game.pos.parse_action(&a)?;
            game.play(action)?;
        }
        if let Some(p) = value.get("position").and_then(Json::as_str)
            && Position::from_notation(p).ok() != Some(game.pos)
        {
            return Err(bad(
                "replaying the actions does not reach the JSON's position".into(),
            ));
        }
        Ok(game)
    }

    /// The error for asking a move of a finished game, saying how it ended.
    pub fn game_over_error(&self) -> OnitamaError {
        game_over(&self.pos)
    }
}

/// The error for asking a move in the finished position `pos`, saying how it ended.
pub fn game_over(pos: &Position) -> OnitamaError {
    let why = match Outcome::of(pos) {
        Some(Outcome::BaseReached(p)) => format!("player {p} won by reaching the base"),
        Some(Outcome::GeneralCaptured(p)) => format!("player {p} won by capturing the general"),
        _ => "no plies are left (a tie)".to_owned(),
    };
    OnitamaError::GameOver(why)
}

/// A setup's cards with the rows the setup draws them with.
fn setup_drawings(id: &str) -> Result<Vec<Drawing>, OnitamaError> {
    let s = find_setup(id)?;
    Ok(s.card_values()
        .into_iter()
        .zip(s.cards)
        .map(|(c, rows)| (c, rows.map(str::to_owned)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_starts_from_the_setup_given_or_the_match_setup() {
        let default = Game::match_setup(None, Some(8)).unwrap();
        let named = Game::from_setup(super::super::setups::MATCH_SETUP, Some(8)).unwrap();
        assert_eq!(default.position(), named.position());
        assert_eq!(default.position().plies_left(), 8);
        let other = Game::match_setup(Some("22"), None).unwrap();
        assert_eq!(other.setup(), Game::from_setup("22", None).unwrap().setup());
        assert!(Game::match_setup(Some("nope"), None).is_err());
    }
}
