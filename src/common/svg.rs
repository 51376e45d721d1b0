//! The little SVG both games' boards are drawn with: a document of a given size, shapes and
//! escaped text, written straight into a `String`.

use std::fmt::Write;

/// Text made safe to place inside an SVG element or attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// An SVG document being written.
#[derive(Debug, Clone)]
pub struct Svg {
    out: String,
}

impl Svg {
    /// A document `width` × `height` pixels (the view box the same), sans-serif text.
    pub fn new(width: f64, height: f64) -> Svg {
        let mut out = String::with_capacity(4096);
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" font-family="sans-serif">"#
        );
        Svg { out }
    }

    /// Raw markup, appended as it is (the caller escapes any text in it).
    pub fn raw(&mut self, markup: &str) -> &mut Svg {
        self.out.push_str(markup);
        self
    }

    /// A `<text>` element at `(x, y)` with extra `attrs` (raw) and `text` escaped.
    pub fn text(&mut self, x: f64, y: f64, attrs: &str, text: &str) -> &mut Svg {
        let _ = write!(
            self.out,
            r#"<text x="{x}" y="{y}" {attrs}>{}</text>"#,
            escape(text)
        );
        self
    }

    /// A rectangle with extra `attrs` (raw: fill, stroke, ...).
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, attrs: &str) -> &mut Svg {
        let _ = write!(
            self.out,
            r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" {attrs}/>"#
        );
        self
    }

    /// The markup written so far (to append with `write!`).
    pub fn buffer(&mut self) -> &mut String {
        &mut self.out
    }

    /// The finished document.
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>");
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_closes_the_document() {
        assert_eq!(escape(r#"a<b>&"c""#), "a&lt;b&gt;&amp;&quot;c&quot;");
        let mut s = Svg::new(10.0, 20.0);
        s.rect(0.0, 0.0, 10.0, 20.0, r##"fill="#fff""##)
            .text(1.0, 2.0, r#"font-size="9""#, "x<y");
        let doc = s.finish();
        assert!(doc.starts_with("<svg") && doc.ends_with("</svg>"));
        assert!(doc.contains(r#"<text x="1" y="2" font-size="9">x&lt;y</text>"#));
    }
}
