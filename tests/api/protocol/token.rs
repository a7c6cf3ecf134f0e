//! `/oauth/token`: code exchange, client authentication, PKCE, refresh rotation.

use crate::helpers::*;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use reqwest::StatusCode;

const CB: &str = "https://app.example.com/callback";
const B: Backends = Backends::Embedded;

async fn error_of(r: reqwest::Response) -> (StatusCode, String, String) {
    let status = r.status();
    let body: serde_json::Value = r.json().await.unwrap();
    (
        status,
        body["error"].as_str().unwrap().to_owned(),
        body["error_description"].as_str().unwrap().to_owned(),
    )
}

#[tokio::test]
async fn a_code_and_its_verifier_get_bearer_tokens_that_are_not_cached() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let (code, verifier) = app.code_for(&reg, "alan").await;
    let r = app
        .token(
            &reg,
            &[
                ("grant_type", "authorization_code"),
                ("code", &code),
                ("redirect_uri", CB),
                ("code_verifier", &verifier),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["cache-control"], "no-store");
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], 3600);
    assert_eq!(body["scope"], "openid profile email role");
    assert!(body["access_token"].as_str().unwrap().len() >= 43);
    assert!(body["refresh_token"].as_str().unwrap().len() >= 43);
}

#[tokio::test]
async fn client_secret_basic_with_form_encoded_credentials_works() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let (code, verifier) = app.code_for(&reg, "alan").await;
    let enc = |s: &str| url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
    let basic = STANDARD.encode(format!(
        "{}:{}",
        enc(&reg.client_id),
        enc(reg.client_secret.as_ref().unwrap())
    ));
    let r = app
        .api
        .post(app.url("/oauth/token"))
        .header("authorization", format!("Basic {basic}"))
        .form(&[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", CB),
            ("code_verifier", &verifier),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_wrong_secret_or_unknown_client_is_invalid_client_401() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let (code, verifier) = app.code_for(&reg, "alan").await;
    let form = [
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", CB),
        ("code_verifier", verifier.as_str()),
    ];
    let wrong = Registered {
        client_secret: Some("not-the-secret".into()),
        ..reg.clone()
    };
    let r = app.token(&wrong, &form).await;
    assert!(r.headers().get("www-authenticate").is_some());
    assert_eq!(error_of(r).await.0, StatusCode::UNAUTHORIZED);
    let unknown = Registered {
        client_id: "nobody".into(),
        ..reg.clone()
    };
    let (status, error, _) = error_of(app.token(&unknown, &form).await).await;
    assert_eq!(
        (status, error.as_str()),
        (StatusCode::UNAUTHORIZED, "invalid_client")
    );
    // The code survived both failed attempts.
    assert_eq!(app.token(&reg, &form).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_replayed_code_is_invalid_grant_and_revokes_what_it_issued() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let (code, verifier) = app.code_for(&reg, "alan").await;
    let tokens = app.exchange(&reg, &code, &verifier).await;
    let access = tokens["access_token"].as_str().unwrap();
    assert_eq!(app.userinfo(access).await.status(), StatusCode::OK);

    let r = app
        .token(
            &reg,
            &[
                ("grant_type", "authorization_code"),
                ("code", &code),
                ("redirect_uri", CB),
                ("code_verifier", &verifier),
            ],
        )
        .await;
    let (status, error, _) = error_of(r).await;
    assert_eq!(
        (status, error.as_str()),
        (StatusCode::BAD_REQUEST, "invalid_grant")
    );
    assert_eq!(
        app.userinfo(access).await.status(),
        StatusCode::UNAUTHORIZED
    );
    let refresh = app
        .refresh(&reg, tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(error_of(refresh).await.1, "invalid_grant");
}

async fn concurrent_redemptions_give_exactly_one_success(backends: Backends) {
    let app = spawn_app(backends).await;
    let reg = app.register(CB, false).await;
    let (code, verifier) = app.code_for(&reg, "alan").await;
    let form = [
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", CB),
        ("code_verifier", verifier.as_str()),
    ];
    let attempts = (0..8).map(|_| app.token(&reg, &form));
    let statuses: Vec<StatusCode> = futures::future::join_all(attempts)
        .await
        .iter()
        .map(|r| r.status())
        .collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == StatusCode::OK).count(),
        1,
        "{statuses:?}"
    );
    assert!(statuses
        .iter()
        .all(|s| *s == StatusCode::OK || *s == StatusCode::BAD_REQUEST));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_concurrent_redemptions_of_one_code_give_one_success_in_memory() {
    concurrent_redemptions_give_exactly_one_success(Backends::Embedded).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_concurrent_redemptions_of_one_code_give_one_success_on_redis() {
    concurrent_redemptions_give_exactly_one_success(Backends::Real).await;
}

#[tokio::test]
async fn an_expired_code_is_invalid_grant() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let (code, verifier) = app.code_for(&reg, "alan").await;
    app.clock.advance(61);
    let r = app
        .token(
            &reg,
            &[
                ("grant_type", "authorization_code"),
                ("code", &code),
                ("redirect_uri", CB),
                ("code_verifier", &verifier),
            ],
        )
        .await;
    assert_eq!(error_of(r).await.1, "invalid_grant");
}

#[tokio::test]
async fn pkce_is_verified_including_downgrades() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;

    // Wrong verifier, then missing verifier, on a code issued with a challenge.
    let (code, _) = app.code_for(&reg, "alan").await;
    let wrong = Pkce::new().verifier;
    let r = app
        .token(
            &reg,
            &[
                ("grant_type", "authorization_code"),
                ("code", &code),
                ("redirect_uri", CB),
                ("code_verifier", &wrong),
            ],
        )
        .await;
    assert_eq!(error_of(r).await.1, "invalid_grant");
    let r = app
        .token(
            &reg,
            &[
                ("grant_type", "authorization_code"),
                ("code", &code),
                ("redirect_uri", CB),
            ],
        )
        .await;
    let (_, error, description) = error_of(r).await;
    assert_eq!(error, "invalid_grant");
    assert!(description.contains("code_verifier"));

    // A verifier on a code issued without a challenge.
    let browser = app.browser();
    let loc = app
        .sign_in_and_approve(&browser, &reg, "alan", "alan-demo", &[])
        .await;
    let code = query(&loc)["code"].clone();
    let r = app
        .token(
            &reg,
            &[
                ("grant_type", "authorization_code"),
                ("code", &code),
                ("redirect_uri", CB),
                ("code_verifier", &Pkce::new().verifier),
            ],
        )
        .await;
    assert_eq!(error_of(r).await.1, "invalid_grant");
}

#[tokio::test]
async fn the_code_is_bound_to_its_client_and_redirect_uri() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let other = app.register(CB, false).await;
    let (code, verifier) = app.code_for(&reg, "alan").await;
    let r = app
        .token(
            &other,
            &[
                ("grant_type", "authorization_code"),
                ("code", &code),
                ("redirect_uri", CB),
                ("code_verifier", &verifier),
            ],
        )
        .await;
    assert_eq!(error_of(r).await.1, "invalid_grant");
    let r = app
        .token(
            &reg,
            &[
                ("grant_type", "authorization_code"),
                ("code", &code),
                ("redirect_uri", "https://app.example.com/callback/"),
                ("code_verifier", &verifier),
            ],
        )
        .await;
    assert_eq!(error_of(r).await.1, "invalid_grant");
}

#[tokio::test]
async fn bad_requests_get_rfc6749_errors() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let (_, error, _) = error_of(app.token(&reg, &[]).await).await;
    assert_eq!(error, "invalid_request");
    let (_, error, _) = error_of(app.token(&reg, &[("grant_type", "password")]).await).await;
    assert_eq!(error, "unsupported_grant_type");
    let (_, error, _) = error_of(
        app.token(&reg, &[("grant_type", "authorization_code")])
            .await,
    )
    .await;
    assert_eq!(error, "invalid_request");
    let (_, error, _) = error_of(
        app.token(
            &reg,
            &[
                ("grant_type", "authorization_code"),
                ("grant_type", "refresh_token"),
            ],
        )
        .await,
    )
    .await;
    assert_eq!(error, "invalid_request");
}

#[tokio::test]
async fn refresh_rotates_and_a_retry_within_the_grace_window_gets_the_same_successor() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let (code, verifier) = app.code_for(&reg, "alan").await;
    let first = app.exchange(&reg, &code, &verifier).await;
    let old = first["refresh_token"].as_str().unwrap();
    let a: serde_json::Value = app.refresh(&reg, old).await.json().await.unwrap();
    let b: serde_json::Value = app.refresh(&reg, old).await.json().await.unwrap();
    assert_ne!(a["refresh_token"], first["refresh_token"]);
    assert_eq!(a["refresh_token"], b["refresh_token"]);
    assert_eq!(a["access_token"], b["access_token"]);
    assert_eq!(
        app.userinfo(a["access_token"].as_str().unwrap())
            .await
            .status(),
        StatusCode::OK
    );
    // The retry's id_token is signed again for the same sign-in and the same access token.
    let (first_id, retry_id) = (
        id_token_of(&app, &reg, &a).await,
        id_token_of(&app, &reg, &b).await,
    );
    for same in ["iss", "sub", "aud", "azp", "auth_time", "at_hash"] {
        assert_eq!(first_id[same], retry_id[same], "{same}");
    }
    assert_eq!(
        retry_id["at_hash"],
        sso_bridge::oidc::id_token::at_hash(b["access_token"].as_str().unwrap())
    );
}

async fn id_token_of(
    app: &TestApp,
    reg: &Registered,
    response: &serde_json::Value,
) -> serde_json::Value {
    let token = response["id_token"].as_str().expect("an id_token");
    crate::protocol::oidc::verify_id_token(app, token, &reg.client_id).await
}

#[tokio::test]
async fn a_rotated_refresh_token_presented_after_the_grace_window_revokes_the_family() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let (code, verifier) = app.code_for(&reg, "alan").await;
    let first = app.exchange(&reg, &code, &verifier).await;
    let old = first["refresh_token"].as_str().unwrap();
    let next: serde_json::Value = app.refresh(&reg, old).await.json().await.unwrap();
    app.clock.advance(11);
    let r = app.refresh(&reg, old).await;
    assert_eq!(error_of(r).await.1, "invalid_grant");
    assert_eq!(
        app.userinfo(next["access_token"].as_str().unwrap())
            .await
            .status(),
        StatusCode::UNAUTHORIZED
    );
    let r = app
        .refresh(&reg, next["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(error_of(r).await.1, "invalid_grant");
}

#[tokio::test]
async fn refresh_may_narrow_the_scope_but_never_widen_it() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let browser = app.browser();
    let pkce = Pkce::new();
    let loc = app
        .sign_in_and_approve(
            &browser,
            &reg,
            "alan",
            "alan-demo",
            &[
                ("scope", "openid email"),
                ("code_challenge", &pkce.challenge),
                ("code_challenge_method", "S256"),
            ],
        )
        .await;
    let tokens = app
        .exchange(&reg, &query(&loc)["code"], &pkce.verifier)
        .await;
    let rt = tokens["refresh_token"].as_str().unwrap();
    let r = app
        .token(
            &reg,
            &[
                ("grant_type", "refresh_token"),
                ("refresh_token", rt),
                ("scope", "openid profile"),
            ],
        )
        .await;
    assert_eq!(error_of(r).await.1, "invalid_scope");
    let narrowed: serde_json::Value = app
        .token(
            &reg,
            &[
                ("grant_type", "refresh_token"),
                ("refresh_token", rt),
                ("scope", "openid"),
            ],
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(narrowed["scope"], "openid");
    let info: serde_json::Value = app
        .userinfo(narrowed["access_token"].as_str().unwrap())
        .await
        .json()
        .await
        .unwrap();
    assert!(info.get("email").is_none());
}

#[tokio::test]
async fn a_refresh_token_only_works_for_its_own_client() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let other = app.register(CB, false).await;
    let (code, verifier) = app.code_for(&reg, "alan").await;
    let tokens = app.exchange(&reg, &code, &verifier).await;
    let r = app
        .refresh(&other, tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(error_of(r).await.1, "invalid_grant");
}

#[tokio::test]
async fn a_public_app_authenticates_with_its_id_and_pkce() {
    let app = spawn_app(B).await;
    let reg = app.register("http://127.0.0.1:9999/cb", true).await;
    assert!(reg.client_secret.is_none());
    let r = app
        .authorize(
            &app.browser(),
            &[
                ("client_id", &reg.client_id),
                ("redirect_uri", &reg.redirect_uri),
                ("response_type", "code"),
                ("scope", "openid"),
            ],
        )
        .await;
    assert_eq!(query(&location(&r))["error"], "invalid_request");
    let (code, verifier) = app.code_for(&reg, "alan").await;
    let tokens = app.exchange(&reg, &code, &verifier).await;
    assert!(tokens["access_token"].is_string());
}
