//! `[mfa]`: who needs a second factor, and the key that protects enrolment secrets at rest.

use super::secret::SecretSetting;
use super::{value, ConfigError};
use secrecy::SecretString;
use serde::Deserialize;
use std::path::PathBuf;

/// `[mfa]` second factor by policy, checked.
#[derive(Debug, Clone)]
pub struct MfaSettings {
    /// Roles (claim values) whose members must pass a second factor; each one of the seven.
    pub required_roles: Vec<String>,
    /// Group DNs whose members must pass a second factor (compared case-insensitively); the
    /// groups are read by the directory's group lookup.
    pub required_groups: Vec<String>,
    /// Optional attribute of the user entry that puts one person under the policy.
    pub user_attribute: Option<String>,
    /// Value of `user_attribute` that does so (compared case-insensitively).
    pub user_attribute_value: String,
    /// `mfa.encryption_key`, or the first line of `mfa.encryption_key_file`: base64 of 32
    /// random bytes that encrypts enrolment secrets at rest. Decoded by `crate::mfa::MfaKey`.
    pub encryption_key: Option<SecretString>,
    /// Name authenticator apps show beside the account; non-empty, without ':'.
    pub issuer_label: String,
    /// Whether the sign-in page offers "Sign in with a passkey": a discoverable passkey with
    /// user verification, both factors at once.
    pub passwordless: bool,
}

/// `[mfa]` as the layers give it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MfaKeys {
    #[serde(deserialize_with = "value::name_list")]
    required_roles: Vec<String>,
    #[serde(deserialize_with = "value::dn_list")]
    required_groups: Vec<String>,
    // Earlier names of the directory's group keys, merged into [directory] at load.
    #[serde(rename = "group_lookup")]
    _group_lookup: Option<serde::de::IgnoredAny>,
    #[serde(rename = "member_attribute")]
    _member_attribute: Option<serde::de::IgnoredAny>,
    #[serde(rename = "group_base")]
    _group_base: Option<serde::de::IgnoredAny>,
    #[serde(rename = "group_filter")]
    _group_filter: Option<serde::de::IgnoredAny>,
    user_attribute: Option<String>,
    user_attribute_value: String,
    encryption_key: Option<SecretString>,
    encryption_key_file: Option<PathBuf>,
    issuer_label: String,
    passwordless: bool,
}

impl MfaKeys {
    /// Checks the values that can be checked without the directory, and reads the key.
    pub(super) fn check(self) -> Result<MfaSettings, ConfigError> {
        for role in &self.required_roles {
            if crate::domain::Role::parse(role).is_none() {
                return Err(ConfigError::key(
                    "mfa.required_roles",
                    format!("`{role}` is not one of the seven roles"),
                ));
            }
        }
        if self.issuer_label.trim().is_empty() || self.issuer_label.contains(':') {
            return Err(ConfigError::key(
                "mfa.issuer_label",
                "must be non-empty and without ':'",
            ));
        }
        let encryption_key = SecretSetting {
            value: self.encryption_key,
            file: self.encryption_key_file,
        }
        .resolve("mfa.encryption_key")?;
        Ok(MfaSettings {
            required_roles: self.required_roles,
            required_groups: self.required_groups,
            user_attribute: self.user_attribute,
            user_attribute_value: self.user_attribute_value,
            encryption_key,
            issuer_label: self.issuer_label,
            passwordless: self.passwordless,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Settings;
    use secrecy::ExposeSecret;

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

    #[test]
    fn the_encryption_key_is_read_from_its_file_at_load() {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), "a2V5\n").unwrap();
        let path = file.path().to_str().unwrap();
        let s = load(&[("SSO_BRIDGE__MFA__ENCRYPTION_KEY_FILE", path)]).unwrap();
        assert_eq!(s.mfa.encryption_key.unwrap().expose_secret(), "a2V5");
        let err = load(&[
            ("SSO_BRIDGE__MFA__ENCRYPTION_KEY_FILE", path),
            ("SSO_BRIDGE__MFA__ENCRYPTION_KEY", "a2V5"),
        ])
        .unwrap_err()
        .to_string();
        assert!(err.contains("mfa.encryption_key_file"), "{err}");
        let unset = load(&[("SSO_BRIDGE__MFA__ENCRYPTION_KEY", "")]).unwrap();
        assert!(unset.mfa.encryption_key.is_none());
    }
}
