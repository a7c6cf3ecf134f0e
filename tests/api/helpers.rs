//! `spawn_app()` and a scripted browser: what every flow test starts from.

use crate::support::ports::free_port;
use crate::support::redis::RedisServer;
use crate::support::slapd::Slapd;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::RngCore;
use reqwest::header::LOCATION;
use reqwest::{Client, Response, StatusCode};
use sha2::{Digest, Sha256};
use sso_bridge::clock::OffsetClock;
use sso_bridge::config::Settings;
use sso_bridge::startup::{Application, StartupError};
use sso_bridge::state::AppState;
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Which backends a test app runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backends {
    /// The embedded default: memory store, built-in demo directory.
    Embedded,
    /// Production backends: a private redis-server and slapd.
    Real,
}

/// A running sso-bridge as its clients see it: an address to send requests to.
pub struct Service {
    /// The backends it runs on.
    pub backends: Backends,
    pub base: String,
    pub api: Client,
}

/// A running sso-bridge in this process: the service, and its state and clock.
pub struct TestApp {
    service: Service,
    pub state: AppState,
    pub clock: OffsetClock,
    /// The port of `/metrics` when `server.metrics_listen` is set.
    pub metrics_port: Option<u16>,
    /// Keeps the shared redis-server running while this app uses it.
    _redis: Option<Arc<RedisServer>>,
}

impl std::ops::Deref for TestApp {
    type Target = Service;

    fn deref(&self) -> &Service {
        &self.service
    }
}

/// A registered app's credentials.
#[derive(Debug, Clone)]
pub struct Registered {
    pub client_id: String,
    pub client_secret: Option<String>,
    pub redirect_uri: String,
}

/// Settings for a test app on `backends` (with the shared `redis`), then `extra` overrides.
pub fn settings(
    backends: Backends,
    port: u16,
    redis: Option<&RedisServer>,
    extra: &[(&str, String)],
) -> Settings {
    Settings::load_from(None, settings_env(backends, port, redis, extra)).expect("test settings")
}

/// The environment variables of [`settings`]: what a test app's operator would set.
pub fn settings_env(
    backends: Backends,
    port: u16,
    redis: Option<&RedisServer>,
    extra: &[(&str, String)],
) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = vec![
        (
            "SSO_BRIDGE__SERVER__LISTEN".into(),
            format!("127.0.0.1:{port}"),
        ),
        (
            "SSO_BRIDGE__SERVER__BASE_URL".into(),
            format!("http://127.0.0.1:{port}"),
        ),
        // Flows that are not about the second factor run without the policy; the tests in
        // `mfa*.rs` switch it on (see `mfa_settings`).
        ("SSO_BRIDGE__MFA__REQUIRED_ROLES".into(), String::new()),
    ];
    if let (Backends::Real, Some(redis)) = (backends, redis) {
        let dir = Slapd::shared().settings();
        let account = dir.service_account.as_ref().unwrap();
        let mut prefix = [0u8; 6];
        rand::thread_rng().fill_bytes(&mut prefix);
        env.extend([
            ("SSO_BRIDGE__STORE__BACKEND".into(), "redis".into()),
            ("SSO_BRIDGE__STORE__REDIS_URL".into(), redis.url()),
            (
                "SSO_BRIDGE__STORE__KEY_PREFIX".into(),
                format!("t{}:", hex::encode(prefix)),
            ),
            ("SSO_BRIDGE__STORE__TIMEOUT_MS".into(), "1000".into()),
            (
                "SSO_BRIDGE__MFA__ENCRYPTION_KEY".into(),
                base64::engine::general_purpose::STANDARD.encode(random_key()),
            ),
            // The same on every node, so that nodes sharing a key prefix share generated keys.
            (
                KEY_ENCRYPTION_SECRET.into(),
                TEST_KEY_ENCRYPTION_SECRET.into(),
            ),
            ("SSO_BRIDGE__DIRECTORY__BACKEND".into(), "ldap".into()),
            ("SSO_BRIDGE__DIRECTORY__URL".into(), dir.url[0].to_string()),
            ("SSO_BRIDGE__DIRECTORY__BIND_DN".into(), account.dn.clone()),
            (
                "SSO_BRIDGE__DIRECTORY__BIND_PASSWORD".into(),
                secrecy::ExposeSecret::expose_secret(&account.password).to_owned(),
            ),
            (
                "SSO_BRIDGE__DIRECTORY__USER_BASE".into(),
                dir.user_base.clone(),
            ),
            (
                "SSO_BRIDGE__DIRECTORY__CONNECT_TIMEOUT_MS".into(),
                "1000".into(),
            ),
            (
                "SSO_BRIDGE__DIRECTORY__OPERATION_TIMEOUT_MS".into(),
                "1500".into(),
            ),
        ]);
    }
    // A fixed id_token signing key, so that tests do not each generate an RSA key; an empty
    // value in `extra` leaves it unset (the key is then generated and kept in the store).
    let generate = extra
        .iter()
        .any(|(k, v)| *k == SIGNING_KEY_FILE && v.is_empty());
    if !generate {
        env.push((SIGNING_KEY_FILE.into(), fixture("oidc-rs256.pem")));
    }
    env.extend(
        extra
            .iter()
            .filter(|(k, v)| !(*k == SIGNING_KEY_FILE && v.is_empty()))
            .map(|(k, v)| (k.to_string(), v.clone())),
    );
    env
}

/// 32 random bytes: a second-factor encryption key.
pub fn random_key() -> [u8; 32] {
    let mut key = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut key);
    key
}

/// The setting naming the id_token signing key file.
pub const SIGNING_KEY_FILE: &str = "SSO_BRIDGE__OIDC__SIGNING_KEY_FILE";

/// The setting holding the secret that encrypts a generated signing key in the store.
pub const KEY_ENCRYPTION_SECRET: &str = "SSO_BRIDGE__OIDC__KEY_ENCRYPTION_SECRET";

/// The key encryption secret of every test app on Redis.
pub const TEST_KEY_ENCRYPTION_SECRET: &str = "test-key-encryption-secret";

/// The path of a file under `tests/fixtures/`.
pub fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Starts an app on `backends` with `extra` settings, given as the environment variables an
/// operator would set (they go through the same layering as in production).
pub async fn spawn_app_with(backends: Backends, extra: &[(&str, String)]) -> TestApp {
    spawn(backends, extra, |_| {}).await
}

/// Starts an app on `backends` with its settings changed by `tweak`, typed.
pub async fn spawn_app_configured(
    backends: Backends,
    tweak: impl FnOnce(&mut Settings),
) -> TestApp {
    spawn(backends, &[], tweak).await
}

/// Starts an app on `backends` whose `server.base_url` is `http://localhost:<port>`, a domain
/// name as WebAuthn needs: passkeys are offered.
pub async fn spawn_app_on_localhost(backends: Backends, extra: &[(&str, String)]) -> TestApp {
    spawn_at("localhost", backends, extra, |_| {}).await
}

async fn spawn(
    backends: Backends,
    extra: &[(&str, String)],
    tweak: impl FnOnce(&mut Settings),
) -> TestApp {
    spawn_at("127.0.0.1", backends, extra, tweak).await
}

/// Builds the app. The port was free when chosen, but another socket can take it before the
/// app binds it (an outgoing connection's ephemeral port comes from the same range), so a port
/// in use is replaced by another, in the listen address and in a base address that named it.
async fn build_on_a_free_port(mut settings: Settings, clock: &OffsetClock) -> Application {
    let mut tries = 5;
    loop {
        match Application::build_with_clock(settings.clone(), Arc::new(clock.clone())).await {
            Ok(app) => return app,
            Err(StartupError::Listen { source, .. })
                if source.kind() == std::io::ErrorKind::AddrInUse && tries > 1 =>
            {
                tries -= 1;
                let (taken, port) = (settings.server.listen.port(), free_port());
                settings.server.listen.set_port(port);
                if let Some(base) = settings.server.base_url.as_mut() {
                    if base.port() == Some(taken) {
                        base.set_port(Some(port))
                            .expect("a base address with a port");
                    }
                }
            }
            Err(e) => panic!("app builds: {e:?}"),
        }
    }
}

/// Starts an app whose base address names `host` (which must reach the loopback address).
async fn spawn_at(
    host: &str,
    backends: Backends,
    extra: &[(&str, String)],
    tweak: impl FnOnce(&mut Settings),
) -> TestApp {
    if std::env::var("TEST_LOG").is_ok() {
        sso_bridge::telemetry::init("debug", sso_bridge::config::LogFormat::Text);
    }
    let port = free_port();
    let clock = OffsetClock::default();
    let redis = (backends == Backends::Real).then(RedisServer::shared);
    let mut settings = settings(backends, port, redis.as_deref(), extra);
    if host != "127.0.0.1" {
        // The default base (and one a test sets in `extra`) is kept on the loopback address.
        settings.server.base_url = Some(url::Url::parse(&format!("http://{host}:{port}")).unwrap());
    }
    tweak(&mut settings);
    let app = build_on_a_free_port(settings, &clock).await;
    let state = app.state().clone();
    let base = format!("http://{host}:{}", app.port());
    let metrics_port = app.metrics_port();
    tokio::spawn(app.run_until_stopped());
    TestApp {
        service: Service::at(backends, base),
        state,
        clock,
        metrics_port,
        _redis: redis,
    }
}

/// Starts an app on `backends` with default settings.
pub async fn spawn_app(backends: Backends) -> TestApp {
    spawn_app_with(backends, &[]).await
}

/// The superadmin of both the demo directory and the test fixture, and their passwords.
pub fn superadmin(backends: Backends) -> (&'static str, &'static str) {
    match backends {
        Backends::Embedded => ("ada", "ada-demo"),
        Backends::Real => ("ada", "ada-pw"),
    }
}

/// A user's password on `backends` (`<name>-demo` in the demo directory, `<name>-pw` in slapd).
pub fn password(backends: Backends, user: &str) -> String {
    match backends {
        Backends::Embedded => format!("{user}-demo"),
        Backends::Real => format!("{user}-pw"),
    }
}

impl TestApp {
    /// How many keys of a namespace (`authreq:`, ...) the app's Redis store holds (Real
    /// backends only).
    pub async fn stored_keys(&self, namespace: &str) -> usize {
        use redis::{self, AsyncCommands};
        let store = &self.state.settings.store;
        let url = secrecy::ExposeSecret::expose_secret(&store.redis_url);
        let client = redis::Client::open(url).unwrap();
        let mut conn = client.get_multiplexed_async_connection().await.unwrap();
        let keys: Vec<String> = conn
            .keys(format!("{}{namespace}*", store.key_prefix))
            .await
            .unwrap();
        keys.len()
    }
}

impl Service {
    /// The published JWKS.
    pub async fn jwks(&self) -> serde_json::Value {
        self.get_json("/oauth/jwks").await
    }

    /// The JSON document served at `path` (asserting 200).
    pub async fn get_json(&self, path: &str) -> serde_json::Value {
        let r = self.api.get(self.url(path)).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        r.json().await.unwrap()
    }

    /// The service at `base` (`http://127.0.0.1:<port>`), on `backends`.
    pub fn at(backends: Backends, base: String) -> Self {
        let _ = rustls::crypto::ring::default_provider().install_default();
        Self {
            backends,
            base,
            api: Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    /// A user's password in this app's directory.
    pub fn password(&self, user: &str) -> String {
        password(self.backends, user)
    }

    /// The superadmin of this app's directory and their password.
    pub fn superadmin(&self) -> (&'static str, &'static str) {
        superadmin(self.backends)
    }

    /// An admin API token for `user`.
    pub async fn admin_token(&self, user: &str, password: &str) -> Response {
        self.api
            .post(self.url("/admin/api/session"))
            .json(&serde_json::json!({"username": user, "password": password}))
            .send()
            .await
            .unwrap()
    }

    /// An admin API token of the superadmin.
    pub async fn superadmin_token(&self) -> String {
        let (user, pw) = self.superadmin();
        let token: serde_json::Value = self.admin_token(user, pw).await.json().await.unwrap();
        token["token"].as_str().expect("admin token").to_owned()
    }

    /// Registers an app through the admin API as the superadmin.
    pub async fn register(&self, redirect_uri: &str, public: bool) -> Registered {
        self.register_with(redirect_uri, serde_json::json!({ "public": public }))
            .await
    }

    /// Registers an app through the admin API as the superadmin, with `fields` (a JSON object)
    /// added to the request.
    pub async fn register_with(&self, redirect_uri: &str, fields: serde_json::Value) -> Registered {
        // Most flows here are not about PKCE: they register the app without it, as an app that
        // cannot send it would (`pkce_defaults.rs` covers the default).
        let mut body = serde_json::json!({
            "name": "Test App",
            "redirect_uris": [redirect_uri],
            "require_pkce": false,
        });
        for (key, value) in fields.as_object().expect("fields are an object") {
            body[key] = value.clone();
        }
        let response = self
            .api
            .post(self.url("/admin/api/apps"))
            .bearer_auth(self.superadmin_token().await)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::CREATED, "registering {body}");
        let created: serde_json::Value = response.json().await.unwrap();
        Registered {
            client_id: created["client_id"].as_str().unwrap().to_owned(),
            client_secret: created["client_secret"].as_str().map(str::to_owned),
            redirect_uri: redirect_uri.to_owned(),
        }
    }

    /// A new browser (own cookie jar, no redirects followed).
    pub fn browser(&self) -> Client {
        Client::builder()
            .cookie_store(true)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap()
    }

    /// `GET /oauth/authorize` with `params`.
    pub async fn authorize(&self, browser: &Client, params: &[(&str, &str)]) -> Response {
        browser
            .get(self.url("/oauth/authorize"))
            .query(params)
            .send()
            .await
            .unwrap()
    }

    /// POSTs `page`'s form back with every hidden input plus `fields`.
    pub async fn submit(&self, browser: &Client, page: &str, fields: &[(&str, &str)]) -> Response {
        let form = Form::parse(page);
        let mut body: Vec<(String, String)> = form.hidden.into_iter().collect();
        body.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        browser.post(form.action).form(&body).send().await.unwrap()
    }

    /// Signs `user` in and approves: the redirect location carrying the code.
    pub async fn sign_in_and_approve(
        &self,
        browser: &Client,
        app: &Registered,
        user: &str,
        password: &str,
        extra: &[(&str, &str)],
    ) -> String {
        let mut params = vec![
            ("client_id", app.client_id.as_str()),
            ("redirect_uri", app.redirect_uri.as_str()),
            ("response_type", "code"),
            ("scope", "openid profile email role"),
            ("state", "xyz"),
        ];
        for (k, v) in extra {
            params.retain(|(name, _)| name != k);
            params.push((k, v));
        }
        let page = self.authorize(browser, &params).await;
        assert_eq!(page.status(), StatusCode::OK, "sign-in page");
        let page = page.text().await.unwrap();
        let after = self
            .submit(
                browser,
                &page,
                &[("username", user), ("password", password)],
            )
            .await;
        assert_eq!(after.status(), StatusCode::SEE_OTHER, "after sign-in");
        let consent_url = location(&after);
        if consent_url.starts_with(&app.redirect_uri) {
            return consent_url;
        }
        let consent = browser
            .get(&consent_url)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let done = self
            .submit(browser, &consent, &[("decision", "approve")])
            .await;
        assert_eq!(done.status(), StatusCode::SEE_OTHER, "after consent");
        location(&done)
    }

    /// Runs the whole browser flow with PKCE; answers (code, verifier).
    pub async fn code_for(&self, app: &Registered, user: &str) -> (String, String) {
        let pkce = Pkce::new();
        let browser = self.browser();
        let location = self
            .sign_in_and_approve(
                &browser,
                app,
                user,
                &self.password(user),
                &[
                    ("code_challenge", &pkce.challenge),
                    ("code_challenge_method", "S256"),
                ],
            )
            .await;
        let q = query(&location);
        (q["code"].clone(), pkce.verifier)
    }

    /// Signs `user` in through `app` and exchanges the code: the token response.
    pub async fn tokens_for(&self, app: &Registered, user: &str) -> serde_json::Value {
        let (code, verifier) = self.code_for(app, user).await;
        self.exchange(app, &code, &verifier).await
    }

    /// `POST /oauth/token` with client_secret_post.
    pub async fn token(&self, app: &Registered, form: &[(&str, &str)]) -> Response {
        self.post_as(app, "/oauth/token", form).await
    }

    /// `POST /oauth/revoke` of `token`, with client_secret_post.
    pub async fn revoke(&self, app: &Registered, token: &str) -> Response {
        self.post_as(app, "/oauth/revoke", &[("token", token)])
            .await
    }

    /// `POST path` with `form`, the app authenticating with client_secret_post.
    async fn post_as(&self, app: &Registered, path: &str, form: &[(&str, &str)]) -> Response {
        let mut body: Vec<(&str, &str)> = form.to_vec();
        body.push(("client_id", &app.client_id));
        if let Some(secret) = &app.client_secret {
            body.push(("client_secret", secret));
        }
        self.api
            .post(self.url(path))
            .header("accept", "application/json")
            .form(&body)
            .send()
            .await
            .unwrap()
    }

    /// Exchanges a code; answers the JSON body (asserting success).
    pub async fn exchange(
        &self,
        app: &Registered,
        code: &str,
        verifier: &str,
    ) -> serde_json::Value {
        let response = self
            .token(
                app,
                &[
                    ("grant_type", "authorization_code"),
                    ("code", code),
                    ("redirect_uri", &app.redirect_uri),
                    ("code_verifier", verifier),
                ],
            )
            .await;
        assert_eq!(response.status(), StatusCode::OK);
        response.json().await.unwrap()
    }

    /// `grant_type=refresh_token` for `app`.
    pub async fn refresh(&self, app: &Registered, refresh_token: &str) -> Response {
        let form = [
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token),
        ];
        self.token(app, &form).await
    }

    /// `GET /oauth/userinfo` with a bearer token.
    pub async fn userinfo(&self, access_token: &str) -> Response {
        self.api
            .get(self.url("/oauth/userinfo"))
            .header("authorization", format!("Bearer {access_token}"))
            .send()
            .await
            .unwrap()
    }
}

/// A PKCE verifier and its S256 challenge.
pub struct Pkce {
    pub verifier: String,
    pub challenge: String,
}

impl Pkce {
    pub fn new() -> Self {
        let mut bytes = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut bytes);
        let verifier = URL_SAFE_NO_PAD.encode(bytes);
        let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
        Self {
            verifier,
            challenge,
        }
    }
}

/// The `Location` header.
pub fn location(response: &Response) -> String {
    response
        .headers()
        .get(LOCATION)
        .expect("a Location header")
        .to_str()
        .unwrap()
        .to_owned()
}

/// The decoded query parameters of a URL.
pub fn query(url: &str) -> HashMap<String, String> {
    url::Url::parse(url)
        .unwrap()
        .query_pairs()
        .into_owned()
        .collect()
}

/// The first form of a page: its action and hidden inputs.
pub struct Form {
    pub action: String,
    pub hidden: Vec<(String, String)>,
}

impl Form {
    pub fn parse(page: &str) -> Self {
        let form_start = page.find("<form").expect("a form on the page");
        let action = attribute(&page[form_start..], "action").expect("a form action");
        let mut hidden = Vec::new();
        // The first form's own inputs only: a page may hold others after it.
        let form_end = page[form_start..]
            .find("</form>")
            .map_or(page.len(), |end| form_start + end);
        let mut rest = &page[form_start..form_end];
        while let Some(i) = rest.find("<input") {
            let tag_end = rest[i..].find('>').map(|e| i + e).unwrap();
            let tag = &rest[i..tag_end];
            if attribute(tag, "type").as_deref() == Some("hidden") {
                hidden.push((
                    attribute(tag, "name").unwrap(),
                    attribute(tag, "value").unwrap_or_default(),
                ));
            }
            rest = &rest[tag_end..];
        }
        Self { action, hidden }
    }
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let needle = format!(" {name}=\"");
    let start = tag.find(&needle)? + needle.len();
    let end = tag[start..].find('"')? + start;
    Some(unescape(&tag[start..end]))
}

/// Undoes the HTML escaping handlebars applies.
pub fn unescape(s: &str) -> String {
    s.replace("&#x3D;", "=")
        .replace("&#x27;", "'")
        .replace("&#x60;", "`")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// How long a node may still answer from a copy of a store read after Redis invalidated it: a
/// copy lives a second at most (see docs/src/performance/redis.md), and a little more.
pub const CACHED_FOR: Duration = Duration::from_millis(1200);

/// Sends `request` until it is answered `wanted`, for [`CACHED_FOR`] at most; answers the last
/// response. Usually the first one: a node drops a copy the moment Redis's invalidation
/// reaches it, but a request served just before that still sees the copy.
pub async fn within_a_cached_copy<F, R>(wanted: StatusCode, mut request: F) -> Response
where
    F: FnMut() -> R,
    R: Future<Output = Response>,
{
    let deadline = Instant::now() + CACHED_FOR;
    loop {
        let response = request().await;
        if response.status() == wanted || Instant::now() >= deadline {
            return response;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}
