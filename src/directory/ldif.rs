//! LDIF directory for the embedded default: an LDIF file read into memory at start-up.
//!
//! Users sign in by the attribute behind the `sub` claim (`uid` by default). Password checks run
//! on the blocking pool, and an unknown user costs as much as a wrong password. Group entries
//! (those listing `member` or `uniqueMember`) give each person their groups, nested ones
//! included, named by their `cn`; so do the group DNs of a user entry's `memberOf`, as a
//! directory with the memberOf overlay shows them.

use super::{password, Attributes, Directory, DirectoryError, DirectoryUser, Group};
use crate::domain::dn::{first_rdn_value, normalize_dn};
use async_trait::async_trait;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use secrecy::{ExposeSecret, SecretString};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// The demo directory built into the binary.
pub const DEMO_LDIF: &str = include_str!("../../config/demo-directory.ldif");

/// An LDIF file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum LdifError {
    #[error("cannot read {path}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("line {line}: {reason}")]
    Syntax { line: usize, reason: String },
}

/// Users read from an LDIF file, keyed by the lowercased login attribute value, each with
/// their groups.
pub struct LdifDirectory {
    users: Arc<HashMap<String, DirectoryUser>>,
    login_attribute: String,
}

/// Nesting levels followed, at most.
const MAX_DEPTH: usize = 8;

/// A group entry: its DN, its name, and its members' DNs (normalized).
struct GroupEntry {
    dn: String,
    name: String,
    members: Vec<String>,
}

impl LdifDirectory {
    /// Reads the LDIF at `path`, or the built-in demo directory when `path` is `None`.
    pub fn load(path: Option<&Path>, login_attribute: &str) -> Result<Self, LdifError> {
        let text = match path {
            Some(path) => std::fs::read_to_string(path).map_err(|source| LdifError::Read {
                path: path.display().to_string(),
                source,
            })?,
            None => DEMO_LDIF.to_owned(),
        };
        Self::parse(&text, login_attribute)
    }

    /// Builds the directory from LDIF text.
    pub fn parse(text: &str, login_attribute: &str) -> Result<Self, LdifError> {
        let login_attribute = login_attribute.to_ascii_lowercase();
        let mut users = HashMap::new();
        let mut groups = Vec::new();
        let mut plain = 0usize;
        for entry in parse_entries(text)? {
            let members: Vec<String> = ["member", "uniquemember"]
                .iter()
                .filter_map(|a| entry.attributes.get(*a))
                .flatten()
                .map(|m| normalize_dn(m))
                .collect();
            if !members.is_empty() {
                let name = entry
                    .attributes
                    .get("cn")
                    .and_then(|v| v.first())
                    .cloned()
                    .unwrap_or_else(|| entry.dn.clone());
                groups.push(GroupEntry {
                    dn: entry.dn.clone(),
                    name,
                    members,
                });
            }
            let Some(login) = entry
                .attributes
                .get(&login_attribute)
                .and_then(|v| v.first())
            else {
                continue;
            };
            if entry
                .attributes
                .get("userpassword")
                .and_then(|v| v.first())
                .is_some_and(|p| password::is_plain(p))
            {
                plain += 1;
            }
            users.insert(login.to_lowercase(), entry);
        }
        if plain > 0 {
            tracing::warn!(
                users = plain,
                "LDIF directory holds plain-text passwords: acceptable for demos only"
            );
        }
        for user in users.values_mut() {
            let listed = user.attributes.get("memberof").cloned().unwrap_or_default();
            user.groups = groups_of(&user.dn, &listed, &groups);
        }
        Ok(Self {
            users: Arc::new(users),
            login_attribute,
        })
    }

    /// How many users the directory holds.
    pub fn len(&self) -> usize {
        self.users.len()
    }

    /// Whether the directory holds no users.
    pub fn is_empty(&self) -> bool {
        self.users.is_empty()
    }
}

#[async_trait]
impl Directory for LdifDirectory {
    async fn authenticate(
        &self,
        username: &str,
        password: &SecretString,
    ) -> Result<DirectoryUser, DirectoryError> {
        if password.expose_secret().is_empty() {
            return Err(DirectoryError::InvalidCredentials);
        }
        let users = Arc::clone(&self.users);
        let key = username.to_lowercase();
        let password = password.clone();
        tokio::task::spawn_blocking(move || {
            let user = users.get(&key);
            let stored = user
                .and_then(|u| u.attributes.get("userpassword"))
                .and_then(|v| v.first());
            let ok = match stored {
                Some(stored) => password::verify(stored, password.expose_secret()),
                None => password::verify_dummy(password.expose_secret()),
            };
            match (ok, user) {
                (true, Some(user)) => Ok(without_password(user)),
                _ => Err(DirectoryError::InvalidCredentials),
            }
        })
        .await
        .map_err(|e| DirectoryError::Unavailable(format!("password check failed: {e}")))?
    }

    async fn lookup(&self, sub: &str) -> Result<Option<DirectoryUser>, DirectoryError> {
        Ok(self.users.get(&sub.to_lowercase()).map(without_password))
    }

    async fn find(&self, username: &str) -> Result<Option<DirectoryUser>, DirectoryError> {
        // Users sign in with the login attribute, which is also what `lookup` reads.
        self.lookup(username).await
    }

    /// Read into memory at start-up: always there.
    async fn check(&self) -> Result<(), DirectoryError> {
        Ok(())
    }
}

impl std::fmt::Debug for LdifDirectory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LdifDirectory")
            .field("users", &self.users.len())
            .field("login_attribute", &self.login_attribute)
            .finish()
    }
}

/// The groups `dn` is a member of, directly (by the group entries, or as its `memberOf`
/// values `listed` say) or through other groups.
fn groups_of(dn: &str, listed: &[String], groups: &[GroupEntry]) -> Vec<Group> {
    let mut found: Vec<(String, Group)> = Vec::new();
    let mut level = vec![normalize_dn(dn)];
    let add = |found: &mut Vec<(String, Group)>, dn: &str, name: Option<&str>| {
        let key = normalize_dn(dn);
        if found.iter().any(|(k, _)| *k == key) {
            return None;
        }
        let name = name
            .map(str::to_owned)
            .or_else(|| first_rdn_value(dn, "cn"))
            .unwrap_or_else(|| dn.to_owned());
        let group = Group {
            dn: dn.to_owned(),
            name,
        };
        found.push((key.clone(), group));
        Some(key)
    };
    for dn in listed {
        let entry = groups
            .iter()
            .find(|g| normalize_dn(&g.dn) == normalize_dn(dn));
        if let Some(key) = add(&mut found, dn, entry.map(|g| g.name.as_str())) {
            level.push(key);
        }
    }
    for _ in 0..MAX_DEPTH {
        let mut next = Vec::new();
        for member in &level {
            for group in groups.iter().filter(|g| g.members.contains(member)) {
                if let Some(key) = add(&mut found, &group.dn, Some(&group.name)) {
                    next.push(key);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        level = next;
    }
    found.into_iter().map(|(_, group)| group).collect()
}

fn without_password(user: &DirectoryUser) -> DirectoryUser {
    let mut user = user.clone();
    user.attributes.remove("userpassword");
    user
}

/// Parses LDIF content records (RFC 2849): `attr: value`, `attr:: base64`, folded lines,
/// comments. `attr:< URL` values are refused.
fn parse_entries(text: &str) -> Result<Vec<DirectoryUser>, LdifError> {
    let mut entries = Vec::new();
    let mut dn: Option<String> = None;
    let mut attributes = Attributes::new();
    for (line_no, line) in unfold(text) {
        if line.is_empty() {
            if let Some(dn) = dn.take() {
                entries.push(DirectoryUser {
                    dn,
                    attributes: std::mem::take(&mut attributes),
                    groups: Vec::new(),
                });
            }
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let syntax = |reason: &str| LdifError::Syntax {
            line: line_no,
            reason: reason.to_owned(),
        };
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| syntax("expected `attribute: value`"))?;
        let value = if let Some(b64) = value.strip_prefix(':') {
            let bytes = STANDARD
                .decode(b64.trim())
                .map_err(|_| syntax("invalid base64 value"))?;
            String::from_utf8(bytes).map_err(|_| syntax("value is not UTF-8"))?
        } else if value.starts_with('<') {
            return Err(syntax("URL values are not supported"));
        } else {
            value.trim_start().to_owned()
        };
        let name = name.trim().to_ascii_lowercase();
        match name.as_str() {
            "version" if dn.is_none() => {}
            "dn" => dn = Some(value),
            _ if dn.is_none() => return Err(syntax("attribute before `dn:`")),
            _ => attributes.entry(name).or_default().push(value),
        }
    }
    if let Some(dn) = dn {
        entries.push(DirectoryUser {
            dn,
            attributes,
            groups: Vec::new(),
        });
    }
    Ok(entries)
}

/// Joins folded lines (a line starting with one space continues the previous one).
fn unfold(text: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.trim_end_matches('\r');
        match (raw.strip_prefix(' '), out.last_mut()) {
            (Some(rest), Some((_, prev))) if !prev.is_empty() => prev.push_str(rest),
            _ => out.push((i + 1, raw.to_owned())),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "version: 1\n\n# a comment\ndn: uid=a,dc=x\nuid: a\ncn: Long\n  Name\ndescription:: w6lsw6h2ZQ==\nuserPassword: pw\n\ndn: uid=b,dc=x\nuid: B\nuserPassword: {SSHA}wMyB277RT0Y5i4siOvrFVbcagWCuBfsX\n";

    #[test]
    fn parses_folded_and_base64_values() {
        let entries = parse_entries(SAMPLE).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].attributes["cn"], vec!["Long Name"]);
        assert_eq!(entries[0].attributes["description"], vec!["élève"]);
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let err = parse_entries("dn: x\nnocolon\n").unwrap_err().to_string();
        assert!(err.starts_with("line 2"), "{err}");
    }

    #[tokio::test]
    async fn sign_in_checks_the_password_and_hides_it() {
        let dir = LdifDirectory::parse(SAMPLE, "uid").unwrap();
        let user = dir
            .authenticate("a", &SecretString::from("pw"))
            .await
            .unwrap();
        assert!(!user.attributes.contains_key("userpassword"));
        let user = dir
            .authenticate("b", &SecretString::from("test"))
            .await
            .unwrap();
        assert_eq!(user.dn, "uid=b,dc=x");
    }

    #[tokio::test]
    async fn wrong_unknown_and_empty_passwords_are_the_same_refusal() {
        let dir = LdifDirectory::parse(SAMPLE, "uid").unwrap();
        for (user, pw) in [("a", "nope"), ("zed", "pw"), ("a", "")] {
            assert!(matches!(
                dir.authenticate(user, &SecretString::from(pw)).await,
                Err(DirectoryError::InvalidCredentials)
            ));
        }
    }

    #[test]
    fn the_demo_directory_covers_every_role() {
        let dir = LdifDirectory::load(None, "uid").unwrap();
        assert_eq!(dir.len(), 9);
        for role in crate::domain::Role::ALL {
            assert!(
                dir.users
                    .values()
                    .any(|u| u.attributes.get("employeetype")
                        == Some(&vec![role.as_str().to_owned()]))
            );
        }
    }
}
