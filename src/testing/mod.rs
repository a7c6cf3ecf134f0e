//! The fast tier: the flows run against a context of their own, without HTTP, Redis or a
//! directory server, by `cargo test --lib` in seconds.
//!
//! [`TestContext`] is the second implementer of the flows' Context traits (`AppState` is the
//! first): the memory store, an LDIF directory (the demo directory built into the binary, or a
//! test's own) whose people can leave ([`HidingDirectory`]), an [`OffsetClock`] the tests move
//! forward, and the event bus with a [`Recorder`] that keeps every event for the assertions,
//! beside the audit trail, as start-up wires it. The settings are the built-in defaults, changed
//! per test with [`Setup::settings`]; only the id_token keys differ: the test key files of
//! `tests/fixtures/` stand for the keys the memory store would generate on first use, an RSA key
//! each test would wait for. The store lets other tasks run before each operation
//! ([`InterleavingStore`]), so that flows run together interleave as they do against Redis.
//!
//! One file per area: the grants, the session's directory re-check, the sign-in flow and its
//! limits, app management; `steps` holds what several of them do (register an app, sign in,
//! get a code and exchange it).

mod hiding_directory;
mod interleaving_store;
mod steps;

mod apps;
mod grants;
mod limits;
mod session_recheck;
mod signin;

pub use hiding_directory::HidingDirectory;
pub use interleaving_store::InterleavingStore;
pub use steps::{new_app, refusal, ADA, VERIFIER};

use crate::account::AppUses;
use crate::audit::AuditTrail;
use crate::clock::{Clock, HasClock, OffsetClock};
use crate::config::{
    AuditSettings, ClaimMapping, LimitSettings, MfaSettings, OidcSettings, SessionSettings,
    Settings, TokenSettings,
};
use crate::directory::ldif::LdifDirectory;
use crate::directory::{Directory, HasDirectory};
use crate::domain::SigningAlg;
use crate::events::{Event, Events, HasEvents, Listener};
use crate::mfa::MfaKey;
use crate::oidc::key_source::Keys;
use crate::store::memory::MemoryStore;
use crate::store::{HasStore, Store, WithClock};
use async_trait::async_trait;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A listener that keeps every event it hears, in order.
#[derive(Default)]
pub struct Recorder(Mutex<Vec<Event>>);

#[async_trait]
impl Listener for Recorder {
    async fn on(&self, event: &Event) {
        self.0.lock().unwrap().push(event.clone());
    }
}

/// What a [`TestContext`] is built from: the built-in settings and directory until a test
/// changes them.
pub struct Setup {
    settings: Settings,
    ldif: Option<String>,
}

impl Setup {
    /// Changes the settings.
    pub fn settings(mut self, change: impl FnOnce(&mut Settings)) -> Self {
        change(&mut self.settings);
        self
    }

    /// The directory is this LDIF instead of the demo directory.
    pub fn directory(mut self, ldif: &str) -> Self {
        self.ldif = Some(ldif.to_owned());
        self
    }

    /// The context, built as start-up builds the application's: the same constructors, around
    /// the memory store and the LDIF directory.
    pub fn build(self) -> TestContext {
        let settings = self.settings;
        let clock = OffsetClock::default();
        let memory: Arc<dyn Store> = Arc::new(MemoryStore::new(Arc::new(clock.clone())));
        let store: Arc<dyn Store> = Arc::new(InterleavingStore::new(memory));
        let ldif = match &self.ldif {
            Some(text) => LdifDirectory::parse(text, &settings.claims.sub),
            None => LdifDirectory::load(None, &settings.claims.sub),
        };
        let directory = HidingDirectory::new(ldif.unwrap());
        let recorder = Arc::new(Recorder::default());
        let base = WithClock {
            store: Arc::clone(&store),
            clock: Arc::new(clock.clone()),
        };
        let trail = AuditTrail::new(base.clone(), settings.audit.clone());
        let uses = AppUses::new(base);
        let events = Events::new(vec![recorder.clone(), Arc::new(trail), Arc::new(uses)]);
        let mfa_key = MfaKey::from_settings(&settings).unwrap();
        let keys = Keys::new(&settings.oidc, settings.store.backend).unwrap();
        TestContext {
            settings,
            store,
            directory,
            clock,
            events,
            recorder,
            mfa_key,
            keys,
        }
    }
}

/// The flows' context in the fast tier (see the module's documentation).
pub struct TestContext {
    settings: Settings,
    store: Arc<dyn Store>,
    directory: HidingDirectory,
    clock: OffsetClock,
    events: Events,
    recorder: Arc<Recorder>,
    mfa_key: MfaKey,
    keys: Keys,
}

/// A key file of `tests/fixtures/`.
fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

impl TestContext {
    /// The built-in settings and the demo directory.
    pub fn new() -> Self {
        Self::setup().build()
    }

    /// A context to change before it is built.
    pub fn setup() -> Setup {
        let mut settings = crate::config::defaults();
        settings.oidc.signing_key_file = Some(fixture("oidc-rs256.pem"));
        settings.oidc.extra_signing_key_files = vec![fixture("oidc-es256.pem")];
        Setup {
            settings,
            ldif: None,
        }
    }

    /// Moves the clock forward by `secs`.
    pub fn advance(&self, secs: u64) {
        self.clock.advance(secs as i64);
    }

    /// Moves the clock past `duration`, by one second.
    pub fn advance_past(&self, duration: Duration) {
        self.advance(duration.as_secs() + 1);
    }

    /// The person `name` leaves the directory.
    pub fn leaves(&self, name: &str) {
        self.directory.hide(name);
    }

    /// The events published since the last call, in order.
    pub fn take_events(&self) -> Vec<Event> {
        std::mem::take(&mut *self.recorder.0.lock().unwrap())
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }
}

impl HasStore for TestContext {
    fn store(&self) -> &dyn Store {
        self.store.as_ref()
    }
}

impl HasDirectory for TestContext {
    fn directory(&self) -> &dyn Directory {
        &self.directory
    }
}

impl HasClock for TestContext {
    fn clock(&self) -> &dyn Clock {
        &self.clock
    }
}

impl HasEvents for TestContext {
    fn events(&self) -> &Events {
        &self.events
    }
}

impl crate::audit::Context for TestContext {
    fn audit_settings(&self) -> &AuditSettings {
        &self.settings.audit
    }
}

impl crate::apps::Context for TestContext {
    fn id_token_algs(&self) -> &[SigningAlg] {
        self.keys.algorithms()
    }
}

impl crate::session::Context for TestContext {
    fn session_settings(&self) -> &SessionSettings {
        &self.settings.session
    }

    fn claim_mapping(&self) -> &ClaimMapping {
        &self.settings.claims
    }
}

impl crate::oidc::Context for TestContext {
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

impl crate::oauth::Context for TestContext {
    fn token_settings(&self) -> &TokenSettings {
        &self.settings.tokens
    }

    fn claim_mapping(&self) -> &ClaimMapping {
        &self.settings.claims
    }
}

impl crate::mfa::Context for TestContext {
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
