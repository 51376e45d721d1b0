//! The words of a number refused for being out of its range, one phrasing for every
//! argument of every front end (the Python binding's `int`s, seeds, seconds and scales).

/// `what must be an int from LO to HI, not GIVEN` (`given` as the caller wrote it), the
/// bounds as people write them ([`bound`]).
pub fn int_out_of_range(what: &str, lo: i128, hi: i128, given: &str) -> String {
    format!(
        "{what} must be an int from {} to {}, not {given}",
        bound(lo),
        bound(hi)
    )
}

/// `what must be a number of seconds above 0 and at most MAX, not GIVEN`.
pub fn seconds_out_of_range(what: &str, max: f64, given: &str) -> String {
    format!("{what} must be a number of seconds above 0 and at most {max}, not {given}")
}

/// `what must be a finite number above 0, not GIVEN`.
pub fn not_positive(what: &str, given: &str) -> String {
    format!("{what} must be a finite number above 0, not {given}")
}

/// A range bound as people write it: 2**64 - 1 and powers of two from 2**20 by name, other
/// numbers with thousands separated by commas.
pub fn bound(v: i128) -> String {
    if v == u64::MAX as i128 {
        "2**64 - 1".into()
    } else if v >= 1 << 20 && (v & (v - 1)) == 0 {
        format!("2**{}", v.trailing_zeros())
    } else {
        let digits = v.unsigned_abs().to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        if v < 0 { format!("-{out}") } else { out }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_read_as_people_write_them() {
        assert_eq!(bound(u64::MAX as i128), "2**64 - 1");
        assert_eq!(bound(1 << 20), "2**20");
        assert_eq!(bound(1 << 19), "524,288");
        assert_eq!(bound(-1234), "-1,234");
        assert_eq!(bound(999), "999");
        assert_eq!(
            int_out_of_range("seed", 0, u64::MAX as i128, "-1"),
            "seed must be an int from 0 to 2**64 - 1, not -1"
        );
    }
}
