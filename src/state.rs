//! What every handler shares: settings, store, directory, templates, clock.

use crate::clock::Clock;
use crate::config::Settings;
use crate::directory::Directory;
use crate::oidc::keyset::Keys;
use crate::pages::render::Templates;
use crate::store::Store;
use std::sync::Arc;

/// Shared application state; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    /// Settings, as loaded at start-up.
    pub settings: Arc<Settings>,
    /// Where codes, tokens, sessions and clients live.
    pub store: Arc<dyn Store>,
    /// Where staff accounts live.
    pub directory: Arc<dyn Directory>,
    /// Page templates.
    pub templates: Arc<Templates>,
    /// The time.
    pub clock: Arc<dyn Clock>,
    /// Encrypts second-factor secrets at rest.
    /// `None` when `mfa.encryption_key` is unset on a lasting store: no second factor works.
    pub mfa_key: Option<Arc<crate::mfa::MfaKey>>,
    /// Id token signing keys (OpenID Connect).
    pub keys: Arc<Keys>,
}

impl AppState {
    /// Now, in Unix seconds.
    pub fn now(&self) -> u64 {
        self.clock.now()
    }
}
