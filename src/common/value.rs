//! Plain values an engine hands its callers by name (a published constant, a history
//! entry's fields): numbers, texts, `None`, and lists, tuples and dicts of them, which the
//! Python binding only converts.

/// A plain value: a number, a text, `None`, or a list, tuple or dict of values.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A yes or no.
    Bool(bool),
    /// A whole number.
    Int(u64),
    /// A whole number that may be negative.
    Signed(i64),
    /// A number with a fraction.
    Float(f64),
    /// A text.
    Text(String),
    /// No value (Python's `None`).
    None,
    /// Values in order (a Python list).
    List(Vec<Value>),
    /// Values in order (a Python tuple).
    Tuple(Vec<Value>),
    /// Values by name, in order (a Python dict).
    Dict(Vec<(&'static str, Value)>),
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<u64> for Value {
    fn from(n: u64) -> Self {
        Value::Int(n)
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Self {
        Value::Float(x)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Text(s.to_owned())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Text(s)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Self {
        v.map_or(Value::None, Into::into)
    }
}

impl From<u8> for Value {
    fn from(n: u8) -> Self {
        Value::Int(n.into())
    }
}

impl From<i8> for Value {
    fn from(n: i8) -> Self {
        Value::Signed(n.into())
    }
}

impl From<char> for Value {
    fn from(c: char) -> Self {
        Value::Text(c.to_string())
    }
}

impl From<Vec<String>> for Value {
    fn from(items: Vec<String>) -> Self {
        Value::List(items.into_iter().map(Value::Text).collect())
    }
}
