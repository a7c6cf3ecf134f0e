//! The store, timed: a decorator that records each operation's latency and failure in
//! [`Metrics`] under the name of its method, and otherwise hands everything to the store it
//! wraps (every operation, through `crate::store::decorator`). The backends stay free of
//! metrics.

use super::Metrics;
use crate::store::{Store, StoreError};
use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

/// A store whose every operation is timed.
pub struct MeteredStore {
    inner: Arc<dyn Store>,
    metrics: Arc<Metrics>,
}

impl MeteredStore {
    /// Times the operations of `inner` into `metrics`.
    pub fn new(inner: Arc<dyn Store>, metrics: Arc<Metrics>) -> Self {
        Self { inner, metrics }
    }

    async fn timed<T>(
        &self,
        operation: &'static str,
        call: impl Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        let started = Instant::now();
        let result = call.await;
        self.metrics
            .store_operation(operation, started.elapsed(), result.is_err());
        result
    }
}

crate::store::decorator::decorate!(MeteredStore, timed);
