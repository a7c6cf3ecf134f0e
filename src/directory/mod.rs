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
use std::time::Duration;

/// An entry's attributes: lowercase attribute name → values, in directory order.
pub type Attributes = BTreeMap<String, Vec<String>>;

/// A directory entry for a person.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DirectoryUser {
    /// The entry's distinguished name.
    pub dn: String,
    /// Its attributes, names lowercased.
    pub attributes: Attributes,
    /// The groups the person is a member of, nested ones included (the directory's group
    /// lookup, `directory.group_*`).
    pub groups: Vec<Group>,
}

/// A group a person is a member of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// Its DN.
    pub dn: String,
    /// Its name (`directory.group_name_attribute`), as the `groups` claim shows it.
    pub name: String,
}

/// Why the directory could not answer yes.
#[derive(Debug, thiserror::Error)]
pub enum DirectoryError {
    /// Unknown user, wrong password or empty password: deliberately indistinguishable.
    #[error("invalid credentials")]
    InvalidCredentials,
    /// The password is right (or, for [`AccountState::Locked`], whatever it is) but the
    /// account cannot sign in now, for this reason.
    #[error("{0}")]
    AccountUnusable(AccountState),
    /// The directory is down, slow past its timeout, or refused the service account.
    #[error("directory unavailable: {0}")]
    Unavailable(String),
}

/// Why an account the directory knows cannot sign in now.
///
/// The directory says so only after checking the password, except for a lockout, which Active
/// Directory and OpenLDAP's ppolicy report whatever password was given: with a wrong password
/// every other state looks like a wrong password, so nothing tells whether an account exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountState {
    /// Switched off by an administrator (AD: `userAccountControl` bit 2).
    Disabled,
    /// Past its end date (AD: `accountExpires`).
    Expired,
    /// Locked after too many wrong passwords (AD: `lockoutTime`; OpenLDAP ppolicy:
    /// `pwdAccountLockedTime`).
    Locked,
    /// The password is older than the directory allows.
    PasswordExpired,
    /// The password must be changed before the next sign-in (AD: `pwdLastSet` 0; OpenLDAP
    /// ppolicy: `pwdReset` under `pwdMustChange`).
    MustChangePassword,
}

impl AccountState {
    /// The state in a few words, for the audit log.
    pub fn as_str(self) -> &'static str {
        match self {
            AccountState::Disabled => "account disabled",
            AccountState::Expired => "account expired",
            AccountState::Locked => "account locked by the directory",
            AccountState::PasswordExpired => "password expired",
            AccountState::MustChangePassword => "password must be changed",
        }
    }
}

impl std::fmt::Display for AccountState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How the directory locks an account out after wrong passwords (Active Directory's domain
/// policy: `lockoutThreshold`, `lockOutObservationWindow`; OpenLDAP's password policy:
/// `pwdMaxFailure`, `pwdFailureCountInterval`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LockoutPolicy {
    /// Wrong passwords that lock an account; 0: the directory never locks one.
    pub threshold: u64,
    /// How long after a wrong password the directory may still count it (Active Directory
    /// restarts its count only after a quiet spell this long; OpenLDAP forgets each failure
    /// this long after it). `None`: wrong passwords count until a correct one.
    pub observation_window: Option<Duration>,
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

    /// Reads a user by subject (the value of the `sub` claim); `None` if gone, disabled or
    /// expired.
    async fn lookup(&self, sub: &str) -> Result<Option<DirectoryUser>, DirectoryError>;

    /// Whether `user`, read by [`Directory::lookup`], is locked out now (too many wrong
    /// passwords): a sign-in without a password is refused then as one with a password would
    /// be. Disabled and expired accounts are not found by a lookup at all.
    fn locked_out(&self, _user: &DirectoryUser) -> bool {
        false
    }

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

    /// The directory's own lockout policy, which sso-bridge's attempt limits must stay under;
    /// `None` when it locks no one out or cannot say (LDIF; generic LDAP without
    /// `directory.password_policy_dn`). Kept for an hour between reads.
    async fn lockout_policy(&self) -> Result<Option<LockoutPolicy>, DirectoryError> {
        Ok(None)
    }

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
