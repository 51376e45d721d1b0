//! Quoting what a user gave in an error message: a short input as it is, a long one (or
//! one of several lines) as its first characters and its length, so that a message never
//! echoes a whole file or a huge argument.

/// The most characters of an input an error message quotes.
pub const EXCERPT_CHARS: usize = 60;

/// `text` as an error message quotes it: whole when it is one line of at most
/// [`EXCERPT_CHARS`] characters, else its first characters (up to the first line break),
/// `...`, and its length.
///
/// ```
/// use ludogame::common::excerpt::excerpt;
/// assert_eq!(excerpt("A3.-1"), "A3.-1");
/// let long = "x".repeat(100_000);
/// assert_eq!(excerpt(&long), format!("{}... (100000 characters)", "x".repeat(60)));
/// assert_eq!(excerpt("root:x:0\nbin:x:1"), "root:x:0... (16 characters)");
/// ```
pub fn excerpt(text: &str) -> String {
    let first = text.split('\n').next().unwrap_or("");
    let total = text.chars().count();
    if first.len() == text.len() && total <= EXCERPT_CHARS {
        return text.to_string();
    }
    let head: String = first.chars().take(EXCERPT_CHARS).collect();
    format!("{head}... ({total} characters)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_inputs_whole_long_ones_cut_at_a_char_boundary() {
        assert_eq!(excerpt(""), "");
        let exact = "é".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exact), exact);
        let over = "é".repeat(EXCERPT_CHARS + 1);
        assert!(excerpt(&over).starts_with(&exact));
        assert!(excerpt(&over).ends_with("(61 characters)"));
        assert_eq!(excerpt("a\r\nb"), "a\r... (4 characters)");
    }
}
