//! The little JSON both games' save formats need: a value tree, a strict reader and a
//! writer whose text is byte for byte Python's `json.dumps` default (`", "` and `": "`
//! separators, non-ASCII written as `\uXXXX`).

use std::fmt::Write;

/// A JSON value. Objects keep their keys in order; a repeated key keeps its last value (as
/// Python's `json.loads` does).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as its text (so that a 64-bit seed is read exactly; see [`Json::as_u64`]).
    Number(String),
    /// A string.
    Str(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, keys in order.
    Object(Vec<(String, Json)>),
}

/// Deeper nesting than this is refused (no stack overflow on `[[[[...`).
const MAX_DEPTH: usize = 256;

impl Json {
    /// The value of `key` in an object (`None` for a missing key or a non-object).
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(items) => items.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The number, if this is a whole number from 0 to 2**64 - 1 written without a fraction
    /// or an exponent (as Python reads an `int`).
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Number(n) => n.parse().ok(),
            _ => None,
        }
    }

    /// Is this `null`?
    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    /// The truth value, if this is `true` or `false`.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, if this is a whole number that fits an `i64` written without a fraction
    /// or an exponent.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Json::Number(n) => n.parse().ok(),
            _ => None,
        }
    }

    /// The number as a float, if this is a number (the nearest `f64` to its text).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(n) => n.parse().ok(),
            _ => None,
        }
    }

    /// The items, if this is an array.
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The members in order, if this is an object.
    pub fn as_object(&self) -> Option<&[(String, Json)]> {
        match self {
            Json::Object(items) => Some(items),
            _ => None,
        }
    }

    /// A list of strings, if this is one.
    pub fn as_strings(&self) -> Option<Vec<String>> {
        match self {
            Json::Array(items) => items
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect(),
            _ => None,
        }
    }

    /// Read a whole text as one JSON value, or say where it is not JSON.
    pub fn parse(text: &str) -> Result<Json, String> {
        let mut r = Reader {
            s: text.as_bytes(),
            i: 0,
        };
        let v = r.value(0)?;
        r.space();
        if r.i != r.s.len() {
            return Err(r.error("extra data"));
        }
        Ok(v)
    }

    /// The text Python's `json.dumps(value)` writes.
    pub fn dump(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(n) => out.push_str(n),
            Json::Str(s) => write_str(s, out),
            Json::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    v.write(out);
                }
                out.push(']');
            }
            Json::Object(items) => {
                out.push('{');
                for (i, (k, v)) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write_str(k, out);
                    out.push_str(": ");
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// A string as Python's `json.dumps` (with `ensure_ascii`) writes it.
fn write_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{u:04x}");
                }
            }
        }
    }
    out.push('"');
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn error(&self, what: &str) -> String {
        format!("{what} at char {}", self.i)
    }

    fn space(&mut self) {
        while self
            .s
            .get(self.i)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.i += 1;
        }
    }

    fn eat(&mut self, word: &str) -> bool {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(self.error("too deeply nested"));
        }
        self.space();
        match self.s.get(self.i) {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Json::Str),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ if self.eat("null") => Ok(Json::Null),
            _ if self.eat("true") => Ok(Json::Bool(true)),
            _ if self.eat("false") => Ok(Json::Bool(false)),
            _ => Err(self.error("expecting a value")),
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, String> {
        self.i += 1;
        let mut items = Vec::new();
        self.space();
        if self.eat("]") {
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.space();
            if self.eat("]") {
                return Ok(Json::Array(items));
            }
            if !self.eat(",") {
                return Err(self.error("expecting ',' or ']'"));
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, String> {
        self.i += 1;
        let mut items = Vec::new();
        self.space();
        if self.eat("}") {
            return Ok(Json::Object(items));
        }
        loop {
            self.space();
            if self.s.get(self.i) != Some(&b'"') {
                return Err(self.error("expecting a key in double quotes"));
            }
            let key = self.string()?;
            self.space();
            if !self.eat(":") {
                return Err(self.error("expecting ':'"));
            }
            items.push((key, self.value(depth + 1)?));
            self.space();
            if self.eat("}") {
                return Ok(Json::Object(items));
            }
            if !self.eat(",") {
                return Err(self.error("expecting ',' or '}'"));
            }
        }
    }

    /// A number by JSON's grammar, `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, as
    /// Python reads it: no leading zeros, no bare `.` or `+`.
    fn number(&mut self) -> Result<Json, String> {
        let start = self.i;
        let digits = |r: &mut Reader| {
            let from = r.i;
            while r.s.get(r.i).is_some_and(u8::is_ascii_digit) {
                r.i += 1;
            }
            r.i - from
        };
        if self.s.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        let whole = self.i;
        let ok = match digits(self) {
            0 => false,
            n => n == 1 || self.s[whole] != b'0',
        };
        let ok =
            ok && (self.s.get(self.i) != Some(&b'.') || {
                self.i += 1;
                digits(self) > 0
            }) && (!matches!(self.s.get(self.i), Some(b'e' | b'E')) || {
                self.i += 1;
                if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
                    self.i += 1;
                }
                digits(self) > 0
            });
        if !ok {
            return Err(self.error("invalid number"));
        }
        let text = std::str::from_utf8(&self.s[start..self.i])
            .map_err(|_| self.error("invalid number"))?;
        Ok(Json::Number(text.to_owned()))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .s
            .get(self.i..self.i + 4)
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| u32::from_str_radix(d, 16).ok())
            .ok_or_else(|| self.error("invalid \\u escape"))?;
        self.i += 4;
        Ok(digits)
    }

    fn string(&mut self) -> Result<String, String> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while self
                .s
                .get(self.i)
                .is_some_and(|&b| b != b'"' && b != b'\\' && b >= 0x20)
            {
                self.i += 1;
            }
            // The text is a `str`, so a run between ASCII delimiters is valid UTF-8.
            out.push_str(std::str::from_utf8(&self.s[start..self.i]).unwrap_or("\u{fffd}"));
            match self.s.get(self.i) {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let c = match self.s.get(self.i) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.i += 1;
                            let hi = self.hex4()?;
                            // A surrogate must be a high one followed by a low one: a lone
                            // half is no character (a Rust string cannot hold it).
                            let code = if (0xd800..0xdc00).contains(&hi) && self.eat("\\u") {
                                let lo = self.hex4()?;
                                (0xdc00..0xe000)
                                    .contains(&lo)
                                    .then(|| 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00))
                            } else {
                                Some(hi)
                            };
                            match code.and_then(char::from_u32) {
                                Some(c) => out.push(c),
                                None => return Err(self.error("a lone surrogate escape")),
                            }
                            continue;
                        }
                        _ => return Err(self.error("invalid escape")),
                    };
                    self.i += 1;
                    out.push(c);
                }
                Some(_) => return Err(self.error("invalid control character")),
                None => return Err(self.error("unterminated string")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Json;

    #[test]
    fn round_trip_in_python_layout() {
        let text = r#"{"a": null, "b": ["x\"y", "\u00e9\ud83d\ude00"], "c": []}"#;
        let v = Json::parse(text).unwrap();
        assert_eq!(v.dump(), text);
        assert_eq!(v.get("b").unwrap().as_strings().unwrap()[1], "é😀");
        assert!(Json::parse("[1, 2").is_err());
        assert!(Json::parse(&"[".repeat(100_000)).is_err());
    }
}
