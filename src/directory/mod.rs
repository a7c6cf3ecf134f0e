//! The directory: who the staff are and how they prove it.
//!
//! Backends: [`ldap::LdapDirectory`] (production: search-then-bind) and [`ldif::LdifDirectory`]
//! (embedded default: an LDIF file read into memory). Both hand upward the same thing, an entry's
//! attributes; [`crate::config::ClaimMapping`] turns those into claims in one place.

pub mod claims;
pub mod ldap;
pub mod ldif;
pub mod password;

use crate::domain::PoolUsage;
use async_trait::async_trait;
use secrecy::SecretString;
use std::collections::BTreeMap;

/// An entry's attributes: lowercase attribute name → values, in directory order.
pub type Attributes = BTreeMap<String, Vec<String>>;

/// A directory entry for a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectoryUser {
    /// The entry's distinguished name.
    pub dn: String,
    /// Its attributes, names lowercased.
    pub attributes: Attributes,
}

/// Why the directory could not answer yes.
#[derive(Debug, thiserror::Error)]
pub enum DirectoryError {
    /// Unknown user, wrong password or empty password: deliberately indistinguishable.
    #[error("invalid credentials")]
    InvalidCredentials,
    /// The directory is down, slow past its timeout, or refused the service account.
    #[error("directory unavailable: {0}")]
    Unavailable(String),
}

/// Where staff accounts live.
#[async_trait]
pub trait Directory: Send + Sync + 'static {
    /// Checks a username and password; answers the user's entry when they match.
    ///
    /// An empty password is refused before anything is sent to a server (an empty simple bind
    /// is an anonymous bind, which many servers accept).
    async fn authenticate(
        &self,
        username: &str,
        password: &SecretString,
    ) -> Result<DirectoryUser, DirectoryError>;

    /// Reads a user by subject (the value of the `sub` claim); `None` if gone or disabled.
    async fn lookup(&self, sub: &str) -> Result<Option<DirectoryUser>, DirectoryError>;

    /// Reads a user by the name they sign in with, found as at sign-in but without a password;
    /// `None` if no single entry matches. For a superadmin naming someone, never for a sign-in.
    async fn find(&self, username: &str) -> Result<Option<DirectoryUser>, DirectoryError>;

    /// The account `username` names, in the one spelling the attempt limits count it by. A
    /// directory where an account has several sign-in names (Active Directory: `jdoe`,
    /// `jdoe@corp.example`, `CORP\jdoe`) answers its own name for it (the sAMAccountName), so
    /// every spelling shares one counter; otherwise, and for a name that finds no one, the
    /// name itself.
    async fn account_name(&self, username: &str) -> Result<String, DirectoryError> {
        Ok(username.to_owned())
    }

    // --- second-factor policy --------------------------------------------------------------

    /// DNs of the groups listing the entry `dn` as a member (`mfa.group_lookup = "search"`).
    async fn groups_of(&self, dn: &str) -> Result<Vec<String>, DirectoryError>;

    // --- operations ------------------------------------------------------------------------

    /// Answers whether the directory can serve sign-ins now (readiness probe): cheap, bounded
    /// by the directory's own timeouts, never touching a person's entry.
    async fn check(&self) -> Result<(), DirectoryError>;

    /// Its connection pool now; `None` for a directory without one (LDIF).
    fn pool(&self) -> Option<PoolUsage> {
        None
    }
}

/// A context that reaches the directory: what a flow's context declares when it needs one.
pub trait HasDirectory {
    /// The directory.
    fn directory(&self) -> &dyn Directory;
}
