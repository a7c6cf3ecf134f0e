//! Passkey ceremony states, kept as short-lived records the same way by both backends: in
//! Redis, strings with an expiry under `{p}pkcer:<key>`. Taking one removes it, and only the
//! caller whose removal found it live gets it, so a challenge answers once.

use super::namespace::{Namespace, Records};
use super::{CeremonyStore, StoreError};
use async_trait::async_trait;

#[async_trait]
impl<T: Records> CeremonyStore for T {
    async fn put_ceremony(&self, key: &str, state: &str, ttl: u64) -> Result<(), StoreError> {
        self.put_text(Namespace::PasskeyCeremony, key, state.to_owned(), ttl)
            .await
    }

    async fn take_ceremony(&self, key: &str) -> Result<Option<String>, StoreError> {
        self.take_text(Namespace::PasskeyCeremony, key).await
    }
}
