//! Boards a person can look at: each preset's board laid out on a square grid (the
//! cross-shaped 52-square board for standard Ludo, a 15×15 ring for CS162 with its home
//! squares running to the centre, the 40-square cross of the GT game), drawn as text or
//! as SVG.

use std::fmt::Write;

use super::board::{Board, Step, in_yard};
use super::game::{Game, Phase};
use super::rules::{MAX_SEATS, Preset, Rules, Seat, Token};
use crate::common::svg::{Svg, escape};

/// What is drawn: a board under some rules, with a caption line under it.
#[derive(Clone, Debug)]
pub struct Scene<'a> {
    /// The rules (they choose the layout and the token names).
    pub rules: &'a Rules,
    /// The tokens.
    pub board: &'a Board,
    /// The line under the board.
    pub caption: String,
}

impl<'a> Scene<'a> {
    /// A game's board, captioned with its status (and a pending roll).
    pub fn of(game: &'a Game) -> Scene<'a> {
        let mut caption = game.status();
        if let Phase::Move(roll) = game.phase() {
            let _ = write!(caption, " (rolled {roll})");
        }
        Scene {
            rules: game.rules(),
            board: game.board(),
            caption,
        }
    }

    fn seats(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::ALL.into_iter().filter(|&s| self.board.has_seat(s))
    }
}

/// What a grid cell is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// A square of the shared track (0-based).
    Track(u8),
    /// A seat's home-column (or goal) square, 0-based from the track.
    Home(Seat, u8),
    /// A seat's yard (start) slot.
    Yard(Seat, u8),
    /// A seat's off-track ready square (CS162 'R').
    Ready(Seat),
    /// The finish in the middle.
    Finish,
}

/// Where a seat's home column starts (the cell before its first square) and its direction.
type HomeRun = ((u8, u8), (i8, i8));

/// A board's cells on a `size`×`size` grid.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Grid side.
    pub size: u8,
    /// `(row, col, kind)` of every cell that is part of the board.
    pub cells: Vec<(u8, u8, CellKind)>,
}

/// The squares of a loop, walking clockwise: `(row, col)` start, then runs of
/// `(direction, length)`.
fn walk(start: (i8, i8), runs: &[((i8, i8), u8)]) -> Vec<(u8, u8)> {
    let mut at = start;
    let mut out = vec![(at.0 as u8, at.1 as u8)];
    for &((dr, dc), n) in runs {
        for _ in 0..n {
            at = (at.0 + dr, at.1 + dc);
            out.push((at.0 as u8, at.1 as u8));
        }
    }
    out
}

const R: (i8, i8) = (0, 1);
const L: (i8, i8) = (0, -1);
const U: (i8, i8) = (-1, 0);
const D: (i8, i8) = (1, 0);
const UR: (i8, i8) = (-1, 1);
const DR: (i8, i8) = (1, 1);
const DL: (i8, i8) = (1, -1);
const UL: (i8, i8) = (-1, -1);

impl Layout {
    /// The layout of a rule set's board.
    pub fn of(rules: &Rules) -> Layout {
        match rules.preset {
            Preset::Standard => Layout::cross(rules),
            Preset::Cs162 => Layout::ring(rules),
            Preset::Gt => Layout::gt(rules),
        }
    }

    /// Standard Ludo: the 15×15 cross; track square 0 is A's start at (6, 1).
    fn cross(rules: &Rules) -> Layout {
        // Clockwise from (6, 0), the square before A's start.
        let lp = walk(
            (6, 0),
            &[
                (R, 5),
                (UR, 1),
                (U, 5),
                (R, 1),
                (R, 1),
                (D, 5),
                (DR, 1),
                (R, 5),
                (D, 1),
                (D, 1),
                (L, 5),
                (DL, 1),
                (D, 5),
                (L, 1),
                (L, 1),
                (U, 5),
                (UL, 1),
                (L, 5),
                (U, 1),
            ],
        );
        debug_assert_eq!(lp.len(), 52);
        let mut cells = Vec::new();
        for sq in 0..rules.track_len {
            let (r, c) = lp[(sq as usize + 1) % 52];
            cells.push((r, c, CellKind::Track(sq)));
        }
        // Home columns run from each arm's middle towards the centre.
        let homes: [HomeRun; 4] = [((7, 0), R), ((0, 7), D), ((7, 14), L), ((14, 7), U)];
        Layout::add_homes(rules, &mut cells, &homes);
        cells.push((7, 7, CellKind::Finish));
        Layout::add_yards(
            rules,
            &mut cells,
            15,
            [(1, 1), (1, 10), (10, 10), (10, 1)],
            false,
        );
        Layout { size: 15, cells }
    }

    /// CS162: a 15×15 ring of 56 spaces, space 1 in the top-left corner, clockwise; each
    /// player's six home squares run from the middle of a side to 'E' in the centre.
    fn ring(rules: &Rules) -> Layout {
        let lp = walk((0, 0), &[(R, 14), (D, 14), (L, 14), (U, 13)]);
        let mut cells = Vec::new();
        for sq in 0..rules.track_len.min(56) {
            let (r, c) = lp[sq as usize];
            cells.push((r, c, CellKind::Track(sq)));
        }
        let homes: [HomeRun; 4] = [((7, 0), R), ((0, 7), D), ((7, 14), L), ((14, 7), U)];
        Layout::add_homes(rules, &mut cells, &homes);
        cells.push((7, 7, CellKind::Finish));
        Layout::add_yards(
            rules,
            &mut cells,
            15,
            [(2, 2), (2, 10), (10, 10), (10, 2)],
            true,
        );
        Layout { size: 15, cells }
    }

    /// GT: the 11×11 cross of 40 squares, square 1 (A's entry) at (4, 0).
    fn gt(rules: &Rules) -> Layout {
        let lp = walk(
            (4, 0),
            &[
                (R, 4),
                (U, 4),
                (R, 2),
                (D, 4),
                (R, 4),
                (D, 2),
                (L, 4),
                (D, 4),
                (L, 2),
                (U, 4),
                (L, 4),
                (U, 1),
            ],
        );
        let mut cells = Vec::new();
        for sq in 0..rules.track_len.min(40) {
            let (r, c) = lp[sq as usize];
            cells.push((r, c, CellKind::Track(sq)));
        }
        let homes: [HomeRun; 4] = [((5, 0), R), ((0, 5), D), ((5, 10), L), ((10, 5), U)];
        Layout::add_homes(rules, &mut cells, &homes);
        Layout::add_yards(
            rules,
            &mut cells,
            11,
            [(0, 0), (0, 9), (9, 9), (9, 0)],
            false,
        );
        Layout { size: 11, cells }
    }

    fn add_homes(rules: &Rules, cells: &mut Vec<(u8, u8, CellKind)>, homes: &[HomeRun; 4]) {
        let len = (rules.finish_step - rules.last_track_step - 1).max(0) as u8
            + u8::from(rules.home_step < rules.finish_step); // GT: the last goal square too
        for (seat, &((r, c), (dr, dc))) in Seat::ALL.into_iter().zip(homes) {
            for i in 0..len {
                let k = i as i8 + 1;
                let (rr, cc) = ((r as i8 + dr * k) as u8, (c as i8 + dc * k) as u8);
                cells.push((rr, cc, CellKind::Home(seat, i)));
            }
        }
    }

    fn add_yards(
        rules: &Rules,
        cells: &mut Vec<(u8, u8, CellKind)>,
        size: u8,
        corners: [(u8, u8); 4],
        ready: bool,
    ) {
        let _ = size;
        for (seat, &(r, c)) in Seat::ALL.into_iter().zip(&corners) {
            for slot in 0..rules.tokens {
                cells.push((r + slot / 2, c + slot % 2, CellKind::Yard(seat, slot)));
            }
            if ready {
                cells.push((r + 2, c + 1, CellKind::Ready(seat)));
            }
        }
    }

    /// The cell where a token with `step` of `seat` (its `token`-th) is drawn.
    pub fn cell_of(&self, rules: &Rules, seat: Seat, token: Token, step: Step) -> CellKind {
        if in_yard(step) {
            let slot = if rules.yard_slots {
                (-1 - step) as u8
            } else {
                token.index() as u8
            };
            CellKind::Yard(seat, slot)
        } else if let Some(square) = rules.track_square(seat, step) {
            CellKind::Track(square)
        } else if step == 0 {
            CellKind::Ready(seat)
        } else if step >= rules.finish_step && rules.home_step == rules.finish_step {
            CellKind::Finish
        } else {
            CellKind::Home(seat, (step - rules.last_track_step - 1) as u8)
        }
    }

    fn position(&self, kind: CellKind) -> Option<(u8, u8)> {
        self.cells.iter().find(|c| c.2 == kind).map(|c| (c.0, c.1))
    }
}

/// The tokens standing in each cell: `(seat, token)` lists, indexed by `row * size + col`.
fn occupants(game: &Scene, layout: &Layout) -> Vec<Vec<(Seat, Token)>> {
    let n = layout.size as usize;
    let mut grid = vec![Vec::new(); n * n];
    let r = game.rules;
    for seat in game.seats() {
        for t in r.all_tokens() {
            let kind = layout.cell_of(r, seat, t, game.board.step(seat, t));
            if let Some((row, col)) = layout.position(kind) {
                grid[row as usize * n + col as usize].push((seat, t));
            }
        }
    }
    grid
}

fn cell_text(game: &Scene, tokens: &[(Seat, Token)]) -> String {
    let r = game.rules;
    match tokens {
        [] => String::new(),
        [(s, t)] => r.token_name(*s, *t),
        _ if tokens.iter().all(|(s, _)| *s == tokens[0].0) => {
            let s = tokens[0].0;
            let names: String = tokens.iter().map(|&(_, t)| r.token_label(s, t)).collect();
            if names.len() <= 2 && !matches!(r.token_names, super::rules::TokenNames::SeatCase) {
                format!("{}{}", r.seat_label(s), names)
            } else {
                format!("{}x{}", r.seat_label(s), tokens.len())
            }
        }
        _ => format!("*{}", tokens.len()),
    }
}

/// The board as text: one 3-character cell per grid square (`.` track, `*` safe, `:` home
/// column, `o` yard, `r` ready, `E` finish, tokens by name), then the status line.
pub fn text(game: &Game) -> String {
    text_of(&Scene::of(game))
}

/// A scene as text (see [`text`]).
pub fn text_of(game: &Scene) -> String {
    let r = game.rules;
    let layout = Layout::of(r);
    let n = layout.size as usize;
    let occ = occupants(game, &layout);
    let mut grid = vec!["   ".to_owned(); n * n];
    for &(row, col, kind) in &layout.cells {
        let i = row as usize * n + col as usize;
        let tokens = &occ[i];
        let empty = match kind {
            CellKind::Track(sq) if r.is_safe_square(sq) => " * ".to_owned(),
            CellKind::Track(sq) => match Seat::ALL.into_iter().find(|&s| r.seat_offsets[s] == sq) {
                Some(seat) if game.board.has_seat(seat) => {
                    format!(" {} ", r.seat_label(seat).to_ascii_lowercase())
                }
                _ => " . ".to_owned(),
            },
            CellKind::Home(..) => " : ".to_owned(),
            CellKind::Yard(seat, _) if game.board.has_seat(seat) => " o ".to_owned(),
            CellKind::Yard(..) => "   ".to_owned(),
            CellKind::Ready(seat) if game.board.has_seat(seat) => " r ".to_owned(),
            CellKind::Ready(_) => "   ".to_owned(),
            CellKind::Finish => " E ".to_owned(),
        };
        grid[i] = if tokens.is_empty() {
            empty
        } else {
            format!("{:<3}", cell_text(game, tokens))
        };
    }
    let mut out = String::new();
    for row in 0..n {
        let line: String = grid[row * n..(row + 1) * n].concat();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&game.caption);
    out
}

const COLOURS: [&str; MAX_SEATS] = ["#d62728", "#2ca02c", "#e6b800", "#1f77b4"];
const LIGHT: [&str; MAX_SEATS] = ["#f6c9c9", "#cdeccd", "#fbefb3", "#c9def0"];

/// The board as an SVG image (cells coloured by player, tokens as labelled discs).
pub fn svg(game: &Game) -> String {
    svg_of(&Scene::of(game))
}

/// A scene as SVG (see [`svg`]).
pub fn svg_of(game: &Scene) -> String {
    let r = game.rules;
    let layout = Layout::of(r);
    let n = layout.size as usize;
    let cell = 30usize;
    let side = n * cell;
    let occ = occupants(game, &layout);
    let (w, h) = ((side + 16) as f64, (side + 36) as f64);
    let mut doc = Svg::new(w, h);
    doc.rect(0.0, 0.0, w, h, r##"fill="#fafafa""##)
        .raw(r#"<g transform="translate(8,8)">"#);
    let s = doc.buffer();
    // Yard areas behind their slots.
    let yard_corner = |seat: Seat| {
        layout
            .cells
            .iter()
            .filter(|c| matches!(c.2, CellKind::Yard(s, _) | CellKind::Ready(s) if s == seat))
            .fold(
                (u8::MAX, u8::MAX, 0u8, 0u8),
                |(r0, c0, r1, c1), &(r, c, _)| (r0.min(r), c0.min(c), r1.max(r), c1.max(c)),
            )
    };
    for (seat, colour) in Seat::ALL.into_iter().zip(&COLOURS) {
        let (r0, c0, r1, c1) = yard_corner(seat);
        if r0 == u8::MAX {
            continue;
        }
        let _ = write!(
            s,
            r#"<rect x="{}" y="{}" width="{}" height="{}" rx="8" fill="{}" opacity="{}"/>"#,
            (c0 as usize) * cell - 4.min(c0 as usize * cell),
            (r0 as usize) * cell - 4.min(r0 as usize * cell),
            (c1 - c0 + 1) as usize * cell + 8,
            (r1 - r0 + 1) as usize * cell + 8,
            colour,
            if game.board.has_seat(seat) {
                "0.85"
            } else {
                "0.25"
            }
        );
    }
    for &(row, col, kind) in &layout.cells {
        let (x, y) = (col as usize * cell, row as usize * cell);
        let fill = match kind {
            CellKind::Track(sq) => match Seat::ALL.into_iter().find(|&s| r.seat_offsets[s] == sq) {
                Some(seat) => LIGHT[seat],
                None => "#ffffff",
            },
            CellKind::Home(seat, _) => LIGHT[seat],
            CellKind::Yard(..) | CellKind::Ready(_) => "#ffffff",
            CellKind::Finish => "#dddddd",
        };
        let _ = write!(
            s,
            r##"<rect x="{}" y="{}" width="{cell}" height="{cell}" fill="{fill}" stroke="#555" stroke-width="1"/>"##,
            x + 1,
            y + 1
        );
        let mark = match kind {
            CellKind::Track(sq) if r.is_safe_square(sq) => "★".to_owned(),
            CellKind::Track(sq) if r.preset != Preset::Standard => {
                // CS162 spaces and GT squares carry their numbers.
                (sq + 1).to_string()
            }
            CellKind::Ready(_) => "R".to_owned(),
            CellKind::Finish => "E".to_owned(),
            _ => String::new(),
        };
        if !mark.is_empty() {
            let _ = write!(
                s,
                r##"<text x="{}" y="{}" font-size="9" fill="#888" text-anchor="middle">{mark}</text>"##,
                x + cell / 2 + 1,
                y + 11
            );
        }
        let tokens = &occ[row as usize * n + col as usize];
        if let Some(&(seat, _)) = tokens.first() {
            let colour = if tokens.iter().all(|(s2, _)| *s2 == seat) {
                COLOURS[seat]
            } else {
                "#444"
            };
            // The tokens' names let a page find the cell of a movable token.
            let names: Vec<String> = tokens.iter().map(|&(s, t)| r.token_name(s, t)).collect();
            let _ = write!(
                s,
                r##"<g class="tokens" data-tokens="{}"><circle cx="{}" cy="{}" r="{}" fill="{colour}" stroke="#000" stroke-width="1.5"/>"##,
                names.join(" "),
                x + cell / 2 + 1,
                y + cell / 2 + 2,
                cell / 2 - 4
            );
            let _ = write!(
                s,
                r##"<text x="{}" y="{}" font-size="10" font-weight="bold" fill="#fff" text-anchor="middle">{}</text></g>"##,
                x + cell / 2 + 1,
                y + cell / 2 + 6,
                cell_text(game, tokens)
            );
        }
    }
    let _ = write!(
        s,
        r##"<text x="4" y="{}" font-size="13" fill="#222">{}</text></g>"##,
        side + 19,
        escape(&game.caption)
    );
    doc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ludo::seat::{seat_list, seat_no, token_no};

    fn distinct_cells(rules: &Rules) {
        let l = Layout::of(rules);
        let mut seen = std::collections::HashSet::new();
        for &(r, c, kind) in &l.cells {
            assert!(r < l.size && c < l.size, "{kind:?} off the grid");
            assert!(seen.insert((r, c)), "two cells at ({r}, {c}): {kind:?}");
        }
        let track = l
            .cells
            .iter()
            .filter(|c| matches!(c.2, CellKind::Track(_)))
            .count();
        assert_eq!(track, rules.track_len as usize);
    }

    #[test]
    fn layouts_have_one_cell_per_square() {
        distinct_cells(&Rules::CS162);
        distinct_cells(&Rules::STANDARD);
        distinct_cells(&Rules::GT);
    }

    #[test]
    fn consecutive_track_squares_are_neighbours() {
        for rules in [Rules::CS162, Rules::STANDARD, Rules::GT] {
            let l = Layout::of(&rules);
            for sq in 0..rules.track_len {
                let a = l.position(CellKind::Track(sq)).unwrap();
                let b = l
                    .position(CellKind::Track((sq + 1) % rules.track_len))
                    .unwrap();
                let d = (a.0 as i16 - b.0 as i16).abs() + (a.1 as i16 - b.1 as i16).abs();
                assert!(
                    d == 1 || (d == 2 && a.0 != b.0 && a.1 != b.1),
                    "{} {sq}: {a:?} {b:?}",
                    rules.name()
                );
            }
        }
    }

    #[test]
    fn home_columns_start_next_to_each_seats_last_track_square() {
        for rules in [Rules::CS162, Rules::STANDARD, Rules::GT] {
            let l = Layout::of(&rules);
            for seat in 0..4 {
                let last = rules
                    .track_square(seat_no(seat), rules.last_track_step)
                    .unwrap();
                let a = l.position(CellKind::Track(last)).unwrap();
                let b = l.position(CellKind::Home(seat_no(seat), 0)).unwrap();
                let d = (a.0 as i16 - b.0 as i16).abs() + (a.1 as i16 - b.1 as i16).abs();
                assert_eq!(d, 1, "{} seat {seat}", rules.name());
            }
        }
    }

    #[test]
    fn text_board_shows_tokens() {
        let mut g = Game::new(Rules::CS162, &seat_list(&[0, 1]), 1).unwrap();
        g.set_step(seat_no(0), token_no(0), 28);
        g.set_step(seat_no(0), token_no(1), 28);
        g.set_step(seat_no(1), token_no(0), 7);
        let t = text(&g);
        assert!(t.contains("Apq"), "{t}");
        assert!(t.contains("Bp"), "{t}");
        assert!(t.ends_with("Player A to roll the die."));
        assert_eq!(t.lines().count(), 16);
        let svg = svg(&g);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(svg.contains(">Apq</text>"));
        // Each occupied cell names its tokens as moves name them, yard tokens included.
        assert!(svg.contains(r#"data-tokens="Ap Aq""#), "{svg}");
        assert!(svg.contains(r#"data-tokens="Bp""#), "{svg}");
        assert!(svg.contains(r#"data-tokens="Bq""#), "{svg}");
        assert_eq!(svg.matches("<g ").count(), svg.matches("</g>").count());
    }

    #[test]
    fn svg_names_gt_tokens_as_their_moves() {
        let g = Game::new(Rules::GT, &seat_list(&[0, 1]), 1).unwrap();
        let svg = svg(&g);
        for name in ["A", "a", "B", "b"] {
            assert!(
                svg.contains(&format!(r#"data-tokens="{name}""#)),
                "{name}: {svg}"
            );
        }
    }
}
