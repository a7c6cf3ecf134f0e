//! Every app's browser origins, kept in memory for the CORS answers of the token, revocation
//! and userinfo endpoints: those answer from this copy, never from a store read of their own.
//!
//! The copy is read again from the store at most once a second, in the background, when a
//! request finds it older than that ([`MAX_AGE`]); a change made through this node (an app
//! registered, changed, disabled...) reads it again at once ([`OriginsListener`]), before the
//! admin's answer leaves. So another node's change shows within about a second.

use crate::domain::{ClientId, OriginSet, WebOrigin};
use crate::events::{Event, Listener};
use crate::store::{Store, StoreError};
use async_trait::async_trait;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

/// How old the copy may grow before a request has it read again.
pub const MAX_AGE: Duration = Duration::from_secs(1);

/// The origins of the enabled apps, each app's and all of them together.
#[derive(Debug, Default)]
pub struct OriginIndex {
    by_app: HashMap<ClientId, OriginSet>,
    any: OriginSet,
}

impl OriginIndex {
    /// The index of `apps` (disabled ones left out).
    pub fn of(apps: &[crate::domain::ClientRecord]) -> Self {
        let mut index = Self::default();
        for app in apps.iter().filter(|a| a.enabled) {
            let origins = app.origins();
            index.any.extend(&origins);
            index.by_app.insert(app.client_id.clone(), origins);
        }
        index
    }

    /// Whether `origin` is a web origin of the app `id`.
    pub fn app_allows(&self, id: &ClientId, origin: &WebOrigin) -> bool {
        self.by_app.get(id).is_some_and(|set| set.contains(origin))
    }

    /// Whether `origin` is a web origin of any enabled app.
    pub fn any_allows(&self, origin: &WebOrigin) -> bool {
        self.any.contains(origin)
    }
}

/// The copy and when it was read.
struct Copy {
    index: Arc<OriginIndex>,
    read_at: Option<Instant>,
}

/// The in-memory copy of every app's origins, shared by the requests of one node.
pub struct Origins {
    store: Arc<dyn Store>,
    copy: RwLock<Copy>,
    /// Whether a background read is under way (at most one at a time).
    reading: AtomicBool,
    /// Serialises reads, so that an older read never replaces a newer one.
    writing: tokio::sync::Mutex<()>,
    /// When the last failed read was logged, so that an outage logs once a minute, not once a
    /// second.
    warned: Mutex<Option<Instant>>,
}

impl Origins {
    /// A copy not read yet: the first request that needs it reads it.
    pub fn new(store: Arc<dyn Store>) -> Arc<Self> {
        Arc::new(Self {
            store,
            copy: RwLock::new(Copy {
                index: Arc::new(OriginIndex::default()),
                read_at: None,
            }),
            reading: AtomicBool::new(false),
            writing: tokio::sync::Mutex::new(()),
            warned: Mutex::new(None),
        })
    }

    /// The copy as it is now. One older than [`MAX_AGE`] is answered all the same while a
    /// fresh one is read in the background; only a copy never read is waited for.
    pub async fn current(self: &Arc<Self>) -> Arc<OriginIndex> {
        let (index, read_at) = {
            let copy = self.copy.read().unwrap_or_else(|e| e.into_inner());
            (Arc::clone(&copy.index), copy.read_at)
        };
        match read_at {
            None => {
                let _ = self.read().await;
                let copy = self.copy.read().unwrap_or_else(|e| e.into_inner());
                Arc::clone(&copy.index)
            }
            Some(at) if at.elapsed() > MAX_AGE => {
                if !self.reading.swap(true, Ordering::AcqRel) {
                    let this = Arc::clone(self);
                    tokio::spawn(async move {
                        let _ = this.read().await;
                        this.reading.store(false, Ordering::Release);
                    });
                }
                index
            }
            Some(_) => index,
        }
    }

    /// Reads every app from the store into the copy now.
    pub async fn read(&self) -> Result<(), StoreError> {
        let _one_at_a_time = self.writing.lock().await;
        let started = Instant::now();
        match self.store.clients().await {
            Ok(apps) => {
                let index = Arc::new(OriginIndex::of(&apps));
                let mut copy = self.copy.write().unwrap_or_else(|e| e.into_inner());
                *copy = Copy {
                    index,
                    read_at: Some(started),
                };
                Ok(())
            }
            Err(e) => {
                // The old copy stays; it is tried again a second later.
                let mut copy = self.copy.write().unwrap_or_else(|e| e.into_inner());
                copy.read_at = Some(started);
                drop(copy);
                let mut warned = self.warned.lock().unwrap_or_else(|e| e.into_inner());
                if warned.is_none_or(|at| at.elapsed() > Duration::from_secs(60)) {
                    *warned = Some(Instant::now());
                    tracing::warn!(error = %e, "the apps' web origins cannot be read again; CORS answers use the last copy");
                }
                Err(e)
            }
        }
    }
}

/// Reads the origins again when an app changes through this node, before the change's answer
/// leaves.
pub struct OriginsListener(pub Arc<Origins>);

#[async_trait]
impl Listener for OriginsListener {
    async fn on(&self, event: &Event) {
        if let Event::AppChanged { .. } = event {
            let _ = self.0.read().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{ClientRecord, Digest, RedirectUri};

    fn app(uri: &str, public: bool, enabled: bool) -> ClientRecord {
        ClientRecord {
            client_id: ClientId::generate(),
            name: "n".into(),
            secret_digest: (!public).then(|| Digest::of("s")),
            redirect_uris: vec![RedirectUri::parse(uri).unwrap()],
            require_pkce: true,
            enabled,
            created_by: "a".into(),
            created_at: 0,
            post_logout_redirect_uris: Vec::new(),
            may_introspect: false,
            id_token_signed_response_alg: None,
            revision: 0,
            allowed_roles: Vec::new(),
            allowed_groups: Vec::new(),
            web_origins: Vec::new(),
            backchannel_logout_uri: None,
        }
    }

    #[test]
    fn each_app_allows_its_own_origins_and_any_app_allows_all_of_them() {
        let spa = app("https://spa.example.com/cb", true, true);
        let native = app("http://127.0.0.1/cb", true, true);
        let off = app("https://off.example.com/cb", false, false);
        let index = OriginIndex::of(&[spa.clone(), native.clone(), off.clone()]);
        let origin = |raw: &str| WebOrigin::parse(raw).unwrap();
        assert!(index.app_allows(&spa.client_id, &origin("https://spa.example.com")));
        assert!(!index.app_allows(&spa.client_id, &origin("http://127.0.0.1:5173")));
        assert!(index.app_allows(&native.client_id, &origin("http://127.0.0.1:5173")));
        assert!(index.any_allows(&origin("http://127.0.0.1:9")));
        assert!(index.any_allows(&origin("https://spa.example.com")));
        assert!(!index.any_allows(&origin("https://off.example.com")));
        assert!(!index.any_allows(&origin("https://evil.example.com")));
    }
}
