//! SVG pictures turned into pixels: the boards that [`crate::ludo::render`] and
//! [`crate::onitama::render`] draw as SVG, rasterised into an RGB image (for video frames,
//! a learning environment's `rgb_array`). Pure Rust ([resvg]): no system library.
//!
//! Text is drawn with the fonts installed on the machine, found once (the first picture
//! loads them) and shared by every later picture. The boards ask for `sans-serif`; when the
//! system's configuration names no installed font for it, an installed sans-serif face
//! (DejaVu Sans, Liberation Sans, ...) stands in. A machine with no fonts at all still
//! draws every picture, without its text.

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia;
use resvg::usvg::{self, fontdb};

/// The most pixels a picture may have on a side.
pub const MAX_SIDE: u32 = 8192;

/// The most pixels a picture may have in all (4096 × 4096).
pub const MAX_PIXELS: u64 = 1 << 24;

/// An RGB picture: `height` rows of `width` pixels, 3 bytes each (red, green, blue).
#[derive(Clone, PartialEq, Eq)]
pub struct Image {
    /// Pixels per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `height * width * 3` bytes, row by row, top row first.
    pub pixels: Vec<u8>,
}

impl std::fmt::Debug for Image {
    /// The size and the number of bytes, not every byte.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Image")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("pixels", &format_args!("[{} bytes]", self.pixels.len()))
            .finish()
    }
}

impl Image {
    /// The colour of the pixel in column `x` of row `y` (both from 0, top left).
    ///
    /// # Panics
    /// If (`x`, `y`) is outside the picture.
    pub fn pixel(&self, x: usize, y: usize) -> [u8; 3] {
        assert!(
            x < self.width && y < self.height,
            "pixel ({x}, {y}) is outside a {} × {} picture",
            self.width,
            self.height
        );
        let i = (y * self.width + x) * 3;
        [self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]]
    }
}

/// Why an SVG could not be turned into pixels.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RasterError {
    /// The scale is not a finite number above 0.
    #[error("the scale must be a finite number above 0, not {0}")]
    InvalidScale(f32),
    /// The text is not an SVG document that can be drawn (bad XML, no `<svg>` root, no size).
    #[error("not an SVG picture that can be drawn: {0}")]
    InvalidSvg(String),
    /// The picture at this scale would be empty or too large.
    #[error(
        "at this scale the picture would be {width} × {height} pixels: it must have at least \
         1 × 1, at most {MAX_SIDE} on a side and {MAX_PIXELS} in all"
    )]
    InvalidSize {
        /// Pixels per row it would have.
        width: f64,
        /// Rows it would have.
        height: f64,
    },
}

/// Draw the SVG document `svg` at `scale` times its size (its `width` and `height`, else its
/// `viewBox`, else 100 × 100; the boards' sizes are in pixels) and return its pixels. What the picture
/// leaves transparent is white. Sizes that are not whole round up.
///
/// Never reads a file: `<image>` elements that link to files are left out (pictures embedded
/// as `data:` URLs are kept). The first call loads the system's fonts (see the module doc);
/// later calls reuse them, so frames are cheap. Safe to call from many threads at once.
///
/// # Errors
/// [`RasterError::InvalidScale`] for a scale that is not finite and above 0,
/// [`RasterError::InvalidSvg`] for text that is not a drawable SVG document, and
/// [`RasterError::InvalidSize`] when the picture would be empty or larger than
/// [`MAX_SIDE`] on a side or [`MAX_PIXELS`] in all.
///
/// # Example
/// ```
/// use ludogame::common::raster::svg_to_rgb;
///
/// // 4 × 2: a red square on the left, nothing (so white) on the right.
/// let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2">
///     <rect width="2" height="2" fill="#ff0000"/></svg>"##;
/// let img = svg_to_rgb(svg, 2.0)?;
/// assert_eq!((img.width, img.height), (8, 4));
/// assert_eq!(img.pixels.len(), 8 * 4 * 3);
/// assert_eq!(img.pixel(1, 1), [255, 0, 0]);
/// assert_eq!(img.pixel(6, 2), [255, 255, 255]);
///
/// assert!(svg_to_rgb("<not svg", 1.0).is_err());
/// # Ok::<(), ludogame::common::raster::RasterError>(())
/// ```
pub fn svg_to_rgb(svg: &str, scale: f32) -> Result<Image, RasterError> {
    render(svg, scale, system_fonts())
}

/// The system's fonts, loaded on first use.
fn system_fonts() -> &'static Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS.get_or_init(|| {
        let mut db = fontdb::Database::new();
        db.load_system_fonts();
        name_generic_families(&mut db);
        keep_in_memory(&mut db);
        Arc::new(db)
    })
}

/// Installed sans-serif families, best first, to stand for `sans-serif` when the system's
/// configuration names none that is installed.
const SANS_SERIF: [&str; 8] = [
    "DejaVu Sans",
    "Liberation Sans",
    "Noto Sans",
    "Arial",
    "Helvetica",
    "FreeSans",
    "Open Sans",
    "Roboto",
];

/// Make `sans-serif` (what the boards ask for) and `serif` (usvg's last resort for any
/// text) name installed fonts when the system's configuration left them naming fonts that
/// are not there: the first installed family of [`SANS_SERIF`], else any installed family.
/// A database with no fonts is left alone.
fn name_generic_families(db: &mut fontdb::Database) {
    let resolves = |db: &fontdb::Database, family: fontdb::Family<'_>| {
        db.query(&fontdb::Query {
            families: &[family],
            ..fontdb::Query::default()
        })
        .is_some()
    };
    if resolves(db, fontdb::Family::SansSerif) && resolves(db, fontdb::Family::Serif) {
        return;
    }
    let installed = |name: &str| {
        db.faces()
            .any(|face| face.families.iter().any(|(family, _)| family == name))
    };
    let stand_in = SANS_SERIF
        .iter()
        .find(|name| installed(name))
        .map(|name| (*name).to_owned())
        .or_else(|| {
            let face = db
                .faces()
                .find(|face| !face.monospaced)
                .or_else(|| db.faces().next())?;
            face.families.first().map(|(family, _)| family.clone())
        });
    let Some(stand_in) = stand_in else {
        return;
    };
    if !resolves(db, fontdb::Family::SansSerif) {
        db.set_sans_serif_family(stand_in.clone());
    }
    if !resolves(db, fontdb::Family::Serif) {
        db.set_serif_family(stand_in);
    }
}

/// Read into memory, once, the font files that `sans-serif` and `serif` text (regular, bold,
/// italic) is drawn with. fontdb leaves the fonts it finds on disk and opens and maps a file
/// each time text needs it: for the boards' dozens of labels that was most of a frame's
/// time. These few files (a few MB) are read once; any other face stays on disk.
fn keep_in_memory(db: &mut fontdb::Database) {
    let mut paths: Vec<std::path::PathBuf> = Vec::new();
    for family in [fontdb::Family::SansSerif, fontdb::Family::Serif] {
        for weight in [fontdb::Weight::NORMAL, fontdb::Weight::BOLD] {
            for style in [fontdb::Style::Normal, fontdb::Style::Italic] {
                let query = fontdb::Query {
                    families: &[family],
                    weight,
                    style,
                    ..fontdb::Query::default()
                };
                if let Some((fontdb::Source::File(path), _)) =
                    db.query(&query).and_then(|id| db.face_source(id))
                    && !paths.contains(&path)
                {
                    paths.push(path);
                }
            }
        }
    }
    for path in paths {
        let Ok(data) = std::fs::read(&path) else {
            continue; // left on disk, as fontdb found it
        };
        let from_file: Vec<fontdb::ID> = db
            .faces()
            .filter(|face| matches!(&face.source, fontdb::Source::File(p) if *p == path))
            .map(|face| face.id)
            .collect();
        for id in from_file {
            db.remove_face(id);
        }
        // Every face of the file (a collection has several), now from memory.
        db.load_font_data(data);
    }
}

/// [`svg_to_rgb`] with the fonts in `fonts`.
fn render(svg: &str, scale: f32, fonts: &Arc<fontdb::Database>) -> Result<Image, RasterError> {
    if !(scale.is_finite() && scale > 0.0) {
        return Err(RasterError::InvalidScale(scale));
    }
    let options = usvg::Options {
        fontdb: Arc::clone(fonts),
        font_family: "sans-serif".to_owned(),
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: usvg::ImageHrefResolver::default_data_resolver(),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    };
    let tree =
        usvg::Tree::from_str(svg, &options).map_err(|e| RasterError::InvalidSvg(e.to_string()))?;
    let size = tree.size();
    let width = (f64::from(size.width()) * f64::from(scale)).ceil();
    let height = (f64::from(size.height()) * f64::from(scale)).ceil();
    let side_ok = |n: f64| (1.0..=f64::from(MAX_SIDE)).contains(&n);
    if !(side_ok(width) && side_ok(height) && width * height <= MAX_PIXELS as f64) {
        return Err(RasterError::InvalidSize { width, height });
    }
    let (width, height) = (width as u32, height as u32);
    let mut pixmap = tiny_skia::Pixmap::new(width, height).ok_or(RasterError::InvalidSize {
        width: f64::from(width),
        height: f64::from(height),
    })?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    // Drawn on opaque white, every pixel is opaque: its premultiplied colour is its colour.
    let mut pixels = Vec::with_capacity(width as usize * height as usize * 3);
    for rgba in pixmap.data().chunks_exact(4) {
        pixels.extend_from_slice(&rgba[..3]);
    }
    Ok(Image {
        width: width as usize,
        height: height as usize,
        pixels,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 20 × 10: white left half, a blue square on the right, "Hi" in black at the left.
    const SIMPLE: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"
        width="20" height="10" font-family="sans-serif">
        <rect x="10" y="0" width="10" height="10" fill="#0000ff"/>
        <text x="1" y="9" font-size="9" fill="#000">Hi</text></svg>"##;

    fn colours(img: &Image) -> std::collections::HashSet<[u8; 3]> {
        img.pixels
            .chunks_exact(3)
            .map(|p| [p[0], p[1], p[2]])
            .collect()
    }

    #[test]
    fn size_follows_the_scale() {
        let img = svg_to_rgb(SIMPLE, 1.0).unwrap();
        assert_eq!((img.width, img.height), (20, 10));
        assert_eq!(img.pixels.len(), 20 * 10 * 3);
        let img = svg_to_rgb(SIMPLE, 2.5).unwrap();
        assert_eq!((img.width, img.height), (50, 25));
        assert_eq!(img.pixels.len(), 50 * 25 * 3);
        // Sizes that are not whole round up.
        let img = svg_to_rgb(SIMPLE, 0.33).unwrap();
        assert_eq!((img.width, img.height), (7, 4));
    }

    #[test]
    fn known_colours_at_known_spots() {
        let img = svg_to_rgb(SIMPLE, 2.0).unwrap();
        assert_eq!(img.pixel(30, 10), [0, 0, 255]);
        assert_eq!(img.pixel(39, 19), [0, 0, 255]);
        // Left of the text: nothing drawn, so white.
        assert_eq!(img.pixel(0, 0), [255, 255, 255]);
    }

    #[test]
    fn text_is_drawn_with_the_system_fonts() {
        if system_fonts().is_empty() {
            return; // no fonts here: nothing to check
        }
        let db = system_fonts();
        let sans = db.query(&fontdb::Query {
            families: &[fontdb::Family::SansSerif],
            ..fontdb::Query::default()
        });
        assert!(sans.is_some(), "sans-serif names no installed font");
        // Read once, not opened for every label.
        let source = sans
            .and_then(|id| db.face_source(id))
            .map(|(source, _)| source);
        assert!(
            matches!(source, Some(fontdb::Source::Binary(_))),
            "the sans-serif font is not kept in memory"
        );
        let img = svg_to_rgb(SIMPLE, 1.0).unwrap();
        let dark = (0..10)
            .flat_map(|y| (0..10).map(move |x| (x, y)))
            .filter(|&(x, y)| img.pixel(x, y).iter().all(|&c| c < 128))
            .count();
        assert!(dark > 5, "the text left {dark} dark pixels");
    }

    #[test]
    fn without_fonts_text_is_left_out() {
        let none = Arc::new(fontdb::Database::new());
        let img = render(SIMPLE, 1.0, &none).unwrap();
        assert_eq!((img.width, img.height), (20, 10));
        assert_eq!(img.pixel(15, 5), [0, 0, 255]);
        for y in 0..10 {
            for x in 0..10 {
                assert_eq!(img.pixel(x, y), [255, 255, 255]);
            }
        }
    }

    #[test]
    fn generic_families_name_installed_fonts() {
        let mut empty = fontdb::Database::new();
        name_generic_families(&mut empty); // nothing to name, and no panic
        let mut db = fontdb::Database::new();
        db.load_system_fonts();
        if db.is_empty() {
            return;
        }
        db.set_sans_serif_family("No Such Font");
        db.set_serif_family("No Such Font Either");
        name_generic_families(&mut db);
        for family in [fontdb::Family::SansSerif, fontdb::Family::Serif] {
            let found = db.query(&fontdb::Query {
                families: &[family],
                ..fontdb::Query::default()
            });
            assert!(found.is_some());
        }
    }

    #[test]
    fn same_svg_same_pixels() {
        assert_eq!(
            svg_to_rgb(SIMPLE, 1.5).unwrap(),
            svg_to_rgb(SIMPLE, 1.5).unwrap()
        );
    }

    #[test]
    fn bad_svg_is_an_error() {
        for bad in [
            "",
            "not xml at all",
            "<svg",
            "<html><body/></html>",
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="0" height="10"></svg>"#,
        ] {
            match svg_to_rgb(bad, 1.0) {
                Err(RasterError::InvalidSvg(msg)) => assert!(!msg.is_empty()),
                other => panic!("{bad:?} gave {other:?}"),
            }
        }
    }

    #[test]
    fn bad_scales_and_sizes_are_errors() {
        for scale in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            assert!(matches!(
                svg_to_rgb(SIMPLE, scale),
                Err(RasterError::InvalidScale(_))
            ));
        }
        assert!(matches!(
            svg_to_rgb(SIMPLE, 1e-6),
            Ok(Image {
                width: 1,
                height: 1,
                ..
            })
        ));
        for scale in [1000.0, 1e30] {
            let err = svg_to_rgb(SIMPLE, scale).unwrap_err();
            assert!(matches!(err, RasterError::InvalidSize { .. }), "{err:?}");
            assert!(err.to_string().contains("at most 8192 on a side"), "{err}");
        }
    }

    #[test]
    fn files_are_never_read() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
            width="4" height="4"><image width="4" height="4" xlink:href="/etc/passwd"/>
            <image width="4" height="4" href="Cargo.toml"/></svg>"#;
        let img = svg_to_rgb(svg, 1.0).unwrap();
        assert_eq!(colours(&img).len(), 1);
    }

    #[test]
    fn both_boards_draw_in_colour() {
        use crate::ludo::{game::Game, rules::Rules, seat::seat_list};
        let ludo = Game::new(Rules::CS162, &seat_list(&[0, 1]), 1).unwrap();
        let onitama = crate::onitama::game::Game::from_setup("1", None).unwrap();
        for svg in [crate::ludo::render::svg(&ludo), onitama.svg()] {
            let img = svg_to_rgb(&svg, 1.0).unwrap();
            assert!(img.width > 100 && img.height > 100);
            assert!(colours(&img).len() > 8, "{} colours", colours(&img).len());
        }
    }
}
