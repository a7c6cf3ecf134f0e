//! Benchmarks of the paths app backends hit on every request: userinfo (one store read), the
//! code exchange (for an app on the default RS256 id_tokens and one registered for ES256) and a
//! rotating refresh (the directory read again), each through the whole HTTP router, in process;
//! and reading back a stored access token's record.
//!
//! `cargo bench` runs them on the memory store; with `SSO_BRIDGE_BENCH_REDIS_URL` set (for example
//! `redis://127.0.0.1:6379`) they run on that Redis too, which shows the cost of the round trips.
//! `cargo test --benches` runs each once, as a smoke test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use poem::http::{header, Method, StatusCode};
use poem::{Body, Endpoint, Request};
use sso_bridge::apps::{self, Actor, NewApp};
use sso_bridge::config::Settings;
use sso_bridge::domain::SigningAlg;
use sso_bridge::oauth::authorize::validate;
use sso_bridge::oauth::issue::{issue_code, Subject};
use sso_bridge::startup::Application;
use sso_bridge::state::AppState;
use sso_bridge::store::AccessRecord;
use tokio::runtime::Runtime;

const REDIRECT_URI: &str = "https://bench.example/callback";

/// An app on the memory store, or on Redis when `redis_url` is given.
fn state(rt: &Runtime, redis_url: Option<&str>) -> AppState {
    let mut env = vec![(
        "SSO_BRIDGE__SERVER__LISTEN".to_owned(),
        "127.0.0.1:0".to_owned(),
    )];
    if let Some(url) = redis_url {
        env.push(("SSO_BRIDGE__STORE__BACKEND".into(), "redis".into()));
        env.push(("SSO_BRIDGE__STORE__REDIS_URL".into(), url.into()));
        env.push((
            "SSO_BRIDGE__STORE__KEY_PREFIX".into(),
            "sso-bridge-bench:".into(),
        ));
        // The Redis store refuses to start without its secrets.
        env.push((
            "SSO_BRIDGE__MFA__ENCRYPTION_KEY".into(),
            "YmVuY2gtYmVuY2gtYmVuY2gtYmVuY2gtYmVuY2gtYmU=".into(),
        ));
        env.push((
            "SSO_BRIDGE__OIDC__KEY_ENCRYPTION_SECRET".into(),
            "bench-key-encryption-secret".into(),
        ));
    }
    let settings = Settings::load_from(None, env).unwrap();
    rt.block_on(async { Application::build(settings).await.unwrap().state().clone() })
}

/// Registers an app for `alg` id_tokens (`None`: the default); answers its id and secret.
fn register(rt: &Runtime, state: &AppState, alg: Option<SigningAlg>) -> (String, String) {
    let new = NewApp {
        name: "Bench".into(),
        redirect_uris: vec![REDIRECT_URI.into()],
        public: false,
        require_pkce: false,
        post_logout_redirect_uris: Vec::new(),
        may_introspect: false,
        id_token_signed_response_alg: alg,
        ..NewApp::default()
    };
    let (record, secret) = rt
        .block_on(apps::manage::create(
            state,
            Actor {
                sub: "bench",
                address: None,
            },
            new,
        ))
        .unwrap();
    (
        record.client_id.to_string(),
        secret.unwrap().expose().to_owned(),
    )
}

/// A fresh one-time code for `ada`, as the consent page would issue it.
async fn fresh_code(state: &AppState, client_id: &str) -> String {
    let query = format!(
        "client_id={client_id}&redirect_uri={}&response_type=code&scope=openid%20profile%20email%20role",
        url::form_urlencoded::byte_serialize(REDIRECT_URI.as_bytes()).collect::<String>()
    );
    let (_, request) = validate(state.store.as_ref(), &query).await.unwrap();
    let user = state.directory.lookup("ada").await.unwrap().unwrap();
    let claims = state.settings.claims.claims(&user.attributes).unwrap();
    let location = issue_code(
        state,
        &request,
        Subject {
            claims: &claims,
            auth_time: state.now(),
            amr: &["pwd".to_owned()],
            sid: Some("bench-session"),
        },
    )
    .await
    .unwrap();
    url::Url::parse(&location)
        .unwrap()
        .query_pairs()
        .find(|(k, _)| k == "code")
        .unwrap()
        .1
        .into_owned()
}

fn token_request(client_id: &str, secret: &str, code: &str) -> Request {
    token_form(&[
        ("grant_type", "authorization_code"),
        ("client_id", client_id),
        ("client_secret", secret),
        ("redirect_uri", REDIRECT_URI),
        ("code", code),
    ])
}

fn refresh_request(client_id: &str, secret: &str, refresh_token: &str) -> Request {
    token_form(&[
        ("grant_type", "refresh_token"),
        ("client_id", client_id),
        ("client_secret", secret),
        ("refresh_token", refresh_token),
    ])
}

fn token_form(fields: &[(&str, &str)]) -> Request {
    let body: String = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(fields)
        .finish();
    Request::builder()
        .method(Method::POST)
        .uri_str("/oauth/token")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ACCEPT, "application/json")
        .body(Body::from_string(body))
}

fn bench_backend(c: &mut Criterion, rt: &Runtime, name: &str, redis_url: Option<&str>) {
    let state = state(rt, redis_url);
    let router = sso_bridge::http::routes(state.clone());
    for alg in [SigningAlg::Rs256, SigningAlg::Es256] {
        let (client_id, secret) = register(rt, &state, Some(alg));
        let bench = format!("{name}/token: authorization_code exchange, {alg} id_token");
        c.bench_function(&bench, |b| {
            b.iter_batched(
                || {
                    let code = rt.block_on(fresh_code(&state, &client_id));
                    token_request(&client_id, &secret, &code)
                },
                |request| {
                    let response = rt.block_on(router.get_response(request));
                    assert_eq!(response.status(), StatusCode::OK);
                },
                BatchSize::SmallInput,
            )
        });
    }

    let (client_id, secret) = register(rt, &state, None);
    let code = rt.block_on(fresh_code(&state, &client_id));
    let tokens = rt.block_on(async {
        let response = router
            .get_response(token_request(&client_id, &secret, &code))
            .await;
        response
            .into_body()
            .into_json::<serde_json::Value>()
            .await
            .unwrap()
    });
    let bearer = format!("Bearer {}", tokens["access_token"].as_str().unwrap());
    // Each refresh rotates the token: the next iteration presents the one just issued.
    let mut refresh_token = tokens["refresh_token"].as_str().unwrap().to_owned();
    c.bench_function(&format!("{name}/token: refresh_token, rotated"), |b| {
        b.iter(|| {
            let request = refresh_request(&client_id, &secret, &refresh_token);
            let response = rt.block_on(router.get_response(request));
            assert_eq!(response.status(), StatusCode::OK);
            let body = rt.block_on(response.into_body().into_json::<serde_json::Value>());
            refresh_token = body.unwrap()["refresh_token"].as_str().unwrap().to_owned();
        })
    });
    c.bench_function(&format!("{name}/userinfo"), |b| {
        b.iter(|| {
            let request = Request::builder()
                .uri_str("/oauth/userinfo")
                .header(header::AUTHORIZATION, &bearer)
                .finish();
            let response = rt.block_on(router.get_response(request));
            assert_eq!(response.status(), StatusCode::OK);
        })
    });
}

/// Reading back the record of an access token as Redis keeps it: what userinfo does with the
/// connection's copy on every call (a refresh and an exchange read records of the same shape).
fn bench_record(c: &mut Criterion) {
    let json = r#"{"grant_id":"Hk3kQ0sCLQ6tWZcD1i9kZQ","client_id":"GTermu7qsHpaLHHRpWpDTQ","scopes":["email","openid","profile","role"],"claims":{"department":"Finance","email":"user0001@acme.test","employee_code":"BN-0001","first_name":"Bench","job_title":"Analyst","last_name":"User0001","name":"Bench User 0001","phone":"+44 20 7946 0001","role":"employee","sub":"user0001"},"expires_at":1795825934}"#;
    c.bench_function("store record: an access token's, read back", |b| {
        b.iter(|| serde_json::from_str::<AccessRecord>(std::hint::black_box(json)).unwrap())
    });
}

fn hot_paths(c: &mut Criterion) {
    bench_record(c);
    let rt = Runtime::new().unwrap();
    bench_backend(c, &rt, "memory", None);
    if let Ok(url) = std::env::var("SSO_BRIDGE_BENCH_REDIS_URL") {
        bench_backend(c, &rt, "redis", Some(&url));
    }
}

criterion_group!(benches, hot_paths);
criterion_main!(benches);
