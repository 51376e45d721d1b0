//! The golden data is read with the crate's own JSON reader ([`ludogame::common::json`]);
//! [`Golden`] adds accessors that panic, naming the key or the value, when the fixed test
//! data is not what a test expects.

pub use ludogame::common::json::Json;

/// Parse a whole text (the crate's strict reader).
pub fn parse(text: &str) -> Result<Json, String> {
    Json::parse(text)
}

/// Accessors for fixed test data: a missing key or a value of the wrong type is a broken
/// data file, so they panic instead of returning an `Option`.
pub trait Golden {
    /// The member `key` of an object.
    fn at(&self, key: &str) -> &Json;
    /// The string.
    fn str(&self) -> &str;
    /// The items of an array.
    fn array(&self) -> &[Json];
    /// The members of an object, in order.
    fn object(&self) -> &[(String, Json)];
    /// A number as a float.
    fn float(&self) -> f64;
    /// A whole number.
    fn int(&self) -> i64;
    /// `true` or `false`.
    fn boolean(&self) -> bool;
    /// An array of strings.
    fn strings(&self) -> Vec<String>;
}

/// The first characters of `j`, for messages.
fn brief(j: &Json) -> String {
    format!("{j:?}").chars().take(120).collect()
}

impl Golden for Json {
    fn at(&self, key: &str) -> &Json {
        self.get(key)
            .unwrap_or_else(|| panic!("no key '{key}' in {}", brief(self)))
    }

    fn str(&self) -> &str {
        self.as_str()
            .unwrap_or_else(|| panic!("not a string: {}", brief(self)))
    }

    fn array(&self) -> &[Json] {
        self.as_array()
            .unwrap_or_else(|| panic!("not an array: {}", brief(self)))
    }

    fn object(&self) -> &[(String, Json)] {
        self.as_object()
            .unwrap_or_else(|| panic!("not an object: {}", brief(self)))
    }

    fn float(&self) -> f64 {
        self.as_f64()
            .unwrap_or_else(|| panic!("not a number: {}", brief(self)))
    }

    fn int(&self) -> i64 {
        self.as_i64()
            .unwrap_or_else(|| panic!("not a whole number: {}", brief(self)))
    }

    fn boolean(&self) -> bool {
        self.as_bool()
            .unwrap_or_else(|| panic!("not a bool: {}", brief(self)))
    }

    fn strings(&self) -> Vec<String> {
        self.as_strings()
            .unwrap_or_else(|| panic!("not a list of strings: {}", brief(self)))
    }
}
