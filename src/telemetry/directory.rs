//! The directory, timed: a decorator that records each operation's latency in [`Metrics`],
//! and as a failure each time the directory could not answer. A refused password is an answer:
//! it is not counted as a failure.

use super::Metrics;
use crate::directory::{Directory, DirectoryError, DirectoryUser};
use crate::domain::PoolUsage;
use async_trait::async_trait;
use secrecy::SecretString;
use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

/// A directory whose every operation is timed.
pub struct MeteredDirectory {
    inner: Arc<dyn Directory>,
    metrics: Arc<Metrics>,
}

impl MeteredDirectory {
    /// Times the operations of `inner` into `metrics`.
    pub fn new(inner: Arc<dyn Directory>, metrics: Arc<Metrics>) -> Self {
        Self { inner, metrics }
    }

    async fn timed<T>(
        &self,
        operation: &'static str,
        call: impl Future<Output = Result<T, DirectoryError>>,
    ) -> Result<T, DirectoryError> {
        let started = Instant::now();
        let result = call.await;
        let failed = matches!(result, Err(DirectoryError::Unavailable(_)));
        self.metrics
            .directory_operation(operation, started.elapsed(), failed);
        result
    }
}

#[async_trait]
impl Directory for MeteredDirectory {
    async fn authenticate(
        &self,
        username: &str,
        password: &SecretString,
    ) -> Result<DirectoryUser, DirectoryError> {
        self.timed("authenticate", self.inner.authenticate(username, password))
            .await
    }

    async fn lookup(&self, sub: &str) -> Result<Option<DirectoryUser>, DirectoryError> {
        self.timed("lookup", self.inner.lookup(sub)).await
    }

    async fn find(&self, username: &str) -> Result<Option<DirectoryUser>, DirectoryError> {
        self.timed("find", self.inner.find(username)).await
    }

    async fn groups_of(&self, dn: &str) -> Result<Vec<String>, DirectoryError> {
        self.timed("groups_of", self.inner.groups_of(dn)).await
    }

    async fn check(&self) -> Result<(), DirectoryError> {
        self.timed("check", self.inner.check()).await
    }

    fn pool(&self) -> Option<PoolUsage> {
        self.inner.pool()
    }
}
