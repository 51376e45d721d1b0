//! Pictures of a position: the text drawing of the reference programs (board, the five
//! cards, the side card's arrow), an SVG image, and a small RGB picture ([`rgb`]).
//!
//! Cards are drawn from their patterns as the source stores them (holder view, the `o`
//! possibly off-centre): A's cards as written, B's cards rotated 180°, and the side card
//! as the player who is to move sees it, with `^` (A) or `v` (B) beside it.

use std::fmt::Write;

use super::card::Card;
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
/// `slot` (`A1`, `A2`, `B1`, `B2`, `side`) marks the group for a page to find, and a
/// standard card's name is its `data-name` (`Sea Snake`); in a standard game (`standard`) the
/// name is also written under the caption, in the colour of the card's stamp.
fn svg_card(
    out: &mut String,
    (card, rows): (Card, &[String; 5]),
    (x, y): (f64, f64),
    cell: f64,
    slot: &str,
    caption: &str,
    standard: bool,
) {
    let name = card
        .name()
        .map_or(String::new(), |n| format!(r#" data-name="{}""#, escape(n)));
    let _ = write!(
        out,
        r##"<g class="card" data-card="{slot}"{name}><rect x="{x}" y="{y}" width="{w}" height="{w}" fill="#fffdf5" stroke="#8a7a5a"/>"##,
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
        r##"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="#333">{}</text>"##,
        x + 2.5 * cell,
        y + 5.0 * cell + 13.0,
        escape(caption)
    );
    if let (true, Some(name), Some(stamp)) = (standard, card.name(), card.first_player()) {
        // the stamp's colour says who moves first when this card is the side card
        let _ = write!(
            out,
            r##"<text class="card-name" x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle" font-weight="bold" fill="{}">{}</text>"##,
            x + 2.5 * cell,
            y + 5.0 * cell + 25.0,
            SVG_COLOURS[stamp.index() ^ 1],
            escape(name)
        );
    }
    out.push_str("</g>");
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
            // Each square is a group named by its square, for a page to click.
            let _ = write!(
                s,
                r##"<g class="square" data-square="{sq}"><rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="#8a7a5a"/>"##
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
                    let (fill, text) = (SVG_COLOURS[colour_index(pos, p)], "#fff");
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
            s.push_str("</g>");
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
    svg_card(
        s,
        (pos.card(CardSlot::B1), &rotate(b1)),
        (cx0, by),
        small,
        "B1",
        "B card 1",
        pos.is_standard(),
    );
    svg_card(
        s,
        (pos.card(CardSlot::B2), &rotate(b2)),
        (cx0 + 72.0, by),
        small,
        "B2",
        "B card 2",
        pos.is_standard(),
    );
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
        (pos.card(CardSlot::Side), &side_rows),
        (cx0 + 148.0, by + 2.5 * cell - 30.0),
        small,
        "side",
        arrow,
        pos.is_standard(),
    );
    svg_card(
        s,
        (pos.card(CardSlot::A1), a1),
        (cx0, by + 5.0 * cell - 78.0),
        small,
        "A1",
        "A card 1",
        pos.is_standard(),
    );
    svg_card(
        s,
        (pos.card(CardSlot::A2), a2),
        (cx0 + 72.0, by + 5.0 * cell - 78.0),
        small,
        "A2",
        "A card 2",
        pos.is_standard(),
    );
    let _ = write!(
        s,
        r##"<text x="{bx}" y="{:.1}" font-size="13" fill="#333">{}</text>"##,
        by + 5.0 * cell + 40.0,
        escape(caption)
    );
    doc.finish()
}

/// An RGB picture: `height` rows of `width` pixels, 3 bytes each (red, green, blue).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raster {
    /// Pixels per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `height * width * 3` bytes, row by row.
    pub pixels: Vec<u8>,
}

type Rgb = [u8; 3];

impl Raster {
    fn new(width: usize, height: usize, fill: Rgb) -> Raster {
        Raster {
            width,
            height,
            pixels: fill.repeat(width * height),
        }
    }

    /// Fill the rectangle at (`x`, `y`) of `w` × `h` pixels.
    fn rect(&mut self, x: usize, y: usize, w: usize, h: usize, c: Rgb) {
        for row in y..(y + h).min(self.height) {
            for col in x..(x + w).min(self.width) {
                let i = (row * self.width + col) * 3;
                self.pixels[i..i + 3].copy_from_slice(&c);
            }
        }
    }

    /// Fill the disc of radius `r` centred at (`cx`, `cy`).
    fn disc(&mut self, cx: usize, cy: usize, r: usize, c: Rgb) {
        let r2 = (r * r) as i64;
        for row in cy.saturating_sub(r)..=cy + r {
            for col in cx.saturating_sub(r)..=cx + r {
                let (dx, dy) = (col as i64 - cx as i64, row as i64 - cy as i64);
                if dx * dx + dy * dy <= r2 {
                    self.rect(col, row, 1, 1, c);
                }
            }
        }
    }
}

const CELL: usize = 40;
const MARGIN: usize = 8;
const PIP: usize = 8;
const COLOURS: [Rgb; 2] = [[196, 48, 48], [48, 80, 196]];

/// The SVG's red and blue, in the order of [`COLOURS`].
const SVG_COLOURS: [&str; 2] = ["#c0392b", "#2c3e73"];

/// Which of the two colours (0 red, 1 blue) player `p`'s pieces wear: in the wall variant A
/// is red; in standard Onitama the colours are the cards' stamps, blue being A (the hand
/// named first in the community's tables) and red B.
fn colour_index(pos: &Position, p: Player) -> usize {
    p.index() ^ usize::from(pos.is_standard())
}

/// Draw a card's 5×5 pattern with its top-left corner at (`x`, `y`): targets in the
/// holder's colour, the pawn's square black, turned 180° when `turned`.
fn rgb_card(img: &mut Raster, x: usize, y: usize, card: Card, holder: Rgb, turned: bool) {
    img.rect(x, y, 5 * PIP, 5 * PIP, [250, 250, 245]);
    let at = |i: u32| if turned { 24 - i as usize } else { i as usize };
    let mut pip = |i: usize, c: Rgb| {
        img.rect(
            x + (i % 5) * PIP + 1,
            y + (i / 5) * PIP + 1,
            PIP - 2,
            PIP - 2,
            c,
        );
    };
    let mut xs = card.xmask();
    while xs != 0 {
        pip(at(xs.trailing_zeros()), holder);
        xs &= xs - 1;
    }
    pip(at(card.o_index()), [20, 20, 20]);
}

/// The position as a small RGB picture (320 × 216 pixels): the board as the text drawing
/// shows it (row `a` on top), A red and B blue, generals as large discs, soldiers as small
/// ones, the wall a dark block, the bases tinted; on the right B's cards (turned, as B
/// moves), the side card (as the player to move would play it) and A's cards.
pub fn rgb(pos: &Position) -> Raster {
    let board_w = 5 * CELL;
    let cards_x = 2 * MARGIN + board_w + MARGIN;
    let mut img = Raster::new(
        cards_x + 2 * 5 * PIP + 2 * MARGIN,
        board_w + 2 * MARGIN,
        [90, 70, 50],
    );
    for sq in Square::all() {
        let (x, y) = (
            MARGIN + sq.col() as usize * CELL,
            MARGIN + sq.row() as usize * CELL,
        );
        let light = (sq.row() + sq.col()) % 2 == 0;
        let mut c: Rgb = if light {
            [238, 222, 186]
        } else {
            [214, 190, 148]
        };
        if sq == Player::A.base() {
            c = [240, 170, 160];
        } else if sq == Player::B.base() {
            c = [170, 185, 240];
        }
        img.rect(x, y, CELL, CELL, c);
        let (cx, cy) = (x + CELL / 2, y + CELL / 2);
        match pos.piece_at(sq) {
            Some(Piece::General(p)) => {
                img.disc(cx, cy, 16, COLOURS[colour_index(pos, p)]);
                img.disc(cx, cy, 6, [255, 215, 0]);
            }
            Some(Piece::Soldier(p)) => img.disc(cx, cy, 10, COLOURS[colour_index(pos, p)]),
            Some(Piece::Wall) => img.rect(x + 4, y + 4, CELL - 8, CELL - 8, [60, 60, 60]),
            None => {}
        }
    }
    let card_w = 5 * PIP;
    let second = cards_x + card_w + MARGIN;
    let (top, bottom) = (MARGIN, MARGIN + board_w - card_w);
    let middle = MARGIN + (board_w - card_w) / 2;
    let b = COLOURS[colour_index(pos, Player::B)];
    rgb_card(&mut img, cards_x, top, pos.card(CardSlot::B1), b, true);
    rgb_card(&mut img, second, top, pos.card(CardSlot::B2), b, true);
    let side_turned = pos.side() == Player::B;
    let mover = COLOURS[colour_index(pos, pos.side())];
    let side_x = cards_x + (card_w + MARGIN) / 2;
    rgb_card(
        &mut img,
        side_x,
        middle,
        pos.card(CardSlot::Side),
        mover,
        side_turned,
    );
    let a = COLOURS[colour_index(pos, Player::A)];
    rgb_card(&mut img, cards_x, bottom, pos.card(CardSlot::A1), a, false);
    rgb_card(&mut img, second, bottom, pos.card(CardSlot::A2), a, false);
    img
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

    #[test]
    fn svg_marks_squares_and_cards() {
        let s = find_setup("1").unwrap();
        let pos = s.position(None);
        let patterns = s.cards.map(|rows| rows.map(str::to_owned));
        let svg = svg(&pos, &patterns, Player::A, "caption");
        assert_eq!(svg.matches(r#"class="square""#).count(), 25);
        for sq in ["a1", "c3", "e5"] {
            assert!(svg.contains(&format!(r#"data-square="{sq}""#)), "{sq}");
        }
        for slot in ["A1", "A2", "B1", "B2", "side"] {
            assert!(svg.contains(&format!(r#"data-card="{slot}""#)), "{slot}");
        }
        assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
    }

    #[test]
    fn rgb_picture() {
        let pos = find_setup("22").unwrap().position(None);
        let img = rgb(&pos);
        assert_eq!((img.width, img.height), (320, 216));
        assert_eq!(img.pixels.len(), 320 * 216 * 3);
        let at = |x: usize, y: usize| {
            let i = (y * img.width + x) * 3;
            [img.pixels[i], img.pixels[i + 1], img.pixels[i + 2]]
        };
        // Centre of the square (row, col): A's general on e3, B's on a3, the wall on c1.
        let centre =
            |r: usize, c: usize| at(MARGIN + c * CELL + CELL / 2, MARGIN + r * CELL + CELL / 2);
        assert_eq!(centre(4, 2), [255, 215, 0]);
        assert_eq!(centre(2, 0), [60, 60, 60]);
        assert_eq!(centre(4, 0), COLOURS[0]);
        assert_eq!(centre(0, 0), COLOURS[1]);
        assert_eq!(centre(2, 2), [238, 222, 186]);
        // Another position gives another picture.
        let mut next = pos;
        next.play(pos.legal_actions().as_slice()[0]).unwrap();
        assert_ne!(rgb(&next), img);
    }
}
