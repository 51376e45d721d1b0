//! The positions the coursework defines (`setups.json` of the golden data), as constants:
//! the Part 1 cases 1–5, the grading and tournament cases 11–13 and 21–23, the Part 2 AI
//! test positions, the basic AI test cases and the README diagrams. Boards and cards are
//! kept exactly as the source stores them (cards in the holder's view, `o` possibly
//! off-centre), so a front end can draw them as the reference programs do.

use super::card::Card;
use super::error::OnitamaError;
use super::position::Position;
use super::square::Player;

/// One setup: a board, five card patterns (`A1 A2 B1 B2 side`), the side to move and the
/// ply limit, as the source gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The id in `setups.json`: `case11`, `aitest1_A`, `readme_start`, ...
    pub id: &'static str,
    /// What the source uses it for.
    pub about: &'static str,
    /// The board, row `a` first (`A a B b W`, space for empty).
    pub board: [&'static str; 5],
    /// The card patterns `A1 A2 B1 B2 side`, 5 rows each, in the holder's view.
    pub cards: [[&'static str; 5]; 5],
    /// The side to move (`None` where the source does not say; A is then used).
    pub to_move: Option<Player>,
    /// The ply limit or plies left (`None` where the source does not say; 20 is then used).
    pub n: Option<u16>,
}

/// The ply limit used when a setup does not give one: the tournament's 20.
pub const DEFAULT_PLIES: u16 = 20;

/// The ply limit of a standard Onitama game that does not give one (the rules have none;
/// the engine keeps one so that every game ends).
pub const STANDARD_PLIES: u16 = 1000;

/// The setup a refereed match starts from when none is said: the tournament's first
/// (`case21`). (A game made without a setup starts from [`crate::onitama::game::DEFAULT_SETUP`].)
pub const MATCH_SETUP: &str = "21";

impl Setup {
    /// The five cards.
    pub fn card_values(&self) -> [Card; 5] {
        self.cards
            .map(|rows| Card::parse(&rows).expect("the setup table holds valid cards"))
    }

    /// The side to move (A where the source does not say).
    pub fn side(&self) -> Player {
        self.to_move.unwrap_or(Player::A)
    }

    /// The ply limit (20 where the source does not say).
    pub fn plies(&self) -> u16 {
        self.n.unwrap_or(DEFAULT_PLIES)
    }

    /// The position, with `plies_left` plies left (`None`: the setup's own `n`).
    pub fn position(&self, plies_left: Option<u16>) -> Position {
        Position::from_rows(
            &self.board,
            self.card_values(),
            self.side(),
            plies_left.unwrap_or(self.plies()),
        )
        .expect("the setup table holds valid positions")
    }

    /// The short ids a user may type for it: `11` for `case11`; none for the others.
    pub fn number(&self) -> Option<u32> {
        self.id.strip_prefix("case").and_then(|n| n.parse().ok())
    }
}

/// The id of every setup as [`find_setup`] reads it most simply: the number of a numbered
/// case (`"21"`), else the name (`"aitest1_A"`).
pub fn setup_ids() -> Vec<String> {
    SETUPS
        .iter()
        .map(|s| s.number().map_or(s.id.to_owned(), |n| n.to_string()))
        .collect()
}

/// Find a setup by id: `case11`, `11`, `aitest1_A`, `readme_start`, ... (case-insensitive).
pub fn find_setup(id: &str) -> Result<&'static Setup, OnitamaError> {
    let id = id.trim();
    SETUPS
        .iter()
        .find(|s| {
            s.id.eq_ignore_ascii_case(id) || s.number().is_some_and(|n| id.parse::<u32>() == Ok(n))
        })
        .ok_or_else(|| {
            OnitamaError::UnknownSetup(format!(
                "'{id}': the setups are {}",
                SETUPS
                    .iter()
                    .map(|s| s.number().map_or(s.id.to_owned(), |n| n.to_string()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
}

/// Every setup of `setups.json`, in its order.
pub const SETUPS: [Setup; 25] = [
    Setup {
        id: "case1",
        about: "Part 1 Sample 1 and Sample 6a (human vs human sessions)",
        board: ["bbBbb", "     ", "W    ", "     ", "aaAaa"],
        cards: [
            [".....", ".x...", ".xo.x", ".....", "....."],
            [".....", "..x..", "..ox.", ".....", "....."],
            [".....", "..x..", "..o..", ".x...", "....."],
            [".....", ".x.x.", "..o..", ".x...", "....."],
            ["..x..", "...x.", "..o..", ".....", "....."],
        ],
        to_move: Some(Player::A),
        n: Some(50),
    },
    Setup {
        id: "case2",
        about: "Part 1 Sample 2a-2d (winning conditions)",
        board: [" W  b", " B   ", "  A  ", " a   ", "     "],
        cards: [
            [".....", "..x..", ".xox.", ".....", "....."],
            [".....", "..x..", ".x.x.", "..o..", "....."],
            [".....", "..x..", "..o..", "..x..", "....."],
            [".....", "...x.", ".xo..", ".x...", "....."],
            [".....", ".....", ".o...", "....x", "..x.."],
        ],
        to_move: Some(Player::B),
        n: Some(10),
    },
    Setup {
        id: "case3",
        about: "Part 1 Sample 3 (invalid pawn and wall inputs; soldier onto a base; wall swap with own soldier)",
        board: ["     ", "     ", "   a ", " b A ", "B  Wa"],
        cards: [
            [".....", ".x...", ".xo.x", ".....", "....."],
            [".....", "..x..", "..ox.", ".....", "....."],
            [".....", "..x..", "..o..", ".x...", "....."],
            [".....", ".x.x.", "..o..", ".x...", "....."],
            ["..x..", "...x.", "..o..", ".....", "....."],
        ],
        to_move: Some(Player::A),
        n: Some(50),
    },
    Setup {
        id: "case4",
        about: "Part 1 Sample 4 (captures) and Sample 6b (move listing)",
        board: ["b  Bb", "   b ", " Wa  ", " aa  ", "  A  "],
        cards: [
            [".....", ".x.x.", ".xo..", ".....", "....."],
            ["..x..", ".....", "..o..", "..x..", "....."],
            [".....", "..x..", ".....", "..ox.", "....."],
            [".....", "...x.", "..o..", ".x...", "....."],
            [".....", "...x.", ".....", "..o..", "....."],
        ],
        to_move: Some(Player::B),
        n: Some(10),
    },
    Setup {
        id: "case5",
        about: "Part 1 Sample 5 (no legal pawn move = pass; tie when the ply limit runs out)",
        board: [" B   ", "     ", " W   ", "a    ", "A    "],
        cards: [
            [".....", ".xx..", ".xo..", ".....", "....."],
            [".....", ".x...", "..o..", ".x...", "....."],
            [".....", "..x..", "..o..", ".x.x.", "....."],
            [".....", ".x.x.", "..o..", ".x.x.", "....."],
            ["..x..", ".x.x.", "..o..", ".....", "....."],
        ],
        to_move: Some(Player::B),
        n: Some(3),
    },
    Setup {
        id: "case11",
        about: "Grading run of the Part 1 program, block \"Sample 11\" in part1Report.txt",
        board: ["bbBbb", "     ", "W    ", "     ", "aaAaa"],
        cards: [
            [".....", ".x...", ".xo.x", ".....", "....."],
            [".....", "..x..", "..ox.", ".....", "....."],
            [".....", "..x..", "..o..", ".x...", "....."],
            [".....", ".x.x.", "..o..", ".x...", "....."],
            ["..x..", "...x.", "..o..", ".....", "....."],
        ],
        to_move: Some(Player::A),
        n: Some(50),
    },
    Setup {
        id: "case12",
        about: "Grading run of the Part 1 program, blocks \"Sample 12\" and \"Sample 14\" in part1Report.txt",
        board: [" b b ", "   Bb", "b  Wa", "   aA", " a a "],
        cards: [
            [".....", "...x.", ".....", ".o...", "....x"],
            [".....", "..x.x", "..o..", ".....", "....."],
            ["...x.", "..x..", ".xo..", ".....", "....."],
            [".....", "...x.", "..o..", ".x...", "....."],
            ["..x..", ".....", "..o..", "..x..", "....."],
        ],
        to_move: Some(Player::B),
        n: Some(10),
    },
    Setup {
        id: "case13",
        about: "Grading run of the Part 1 program, block \"Sample 13\" in part1Report.txt (both players pass; tie at the ply limit)",
        board: ["   W ", "    B", "    a", "   aA", "     "],
        cards: [
            [".....", "...x.", "..o..", ".....", "....x"],
            ["....x", ".....", "..ox.", ".....", "....."],
            [".x.x.", ".....", "..o..", "..x..", "....."],
            [".....", ".x.x.", "..o..", ".....", "....."],
            [".....", ".....", "..o..", "..x..", "....."],
        ],
        to_move: Some(Player::B),
        n: Some(3),
    },
    Setup {
        id: "case21",
        about: "Tournament setup: qualifier vs the professor (vsCharles.txt) and round robin (vsOther.txt)",
        board: ["bbBbb", "     ", "    W", "     ", "aaAaa"],
        cards: [
            [".....", "..x..", "..o..", ".x.x.", "....."],
            [".....", "x...x", "..o..", ".....", "....."],
            [".....", "..x..", "x.o.x", ".....", "....."],
            [".....", "...x.", "..o..", ".x...", "....."],
            ["..x..", ".....", "..o..", "..x..", "....."],
        ],
        to_move: Some(Player::A),
        n: Some(20),
    },
    Setup {
        id: "case22",
        about: "Tournament setup: qualifier vs the professor (vsCharles.txt) and round robin (vsOther.txt)",
        board: ["bbBbb", "     ", "W    ", "     ", "aaAaa"],
        cards: [
            [".....", ".x...", ".xo..", ".....", "....."],
            [".....", "..xx.", "..o..", ".....", "....."],
            ["...x.", ".....", ".xo..", ".....", "....."],
            [".....", ".x.x.", "..o..", ".....", "....."],
            ["..x..", "...x.", "..o..", ".....", "....."],
        ],
        to_move: Some(Player::A),
        n: Some(20),
    },
    Setup {
        id: "case23",
        about: "Tournament setup (mid-game position): qualifier vs the professor (vsCharles.txt) and round robin (vsOther.txt)",
        board: ["b B b", " b b ", "W a  ", " aaa ", "  A  "],
        cards: [
            [".....", ".x.x.", "..o..", ".....", "....."],
            [".....", "..x..", "..o..", "..x..", "....."],
            [".....", "..x.x", "..o..", ".....", "....."],
            [".....", ".x.x.", "..o..", "..x..", "....."],
            [".....", "x.x.x", "..o..", ".....", "....."],
        ],
        to_move: Some(Player::A),
        n: Some(20),
    },
    Setup {
        id: "aitest1_A",
        about: "Sample 1a: complete list of 15 legal actions for A",
        board: ["b b  ", "WB   ", "a   A", "     ", "     "],
        cards: [
            [".....", "x...x", ".xox.", ".....", "....."],
            ["..x..", "..x..", "..o..", ".....", "....."],
            [".....", ".x.x.", "..o..", ".....", "....."],
            [".....", "..x..", ".xo..", ".....", "....."],
            ["..x..", ".x.x.", "..o..", ".....", "....."],
        ],
        to_move: Some(Player::A),
        n: Some(50),
    },
    Setup {
        id: "aitest1_B",
        about: "Sample 1b: complete list of 20 legal actions for B",
        board: ["b b  ", "WB   ", "a   A", "     ", "     "],
        cards: [
            [".....", "x...x", ".xox.", ".....", "....."],
            ["..x..", "..x..", "..o..", ".....", "....."],
            [".....", ".x.x.", "..o..", ".....", "....."],
            [".....", "..x..", ".xo..", ".....", "....."],
            ["..x..", ".x.x.", "..o..", ".....", "....."],
        ],
        to_move: Some(Player::B),
        n: Some(10),
    },
    Setup {
        id: "aitest2_A",
        about: "Sample 2: A has no legal pawn move; 6 pass actions",
        board: ["     ", "B    ", "W    ", "a    ", "A    "],
        cards: [
            [".....", ".xx..", ".xo. ", ".....", "....."],
            [".....", ".x...", "..o..", ".x...", "....."],
            [".....", "..x..", "..o..", ".x.x.", "....."],
            [".....", ".x.x.", "..o..", ".x.x.", "....."],
            ["..x..", ".x.x.", "..o..", ".....", "....."],
        ],
        to_move: Some(Player::A),
        n: Some(50),
    },
    Setup {
        id: "aitest3_A",
        about: "Sample 3a: A has a one-move win (capture)",
        board: ["     ", "bW   ", "  aA ", " B   ", "     "],
        cards: [
            [".....", ".xx..", ".xo. ", ".....", "....."],
            [".....", ".x...", "..o..", ".x...", "....."],
            [".....", "..x..", "..o..", ".x.x.", "....."],
            [".....", ".x.x.", "..o..", ".x.x.", "....."],
            ["..x..", ".x.x.", "..o..", ".....", "....."],
        ],
        to_move: Some(Player::A),
        n: Some(10),
    },
    Setup {
        id: "aitest3_B",
        about: "Sample 3b: B has a one-move win (base)",
        board: ["     ", "bW   ", "  aA ", " B   ", "     "],
        cards: [
            [".....", ".xx..", ".xo. ", ".....", "....."],
            [".....", ".x...", "..o..", ".x...", "....."],
            [".....", "..x..", "..o..", ".x.x.", "....."],
            [".....", ".x.x.", "..o..", ".x.x.", "....."],
            ["..x..", ".x.x.", "..o..", ".....", "....."],
        ],
        to_move: Some(Player::B),
        n: Some(10),
    },
    Setup {
        id: "basic41_A",
        about: "Part 2 basic AI test: valid-move test, player A",
        board: ["B    ", " b   ", "aWA  ", "     ", "     "],
        cards: [
            [".....", "...x.", ".xo..", ".....", "....."],
            [".....", ".x.x.", "..o..", ".....", "....."],
            [".....", ".x...", "..o..", "...x.", "....."],
            [".....", "....x", "..o..", "..x..", "....."],
            ["..x..", ".x.x.", "..o..", ".....", "....."],
        ],
        to_move: Some(Player::A),
        n: Some(10),
    },
    Setup {
        id: "basic41_B",
        about: "Part 2 basic AI test: valid-move test, player B",
        board: ["B    ", " b   ", "aWA  ", "     ", "     "],
        cards: [
            [".....", "...x.", ".xo..", ".....", "....."],
            [".....", ".x.x.", "..o..", ".....", "....."],
            [".....", ".x...", "..o..", "...x.", "....."],
            [".....", "....x", "..o..", "..x..", "....."],
            ["..x..", ".x.x.", "..o..", ".....", "....."],
        ],
        to_move: Some(Player::B),
        n: Some(10),
    },
    Setup {
        id: "basic42_A",
        about: "Part 2 basic AI test: no-move (pass) test, player A",
        board: ["     ", "B   a", "   AW", "     ", "     "],
        cards: [
            [".....", "...x.", "..ox.", ".....", "....."],
            [".....", "...x.", "..o..", "....x", "....."],
            [".....", "..x..", "..o..", ".x.x.", "....."],
            [".....", ".x.x.", "..o..", ".x.x.", "....."],
            ["..x..", ".x.x.", "..o..", ".....", "....."],
        ],
        to_move: Some(Player::A),
        n: Some(10),
    },
    Setup {
        id: "basic43_A",
        about: "Part 2 basic AI test: winning-move test, player A",
        board: ["     ", "bW   ", "  a A", "  B  ", "     "],
        cards: [
            [".....", ".x.x.", ".xo. ", ".....", "....."],
            [".....", ".x...", "..o..", "..x..", "....."],
            [".....", "..x..", "..o..", ".x.x.", "....."],
            [".....", ".x...", "..o..", ".x.x.", "....."],
            ["..x..", ".x...", "..ox.", ".....", "....."],
        ],
        to_move: Some(Player::A),
        n: Some(10),
    },
    Setup {
        id: "basic43_B",
        about: "Part 2 basic AI test: winning-move test, player B",
        board: ["     ", "bW   ", "  a A", "  B  ", "     "],
        cards: [
            [".....", ".x.x.", ".xo. ", ".....", "....."],
            [".....", ".x...", "..o..", "..x..", "....."],
            [".....", "..x..", "..o..", ".x.x.", "....."],
            [".....", ".x...", "..o..", ".x.x.", "....."],
            ["..x..", ".x...", "..ox.", ".....", "....."],
        ],
        to_move: Some(Player::B),
        n: Some(10),
    },
    Setup {
        id: "readme_start",
        about: "README.md, \"Game Setup\" diagram: the example start position (same board and cards as case1; no ply limit given)",
        board: ["bbBbb", "     ", "W    ", "     ", "aaAaa"],
        cards: [
            [".....", ".x...", ".xo.x", ".....", "....."],
            [".....", "..x..", "..ox.", ".....", "....."],
            [".....", "..x..", "..o..", ".x...", "....."],
            [".....", ".x.x.", "..o..", ".x...", "....."],
            ["..x..", "...x.", "..o..", ".....", "....."],
        ],
        to_move: Some(Player::A),
        n: None,
    },
    Setup {
        id: "readme_after_first_move",
        about: "README.md, \"How to play the game\" diagram: the position after A plays card 1 e4->d3 and moves W right; B to move",
        board: ["bbBbb", "     ", " W   ", "  a  ", "aaA a"],
        cards: [
            ["..x..", "...x.", "..o..", ".....", "....."],
            [".....", "..x..", "..ox.", ".....", "....."],
            [".....", "..x..", "..o..", ".x...", "....."],
            [".....", ".x.x.", "..o..", ".x...", "....."],
            [".....", ".x...", ".xo.x", ".....", "....."],
        ],
        to_move: Some(Player::B),
        n: None,
    },
    Setup {
        id: "readme_no_move",
        about: "README.md, \"Special Case: No Possible Move\" diagram: A has no legal pawn move and must pass",
        board: ["     ", "     ", "Wb B ", "a    ", "A    "],
        cards: [
            [".....", ".xx..", "..o..", ".....", "....."],
            [".....", "..x..", ".xo..", ".....", "....."],
            [".....", "..x..", "..o..", ".x...", "....."],
            [".....", ".x.x.", "..o..", ".x...", "....."],
            [".....", ".x...", ".xo.x", ".....", "....."],
        ],
        to_move: Some(Player::A),
        n: None,
    },
    Setup {
        id: "readme_part1_example",
        about: "Example values of the setup variables in the Part 1 specification (standard start, wall c1)",
        board: ["bbBbb", "     ", "W    ", "     ", "aaAaa"],
        cards: [
            [".....", "x...x", ".xox.", ".....", "....."],
            ["..x..", "..x..", "..o..", ".....", "....."],
            [".....", ".x.x.", "..o..", ".....", "....."],
            [".....", "..x..", ".xo..", ".....", "....."],
            ["..x..", ".x.x.", "..o..", ".....", "....."],
        ],
        to_move: None,
        n: None,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setup_is_valid_and_found() {
        for s in &SETUPS {
            let p = s.position(None);
            assert_eq!(p.side(), s.side());
            assert_eq!(find_setup(s.id).unwrap().id, s.id);
        }
        assert_eq!(find_setup("21").unwrap().id, "case21");
        assert_eq!(find_setup("CASE22").unwrap().id, "case22");
        assert!(find_setup("99").is_err());
        assert!(find_setup("").is_err());
    }
}
