//! Tokens seen by resource servers: revocation (RFC 7009) and introspection (RFC 7662).

use crate::helpers::*;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use reqwest::StatusCode;
use serde_json::Value;

const CB: &str = "https://app.example.com/callback";

/// Posts `form` to `path` as `app`: client_secret_basic (form-encoded id and secret) for a
/// confidential app, `client_id` alone in the body for a public one.
async fn call_as(
    test: &TestApp,
    app: &Registered,
    path: &str,
    form: &[(&str, &str)],
) -> reqwest::Response {
    let mut body = form.to_vec();
    let request = test.api.post(test.url(path));
    let request = match &app.client_secret {
        Some(secret) => {
            let enc =
                |s: &str| url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
            let basic = STANDARD.encode(format!("{}:{}", enc(&app.client_id), enc(secret)));
            request.header("authorization", format!("Basic {basic}"))
        }
        None => {
            body.push(("client_id", &app.client_id));
            request
        }
    };
    request.form(&body).send().await.unwrap()
}

async fn introspect(app: &TestApp, caller: &Registered, token: &str) -> Value {
    let r = call_as(app, caller, "/oauth/introspect", &[("token", token)]).await;
    assert_eq!(r.status(), StatusCode::OK);
    r.json().await.unwrap()
}

async fn revoking_ends_the_grant(b: Backends, hint: &str) {
    let app = spawn_app(b).await;
    let reg = app.register(CB, false).await;
    let t = app.tokens_for(&reg, "alan").await;
    let token = t[hint].as_str().unwrap();

    let r = call_as(
        &app,
        &reg,
        "/oauth/revoke",
        &[("token", token), ("token_type_hint", hint)],
    )
    .await;
    assert_eq!(r.status(), StatusCode::OK);

    let access = t["access_token"].as_str().unwrap();
    assert_eq!(
        app.userinfo(access).await.status(),
        StatusCode::UNAUTHORIZED
    );
    let refresh = app
        .refresh(&reg, t["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(refresh.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        introspect(&app, &reg, access).await,
        serde_json::json!({"active": false})
    );
}

#[tokio::test]
async fn revoking_a_refresh_token_revokes_its_access_tokens_too_embedded() {
    revoking_ends_the_grant(Backends::Embedded, "refresh_token").await;
}

#[tokio::test]
async fn revoking_a_refresh_token_revokes_its_access_tokens_too_real() {
    revoking_ends_the_grant(Backends::Real, "refresh_token").await;
}

#[tokio::test]
async fn revoking_an_access_token_with_a_wrong_hint_still_finds_and_revokes_it() {
    let b = Backends::Embedded;
    let app = spawn_app(b).await;
    let reg = app.register(CB, false).await;
    let t = app.tokens_for(&reg, "alan").await;
    let access = t["access_token"].as_str().unwrap();
    let r = call_as(
        &app,
        &reg,
        "/oauth/revoke",
        &[("token", access), ("token_type_hint", "refresh_token")],
    )
    .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(
        app.userinfo(access).await.status(),
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn another_apps_token_and_unknown_tokens_answer_200_and_stay_as_they_are() {
    let b = Backends::Embedded;
    let app = spawn_app(b).await;
    let owner = app.register(CB, false).await;
    let other = app.register(CB, false).await;
    let t = app.tokens_for(&owner, "alan").await;
    let access = t["access_token"].as_str().unwrap();

    let r = call_as(&app, &other, "/oauth/revoke", &[("token", access)]).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(app.userinfo(access).await.status(), StatusCode::OK);
    let r = call_as(&app, &owner, "/oauth/revoke", &[("token", "never-issued")]).await;
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test]
async fn revocation_needs_client_authentication_and_a_token() {
    let b = Backends::Embedded;
    let app = spawn_app(b).await;
    let reg = app.register(CB, false).await;
    let wrong = Registered {
        client_secret: Some("wrong".into()),
        ..reg.clone()
    };
    let r = call_as(&app, &wrong, "/oauth/revoke", &[("token", "x")]).await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert!(r.headers().contains_key("www-authenticate"));
    let r = call_as(
        &app,
        &reg,
        "/oauth/revoke",
        &[("token_type_hint", "access_token")],
    )
    .await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"], "invalid_request");
}

async fn introspection_describes_tokens(b: Backends) {
    let app = spawn_app(b).await;
    let reg = app.register(CB, false).await;
    let resource_server = app.register("https://api.example.com/unused", false).await;
    crate::protocol::resource_servers::make_resource_server(&app, b, &resource_server).await;
    let t = app.tokens_for(&reg, "alan").await;

    let answer = introspect(&app, &resource_server, t["access_token"].as_str().unwrap()).await;
    assert_eq!(answer["active"], true);
    assert_eq!(answer["sub"], "alan");
    assert_eq!(answer["client_id"], reg.client_id);
    assert_eq!(answer["aud"], reg.client_id);
    assert_eq!(answer["scope"], "openid profile email role");
    assert_eq!(answer["token_type"], "Bearer");
    assert_eq!(answer["iss"], app.base);
    let exp = answer["exp"].as_u64().unwrap();
    assert!(exp > app.state.now() && exp <= app.state.now() + 3600);

    let answer = introspect(&app, &resource_server, t["refresh_token"].as_str().unwrap()).await;
    assert_eq!(answer["active"], true);
    assert_eq!(answer["token_type"], "refresh_token");

    app.clock.advance(3601);
    let answer = introspect(&app, &resource_server, t["access_token"].as_str().unwrap()).await;
    assert_eq!(answer, serde_json::json!({"active": false}));
}

#[tokio::test]
async fn introspection_describes_an_active_token_and_reports_an_expired_one_inactive_embedded() {
    introspection_describes_tokens(Backends::Embedded).await;
}

#[tokio::test]
async fn introspection_describes_an_active_token_and_reports_an_expired_one_inactive_real() {
    introspection_describes_tokens(Backends::Real).await;
}

#[tokio::test]
async fn a_rotated_refresh_token_introspects_as_inactive() {
    let b = Backends::Embedded;
    let app = spawn_app(b).await;
    let reg = app.register(CB, false).await;
    let t = app.tokens_for(&reg, "alan").await;
    let old = t["refresh_token"].as_str().unwrap();
    let r = app.refresh(&reg, old).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(introspect(&app, &reg, old).await["active"], false);
}

#[tokio::test]
async fn public_apps_and_unauthenticated_callers_cannot_introspect() {
    let b = Backends::Embedded;
    let app = spawn_app(b).await;
    let reg = app.register(CB, false).await;
    let public = app.register("com.example.app:/cb", true).await;
    let t = app.tokens_for(&reg, "alan").await;
    let access = t["access_token"].as_str().unwrap();

    let r = call_as(&app, &public, "/oauth/introspect", &[("token", access)]).await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let body: Value = r.json().await.unwrap();
    assert!(body["error_description"]
        .as_str()
        .unwrap()
        .contains("confidential"));
    let r = app
        .api
        .post(app.url("/oauth/introspect"))
        .form(&[("token", access)])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"], "invalid_client");
}
