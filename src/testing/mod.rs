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
//! limits, app management.

mod hiding_directory;
mod interleaving_store;

mod apps;
mod grants;
mod limits;
mod session_recheck;
mod signin;

pub use hiding_directory::HidingDirectory;
pub use interleaving_store::InterleavingStore;

use crate::apps::{Actor, NewApp};
use crate::audit::AuditTrail;
use crate::clock::{Clock, HasClock, OffsetClock};
use crate::config::{
    AuditSettings, ClaimMapping, LimitSettings, MfaSettings, OidcSettings, SessionSettings,
    Settings, TokenSettings,
};
use crate::directory::ldif::LdifDirectory;
use crate::directory::{Directory, HasDirectory};
use crate::domain::{ClientRecord, SecretToken, SigningAlg};
use crate::events::{Event, Events, HasEvents, Listener, Place};
use crate::mfa::MfaKey;
use crate::oauth::client_auth::ClientCredentials;
use crate::oauth::issue::{issue_code, Subject};
use crate::oauth::token::{self, TokenRequest, TokenSuccess};
use crate::oauth::{authorize, pkce, userinfo, OAuthError};
use crate::oidc::key_source::Keys;
use crate::session::SessionRecord;
use crate::signin::{check_password, start_session, Where, AMR_PWD};
use crate::store::memory::MemoryStore;
use crate::store::{HasStore, Store, WithClock};
use async_trait::async_trait;
use secrecy::SecretString;
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
        let directory = Arc::new(HidingDirectory::new(ldif.unwrap()));
        let recorder = Arc::new(Recorder::default());
        let trail = AuditTrail::new(
            WithClock {
                store: Arc::clone(&store),
                clock: Arc::new(clock.clone()),
            },
            settings.audit.clone(),
        );
        let events = Events::new(vec![recorder.clone(), Arc::new(trail)]);
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
    directory: Arc<HidingDirectory>,
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

    /// Registers a confidential app (PKCE required) with one redirect URI, as `ada` would;
    /// answers it and its secret.
    pub async fn register_app(&self, name: &str) -> App {
        let (record, secret) = crate::apps::manage::create(self, ADA, new_app(name))
            .await
            .unwrap();
        App {
            record,
            secret: secret.unwrap(),
        }
    }

    /// `name` signs in with `password` on the sign-in page of `app` and a session starts:
    /// answers its cookie value and the session.
    pub async fn signed_in(
        &self,
        app: &App,
        name: &str,
        password: &str,
    ) -> (String, SessionRecord) {
        let at = Where {
            place: Place::App,
            client_id: Some(&app.record.client_id),
            address: None,
        };
        let password = SecretString::from(password);
        let passed = check_password(self, at, name, &password).await.unwrap();
        let amr = vec![AMR_PWD.to_owned()];
        start_session(self, None, passed.claims, amr).await.unwrap()
    }

    /// The code an authorize request of `app` for `openid profile`, with the PKCE challenge of
    /// `verifier`, yields to `session`.
    pub async fn code(&self, app: &App, session: &SessionRecord, verifier: &str) -> SecretToken {
        let query: String = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("response_type", "code")
            .append_pair("client_id", app.record.client_id.as_str())
            .append_pair("redirect_uri", REDIRECT_URI)
            .append_pair("scope", "openid profile")
            .append_pair("code_challenge", &pkce::challenge_of(verifier))
            .append_pair("code_challenge_method", "S256")
            .finish();
        let (_, request) = authorize::validate(self.store.as_ref(), &query)
            .await
            .unwrap();
        let subject = Subject {
            claims: &session.claims,
            auth_time: session.auth_time,
            amr: &session.amr,
        };
        let location = issue_code(self, &request, subject).await.unwrap();
        let location = url::Url::parse(&location).unwrap();
        let (_, code) = location.query_pairs().find(|(k, _)| k == "code").unwrap();
        SecretToken::from_presented(code)
    }

    /// `app` exchanges `code` with `verifier` at the token endpoint.
    pub async fn exchange(
        &self,
        app: &App,
        code: &SecretToken,
        verifier: &str,
    ) -> Result<TokenSuccess, OAuthError> {
        let request = TokenRequest::AuthorizationCode {
            code: SecretToken::from_presented(code.expose()),
            redirect_uri: REDIRECT_URI.to_owned(),
            code_verifier: Some(verifier.to_owned()),
        };
        token::exchange(self, app.credentials(), request, None).await
    }

    /// `app` presents `refresh_token` at the token endpoint.
    pub async fn refresh(
        &self,
        app: &App,
        refresh_token: &str,
    ) -> Result<TokenSuccess, OAuthError> {
        let request = TokenRequest::RefreshToken {
            refresh_token: SecretToken::from_presented(refresh_token),
            scope: None,
        };
        token::exchange(self, app.credentials(), request, None).await
    }

    /// `name` signs in to `app` and the app exchanges the code: its tokens, and the session.
    pub async fn tokens(&self, app: &App, name: &str) -> (TokenSuccess, String) {
        let (cookie, session) = self.signed_in(app, name, &format!("{name}-demo")).await;
        let code = self.code(app, &session, VERIFIER).await;
        let tokens = self.exchange(app, &code, VERIFIER).await.unwrap();
        (tokens, cookie)
    }

    /// Whether `access_token` still opens userinfo.
    pub async fn access_works(&self, access_token: &str) -> bool {
        let token = SecretToken::from_presented(access_token);
        userinfo::claims(self, &token).await.is_ok()
    }
}

/// The error code of a refused token request.
pub fn refusal(result: Result<TokenSuccess, OAuthError>) -> &'static str {
    match result {
        Ok(_) => panic!("the token request was answered with tokens"),
        Err(e) => e.code(),
    }
}

/// A PKCE verifier (RFC 7636 §4.1: 43 to 128 unreserved characters).
pub const VERIFIER: &str = "a-pkce-verifier-long-enough-to-be-one-of-rfc-7636";

/// A registered app and its secret.
pub struct App {
    /// The app as stored.
    pub record: ClientRecord,
    /// Its secret, as shown once.
    pub secret: SecretToken,
}

impl App {
    /// Its client id and secret, as sent in the body of a token request.
    pub fn credentials(&self) -> ClientCredentials {
        ClientCredentials {
            client_id: Some(self.record.client_id.as_str().to_owned()),
            secret: Some(SecretToken::from_presented(self.secret.expose())),
            via_basic: false,
        }
    }
}

/// The demo directory's superadmin, acting from nowhere in particular.
pub const ADA: Actor<'static> = Actor {
    sub: "ada",
    address: None,
};

/// The redirect URI of the apps [`new_app`] describes.
pub const REDIRECT_URI: &str = "https://app.example/callback";

/// A confidential app requiring PKCE, with the redirect URI [`REDIRECT_URI`].
pub fn new_app(name: &str) -> NewApp {
    NewApp {
        name: name.to_owned(),
        redirect_uris: vec![REDIRECT_URI.to_owned()],
        public: false,
        require_pkce: true,
        post_logout_redirect_uris: Vec::new(),
        may_introspect: false,
        id_token_signed_response_alg: None,
    }
}

impl HasStore for TestContext {
    fn store(&self) -> &dyn Store {
        self.store.as_ref()
    }
}

impl HasDirectory for TestContext {
    fn directory(&self) -> &dyn Directory {
        self.directory.as_ref()
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
}
