//! Stopping long computations early: a [`Stop`] flag that a simulation, a search or a
//! tournament polls at safe points (between games, between tree iterations), set from
//! another thread — the Python binding sets it when Ctrl-C arrives.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A shared "please stop" flag. Clones share the flag: request a stop on one, and every
/// clone sees it. Work that polls it stops at its next safe point and returns what it has
/// finished (each caller documents what that is).
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A new flag, not set.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Ask every holder of the flag to stop.
    pub fn request(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Has a stop been asked for? (One relaxed load: cheap enough for a hot loop's
    /// per-game or per-iteration check.)
    #[inline]
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_flag() {
        let a = Stop::new();
        let b = a.clone();
        assert!(!b.requested());
        a.request();
        assert!(b.requested());
        assert!(!Stop::new().requested());
    }
}
