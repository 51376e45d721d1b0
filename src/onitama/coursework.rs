//! The words of the coursework's Part 1 program (two players at one keyboard), in one
//! place: its prompts, its event messages and its "0" move listing. The terminal game, the
//! web app and the transcript tests all use these.
//!
//! ```
//! use ludogame::onitama::coursework::{listing, ply_messages};
//! use ludogame::onitama::find_setup;
//!
//! let pos = find_setup("21").unwrap().position(None);
//! assert!(listing(&pos)[0].starts_with("Card 1, "));
//! let first = *pos.legal_actions().iter().next().unwrap();
//! let mut after = pos;
//! after.play(first).unwrap();
//! assert!(ply_messages(&pos, first, &after).len() <= 2);
//! ```

use super::action::{Action, Slot};
use super::position::{Piece, Position, Status, WinKind};
use super::square::Square;

/// Asks for a card (`0` lists the moves).
pub const CARD_PROMPT: &str = "Pick a card (1 or 2) or enter 0 to list all moves: ";
/// Asks for the card to swap when no pawn can move.
pub const PASS_PROMPT: &str = "Simply pick a card you want to swap with the side card (1 or 2): ";
/// Asks for the pawn to move.
pub const FROM_PROMPT: &str = "Input the position of your pawn you want to move: ";
/// Asks for the target square.
pub const TO_PROMPT: &str = "Input the position you want to move the selected pawn: ";
/// Asks for the wall step.
pub const WALL_PROMPT: &str = "u(up), l(left), d(down), r(right), s(stay): ";
/// Asks for the setup (the program's "test case").
pub const SETUP_PROMPT: &str = "Input the test case number: ";
/// Said before the pass prompt when no pawn can move.
pub const NO_VALID_MOVE: &str = "There is no valid move.";
/// Said when the last ply has been played without a winner.
pub const TIED: &str = "This is the last turn. The game is tied.";

/// Said before every ply.
pub fn turns_left(plies_left: impl std::fmt::Display) -> String {
    format!("Number of turns left: {plies_left}")
}

/// Said to the player to move.
pub fn your_turn(player: impl std::fmt::Display) -> String {
    format!("Player {player}, it is your turn.")
}

/// Said after a pawn move, before the wall step.
pub fn choose_wall(player: impl std::fmt::Display) -> String {
    format!("Player {player}, choose the movement of W.")
}

/// Said for a setup number the program does not have.
pub fn no_test_case(answer: impl std::fmt::Display) -> String {
    format!("There is no test case {answer}.")
}

/// Said when `player` has won by `how`.
pub fn win_message(player: impl std::fmt::Display, how: WinKind) -> String {
    match how {
        WinKind::Base => {
            format!("Player {player}, your general reaches opponent's military base. You win.")
        }
        WinKind::Capture => format!("Player {player}, you capture opponent's general. You win."),
    }
}

/// The coursework referee's (`AIvsAI.m`) last line when the AI of `loser` failed: an
/// invalid answer, or an error (`invalid` false).
pub fn ai_failed(
    winner: impl std::fmt::Display,
    loser: impl std::fmt::Display,
    invalid: bool,
) -> String {
    let why = if invalid {
        "input invalid"
    } else {
        "has programming error"
    };
    format!("Player {winner} win as player {loser} {why}.")
}

/// Said when `player` captures a soldier.
pub fn soldier_captured(player: impl std::fmt::Display) -> String {
    format!(
        "Player {player}, you capture opponent's soldier. The soldier is removed from the board."
    )
}

/// Said when the side to move in `pos` moves a pawn onto an enemy soldier at `to`.
pub fn capture_message(pos: &Position, to: Square) -> Option<String> {
    let me = pos.side();
    (pos.piece_at(to) == Some(Piece::Soldier(me.other()))).then(|| soldier_captured(me))
}

/// Every text of the program (and of its referee) by name, the variable parts as
/// `{player}`, `{n}`, `{answer}`, `{winner}` and `{loser}` (for front ends that fill them in
/// themselves).
pub fn texts() -> Vec<(&'static str, String)> {
    vec![
        ("card_prompt", CARD_PROMPT.to_owned()),
        ("pass_prompt", PASS_PROMPT.to_owned()),
        ("from_prompt", FROM_PROMPT.to_owned()),
        ("to_prompt", TO_PROMPT.to_owned()),
        ("wall_prompt", WALL_PROMPT.to_owned()),
        ("setup_prompt", SETUP_PROMPT.to_owned()),
        ("no_valid_move", NO_VALID_MOVE.to_owned()),
        ("tied", TIED.to_owned()),
        ("turns_left", turns_left("{n}")),
        ("your_turn", your_turn("{player}")),
        ("choose_wall", choose_wall("{player}")),
        ("no_test_case", no_test_case("{answer}")),
        ("base_reached", win_message("{player}", WinKind::Base)),
        (
            "general_captured",
            win_message("{player}", WinKind::Capture),
        ),
        ("soldier_captured", soldier_captured("{player}")),
        ("ai_invalid", ai_failed("{winner}", "{loser}", true)),
        ("ai_error", ai_failed("{winner}", "{loser}", false)),
    ]
}

/// Everything the program says about `action` played in `before` (giving `after`): no
/// valid move (a pass), the win or the soldier captured, and the tie after the last ply.
pub fn ply_messages(before: &Position, action: Action, after: &Position) -> Vec<String> {
    let me = before.side();
    let mut out = Vec::new();
    if action.is_pass() {
        out.push(NO_VALID_MOVE.to_owned());
    }
    if let (Some(from), Some(to)) = (action.from(), action.to()) {
        match before.win_kind(from, to) {
            Some(how) => out.push(win_message(me, how)),
            None => out.extend(capture_message(before, to)),
        }
    }
    if after.status() == Status::Tie {
        out.push(TIED.to_owned());
    }
    out
}

/// MATLAB's column-major index of a square: down column 1, then column 2, ...
fn col_major(sq: Square) -> u8 {
    sq.col() * 5 + sq.row()
}

/// The program's "0" listing: every pawn move, by card, then start, then target square in
/// column-major order (wall steps aside), as `Card 1, e2->d3`.
pub fn listing(pos: &Position) -> Vec<String> {
    let mut moves: Vec<(Slot, Square, Square)> = pos
        .legal_actions()
        .iter()
        .filter_map(|a| Some((a.slot(), a.from()?, a.to()?)))
        .collect();
    moves.sort_by_key(|&(s, f, t)| (s, col_major(f), col_major(t)));
    moves.dedup();
    moves
        .into_iter()
        .map(|(s, f, t)| format!("Card {}, {f}->{t}", s.number()))
        .collect()
}
