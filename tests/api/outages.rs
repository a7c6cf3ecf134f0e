//! The directory or the store down or slow: clear errors, no hang, recovery by itself.

use crate::helpers::*;
use crate::support::ports::free_port;
use crate::support::redis::RedisServer;
use crate::support::slapd::Slapd;
use reqwest::StatusCode;
use std::time::{Duration, Instant};

const CB: &str = "https://app.example.com/callback";

async fn sign_in_page(app: &TestApp, reg: &Registered, browser: &reqwest::Client) -> String {
    app.authorize(
        browser,
        &[
            ("client_id", &reg.client_id),
            ("redirect_uri", CB),
            ("response_type", "code"),
            ("scope", "openid"),
        ],
    )
    .await
    .text()
    .await
    .unwrap()
}

#[tokio::test]
async fn a_directory_that_is_down_gives_a_directory_unavailable_page() {
    let closed = free_port();
    let app = spawn_app_configured(Backends::Real, |s| {
        s.directory.url = vec![format!("ldap://127.0.0.1:{closed}").parse().unwrap()];
    })
    .await;
    // Register through the store directly: the admin API needs the directory too.
    let reg = register_directly(&app).await;
    let browser = app.browser();
    let page = sign_in_page(&app, &reg, &browser).await;
    let r = app
        .submit(
            &browser,
            &page,
            &[("username", "alan"), ("password", "alan-pw")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(r.text().await.unwrap().contains("Directory unavailable"));
}

#[tokio::test]
async fn a_directory_that_hangs_gives_up_within_its_timeout() {
    let slapd = Slapd::start();
    let app = spawn_app_configured(Backends::Real, |s| {
        s.directory.url = vec![slapd.url().parse().unwrap()];
    })
    .await;
    let reg = register_directly(&app).await;
    let browser = app.browser();
    let page = sign_in_page(&app, &reg, &browser).await;
    slapd.suspend();
    let started = Instant::now();
    let r = app
        .submit(
            &browser,
            &page,
            &[("username", "alan"), ("password", "alan-pw")],
        )
        .await;
    let elapsed = started.elapsed();
    slapd.resume();
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    // connect 1 s + operation 1.5 s per step: well under ten seconds, never a hang.
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
}

#[tokio::test]
async fn a_store_outage_gives_503s_and_the_service_recovers_by_itself() {
    let mut redis = RedisServer::start();
    let app =
        spawn_app_configured(Backends::Real, |s| s.store.redis_url = redis.url().into()).await;
    let reg = app.register(CB, false).await;
    let (code, verifier) = app.code_for(&reg, "alan").await;
    let tokens = app.exchange(&reg, &code, &verifier).await;

    redis.stop();
    let started = Instant::now();
    let r = app
        .refresh(&reg, tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["error"], "temporarily_unavailable");
    let r = app.userinfo(tokens["access_token"].as_str().unwrap()).await;
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    let r = app
        .authorize(
            &app.browser(),
            &[
                ("client_id", &reg.client_id),
                ("redirect_uri", CB),
                ("response_type", "code"),
                ("scope", "openid"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(r.text().await.unwrap().contains("temporarily unavailable"));
    assert!(started.elapsed() < Duration::from_secs(10));

    // Redis comes back (empty: it keeps nothing on disk); the same app works again.
    redis.restart();
    let reg = app.register(CB, false).await;
    let (code, verifier) = app.code_for(&reg, "alan").await;
    let tokens = app.exchange(&reg, &code, &verifier).await;
    assert_eq!(
        app.userinfo(tokens["access_token"].as_str().unwrap())
            .await
            .status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_user_removed_from_the_directory_cannot_refresh() {
    let slapd = Slapd::start();
    let app = spawn_app_configured(Backends::Real, |s| {
        s.directory.url = vec![slapd.url().parse().unwrap()];
    })
    .await;
    let reg = app.register(CB, false).await;
    let (code, verifier) = app.code_for(&reg, "ken").await;
    let tokens = app.exchange(&reg, &code, &verifier).await;
    slapd.delete("uid=ken,ou=people,dc=example,dc=com");
    let r = app
        .refresh(&reg, tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["error"], "invalid_grant");
}

pub(crate) async fn register_directly(app: &TestApp) -> Registered {
    use sso_bridge::domain::{ClientId, ClientRecord, RedirectUri};
    let record = ClientRecord {
        client_id: ClientId::generate(),
        name: "Direct".into(),
        secret_digest: Some(sso_bridge::domain::Digest::of("direct-secret")),
        redirect_uris: vec![RedirectUri::parse(CB).unwrap()],
        require_pkce: false,
        enabled: true,
        created_by: "test".into(),
        created_at: 0,
        post_logout_redirect_uris: Vec::new(),
        may_introspect: false,
        id_token_signed_response_alg: None,
        revision: 0,
        allowed_roles: Vec::new(),
        allowed_groups: Vec::new(),
        web_origins: Vec::new(),
        backchannel_logout_uri: None,
    };
    app.state.store.put_client(&record).await.unwrap();
    Registered {
        client_id: record.client_id.to_string(),
        client_secret: Some("direct-secret".into()),
        redirect_uri: CB.into(),
    }
}
