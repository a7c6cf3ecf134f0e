//! The directory, timed: a decorator that records each operation's latency in [`Metrics`],
//! and as a failure each time the directory could not answer. A refused password is an answer:
//! it is not counted as a failure.
//!
//! Every method of [`Directory`] is handed on here, those with a default body too: left out,
//! the default would answer instead of the real directory.

use super::Metrics;
use crate::directory::{Directory, DirectoryError, DirectoryUser, LockoutPolicy};
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

    async fn account_name(&self, username: &str) -> Result<String, DirectoryError> {
        self.timed("account_name", self.inner.account_name(username))
            .await
    }

    async fn lockout_policy(&self) -> Result<Option<LockoutPolicy>, DirectoryError> {
        self.timed("lockout_policy", self.inner.lockout_policy())
            .await
    }

    async fn check(&self) -> Result<(), DirectoryError> {
        self.timed("check", self.inner.check()).await
    }

    fn locked_out(&self, user: &DirectoryUser) -> bool {
        self.inner.locked_out(user)
    }

    fn pool(&self) -> Option<PoolUsage> {
        self.inner.pool()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory whose every answer, defaults overridden included, is its own.
    struct Own;

    #[async_trait]
    impl Directory for Own {
        async fn authenticate(
            &self,
            _: &str,
            _: &SecretString,
        ) -> Result<DirectoryUser, DirectoryError> {
            Err(DirectoryError::InvalidCredentials)
        }

        async fn lookup(&self, _: &str) -> Result<Option<DirectoryUser>, DirectoryError> {
            Err(DirectoryError::Unavailable("down".into()))
        }

        async fn find(&self, _: &str) -> Result<Option<DirectoryUser>, DirectoryError> {
            Ok(None)
        }

        async fn account_name(&self, _: &str) -> Result<String, DirectoryError> {
            Ok("canonical".into())
        }

        async fn lockout_policy(&self) -> Result<Option<LockoutPolicy>, DirectoryError> {
            Ok(Some(LockoutPolicy {
                threshold: 5,
                observation_window: Some(std::time::Duration::from_secs(1800)),
            }))
        }

        async fn check(&self) -> Result<(), DirectoryError> {
            Ok(())
        }

        fn pool(&self) -> Option<PoolUsage> {
            Some(PoolUsage {
                open: 2,
                in_use: 1,
                max: 4,
            })
        }
    }

    #[tokio::test]
    async fn every_answer_is_the_wrapped_directorys_and_only_outages_count_as_errors() {
        let metrics = Arc::new(Metrics::new());
        let metered = MeteredDirectory::new(Arc::new(Own), Arc::clone(&metrics));
        let password = SecretString::from("pw");
        assert!(matches!(
            metered.authenticate("ada", &password).await,
            Err(DirectoryError::InvalidCredentials)
        ));
        assert!(metered.lookup("ada").await.is_err());
        assert_eq!(metered.account_name("ADA").await.unwrap(), "canonical");
        let policy = metered.lockout_policy().await.unwrap().unwrap();
        assert_eq!(policy.threshold, 5);
        assert_eq!(metered.pool(), Own.pool());

        let text = metrics.scrape(None, None).unwrap();
        let errors = |operation: &str| {
            text.lines().any(|l| {
                l == format!("sso_bridge_directory_errors_total{{operation=\"{operation}\"}} 1")
            })
        };
        assert!(errors("lookup"), "{text}");
        assert!(!errors("authenticate"), "{text}");
        assert!(text.contains("operation=\"account_name\""), "{text}");
    }
}
