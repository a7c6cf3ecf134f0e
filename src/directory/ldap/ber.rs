//! Just enough BER (X.690) to read the values of the response controls sso-bridge asks for
//! (password policy, paged results): elements are read with every length checked, so a
//! malformed value from a server is `None`, never a panic.

/// One element: its tag byte and its contents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Element<'a> {
    pub(super) tag: u8,
    pub(super) contents: &'a [u8],
}

/// The elements of `bytes`, one after another; `None` if any is malformed or cut short.
pub(super) fn elements(mut bytes: &[u8]) -> Option<Vec<Element<'_>>> {
    let mut found = Vec::new();
    while !bytes.is_empty() {
        let (element, rest) = element(bytes)?;
        found.push(element);
        bytes = rest;
    }
    Some(found)
}

/// The first element of `bytes` and what follows it. Single-byte tags only: every tag of the
/// controls read here is one.
fn element(bytes: &[u8]) -> Option<(Element<'_>, &[u8])> {
    let (&tag, rest) = bytes.split_first()?;
    if tag & 0x1f == 0x1f {
        return None;
    }
    let (&first, rest) = rest.split_first()?;
    let (length, rest) = if first & 0x80 == 0 {
        (usize::from(first), rest)
    } else {
        // Long form: the low bits say how many length bytes follow (at most 4 here).
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let (digits, rest) = rest.split_at(count);
        let length = digits
            .iter()
            .fold(0usize, |acc, &d| (acc << 8) | usize::from(d));
        (length, rest)
    };
    if rest.len() < length {
        return None;
    }
    let (contents, rest) = rest.split_at(length);
    Some((Element { tag, contents }, rest))
}

/// The non-negative integer in `contents` (INTEGER or ENUMERATED), if it fits in a `u64`.
pub(super) fn unsigned(contents: &[u8]) -> Option<u64> {
    if contents.is_empty() || contents[0] & 0x80 != 0 {
        return None;
    }
    let digits = match contents {
        [0, rest @ ..] => rest,
        all => all,
    };
    if digits.len() > 8 {
        return None;
    }
    Some(
        digits
            .iter()
            .fold(0u64, |acc, &d| (acc << 8) | u64::from(d)),
    )
}

/// The contents of `bytes` when it is exactly one SEQUENCE.
pub(super) fn sequence(bytes: &[u8]) -> Option<&[u8]> {
    match elements(bytes)?.as_slice() {
        [Element {
            tag: 0x30,
            contents,
        }] => Some(contents),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_lengths_are_read_and_truncation_is_refused() {
        let long: Vec<u8> = [vec![0x04, 0x81, 0x80], vec![7; 0x80]].concat();
        let found = elements(&long).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].contents.len(), 0x80);
        assert_eq!(elements(&[0x04, 0x03, 1, 2]), None);
        assert_eq!(elements(&[0x04, 0x85, 0, 0, 0, 0, 1]), None);
        assert_eq!(elements(&[0x1f, 0x01, 0]), None);
        assert_eq!(elements(&[0x30]), None);
    }

    #[test]
    fn integers_are_read_unsigned_only() {
        assert_eq!(unsigned(&[0x02]), Some(2));
        assert_eq!(unsigned(&[0x00, 0xff]), Some(255));
        assert_eq!(unsigned(&[0x80]), None);
        assert_eq!(unsigned(&[]), None);
        assert_eq!(unsigned(&[1; 9]), None);
    }
}
