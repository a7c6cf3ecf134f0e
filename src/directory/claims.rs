//! The one mapping from directory attributes to identity claims (docs/src/protocol.md, Claims).

use super::Attributes;
use crate::config::ClaimMapping;
use crate::domain::{Claims, Role};
use std::collections::BTreeMap;

impl ClaimMapping {
    /// The claims of a person's entry, with their groups: [`ClaimMapping::claims`] of its
    /// attributes and the `groups` claim.
    pub fn claims_of(&self, user: &super::DirectoryUser) -> Option<Claims> {
        let claims = self.claims(&user.attributes)?;
        let names = user.groups.iter().map(|g| g.name.clone()).collect();
        let dns = user.groups.iter().map(|g| g.dn.clone()).collect();
        Some(claims.with_groups(names, dns))
    }

    /// Maps an entry's attributes to claims: a claim is present only when its attribute has a
    /// non-blank value (the first, for multi-valued attributes); `role` only when it names one
    /// of the seven roles. `None` when the entry has no subject.
    pub fn claims(&self, attributes: &Attributes) -> Option<Claims> {
        let mut out = BTreeMap::new();
        for (claim, attribute) in self.pairs() {
            let Some(value) = attributes
                .get(&attribute.to_ascii_lowercase())
                .and_then(|values| values.iter().map(|v| v.trim()).find(|v| !v.is_empty()))
            else {
                continue;
            };
            let value = if claim == "role" {
                match Role::parse(value) {
                    Some(role) => role.as_str().to_owned(),
                    None => continue,
                }
            } else {
                value.to_owned()
            };
            out.insert(claim.to_owned(), value);
        }
        Claims::new(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mapping() -> ClaimMapping {
        crate::config::defaults().claims
    }

    fn attrs(pairs: &[(&str, &str)]) -> Attributes {
        pairs
            .iter()
            .map(|(k, v)| (k.to_ascii_lowercase(), vec![v.to_string()]))
            .collect()
    }

    #[test]
    fn set_attributes_become_claims_and_blank_ones_do_not() {
        let claims = mapping()
            .claims(&attrs(&[
                ("uid", "ada"),
                ("cn", "Ada"),
                ("mail", "  "),
                ("title", ""),
            ]))
            .unwrap();
        assert_eq!(claims.get("name"), Some("Ada"));
        assert_eq!(claims.get("email"), None);
        assert_eq!(claims.get("job_title"), None);
    }

    #[test]
    fn role_only_when_it_is_one_of_the_seven() {
        let m = mapping();
        let ok = m
            .claims(&attrs(&[("uid", "a"), ("employeeType", "HR")]))
            .unwrap();
        assert_eq!(ok.get("role"), Some("hr"));
        let bad = m
            .claims(&attrs(&[("uid", "a"), ("employeeType", "contractor")]))
            .unwrap();
        assert_eq!(bad.get("role"), None);
    }

    #[test]
    fn no_subject_no_claims() {
        assert!(mapping().claims(&attrs(&[("cn", "x")])).is_none());
    }

    #[test]
    fn mapping_follows_settings() {
        let m = ClaimMapping {
            email: "proxyAddress".into(),
            ..mapping()
        };
        let c = m
            .claims(&attrs(&[("uid", "a"), ("proxyAddress", "a@x")]))
            .unwrap();
        assert_eq!(c.get("email"), Some("a@x"));
    }
}
