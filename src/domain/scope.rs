//! Scopes (docs/src/protocol.md, Scopes): what a grant releases.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;

/// One of the five scopes the service knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Authentication; releases `sub`. Always granted.
    Openid,
    /// Releases name, first_name, last_name, employee_code, job_title, department, phone.
    Profile,
    /// Releases email.
    Email,
    /// Releases role.
    Role,
    /// Releases groups: the names of the person's groups, nested ones included.
    Groups,
}

impl Scope {
    /// Every scope, in display order.
    pub const ALL: [Scope; 5] = [
        Scope::Openid,
        Scope::Profile,
        Scope::Email,
        Scope::Role,
        Scope::Groups,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Openid => "openid",
            Scope::Profile => "profile",
            Scope::Email => "email",
            Scope::Role => "role",
            Scope::Groups => "groups",
        }
    }

    /// Parses a wire name.
    pub fn parse(s: &str) -> Option<Self> {
        Scope::ALL.into_iter().find(|scope| scope.as_str() == s)
    }
}

/// A set of granted scopes; always contains `openid`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ScopeSet(BTreeSet<Scope>);

/// A scope string named a scope the service does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown scope `{0}`")]
pub struct UnknownScope(pub String);

impl ScopeSet {
    /// Parses a space-separated scope parameter (RFC 6749 §3.3); `openid` is always added.
    ///
    /// `offline_access` (OpenID Connect Core §11), which many libraries send to ask for a
    /// refresh token, is accepted and dropped: every grant gets a refresh token anyway.
    pub fn parse(raw: &str) -> Result<Self, UnknownScope> {
        let mut set = BTreeSet::from([Scope::Openid]);
        let wanted = raw
            .split(' ')
            .filter(|s| !s.is_empty() && *s != "offline_access");
        for name in wanted {
            set.insert(Scope::parse(name).ok_or_else(|| UnknownScope(name.to_owned()))?);
        }
        Ok(Self(set))
    }

    /// Whether `scope` is in the set.
    pub fn contains(&self, scope: Scope) -> bool {
        self.0.contains(&scope)
    }

    /// Whether every scope of `self` is also in `other`.
    pub fn is_subset(&self, other: &ScopeSet) -> bool {
        self.0.is_subset(&other.0)
    }

    /// Every scope in either set.
    pub fn union(&self, other: &ScopeSet) -> ScopeSet {
        ScopeSet(self.0.union(&other.0).copied().collect())
    }

    /// The scopes, in display order.
    pub fn iter(&self) -> impl Iterator<Item = Scope> + '_ {
        self.0.iter().copied()
    }
}

impl fmt::Display for ScopeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(Scope::as_str).collect();
        f.write_str(&names.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openid_is_always_included() {
        let set = ScopeSet::parse("email").unwrap();
        assert_eq!(set.to_string(), "openid email");
    }

    #[test]
    fn unknown_scope_is_refused() {
        assert_eq!(
            ScopeSet::parse("openid admin"),
            Err(UnknownScope("admin".into()))
        );
    }

    #[test]
    fn offline_access_is_accepted_and_dropped() {
        let set = ScopeSet::parse("openid offline_access email").unwrap();
        assert_eq!(set.to_string(), "openid email");
    }

    #[test]
    fn repeated_spaces_are_tolerated_and_order_is_canonical() {
        let set = ScopeSet::parse("role  profile openid").unwrap();
        assert_eq!(set.to_string(), "openid profile role");
    }
}
