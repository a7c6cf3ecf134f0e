//! `[mfa]`: who needs a second factor, and the key that protects enrolment secrets at rest.

use super::{value, ConfigError};
use secrecy::SecretString;
use serde::{Deserialize, Deserializer};
use std::path::PathBuf;

/// How group membership is read for `mfa.required_groups`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupLookup {
    /// The user entry's own `memberOf`-style attribute (`mfa.member_attribute`).
    Memberof,
    /// A search for groups naming the user's DN (`mfa.group_base`, `mfa.group_filter`).
    Search,
}

impl<'de> Deserialize<'de> for GroupLookup {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        value::choice(
            de,
            &[("memberof", Self::Memberof), ("search", Self::Search)],
        )
    }
}

/// `[mfa]` second factor by policy.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MfaSettings {
    /// Roles (claim values) whose members must pass a second factor.
    #[serde(deserialize_with = "list")]
    pub required_roles: Vec<String>,
    /// Group DNs whose members must pass a second factor (compared case-insensitively).
    #[serde(deserialize_with = "dn_list")]
    pub required_groups: Vec<String>,
    /// How membership of `required_groups` is read.
    pub group_lookup: GroupLookup,
    /// Attribute of the user entry listing its groups (`memberof` lookup).
    pub member_attribute: String,
    /// Search base of group entries (`search` lookup); empty: the directory's `user_base`.
    pub group_base: String,
    /// Filter finding the user's groups (`search` lookup); `{dn}` is replaced, escaped.
    pub group_filter: String,
    /// Optional attribute of the user entry that puts one person under the policy.
    pub user_attribute: Option<String>,
    /// Value of `user_attribute` that does so (compared case-insensitively).
    pub user_attribute_value: String,
    /// Base64 of 32 random bytes: encrypts enrolment secrets at rest.
    pub encryption_key: Option<SecretString>,
    /// File holding `encryption_key` (first line).
    pub encryption_key_file: Option<PathBuf>,
    /// Name authenticator apps show beside the account.
    pub issuer_label: String,
}

/// A list given either as a TOML array or as one string (the form an environment variable
/// takes) whose items are separated by any of `separators`; blank items are dropped, so `""`
/// is the empty list.
fn split_list<'de, D: Deserializer<'de>>(
    de: D,
    separators: &[char],
) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        List(Vec<String>),
        Text(String),
    }
    let items = match Raw::deserialize(de)? {
        Raw::List(items) => items,
        Raw::Text(text) => text.split(separators).map(str::to_owned).collect(),
    };
    Ok(items
        .into_iter()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect())
}

/// Roles: `"superadmin,admin"` in an environment variable.
fn list<'de, D: Deserializer<'de>>(de: D) -> Result<Vec<String>, D::Error> {
    split_list(de, &[',', ';'])
}

/// Group DNs hold commas: `"cn=a,ou=g,dc=x;cn=b,ou=g,dc=x"` in an environment variable.
fn dn_list<'de, D: Deserializer<'de>>(de: D) -> Result<Vec<String>, D::Error> {
    split_list(de, &[';'])
}

impl MfaSettings {
    /// Checks the values that can be checked without the directory.
    pub(super) fn check(&self) -> Result<(), ConfigError> {
        for role in &self.required_roles {
            if crate::domain::Role::parse(role).is_none() {
                return Err(ConfigError::key(
                    "mfa.required_roles",
                    format!("`{role}` is not one of the seven roles"),
                ));
            }
        }
        if self.group_lookup == GroupLookup::Search && !self.group_filter.contains("{dn}") {
            return Err(ConfigError::key("mfa.group_filter", "must contain {dn}"));
        }
        if self.encryption_key.is_some() && self.encryption_key_file.is_some() {
            return Err(ConfigError::key(
                "mfa.encryption_key",
                "set either encryption_key or encryption_key_file, not both",
            ));
        }
        if self.issuer_label.trim().is_empty() || self.issuer_label.contains(':') {
            return Err(ConfigError::key(
                "mfa.issuer_label",
                "must be non-empty and without ':'",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Settings;

    fn load(pairs: &[(&str, &str)]) -> Result<Settings, crate::config::ConfigError> {
        let env = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string()));
        Settings::load_from(None, env.collect::<Vec<_>>())
    }

    #[test]
    fn the_policy_defaults_to_superadmins_and_admins() {
        let s = load(&[]).unwrap();
        assert_eq!(s.mfa.required_roles, ["superadmin", "admin"]);
        assert!(s.mfa.required_groups.is_empty());
    }

    #[test]
    fn environment_lists_split_roles_on_commas_and_group_dns_on_semicolons() {
        let s = load(&[
            ("SSO_BRIDGE__MFA__REQUIRED_ROLES", "superadmin, hr"),
            (
                "SSO_BRIDGE__MFA__REQUIRED_GROUPS",
                "cn=ops,ou=groups,dc=x; cn=sec,ou=groups,dc=x",
            ),
        ])
        .unwrap();
        assert_eq!(s.mfa.required_roles, ["superadmin", "hr"]);
        assert_eq!(
            s.mfa.required_groups,
            ["cn=ops,ou=groups,dc=x", "cn=sec,ou=groups,dc=x"]
        );
        let none = load(&[("SSO_BRIDGE__MFA__REQUIRED_ROLES", "")]).unwrap();
        assert!(none.mfa.required_roles.is_empty());
    }
}
