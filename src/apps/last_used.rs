//! When each app last obtained tokens (the "last used" column of the admin screen).

use crate::clock::HasClock;
use crate::domain::ClientId;
use crate::events::{Event, Listener};
use crate::store::{HasStore, StoreError, WithClock};
use async_trait::async_trait;

/// How long "last used" is remembered (a year and a bit).
const LAST_USED_TTL: u64 = 400 * 86_400;

/// Notes that an app just obtained tokens.
pub async fn touch<C: HasStore + HasClock>(cx: &C, id: &ClientId) -> Result<(), StoreError> {
    cx.store().mark_used(id, cx.now(), LAST_USED_TTL).await
}

/// When an app last obtained tokens, if within the last [`LAST_USED_TTL`] seconds.
pub async fn last_used(cx: &impl HasStore, id: &ClientId) -> Result<Option<u64>, StoreError> {
    cx.store().last_used(id).await
}

/// Marks an app as used whenever it is issued tokens.
pub struct LastUsed(pub WithClock);

#[async_trait]
impl Listener for LastUsed {
    async fn on(&self, event: &Event) {
        if let Event::TokensIssued { client_id, .. } = event {
            if let Err(e) = touch(&self.0, client_id).await {
                tracing::warn!(error = %e, "last-used time of the app not recorded");
            }
        }
    }
}
