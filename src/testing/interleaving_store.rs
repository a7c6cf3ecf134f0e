//! The memory store, answering as a store across the network does: each operation lets the
//! other tasks run before it is made, so that requests made together interleave (both read
//! before either writes) as they do against Redis, and their races can be tested.

use crate::store::{Store, StoreError};
use std::future::Future;
use std::sync::Arc;

/// A store whose every operation waits for the other ready tasks first.
pub struct InterleavingStore {
    inner: Arc<dyn Store>,
}

impl InterleavingStore {
    /// `inner`, interleaved.
    pub fn new(inner: Arc<dyn Store>) -> Self {
        Self { inner }
    }

    async fn interleaved<T>(
        &self,
        _operation: &'static str,
        call: impl Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        tokio::task::yield_now().await;
        call.await
    }
}

crate::store::decorator::decorate!(InterleavingStore, interleaved);
