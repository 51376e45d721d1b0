//! A game with its history, for `undo`.

use super::*;

/// A game with its history: every event and the state before it, for `undo`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameRecord {
    pub(crate) start: Game,
    pub(crate) game: Game,
    pub(crate) past: Vec<(Game, Event)>,
}

impl GameRecord {
    /// A record starting at `game`.
    pub fn new(game: Game) -> GameRecord {
        GameRecord {
            start: game,
            game,
            past: Vec::new(),
        }
    }

    /// The game as it is now.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game as it started.
    pub fn start(&self) -> &Game {
        &self.start
    }

    /// The events so far, oldest first.
    pub fn events(&self) -> impl Iterator<Item = &Event> {
        self.past.iter().map(|(_, e)| e)
    }

    /// The events so far with the game just before each, oldest first (what a history
    /// shows, without replaying the game).
    pub fn entries(&self) -> impl Iterator<Item = (&Game, &Event)> {
        self.past.iter().map(|(before, event)| (before, event))
    }

    /// Number of events so far.
    pub fn len(&self) -> usize {
        self.past.len()
    }

    /// No events yet?
    pub fn is_empty(&self) -> bool {
        self.past.is_empty()
    }

    fn record(
        &mut self,
        f: impl FnOnce(&mut Game) -> Result<Event, LudoError>,
    ) -> Result<Event, LudoError> {
        let before = self.game;
        let mut after = self.game;
        let event = f(&mut after)?;
        self.game = after;
        self.past.push((before, event));
        Ok(event)
    }

    /// Roll the seeded die, or `value` when given.
    pub fn roll(&mut self, value: Option<u8>) -> Result<Event, LudoError> {
        match value {
            Some(v) => self.record(|g| g.roll(v)),
            None => self.record(|g| g.roll_die()),
        }
    }

    /// Play a move.
    pub fn play(&mut self, mv: Move) -> Result<Event, LudoError> {
        self.record(|g| g.play(mv))
    }

    /// Take back the last event; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Event> {
        let (before, event) = self.past.pop()?;
        self.game = before;
        Some(event)
    }
}
