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
pub const CLAIM_SCOPES: [(&str, Scope); 10] = [
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
];

/// A user's claims: only claims whose directory value is set and non-empty. `sub` is always set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims(BTreeMap<String, String>);

impl Claims {
    /// Builds claims from `(claim, value)` pairs; `sub` must be among them.
    pub fn new(values: BTreeMap<String, String>) -> Option<Self> {
        values.contains_key("sub").then_some(Self(values))
    }

    /// The user id.
    pub fn sub(&self) -> &str {
        self.0.get("sub").map(String::as_str).unwrap_or_default()
    }

    /// The user's role, when set and valid.
    pub fn role(&self) -> Option<Role> {
        self.0.get("role").and_then(|r| Role::parse(r))
    }

    /// A claim's value.
    pub fn get(&self, claim: &str) -> Option<&str> {
        self.0.get(claim).map(String::as_str)
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
    pub fn as_map(&self) -> &BTreeMap<String, String> {
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
    fn roles_parse_case_insensitively_and_refuse_others() {
        assert_eq!(Role::parse(" SuperAdmin "), Some(Role::Superadmin));
        assert_eq!(Role::parse("intern"), None);
    }
}
