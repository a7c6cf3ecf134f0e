//! When each app last obtained tokens (the "last used" column of the admin screen).

use crate::clock::HasClock;
use crate::clock::UnixTime;
use crate::domain::ClientId;
use crate::events::{Event, Listener};
use crate::store::{HasStore, StoreError, WithClock};
use async_trait::async_trait;
use std::collections::HashMap;
use std::sync::Mutex;

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

/// How often one node writes an app's mark at most: "last used" is shown to the minute, and
/// a busy app would otherwise cost a store write on every token request.
const MARK_EVERY: u64 = 60;

/// Marks an app as used whenever it is issued tokens, at most once a minute per node.
pub struct LastUsed {
    cx: WithClock,
    /// When this node last wrote each app's mark (registered apps only: tokens are issued to
    /// nothing else, so the map stays as small as the list of apps).
    marked: Mutex<HashMap<ClientId, UnixTime>>,
}

impl LastUsed {
    pub fn new(cx: WithClock) -> Self {
        Self {
            cx,
            marked: Mutex::new(HashMap::new()),
        }
    }

    /// Whether the mark of `id` is due at `now`; notes it as written if so.
    fn due(&self, id: &ClientId, now: UnixTime) -> bool {
        let mut marked = self.marked.lock().unwrap_or_else(|e| e.into_inner());
        match marked.get(id) {
            Some(at) if now.saturating_sub(*at) < MARK_EVERY => false,
            _ => {
                marked.insert(id.clone(), now);
                true
            }
        }
    }
}

#[async_trait]
impl Listener for LastUsed {
    async fn on(&self, event: &Event) {
        if let Event::TokensIssued { client_id, .. } = event {
            if !self.due(client_id, self.cx.now()) {
                return;
            }
            if let Err(e) = touch(&self.cx, client_id).await {
                tracing::warn!(error = %e, "last-used time of the app not recorded");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::SystemClock;
    use crate::store::memory::MemoryStore;
    use std::sync::Arc;

    #[test]
    fn an_apps_mark_is_written_at_most_once_a_minute() {
        let clock: Arc<dyn crate::clock::Clock> = Arc::new(SystemClock);
        let store = Arc::new(MemoryStore::new(Arc::clone(&clock)));
        let marks = LastUsed::new(WithClock { store, clock });
        let (app, other) = (ClientId::generate(), ClientId::generate());
        assert!(marks.due(&app, 1_000));
        assert!(!marks.due(&app, 1_059));
        assert!(marks.due(&other, 1_059));
        assert!(marks.due(&app, 1_060));
    }
}
