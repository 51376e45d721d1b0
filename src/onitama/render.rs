//! Pictures of a position: the text drawing of the reference programs (board, the five
//! cards, the side card's arrow), and an SVG image.
//!
//! Cards are drawn from their patterns as the source stores them (holder view, the `o`
//! possibly off-centre): A's cards as written, B's cards rotated 180°, and the side card
//! as the player who is to move sees it, with `^` (A) or `v` (B) beside it.

use std::fmt::Write;

use super::position::{CardSlot, Piece, Position};
use super::square::{Player, Square};
use crate::common::svg::{Svg, escape};

/// Five card patterns (`A1 A2 B1 B2 side`), 5 rows of 5 characters each.
pub type Patterns = [[String; 5]; 5];

/// The canonical patterns of the position's cards (for positions read without any).
pub fn canonical_patterns(pos: &Position) -> Patterns {
    CardSlot::ALL.map(|slot| pos.card(slot).rows())
}

/// A pattern turned 180°.
pub fn rotate(rows: &[String; 5]) -> [String; 5] {
    std::array::from_fn(|r| rows[4 - r].chars().rev().collect())
}

fn board_row(pos: &Position, r: usize) -> String {
    let mut s = format!("{} |", (b'a' + r as u8) as char);
    for c in 0..5 {
        let sq = Square::new(r as u8, c as u8).expect("5x5");
        let ch = pos.piece_at(sq).map_or(' ', Piece::to_char);
        let _ = write!(s, " {ch} |");
    }
    s
}

/// The text drawing of the reference programs: B's side on top, A's at the bottom, the
/// side card oriented for `viewer` (the player whose ply it is). 15 lines, each ending
/// with a newline.
pub fn draw(pos: &Position, patterns: &Patterns, viewer: Player) -> String {
    let border = "  +---+---+---+---+---+";
    let [a1, a2, b1, b2, side] = patterns;
    let (b1, b2) = (rotate(b1), rotate(b2));
    let (side, arrow) = match viewer {
        Player::A => (side.clone(), '^'),
        Player::B => (rotate(side), 'v'),
    };
    let pad = " ".repeat(4);
    let cards = |x: &str, y: &str| format!("{pad}{x}{pad}{y}");
    let lines = [
        format!("{}Player B", " ".repeat(24)),
        format!("{}Card 1   Card 2", " ".repeat(26)),
        format!("{border}{}", cards(&b1[0], &b2[0])),
        format!("{}{}", board_row(pos, 0), cards(&b1[1], &b2[1])),
        format!("{border}{}{pad}Side card", cards(&b1[2], &b2[2])),
        format!(
            "{}{}{pad}{}",
            board_row(pos, 1),
            cards(&b1[3], &b2[3]),
            side[0]
        ),
        format!(
            "{border}{}{pad}{}   {arrow}",
            cards(&b1[4], &b2[4]),
            side[1]
        ),
        format!(
            "{}{}{}   {arrow}",
            board_row(pos, 2),
            " ".repeat(22),
            side[2]
        ),
        format!(
            "{border}{}{pad}{}   {arrow}",
            cards(&a1[0], &a2[0]),
            side[3]
        ),
        format!(
            "{}{}{pad}{}",
            board_row(pos, 3),
            cards(&a1[1], &a2[1]),
            side[4]
        ),
        format!("{border}{}", cards(&a1[2], &a2[2])),
        format!("{}{}", board_row(pos, 4), cards(&a1[3], &a2[3])),
        format!("{border}{}", cards(&a1[4], &a2[4])),
        "    1   2   3   4   5     Card 1   Card 2".to_owned(),
        format!("{}Player A", " ".repeat(24)),
    ];
    let mut out = String::new();
    for l in lines {
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// One card as a small grid at `(x, y)`, cells of `cell` pixels, with a caption.
fn svg_card(out: &mut String, rows: &[String; 5], x: f64, y: f64, cell: f64, caption: &str) {
    let _ = write!(
        out,
        r##"<g><rect x="{x}" y="{y}" width="{w}" height="{w}" fill="#fffdf5" stroke="#8a7a5a"/>"##,
        w = 5.0 * cell
    );
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate().take(5) {
            let (cx, cy) = (x + c as f64 * cell, y + r as f64 * cell);
            let fill = match ch {
                'o' => "#444",
                'x' => "#d9822b",
                _ => continue,
            };
            let _ = write!(
                out,
                r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{fill}"/>"##,
                cx + 1.0,
                cy + 1.0,
                cell - 2.0,
                cell - 2.0
            );
        }
    }
    let _ = write!(
        out,
        r##"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="#333">{}</text></g>"##,
        x + 2.5 * cell,
        y + 5.0 * cell + 13.0,
        escape(caption)
    );
}

/// The position as an SVG image: the board with both bases marked, the pawns and the
/// wall, and the five cards drawn as the players see them (B's rotated; the side card for
/// `viewer`, with an arrow).
pub fn svg(pos: &Position, patterns: &Patterns, viewer: Player, caption: &str) -> String {
    let cell = 48.0;
    let (bx, by) = (24.0, 24.0);
    let (w, h) = (bx + 5.0 * cell + 250.0, by + 5.0 * cell + 52.0);
    let mut doc = Svg::new(w, h);
    doc.rect(0.0, 0.0, w, h, r##"fill="#f4efe1""##);
    let s = doc.buffer();
    for r in 0..5u8 {
        for c in 0..5u8 {
            let sq = Square::new(r, c).expect("5x5");
            let (x, y) = (bx + c as f64 * cell, by + r as f64 * cell);
            let fill = if sq.is_base() {
                "#e8d3a8"
            } else if (r + c) % 2 == 0 {
                "#fbf7ec"
            } else {
                "#f0e8d4"
            };
            let _ = write!(
                s,
                r##"<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="#8a7a5a"/>"##
            );
            let (cx, cy) = (x + cell / 2.0, y + cell / 2.0);
            match pos.piece_at(sq) {
                Some(Piece::Wall) => {
                    let _ = write!(
                        s,
                        r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#6b6b6b" rx="3"/>"##,
                        x + 5.0,
                        y + 5.0,
                        cell - 10.0,
                        cell - 10.0
                    );
                }
                Some(Piece::General(p)) | Some(Piece::Soldier(p)) => {
                    let general = matches!(pos.piece_at(sq), Some(Piece::General(_)));
                    let (fill, text) = match p {
                        Player::A => ("#c0392b", "#fff"),
                        Player::B => ("#2c3e73", "#fff"),
                    };
                    let radius = if general { cell * 0.4 } else { cell * 0.3 };
                    let letter = pos.piece_at(sq).map_or(' ', Piece::to_char);
                    let _ = write!(
                        s,
                        r##"<circle cx="{cx}" cy="{cy}" r="{radius:.1}" fill="{fill}" stroke="#222"/><text x="{cx}" y="{:.1}" font-size="{}" text-anchor="middle" fill="{text}" font-weight="bold">{letter}</text>"##,
                        cy + if general { 6.0 } else { 5.0 },
                        if general { 18 } else { 14 }
                    );
                }
                None => {}
            }
        }
        let _ = write!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle" fill="#333">{}</text>"##,
            bx - 12.0,
            by + r as f64 * cell + cell / 2.0 + 5.0,
            (b'a' + r) as char
        );
    }
    for c in 0..5 {
        let _ = write!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle" fill="#333">{}</text>"##,
            bx + c as f64 * cell + cell / 2.0,
            by + 5.0 * cell + 16.0,
            c + 1
        );
    }
    let [a1, a2, b1, b2, side] = patterns;
    let small = 12.0;
    let cx0 = bx + 5.0 * cell + 24.0;
    svg_card(s, &rotate(b1), cx0, by, small, "B card 1");
    svg_card(s, &rotate(b2), cx0 + 72.0, by, small, "B card 2");
    let side_rows = match viewer {
        Player::A => side.clone(),
        Player::B => rotate(side),
    };
    let arrow = match viewer {
        Player::A => "side ▲",
        Player::B => "side ▼",
    };
    svg_card(
        s,
        &side_rows,
        cx0 + 148.0,
        by + 2.5 * cell - 30.0,
        small,
        arrow,
    );
    svg_card(s, a1, cx0, by + 5.0 * cell - 78.0, small, "A card 1");
    svg_card(s, a2, cx0 + 72.0, by + 5.0 * cell - 78.0, small, "A card 2");
    let _ = write!(
        s,
        r##"<text x="{bx}" y="{:.1}" font-size="13" fill="#333">{}</text>"##,
        by + 5.0 * cell + 40.0,
        escape(caption)
    );
    doc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::onitama::setups::find_setup;

    #[test]
    fn draws_the_readme_start() {
        let s = find_setup("1").unwrap();
        let pos = s.position(None);
        let patterns = s.cards.map(|rows| rows.map(str::to_owned));
        let text = draw(&pos, &patterns, Player::A);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 15);
        assert_eq!(lines[3], "a | b | b | B | b | b |    ...x.    ...x.");
        assert_eq!(
            lines[7],
            "c | W |   |   |   |   |                      ..o..   ^"
        );
        assert!(svg(&pos, &patterns, Player::B, "x").starts_with("<svg"));
    }
}
