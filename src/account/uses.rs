//! When each app first and last obtained tokens for each person, for their account page.

use crate::clock::{HasClock, UnixTime};
use crate::domain::ClientId;
use crate::events::{Event, Listener};
use crate::store::{HasStore, WithClock};
use async_trait::async_trait;
use std::collections::HashMap;
use std::sync::Mutex;

/// How long a mark is kept after an app's last use (a year and a bit, as the apps' own marks).
const KEEP: u64 = 400 * 86_400;

/// How often one node writes one person's mark for one app at most: the page shows it to the
/// minute, and an app refreshing often would otherwise cost a write on every refresh.
const MARK_EVERY: u64 = 60;

/// Marks hold on to at most this many recent writes per node, so that the map stays bounded
/// whatever the number of people.
const REMEMBERED: usize = 10_000;

/// Marks an app as used by a person whenever it is issued tokens for them.
pub struct AppUses {
    cx: WithClock,
    marked: Mutex<HashMap<(String, ClientId), UnixTime>>,
}

impl AppUses {
    pub fn new(cx: WithClock) -> Self {
        Self {
            cx,
            marked: Mutex::new(HashMap::new()),
        }
    }

    /// Whether the mark of `sub` and `client` is due at `now`; notes it as written if so.
    fn due(&self, sub: &str, client: &ClientId, now: UnixTime) -> bool {
        let mut marked = self.marked.lock().unwrap_or_else(|e| e.into_inner());
        let key = (sub.to_owned(), client.clone());
        if marked
            .get(&key)
            .is_some_and(|at| now.saturating_sub(*at) < MARK_EVERY)
        {
            return false;
        }
        if marked.len() >= REMEMBERED {
            marked.retain(|_, at| now.saturating_sub(*at) < MARK_EVERY);
            if marked.len() >= REMEMBERED {
                marked.clear();
            }
        }
        marked.insert(key, now);
        true
    }
}

#[async_trait]
impl Listener for AppUses {
    async fn on(&self, event: &Event) {
        if let Event::TokensIssued { client_id, sub, .. } = event {
            let now = self.cx.now();
            if !self.due(sub, client_id, now) {
                return;
            }
            let marked = self.cx.store().mark_app_use(sub, client_id, now, KEEP);
            if let Err(e) = marked.await {
                tracing::warn!(error = %e, "a person's use of an app not recorded");
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
    fn a_persons_mark_for_an_app_is_written_at_most_once_a_minute() {
        let clock: Arc<dyn crate::clock::Clock> = Arc::new(SystemClock);
        let store = Arc::new(MemoryStore::new(Arc::clone(&clock)));
        let uses = AppUses::new(WithClock { store, clock });
        let app = ClientId::generate();
        assert!(uses.due("ada", &app, 1_000));
        assert!(!uses.due("ada", &app, 1_059));
        assert!(uses.due("alan", &app, 1_059));
        assert!(uses.due("ada", &app, 1_060));
    }
}
