//! Browser apps: CORS on the token, revocation and userinfo endpoints (the app concerned's web
//! origins; errors for any app's), preflights, `*` on discovery and JWKS, nothing elsewhere.

use crate::helpers::*;
use reqwest::header::{HeaderMap, ORIGIN};
use reqwest::{Method, StatusCode};

const SPA: &str = "https://spa.example.com";
const SPA_CB: &str = "https://spa.example.com/callback";
const OTHER: &str = "https://other.example.com";
const STRANGER: &str = "https://evil.example.net";

fn allowed_origin(headers: &HeaderMap) -> Option<&str> {
    headers
        .get("access-control-allow-origin")
        .map(|v| v.to_str().unwrap())
}

fn varies_by_origin(headers: &HeaderMap) -> bool {
    headers
        .get_all("vary")
        .iter()
        .any(|v| v.to_str().unwrap().to_ascii_lowercase().contains("origin"))
}

/// A public browser app on `SPA`, and a confidential app that names `OTHER` as a web origin.
async fn two_apps(app: &TestApp) -> (Registered, Registered) {
    let spa = app
        .register_with(SPA_CB, serde_json::json!({ "public": true }))
        .await;
    let other = app
        .register_with(
            "https://server.example.com/cb",
            serde_json::json!({ "public": false, "web_origins": [OTHER] }),
        )
        .await;
    (spa, other)
}

/// `POST /oauth/token` from a script of `origin`, with the public app's id in the form.
async fn token_from(
    app: &TestApp,
    origin: &str,
    reg: &Registered,
    form: &[(&str, &str)],
) -> reqwest::Response {
    let mut body = form.to_vec();
    body.push(("client_id", &reg.client_id));
    if let Some(secret) = &reg.client_secret {
        body.push(("client_secret", secret));
    }
    app.api
        .post(app.url("/oauth/token"))
        .header(ORIGIN, origin)
        .form(&body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn the_token_endpoint_answers_the_authenticating_apps_origins_only() {
    let app = spawn_app(Backends::Embedded).await;
    let (spa, other) = two_apps(&app).await;

    let (code, verifier) = app.code_for(&spa, "alan").await;
    let exchange = [
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", SPA_CB),
        ("code_verifier", verifier.as_str()),
    ];
    let issued = token_from(&app, SPA, &spa, &exchange).await;
    assert_eq!(issued.status(), StatusCode::OK);
    assert_eq!(allowed_origin(issued.headers()), Some(SPA));
    assert!(varies_by_origin(issued.headers()));
    assert!(issued
        .headers()
        .get("access-control-allow-credentials")
        .is_none());
    let tokens: serde_json::Value = issued.json().await.unwrap();

    // A refresh from another app's origin succeeds (the request is the app's) but a script
    // there may not read it; nor may a stranger's.
    let refresh = tokens["refresh_token"].as_str().unwrap();
    let from_other = token_from(
        &app,
        OTHER,
        &spa,
        &[("grant_type", "refresh_token"), ("refresh_token", refresh)],
    )
    .await;
    assert_eq!(from_other.status(), StatusCode::OK);
    assert_eq!(allowed_origin(from_other.headers()), None);
    assert!(varies_by_origin(from_other.headers()));
    let tokens: serde_json::Value = from_other.json().await.unwrap();

    // An error is readable from any app's origin, so the app can read why; not a stranger's.
    let spent = [
        ("grant_type", "refresh_token"),
        ("refresh_token", "never-issued"),
    ];
    let refused = token_from(&app, OTHER, &spa, &spent).await;
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    assert_eq!(allowed_origin(refused.headers()), Some(OTHER));
    let refused = token_from(&app, STRANGER, &spa, &spent).await;
    assert_eq!(allowed_origin(refused.headers()), None);
    let no_client = app
        .api
        .post(app.url("/oauth/token"))
        .header(ORIGIN, SPA)
        .form(&[("grant_type", "refresh_token"), ("refresh_token", "x")])
        .send()
        .await
        .unwrap();
    assert_eq!(no_client.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(allowed_origin(no_client.headers()), Some(SPA));

    // A confidential app's given origin is one of its own.
    let (code, verifier) = app.code_for(&other, "alan").await;
    let redirect = other.redirect_uri.clone();
    let exchange = [
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", redirect.as_str()),
        ("code_verifier", verifier.as_str()),
    ];
    let issued = token_from(&app, OTHER, &other, &exchange).await;
    assert_eq!(issued.status(), StatusCode::OK);
    assert_eq!(allowed_origin(issued.headers()), Some(OTHER));

    // Revocation: the authenticating app's origins.
    let access = tokens["access_token"].as_str().unwrap();
    let revoke = |origin: &'static str| {
        app.api
            .post(app.url("/oauth/revoke"))
            .header(ORIGIN, origin)
            .form(&[("token", access), ("client_id", spa.client_id.as_str())])
            .send()
    };
    let revoked = revoke(SPA).await.unwrap();
    assert_eq!(revoked.status(), StatusCode::OK);
    assert_eq!(allowed_origin(revoked.headers()), Some(SPA));
    let revoked = revoke(OTHER).await.unwrap();
    assert_eq!(allowed_origin(revoked.headers()), None);
}

#[tokio::test]
async fn userinfo_answers_the_tokens_apps_origins_and_its_errors_any_apps() {
    let app = spawn_app(Backends::Embedded).await;
    let (spa, _other) = two_apps(&app).await;
    let tokens = app.tokens_for(&spa, "alan").await;
    let access = tokens["access_token"].as_str().unwrap();
    let userinfo = |origin: &'static str, token: &str| {
        app.api
            .get(app.url("/oauth/userinfo"))
            .header(ORIGIN, origin)
            .bearer_auth(token)
            .send()
    };

    let ok = userinfo(SPA, access).await.unwrap();
    assert_eq!(ok.status(), StatusCode::OK);
    assert_eq!(allowed_origin(ok.headers()), Some(SPA));
    assert!(varies_by_origin(ok.headers()));
    let elsewhere = userinfo(OTHER, access).await.unwrap();
    assert_eq!(elsewhere.status(), StatusCode::OK);
    assert_eq!(allowed_origin(elsewhere.headers()), None);

    let refused = userinfo(OTHER, "not-a-token").await.unwrap();
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(allowed_origin(refused.headers()), Some(OTHER));
    assert!(refused.headers().get("www-authenticate").is_some());
    let refused = userinfo(STRANGER, "not-a-token").await.unwrap();
    assert_eq!(allowed_origin(refused.headers()), None);

    // No Origin header (an app's backend): no CORS header either.
    let plain = app.userinfo(access).await;
    assert_eq!(allowed_origin(plain.headers()), None);
}

#[tokio::test]
async fn a_preflight_from_an_apps_origin_is_answered_with_the_methods_and_headers() {
    let app = spawn_app(Backends::Embedded).await;
    let _ = two_apps(&app).await;
    // A public app's loopback redirect URI: its host on any port.
    app.register_with(
        "http://127.0.0.1/callback",
        serde_json::json!({ "public": true }),
    )
    .await;

    for path in ["/oauth/token", "/oauth/userinfo", "/oauth/revoke"] {
        for origin in [SPA, OTHER, "http://127.0.0.1:5173"] {
            let r = app
                .api
                .request(Method::OPTIONS, app.url(path))
                .header(ORIGIN, origin)
                .header("access-control-request-method", "POST")
                .header(
                    "access-control-request-headers",
                    "authorization,content-type",
                )
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), StatusCode::NO_CONTENT, "{path} from {origin}");
            let h = r.headers();
            assert_eq!(allowed_origin(h), Some(origin), "{path} from {origin}");
            let methods = h["access-control-allow-methods"].to_str().unwrap();
            assert!(
                methods.contains("GET") && methods.contains("POST"),
                "{methods}"
            );
            let headers = h["access-control-allow-headers"]
                .to_str()
                .unwrap()
                .to_ascii_lowercase();
            assert!(
                headers.contains("authorization") && headers.contains("content-type"),
                "{headers}"
            );
            assert!(h.get("access-control-allow-credentials").is_none());
            assert!(varies_by_origin(h));
        }
        for origin in [STRANGER, "http://127.0.0.2:5173", "null"] {
            let r = app
                .api
                .request(Method::OPTIONS, app.url(path))
                .header(ORIGIN, origin)
                .header("access-control-request-method", "POST")
                .send()
                .await
                .unwrap();
            let h = r.headers();
            assert_eq!(allowed_origin(h), None, "{path} from {origin}");
            assert!(h.get("access-control-allow-methods").is_none());
        }
    }
}

#[tokio::test]
async fn discovery_and_jwks_answer_any_origin_and_the_rest_none() {
    let app = spawn_app(Backends::Embedded).await;
    let (spa, _) = two_apps(&app).await;
    for path in [
        "/.well-known/openid-configuration",
        "/.well-known/oauth-authorization-server",
        "/oauth/jwks",
    ] {
        let r = app
            .api
            .get(app.url(path))
            .header(ORIGIN, STRANGER)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        assert_eq!(allowed_origin(r.headers()), Some("*"), "{path}");
        assert!(r
            .headers()
            .get("access-control-allow-credentials")
            .is_none());
    }

    // The authorize endpoint and the pages: no CORS header at all, even from the app's origin.
    let authorize = app
        .api
        .get(app.url("/oauth/authorize"))
        .header(ORIGIN, SPA)
        .query(&[
            ("client_id", spa.client_id.as_str()),
            ("redirect_uri", SPA_CB),
            ("response_type", "code"),
            ("scope", "openid"),
            ("code_challenge", &Pkce::new().challenge),
            ("code_challenge_method", "S256"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(authorize.status(), StatusCode::OK);
    assert_eq!(allowed_origin(authorize.headers()), None);
    for path in ["/oauth/logout", "/admin/login", "/oauth/introspect"] {
        let r = app
            .api
            .get(app.url(path))
            .header(ORIGIN, SPA)
            .send()
            .await
            .unwrap();
        assert_eq!(allowed_origin(r.headers()), None, "{path}");
    }
}

#[tokio::test]
async fn a_web_origin_given_later_counts_at_once_on_the_node_that_took_the_change() {
    let app = spawn_app(Backends::Real).await;
    let (spa, _) = two_apps(&app).await;
    let tokens = app.tokens_for(&spa, "alan").await;
    let access = tokens["access_token"].as_str().unwrap();
    let userinfo = |origin: &'static str| {
        app.api
            .get(app.url("/oauth/userinfo"))
            .header(ORIGIN, origin)
            .bearer_auth(access)
            .send()
    };
    const LATER: &str = "https://later.example.com";
    assert_eq!(
        allowed_origin(userinfo(LATER).await.unwrap().headers()),
        None
    );

    let admin = app.superadmin_token().await;
    let changed = app
        .api
        .patch(app.url(&format!("/admin/api/apps/{}", spa.client_id)))
        .bearer_auth(&admin)
        .json(&serde_json::json!({ "web_origins": [LATER] }))
        .send()
        .await
        .unwrap();
    assert_eq!(changed.status(), StatusCode::OK);
    let ok = userinfo(LATER).await.unwrap();
    assert_eq!(allowed_origin(ok.headers()), Some(LATER));
    // The redirect URI's origin stays one of the app's.
    let ok = userinfo(SPA).await.unwrap();
    assert_eq!(allowed_origin(ok.headers()), Some(SPA));

    // Disabled: its origins are no one's any more.
    let disabled = app
        .api
        .post(app.url(&format!("/admin/api/apps/{}/disable", spa.client_id)))
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap();
    assert!(disabled.status().is_success(), "{}", disabled.status());
    let refused = userinfo(LATER).await.unwrap();
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(allowed_origin(refused.headers()), None);
}
