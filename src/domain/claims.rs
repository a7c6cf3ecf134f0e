//! Identity claims and which scope releases each (docs/src/protocol.md, Claims and Scopes).

use super::scope::{Scope, ScopeSet};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The seven roles a `role` claim may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Employee,
    Manager,
    Hr,
    Finance,
    Ceo,
    Admin,
    Superadmin,
}

impl Role {
    /// Every role.
    pub const ALL: [Role; 7] = [
        Role::Employee,
        Role::Manager,
        Role::Hr,
        Role::Finance,
        Role::Ceo,
        Role::Admin,
        Role::Superadmin,
    ];

    /// The claim value.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Employee => "employee",
            Role::Manager => "manager",
            Role::Hr => "hr",
            Role::Finance => "finance",
            Role::Ceo => "ceo",
            Role::Admin => "admin",
            Role::Superadmin => "superadmin",
        }
    }

    /// Reads a directory value; case and surrounding blanks are ignored.
    pub fn parse(value: &str) -> Option<Self> {
        let value = value.trim();
        Role::ALL
            .into_iter()
            .find(|role| role.as_str().eq_ignore_ascii_case(value))
    }
}

/// Every claim name with the scope that releases it (docs/src/protocol.md, Claims).
pub const CLAIM_SCOPES: [(&str, Scope); 11] = [
    ("sub", Scope::Openid),
    ("name", Scope::Profile),
    ("first_name", Scope::Profile),
    ("last_name", Scope::Profile),
    ("employee_code", Scope::Profile),
    ("job_title", Scope::Profile),
    ("department", Scope::Profile),
    ("phone", Scope::Profile),
    ("email", Scope::Email),
    ("role", Scope::Role),
    ("groups", Scope::Groups),
];

/// The claim holding the DNs of a person's groups: kept with their claims so that an app's
/// access can name a group by DN, and never released (no scope names it).
const GROUP_DNS: &str = "group_dns";

/// A claim's value: one string, or a list (the `groups` claim).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ClaimValue {
    /// A single value.
    One(String),
    /// Several values, in byte order.
    Many(Vec<String>),
}

// Read by the kind of value found, where `#[serde(untagged)]` would copy each value into a
// buffer first and then try the variants on it: every stored token, code and session carries
// its claims, so this is on the path of every userinfo, exchange and refresh.
impl<'de> Deserialize<'de> for ClaimValue {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Value;

        impl<'de> serde::de::Visitor<'de> for Value {
            type Value = ClaimValue;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string or a list of strings")
            }

            fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<ClaimValue, E> {
                Ok(ClaimValue::One(value.to_owned()))
            }

            fn visit_string<E: serde::de::Error>(self, value: String) -> Result<ClaimValue, E> {
                Ok(ClaimValue::One(value))
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<ClaimValue, A::Error> {
                let mut values = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
                while let Some(value) = seq.next_element::<String>()? {
                    values.push(value);
                }
                Ok(ClaimValue::Many(values))
            }
        }

        deserializer.deserialize_any(Value)
    }
}

/// A user's claims: only claims whose directory value is set and non-empty. `sub` is always set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims(BTreeMap<String, ClaimValue>);

impl Claims {
    /// Builds claims from `(claim, value)` pairs; `sub` must be among them.
    pub fn new(values: BTreeMap<String, String>) -> Option<Self> {
        values.contains_key("sub").then(|| {
            Self(
                values
                    .into_iter()
                    .map(|(k, v)| (k, ClaimValue::One(v)))
                    .collect(),
            )
        })
    }

    /// The user id.
    pub fn sub(&self) -> &str {
        self.get("sub").unwrap_or_default()
    }

    /// The user's role, when set and valid.
    pub fn role(&self) -> Option<Role> {
        self.get("role").and_then(Role::parse)
    }

    /// A single-valued claim's value.
    pub fn get(&self, claim: &str) -> Option<&str> {
        match self.0.get(claim) {
            Some(ClaimValue::One(value)) => Some(value),
            _ => None,
        }
    }

    /// A list claim's values (none when absent).
    fn list(&self, claim: &str) -> impl Iterator<Item = &str> {
        let values = match self.0.get(claim) {
            Some(ClaimValue::Many(values)) => values.as_slice(),
            _ => &[],
        };
        values.iter().map(String::as_str)
    }

    /// The names of the groups the user is a member of, nested ones included.
    pub fn groups(&self) -> impl Iterator<Item = &str> {
        self.list("groups")
    }

    /// The DNs of those groups (never released to apps).
    pub fn group_dns(&self) -> impl Iterator<Item = &str> {
        self.list(GROUP_DNS)
    }

    /// The claims with the user's groups: `names` become the `groups` claim (a list in byte
    /// order, duplicates dropped; absent when empty) and `dns` are kept beside it.
    pub fn with_groups(mut self, names: Vec<String>, dns: Vec<String>) -> Self {
        for (claim, mut values) in [("groups", names), (GROUP_DNS, dns)] {
            values.sort();
            values.dedup();
            if values.is_empty() {
                self.0.remove(claim);
            } else {
                self.0.insert(claim.to_owned(), ClaimValue::Many(values));
            }
        }
        self
    }

    /// Only the claims the granted scopes release (docs/src/protocol.md, Scopes).
    pub fn filtered(&self, scopes: &ScopeSet) -> Claims {
        let kept = self
            .0
            .iter()
            .filter(|(claim, _)| {
                CLAIM_SCOPES
                    .iter()
                    .any(|(name, scope)| name == claim && scopes.contains(*scope))
            })
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Claims(kept)
    }

    /// The claims as a JSON-ready map.
    pub fn as_map(&self) -> &BTreeMap<String, ClaimValue> {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims() -> Claims {
        Claims::new(BTreeMap::from([
            ("sub".to_string(), "ada".to_string()),
            ("name".to_string(), "Ada Lovelace".to_string()),
            ("email".to_string(), "ada@example.com".to_string()),
            ("role".to_string(), "manager".to_string()),
        ]))
        .unwrap()
    }

    #[test]
    fn openid_alone_releases_only_sub() {
        let out = claims().filtered(&ScopeSet::parse("openid").unwrap());
        assert_eq!(out.as_map().keys().collect::<Vec<_>>(), vec!["sub"]);
    }

    #[test]
    fn each_scope_releases_its_claims() {
        let out = claims().filtered(&ScopeSet::parse("email role").unwrap());
        assert_eq!(
            out.as_map().keys().collect::<Vec<_>>(),
            vec!["email", "role", "sub"]
        );
    }

    #[test]
    fn groups_are_released_by_their_scope_in_byte_order_and_their_dns_never() {
        let with = claims().with_groups(
            vec!["people-team".into(), "Finance".into(), "people-team".into()],
            vec!["cn=finance,ou=groups,dc=example,dc=com".into()],
        );
        let out = with.filtered(&ScopeSet::parse("groups").unwrap());
        assert_eq!(
            out.as_map().get("groups"),
            Some(&ClaimValue::Many(vec![
                "Finance".into(),
                "people-team".into()
            ]))
        );
        assert_eq!(
            out.as_map().keys().collect::<Vec<_>>(),
            vec!["groups", "sub"]
        );
        assert_eq!(with.group_dns().count(), 1);
        let none = claims().with_groups(Vec::new(), Vec::new());
        assert_eq!(none.groups().count(), 0);
        assert!(!none.as_map().contains_key("groups"));
        // Claims written before groups existed read back.
        let earlier: Claims = serde_json::from_str(r#"{"sub":"ada","role":"ceo"}"#).unwrap();
        assert_eq!(earlier.role(), Some(Role::Ceo));
    }

    #[test]
    fn claims_read_back_as_written_and_anything_but_strings_is_refused() {
        let with = claims().with_groups(vec!["b".into(), "a".into()], Vec::new());
        let json = serde_json::to_string(&with).unwrap();
        assert!(json.contains(r#""groups":["a","b"]"#), "{json}");
        assert_eq!(serde_json::from_str::<Claims>(&json).unwrap(), with);
        // Escapes in a value (serde_json hands those over as an owned string).
        let escaped: Claims = serde_json::from_str(r#"{"sub":"a\"b","name":"\u00e9"}"#).unwrap();
        assert_eq!(escaped.sub(), "a\"b");
        assert_eq!(
            escaped.as_map().get("name"),
            Some(&ClaimValue::One("é".into()))
        );
        for wrong in [
            r#"{"sub":"ada","age":42}"#,
            r#"{"sub":"ada","groups":["a",1]}"#,
            r#"{"sub":"ada","name":{"first":"Ada"}}"#,
            r#"{"sub":null}"#,
        ] {
            let refused = serde_json::from_str::<Claims>(wrong).unwrap_err();
            assert!(
                refused.to_string().contains("a string")
                    || refused.to_string().contains("invalid type"),
                "{wrong}: {refused}"
            );
        }
    }

    #[test]
    fn roles_parse_case_insensitively_and_refuse_others() {
        assert_eq!(Role::parse(" SuperAdmin "), Some(Role::Superadmin));
        assert_eq!(Role::parse("intern"), None);
    }
}
