//! What every handler shares: settings, store, directory, templates, keys, clock, events,
//! metrics.
//!
//! The web layer's only state. Each flow below it declares the narrow context it needs as a
//! trait (`oauth::Context`, `session::Context`, ...); [`AppState`] implements them all here, so a
//! handler passes `&state` and the flow sees only what its trait names.

use crate::apps::Origins;
use crate::clock::{Clock, HasClock};
use crate::config::{
    AuditSettings, ClaimMapping, LimitSettings, MfaSettings, OidcSettings, SessionSettings,
    Settings, TokenSettings,
};
use crate::directory::{Directory, HasDirectory};
use crate::events::{Events, HasEvents};
use crate::mfa::MfaKey;
use crate::oidc::key_source::Keys;
use crate::store::{HasStore, Store};
use crate::telemetry::Metrics;
use crate::web::render::Templates;
use std::sync::Arc;
use std::time::Duration;

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
    pub mfa_key: Arc<MfaKey>,
    /// Id token signing keys (OpenID Connect).
    pub keys: Arc<Keys>,
    /// Where flows publish what happened (audit log, app doctor, last-used marks, metrics).
    pub events: Arc<Events>,
    /// The Prometheus metrics.
    pub metrics: Arc<Metrics>,
    /// Every app's browser origins, in memory, for the CORS answers.
    pub origins: Arc<Origins>,
}

impl AppState {
    /// Now, in Unix seconds.
    pub fn now(&self) -> u64 {
        self.clock.now()
    }
}

impl HasStore for AppState {
    fn store(&self) -> &dyn Store {
        self.store.as_ref()
    }
}

impl HasDirectory for AppState {
    fn directory(&self) -> &dyn Directory {
        self.directory.as_ref()
    }
}

impl HasClock for AppState {
    fn clock(&self) -> &dyn Clock {
        self.clock.as_ref()
    }
}

impl HasEvents for AppState {
    fn events(&self) -> &Events {
        &self.events
    }
}

impl crate::audit::Context for AppState {
    fn audit_settings(&self) -> &AuditSettings {
        &self.settings.audit
    }
}

impl crate::apps::Context for AppState {
    fn id_token_algs(&self) -> &[crate::domain::SigningAlg] {
        self.keys.algorithms()
    }
}

impl crate::session::Context for AppState {
    fn session_settings(&self) -> &SessionSettings {
        &self.settings.session
    }

    fn claim_mapping(&self) -> &ClaimMapping {
        &self.settings.claims
    }
}

impl crate::oidc::Context for AppState {
    fn keys(&self) -> &Keys {
        &self.keys
    }

    fn oidc_settings(&self) -> &OidcSettings {
        &self.settings.oidc
    }

    fn issuer(&self) -> String {
        self.settings.issuer()
    }
}

impl crate::oauth::Context for AppState {
    fn token_settings(&self) -> &TokenSettings {
        &self.settings.tokens
    }

    fn claim_mapping(&self) -> &ClaimMapping {
        &self.settings.claims
    }
}

impl crate::mfa::Context for AppState {
    fn mfa_settings(&self) -> &MfaSettings {
        &self.settings.mfa
    }

    fn limit_settings(&self) -> &LimitSettings {
        &self.settings.limits
    }

    fn mfa_key(&self) -> &MfaKey {
        &self.mfa_key
    }

    fn setup_ttl(&self) -> Duration {
        self.settings.session.request_ttl
    }

    fn base_url(&self) -> url::Url {
        self.settings.server.base_url()
    }
}
