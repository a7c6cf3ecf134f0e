//! A directory whose people can leave: the LDIF directory, with entries hidden on demand as if
//! they had been deleted there (or excluded by `directory.lookup_filter`).

use crate::directory::ldif::LdifDirectory;
use crate::directory::{Directory, DirectoryError, DirectoryUser, LockoutPolicy};
use crate::domain::PoolUsage;
use async_trait::async_trait;
use secrecy::SecretString;
use std::collections::HashSet;
use std::sync::Mutex;

/// The LDIF directory, less the entries hidden with [`HidingDirectory::hide`].
pub struct HidingDirectory {
    inner: LdifDirectory,
    hidden: Mutex<HashSet<String>>,
}

impl HidingDirectory {
    /// Every entry of `inner`, none hidden yet.
    pub fn new(inner: LdifDirectory) -> Self {
        Self {
            inner,
            hidden: Mutex::new(HashSet::new()),
        }
    }

    /// From now on the person `name` (their login attribute, case ignored) is gone: not found,
    /// and no password of theirs is accepted.
    pub fn hide(&self, name: &str) {
        self.hidden.lock().unwrap().insert(name.to_lowercase());
    }

    fn hides(&self, name: &str) -> bool {
        self.hidden.lock().unwrap().contains(&name.to_lowercase())
    }
}

#[async_trait]
impl Directory for HidingDirectory {
    async fn authenticate(
        &self,
        username: &str,
        password: &SecretString,
    ) -> Result<DirectoryUser, DirectoryError> {
        if self.hides(username) {
            return Err(DirectoryError::InvalidCredentials);
        }
        self.inner.authenticate(username, password).await
    }

    async fn lookup(&self, sub: &str) -> Result<Option<DirectoryUser>, DirectoryError> {
        if self.hides(sub) {
            return Ok(None);
        }
        self.inner.lookup(sub).await
    }

    async fn find(&self, username: &str) -> Result<Option<DirectoryUser>, DirectoryError> {
        if self.hides(username) {
            return Ok(None);
        }
        self.inner.find(username).await
    }

    async fn account_name(&self, username: &str) -> Result<String, DirectoryError> {
        self.inner.account_name(username).await
    }

    async fn lockout_policy(&self) -> Result<Option<LockoutPolicy>, DirectoryError> {
        self.inner.lockout_policy().await
    }

    async fn check(&self) -> Result<(), DirectoryError> {
        self.inner.check().await
    }

    fn pool(&self) -> Option<PoolUsage> {
        self.inner.pool()
    }
}
