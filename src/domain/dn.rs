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

#[cfg(test)]
mod tests {
    use super::*;

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
