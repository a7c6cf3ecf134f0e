//! Bounded input: every parameter has a documented maximum; longer values are refused before
//! they are kept, stored or sent anywhere, and values up to the maximum work end to end.

use crate::helpers::*;
use crate::protocol::oidc::verify_id_token;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::RngCore;
use reqwest::StatusCode;
use sso_bridge::domain::bounds;

const CB: &str = "https://app.example.com/callback";
const B: Backends = Backends::Embedded;

/// `len` random base64url characters, like the values client libraries generate.
fn random_text(len: usize) -> String {
    let mut bytes = vec![0u8; len];
    rand::thread_rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)[..len].to_owned()
}

fn authorize_params<'a>(reg: &'a Registered, state: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("client_id", reg.client_id.as_str()),
        ("redirect_uri", reg.redirect_uri.as_str()),
        ("response_type", "code"),
        ("scope", "openid"),
        ("state", state),
    ]
}

#[tokio::test]
async fn a_two_kilobyte_state_and_nonce_go_through_the_whole_flow_unchanged() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let (state, nonce) = (random_text(2048), format!("{}.~", random_text(2046)));
    let pkce = Pkce::new();

    let location = app
        .sign_in_and_approve(
            &app.browser(),
            &reg,
            "alan",
            &password(B, "alan"),
            &[
                ("state", &state),
                ("nonce", &nonce),
                ("code_challenge", &pkce.challenge),
                ("code_challenge_method", "S256"),
            ],
        )
        .await;
    let q = query(&location);
    assert_eq!(q["state"], state);
    let tokens = app.exchange(&reg, &q["code"], &pkce.verifier).await;
    let id_token = tokens["id_token"].as_str().unwrap();
    let claims = verify_id_token(&app, id_token, &reg.client_id).await;
    assert_eq!(claims["nonce"], nonce.as_str());
}

#[tokio::test]
async fn a_sixty_four_kilobyte_state_is_refused_and_nothing_is_stored() {
    let b = Backends::Real;
    let app = spawn_app(b).await;
    let reg = app.register(CB, false).await;
    // As long as a URL may be (65,535 bytes) with the other parameters.
    let state = random_text(65_000);

    let r = app
        .authorize(&app.browser(), &authorize_params(&reg, &state))
        .await;

    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.headers().get("location").is_none());
    assert!(r.headers().get("set-cookie").is_none(), "no flow started");
    let page = r.text().await.unwrap();
    assert!(page.contains("longer than 32768 bytes"), "{page}");

    // By POST, the body limit refuses it before it is read.
    let state = random_text(64 * 1024);
    let r = app
        .browser()
        .post(app.url("/oauth/authorize"))
        .form(&authorize_params(&reg, &state))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);

    assert_eq!(app.stored_keys("authreq:").await, 0);
}

#[tokio::test]
async fn a_state_over_its_maximum_is_refused_at_the_app_without_being_echoed() {
    let b = Backends::Real;
    let app = spawn_app(b).await;
    let reg = app.register(CB, false).await;
    let state = random_text(bounds::STATE + 1);

    let r = app
        .authorize(&app.browser(), &authorize_params(&reg, &state))
        .await;

    assert_eq!(r.status(), StatusCode::FOUND);
    let q = query(&location(&r));
    assert_eq!(q["error"], "invalid_request");
    assert_eq!(q["error_description"], "state is longer than 4096 bytes");
    assert!(!q.contains_key("state"));
    assert_eq!(app.stored_keys("authreq:").await, 0);
}

#[tokio::test]
async fn over_long_authorize_parameters_are_refused() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let long_uri = format!("{CB}?{}", "a".repeat(bounds::REDIRECT_URI));
    let long_id = "c".repeat(bounds::CLIENT_ID + 1);
    for (name, value) in [("redirect_uri", &long_uri), ("client_id", &long_id)] {
        let mut params = authorize_params(&reg, "s");
        params.retain(|(k, _)| *k != name);
        params.push((name, value));
        let r = app.authorize(&app.browser(), &params).await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{name}");
        assert!(r.headers().get("location").is_none(), "{name}");
        let page = r.text().await.unwrap();
        assert!(page.contains(&format!("{name} is longer than")), "{page}");
    }
    let long_scope = format!("openid{}", " openid".repeat(200));
    let nonce = "n".repeat(bounds::NONCE + 1);
    for (name, value, said) in [
        (
            "scope",
            long_scope.as_str(),
            "scope is longer than 1024 bytes",
        ),
        ("nonce", nonce.as_str(), "nonce is longer than 4096 bytes"),
    ] {
        let mut params = authorize_params(&reg, "s");
        params.retain(|(k, _)| *k != name);
        params.push((name, value));
        let r = app.authorize(&app.browser(), &params).await;
        let q = query(&location(&r));
        assert_eq!(q["error"], "invalid_request", "{name}");
        assert_eq!(q["error_description"], said);
        assert_eq!(q["state"], "s");
    }
}

#[tokio::test]
async fn over_long_values_at_the_token_revocation_and_userinfo_endpoints_are_invalid_request() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let token = "t".repeat(bounds::TOKEN + 1);
    let verifier = "v".repeat(129);
    let cases: [(&[(&str, &str)], &str); 3] = [
        (
            &[
                ("grant_type", "authorization_code"),
                ("code", &token),
                ("redirect_uri", CB),
            ],
            "code is longer than 512 bytes",
        ),
        (
            &[("grant_type", "refresh_token"), ("refresh_token", &token)],
            "refresh_token is longer than 512 bytes",
        ),
        (
            &[
                ("grant_type", "authorization_code"),
                ("code", "c"),
                ("redirect_uri", CB),
                ("code_verifier", &verifier),
            ],
            "code_verifier is longer than 128 bytes",
        ),
    ];
    for (form, said) in cases {
        let r = app.token(&reg, form).await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{said}");
        let body: serde_json::Value = r.json().await.unwrap();
        assert_eq!(body["error"], "invalid_request");
        assert_eq!(body["error_description"], said);
    }

    let secret = "s".repeat(bounds::CLIENT_SECRET + 1);
    let r = app
        .api
        .post(app.url("/oauth/revoke"))
        .form(&[
            ("token", "t"),
            ("client_id", &reg.client_id),
            ("client_secret", &secret),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(
        body["error_description"],
        "client_secret is longer than 512 bytes"
    );

    let r = app.userinfo(&token).await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.headers()["www-authenticate"]
        .to_str()
        .unwrap()
        .contains("invalid_request"));
}

#[tokio::test]
async fn a_password_over_its_maximum_is_refused_as_wrong() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let browser = app.browser();
    let page = app
        .authorize(&browser, &authorize_params(&reg, "s"))
        .await
        .text()
        .await
        .unwrap();
    let long = format!("alan-demo{}", "x".repeat(bounds::PASSWORD));

    let r = app
        .submit(
            &browser,
            &page,
            &[("username", "alan"), ("password", &long)],
        )
        .await;

    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert!(r.text().await.unwrap().contains("incorrect"));
}

#[tokio::test]
async fn the_admin_api_refuses_too_many_or_too_long_redirect_uris() {
    let app = spawn_app(B).await;
    let (user, pw) = superadmin(B);
    let token: serde_json::Value = app.admin_token(user, pw).await.json().await.unwrap();
    let token = token["token"].as_str().unwrap();
    let many: Vec<String> = (0..=bounds::REDIRECT_URIS)
        .map(|i| format!("{CB}/{i}"))
        .collect();
    let long = vec![format!("{CB}?{}", "a".repeat(bounds::REDIRECT_URI))];
    for uris in [many, long] {
        let r = app
            .api
            .post(app.url("/admin/api/apps"))
            .bearer_auth(token)
            .json(&serde_json::json!({"name": "Too much", "redirect_uris": uris}))
            .send()
            .await
            .unwrap();
        let status = r.status();
        let text = r.text().await.unwrap();
        assert_eq!(status, StatusCode::BAD_REQUEST, "{text}");
        let body: serde_json::Value = serde_json::from_str(&text).expect(&text);
        assert_eq!(body["error"], "invalid_request");
    }
}

#[tokio::test]
async fn a_post_to_a_sign_in_form_that_is_not_a_form_is_the_invalid_form_page() {
    let app = spawn_app(B).await;
    let paths = [
        "/oauth/login",
        "/oauth/login/passkey",
        "/oauth/consent",
        "/oauth/second-factor",
        "/oauth/second-factor/passkey",
        "/oauth/second-factor/continue",
        "/oauth/second-factor/enrol",
        "/oauth/second-factor/enrol/passkey",
    ];
    for path in paths {
        let r = app
            .browser()
            .post(app.url(path))
            .header("content-type", "application/json")
            .body(r#"{"request_id":"x"}"#)
            .send()
            .await
            .unwrap();

        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{path}");
        let page = r.text().await.unwrap();
        assert!(page.contains("Invalid form"), "{path}: {page}");
        assert!(
            page.contains("The form could not be read."),
            "{path}: {page}"
        );
    }
}
