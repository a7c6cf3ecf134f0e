//! Active Directory's `objectGUID`: sixteen bytes, written as AD's own tools write a GUID and
//! turned back into bytes to find the entry again.
//!
//! The first three fields are little-endian on the wire (Microsoft's GUID layout), the last
//! eight bytes are in order: the bytes `33 22 11 00 55 44 77 66 88 99 aa bb cc dd ee ff` are
//! `00112233-4455-6677-8899-aabbccddeeff`. Written lowercase, without braces.

/// The attribute name.
pub(super) const OBJECT_GUID: &str = "objectGUID";

/// Where each byte of the written form comes from: the wire index of the 1st, 2nd... byte.
const ORDER: [usize; 16] = [3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15];

/// The GUID string of a 16-byte value; `None` for any other length.
pub(super) fn render(bytes: &[u8]) -> Option<String> {
    let bytes: &[u8; 16] = bytes.try_into().ok()?;
    let mut out = String::with_capacity(36);
    for (position, index) in ORDER.iter().enumerate() {
        if matches!(position, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        out.push_str(&format!("{:02x}", bytes[*index]));
    }
    Some(out)
}

/// The bytes of a GUID string (with or without braces, any case), in wire order.
fn parse(text: &str) -> Option<[u8; 16]> {
    let text = text.trim();
    let text = text
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .unwrap_or(text);
    let groups: Vec<&str> = text.split('-').collect();
    let lengths: Vec<usize> = groups.iter().map(|g| g.len()).collect();
    if lengths != [8, 4, 4, 4, 12] {
        return None;
    }
    let hex = groups.concat();
    let mut written = [0u8; 16];
    for (i, byte) in written.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    let mut wire = [0u8; 16];
    for (position, index) in ORDER.iter().enumerate() {
        wire[*index] = written[position];
    }
    Some(wire)
}

/// The GUID string as an RFC 4515 filter value (`\33\22...`), each byte escaped, so it can
/// stand for `{sub}` in `directory.lookup_filter`; `None` when it is no GUID.
pub(super) fn filter_value(text: &str) -> Option<String> {
    let bytes = parse(text)?;
    Some(bytes.iter().map(|b| format!("\\{b:02x}")).collect())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const WIRE: [u8; 16] = [
        0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,
        0xff,
    ];

    #[test]
    fn the_first_three_fields_are_written_little_endian() {
        assert_eq!(
            render(&WIRE).unwrap(),
            "00112233-4455-6677-8899-aabbccddeeff"
        );
    }

    #[test]
    fn a_written_guid_reads_back_to_its_bytes_with_or_without_braces() {
        assert_eq!(parse("00112233-4455-6677-8899-aabbccddeeff"), Some(WIRE));
        assert_eq!(parse("{00112233-4455-6677-8899-AABBCCDDEEFF}"), Some(WIRE));
        assert_eq!(
            filter_value("00112233-4455-6677-8899-aabbccddeeff").unwrap(),
            "\\33\\22\\11\\00\\55\\44\\77\\66\\88\\99\\aa\\bb\\cc\\dd\\ee\\ff"
        );
    }

    #[test]
    fn other_lengths_and_shapes_are_no_guid() {
        assert_eq!(render(&WIRE[..15]), None);
        for text in [
            "",
            "jdoe",
            "00112233-4455-6677-8899-aabbccddeef",
            "0011223344556677",
            "0011223g-4455-6677-8899-aabbccddeeff",
            "*)(uid=*",
        ] {
            assert_eq!(parse(text), None, "{text}");
        }
    }
}
