//! Distinguished names compared as directories compare them in practice: without case, and
//! without the blanks people put around separators.

/// A DN in one spelling: each RDN's type and value trimmed and lowercased.
pub fn normalize_dn(dn: &str) -> String {
    dn.split(',')
        .map(|rdn| {
            rdn.split('=')
                .map(|p| p.trim().to_lowercase())
                .collect::<Vec<_>>()
                .join("=")
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Whether `dn` is one of `list`, compared as [`normalize_dn`] does.
pub fn dn_in(dn: &str, list: &[String]) -> bool {
    let dn = normalize_dn(dn);
    list.iter().any(|other| normalize_dn(other) == dn)
}

/// The value of the first RDN of `dn` when its type is `attribute` (case aside), with RFC 4514
/// escapes (`\,`, `\2C`) undone: `cn=Finance\, EMEA,ou=groups` is `Finance, EMEA` for `cn`.
pub fn first_rdn_value(dn: &str, attribute: &str) -> Option<String> {
    let (kind, rest) = dn.split_once('=')?;
    if !kind.trim().eq_ignore_ascii_case(attribute) {
        return None;
    }
    let mut value = Vec::new();
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b',' | b'+' => break,
            b'\\' => {
                let next = bytes.get(i + 1).copied()?;
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(byte) => {
                        value.push(byte);
                        i += 3;
                    }
                    None => {
                        value.push(next);
                        i += 2;
                    }
                }
            }
            other => {
                value.push(other);
                i += 1;
            }
        }
    }
    let value = String::from_utf8(value).ok()?;
    let value = value.trim();
    (!value.is_empty()).then(|| value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_rdn_value_is_read_with_its_escapes_undone() {
        let dn = "cn=Finance\\, EMEA,ou=groups,dc=example";
        assert_eq!(first_rdn_value(dn, "CN").as_deref(), Some("Finance, EMEA"));
        assert_eq!(
            first_rdn_value("CN=people\\2Dteam,DC=x", "cn").as_deref(),
            Some("people-team")
        );
        assert_eq!(first_rdn_value("ou=groups,dc=x", "cn"), None);
    }

    #[test]
    fn dns_compare_without_case_or_spacing() {
        assert_eq!(
            normalize_dn("CN=Ops, OU=Groups,dc=Example"),
            normalize_dn("cn=ops,ou=groups, DC=example")
        );
        assert!(dn_in(
            "cn=ops,dc=example",
            &["CN=Ops, DC=Example".to_owned()]
        ));
        assert!(!dn_in(
            "cn=dev,dc=example",
            &["CN=Ops,DC=Example".to_owned()]
        ));
    }
}
