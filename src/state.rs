//! What every handler shares: settings, store, directory, templates, keys, clock, events,
//! metrics.
//!
//! The web layer's only state. Each flow below it declares the narrow context it needs as a
//! trait (`oauth::Context`, `session::Context`, ...); [`AppState`] implements them all here, so a
//! handler passes `&state` and the flow sees only what its trait names.

use crate::apps::Origins;
use crate::clock::{Clock, HasClock};
use crate::config::Settings;
use crate::directory::{Directory, HasDirectory};
use crate::events::{Events, HasEvents};
use crate::mfa::MfaKey;
use crate::oidc::key_source::Keys;
use crate::store::{HasStore, Store};
use crate::telemetry::Metrics;
use crate::web::render::Templates;
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

/// Implements the flows' contexts that read settings, signing keys and the second-factor key
/// for a type holding them as `settings`, `keys` and `mfa_key`: [`AppState`] and the test
/// tier's context read them alike.
macro_rules! settings_contexts {
    ($t:ty) => {
        impl $crate::audit::Context for $t {
            fn audit_settings(&self) -> &$crate::config::AuditSettings {
                &self.settings.audit
            }
        }

        impl $crate::apps::Context for $t {
            fn id_token_algs(&self) -> &[$crate::domain::SigningAlg] {
                self.keys.algorithms()
            }
        }

        impl $crate::session::Context for $t {
            fn session_settings(&self) -> &$crate::config::SessionSettings {
                &self.settings.session
            }

            fn claim_mapping(&self) -> &$crate::config::ClaimMapping {
                &self.settings.claims
            }
        }

        impl $crate::oidc::Context for $t {
            fn keys(&self) -> &$crate::oidc::key_source::Keys {
                &self.keys
            }

            fn oidc_settings(&self) -> &$crate::config::OidcSettings {
                &self.settings.oidc
            }

            fn issuer(&self) -> String {
                self.settings.issuer()
            }
        }

        impl $crate::oauth::Context for $t {
            fn token_settings(&self) -> &$crate::config::TokenSettings {
                &self.settings.tokens
            }

            fn claim_mapping(&self) -> &$crate::config::ClaimMapping {
                &self.settings.claims
            }
        }

        impl $crate::mfa::Context for $t {
            fn mfa_settings(&self) -> &$crate::config::MfaSettings {
                &self.settings.mfa
            }

            fn limit_settings(&self) -> &$crate::config::LimitSettings {
                &self.settings.limits
            }

            fn mfa_key(&self) -> &$crate::mfa::MfaKey {
                &self.mfa_key
            }

            fn setup_ttl(&self) -> std::time::Duration {
                self.settings.session.request_ttl
            }

            fn base_url(&self) -> url::Url {
                self.settings.server.base_url()
            }
        }
    };
}
#[cfg(test)]
pub(crate) use settings_contexts;

settings_contexts!(AppState);
