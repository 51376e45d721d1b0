//! A large text remembered by its pieces' hashes and lengths, not by the text: enough to
//! say, given the next text, which pieces changed and so the few edits that make it of the
//! old one. The web server sends a board's SVG to a page once and then only such edits.
//!
//! ```
//! use ludogame::common::pieces::{Edit, Pieces};
//!
//! let old = "<svg><rect a/><rect b/><rect c/></svg>";
//! let new = "<svg><rect a/><rect B/><rect c/></svg>";
//! let (before, after) = (Pieces::new(old, "<rect "), Pieces::new(new, "<rect "));
//! assert!(!after.same(&before));
//! let edits = after.edits_from(&before, new, 0).unwrap();
//! assert_eq!(edits, vec![Edit { start: 20, end: 23, text: "B/>" }]);
//! ```

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::OnceLock;

/// A text cut where a separator starts, as its pieces' hashes and lengths (in bytes; the
/// separators are not part of the pieces), the separator, and whether it is all ASCII.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pieces {
    hashes: Vec<u64>,
    lengths: Vec<usize>,
    separator: Box<str>,
    ascii: bool,
}

/// One edit of an old text: its bytes `start..end` become `text`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edit<'t> {
    /// Where the replaced part starts in the old text.
    pub start: usize,
    /// Where it ends (exclusive) in the old text.
    pub end: usize,
    /// What replaces it (a part of the new text).
    pub text: &'t str,
}

/// The hash of a piece: keyed once per process (as Python's own `hash` of a str is), so
/// that no text can be made to collide on purpose.
fn hash_of(piece: &str) -> u64 {
    static KEYS: OnceLock<RandomState> = OnceLock::new();
    KEYS.get_or_init(RandomState::new).hash_one(piece)
}

impl Pieces {
    /// The pieces of `text` cut at each `separator` (which must not be empty).
    pub fn new(text: &str, separator: &str) -> Pieces {
        assert!(!separator.is_empty(), "an empty separator");
        let (mut hashes, mut lengths) = (Vec::new(), Vec::new());
        for piece in text.split(separator) {
            hashes.push(hash_of(piece));
            lengths.push(piece.len());
        }
        Pieces {
            hashes,
            lengths,
            separator: separator.into(),
            ascii: text.is_ascii(),
        }
    }

    /// The separator the text was cut at.
    pub fn separator(&self) -> &str {
        &self.separator
    }

    /// How many pieces the text has (one more than its separators).
    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    /// Never: a text, even an empty one, has a piece.
    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// Do both texts have the same pieces (by hash and length, cut at one separator)?
    pub fn same(&self, other: &Pieces) -> bool {
        self.separator == other.separator
            && self.hashes == other.hashes
            && self.lengths == other.lengths
    }

    /// The edits that make `text` (the text these pieces are of) of `old`'s text,
    /// ascending and apart, in the old text's offsets; pieces next to each other that
    /// both changed make one edit, and where pieces came or went one edit spans from the
    /// first piece that differs to the last. None when the texts were cut at different
    /// separators, when a text is not ASCII (a browser counts offsets in UTF-16 units, not
    /// bytes) or when the edits, each counted `overhead` bytes beside its text, are not
    /// shorter than `text` whole.
    pub fn edits_from<'t>(
        &self,
        old: &Pieces,
        text: &'t str,
        overhead: usize,
    ) -> Option<Vec<Edit<'t>>> {
        if !(self.ascii && old.ascii) || self.separator != old.separator {
            return None;
        }
        let separator_len = self.separator.len();
        let (ah, al, bh, bl) = (&old.hashes, &old.lengths, &self.hashes, &self.lengths);
        let (na, nb) = (ah.len(), bh.len());
        let mut out: Vec<Edit<'t>> = Vec::new();
        if na == nb {
            // where the piece starts in the old text, and in the new one; the new text's
            // start of the last edit (an edit next to it grows it)
            let (mut pos, mut at, mut from) = (0, 0, 0);
            for k in 0..na {
                if ah[k] != bh[k] || al[k] != bl[k] {
                    match out.last_mut() {
                        Some(last) if last.end + separator_len == pos => {
                            last.end = pos + al[k];
                            last.text = text.get(from..at + bl[k])?;
                        }
                        _ => {
                            from = at;
                            out.push(Edit {
                                start: pos,
                                end: pos + al[k],
                                text: text.get(at..at + bl[k])?,
                            });
                        }
                    }
                }
                pos += al[k] + separator_len;
                at += bl[k] + separator_len;
            }
        } else {
            // one edit between the pieces both texts start and end with (never overlapping)
            let limit = na.min(nb) - 1;
            let mut p = 0;
            while p < limit && ah[p] == bh[p] && al[p] == bl[p] {
                p += 1;
            }
            let mut q = 0;
            while q < limit - p
                && ah[na - 1 - q] == bh[nb - 1 - q]
                && al[na - 1 - q] == bl[nb - 1 - q]
            {
                q += 1;
            }
            let start = al[..p].iter().sum::<usize>() + separator_len * p;
            let tail = al[na - q..].iter().sum::<usize>() + separator_len * q;
            let end = al.iter().sum::<usize>() + separator_len * (na - 1) - tail;
            out.push(Edit {
                start,
                end,
                text: text.get(start..text.len().checked_sub(tail)?)?,
            });
        }
        let size = out.iter().fold(0usize, |n, e| {
            n.saturating_add(e.text.len().saturating_add(overhead))
        });
        (size < text.len()).then_some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEP: &str = "<rect ";

    /// The old text with `edits` applied, back to front (as a page applies them).
    fn apply(old: &str, edits: &[Edit<'_>]) -> String {
        let mut text = old.to_owned();
        for e in edits.iter().rev() {
            text.replace_range(e.start..e.end, e.text);
        }
        text
    }

    fn edits<'t>(old: &str, new: &'t str) -> Option<Vec<Edit<'t>>> {
        Pieces::new(new, SEP).edits_from(&Pieces::new(old, SEP), new, 0)
    }

    fn board(cells: &[&str]) -> String {
        let mut s = String::from("<svg>");
        for c in cells {
            s.push_str(SEP);
            s.push_str(c);
            s.push_str("/>");
        }
        s + "</svg>"
    }

    #[test]
    fn edits_make_the_new_text_of_the_old() {
        let cells = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"];
        let old = board(&cells);
        let cases: Vec<Vec<&str>> = vec![
            vec!["a", "B", "c", "d", "e", "f", "g", "h", "i", "j", "k"],
            vec!["a", "B", "C", "d", "e", "f", "g", "h", "i", "j", "kk"],
            vec!["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"],
            vec!["a", "c", "d", "e", "f", "g", "h", "i", "j", "k"],
            vec!["x", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"],
        ];
        for case in cases {
            let new = board(&case);
            let found = edits(&old, &new).expect("small edits");
            assert_eq!(apply(&old, &found), new, "{case:?}");
            for pair in found.windows(2) {
                assert!(
                    pair[0].end < pair[1].start,
                    "apart and ascending: {found:?}"
                );
            }
        }
    }

    #[test]
    fn neighbouring_changes_are_one_edit() {
        let old = board(&["a", "b", "c", "d", "e", "f", "g", "h"]);
        let new = board(&["a", "B", "C", "d", "e", "f", "g", "h"]);
        let found = edits(&old, &new).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(apply(&old, &found), new);
    }

    #[test]
    fn no_edits_when_the_text_whole_is_as_short_or_not_ascii() {
        assert_eq!(edits("<svg>a</svg>", "<svg>b</svg>"), None);
        let old = board(&["a", "b", "c", "d", "e", "f"]);
        let new = board(&["a", "é", "c", "d", "e", "f"]);
        assert_eq!(edits(&old, &new), None);
    }

    #[test]
    fn the_same_text_has_the_same_pieces_and_no_edits() {
        let text = board(&["a", "b", "c"]);
        let (a, b) = (Pieces::new(&text, SEP), Pieces::new(&text, SEP));
        assert!(a.same(&b));
        assert_eq!(a.len(), 4);
        assert!(!a.is_empty());
        assert_eq!(a.edits_from(&b, &text, 0), Some(vec![]));
        let other = Pieces::new(&text, "<g ");
        assert!(!a.same(&other));
        assert_eq!(a.edits_from(&other, &text, 0), None);
    }
}
