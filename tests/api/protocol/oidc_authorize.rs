//! OpenID Connect authorize parameters (`prompt`, `max_age`, `login_hint`, `nonce`), the
//! RFC 9207 `iss` response parameter, and what OpenID Connect does not support.

use crate::helpers::*;
use crate::signin::mfa_helpers::between;
use reqwest::{Client, StatusCode};

const CB: &str = "https://app.example.com/callback";
const B: Backends = Backends::Embedded;

pub fn params<'a>(reg: &'a Registered, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut p = vec![
        ("client_id", reg.client_id.as_str()),
        ("redirect_uri", reg.redirect_uri.as_str()),
        ("response_type", "code"),
        ("scope", "openid email"),
        ("state", "st-1"),
    ];
    p.extend_from_slice(extra);
    p
}

/// A browser that has signed in as alan and approved `reg` once.
async fn signed_in(app: &TestApp, reg: &Registered) -> Client {
    let browser = app.browser();
    let pw = password(B, "alan");
    let location = app
        .sign_in_and_approve(&browser, reg, "alan", &pw, &[("scope", "openid email")])
        .await;
    assert!(query(&location).contains_key("code"));
    browser
}

#[tokio::test]
async fn every_authorization_response_names_the_issuer() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let browser = signed_in(&app, &reg).await;
    let ok = app.authorize(&browser, &params(&reg, &[])).await;
    assert_eq!(query(&location(&ok))["iss"], app.base);
    let err = app
        .authorize(&browser, &params(&reg, &[("prompt", "bogus")]))
        .await;
    let q = query(&location(&err));
    assert_eq!(
        (q["error"].as_str(), q["iss"].as_str()),
        ("invalid_request", app.base.as_str())
    );
}

#[tokio::test]
async fn prompt_none_without_a_session_is_login_required_without_a_page() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let r = app
        .authorize(&app.browser(), &params(&reg, &[("prompt", "none")]))
        .await;
    assert_eq!(r.status(), StatusCode::FOUND);
    let q = query(&location(&r));
    assert_eq!(q["error"], "login_required");
    assert_eq!(q["state"], "st-1");
}

#[tokio::test]
async fn prompt_none_with_a_session_but_no_approval_is_consent_required() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let other = app.register(CB, false).await;
    let browser = signed_in(&app, &reg).await;
    let r = app
        .authorize(&browser, &params(&other, &[("prompt", "none")]))
        .await;
    assert_eq!(query(&location(&r))["error"], "consent_required");
    // Approved app, signed in: prompt=none gets a code.
    let r = app
        .authorize(&browser, &params(&reg, &[("prompt", "none")]))
        .await;
    assert!(query(&location(&r)).contains_key("code"));
}

#[tokio::test]
async fn prompt_login_asks_for_the_password_again_and_login_hint_fills_the_username() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let browser = signed_in(&app, &reg).await;
    let r = app
        .authorize(
            &browser,
            &params(&reg, &[("prompt", "login"), ("login_hint", "grace")]),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let page = r.text().await.unwrap();
    assert!(page.contains(r#"name="password""#), "the sign-in page");
    assert!(
        page.contains(r#"value="grace""#),
        "username from login_hint"
    );
}

#[tokio::test]
async fn the_later_pages_of_a_prompt_login_request_need_the_new_sign_in_too() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let browser = signed_in(&app, &reg).await;
    let page = app
        .authorize(&browser, &params(&reg, &[("prompt", "login")]))
        .await
        .text()
        .await
        .unwrap();
    let request_id = between(&page, r#"name="request_id" value=""#, "\"");

    // The older session can neither see the consent page nor get a code through the
    // second-factor step (the app was approved before, so that step would issue one).
    let consent = browser
        .get(app.url(&format!("/oauth/consent?request_id={request_id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(consent.status(), StatusCode::OK);
    let consent = consent.text().await.unwrap();
    assert!(
        consent.contains(r#"name="password""#),
        "the sign-in page again"
    );
    assert!(!consent.contains(r#"value="approve""#));
    for path in ["/oauth/second-factor", "/oauth/second-factor/enrol"] {
        let r = browser
            .get(app.url(&format!("{path}?request_id={request_id}")))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{path}");
    }
}

#[tokio::test]
async fn prompt_consent_shows_the_consent_page_to_an_app_approved_before() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let browser = signed_in(&app, &reg).await;
    let r = app
        .authorize(&browser, &params(&reg, &[("prompt", "consent")]))
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.text().await.unwrap().contains(r#"value="approve""#));
}

#[tokio::test]
async fn a_sign_in_older_than_max_age_asks_for_the_password_and_updates_auth_time() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let browser = signed_in(&app, &reg).await;
    let r = app
        .authorize(&browser, &params(&reg, &[("max_age", "600")]))
        .await;
    assert_eq!(r.status(), StatusCode::FOUND, "recent enough");

    app.clock.advance(601);
    let r = app
        .authorize(
            &browser,
            &params(&reg, &[("max_age", "600"), ("prompt", "none")]),
        )
        .await;
    assert_eq!(query(&location(&r))["error"], "login_required");
    let pkce = Pkce::new();
    let pw = password(B, "alan");
    let extra = [
        ("max_age", "600"),
        ("code_challenge", pkce.challenge.as_str()),
        ("code_challenge_method", "S256"),
    ];
    let location = app
        .sign_in_and_approve(&browser, &reg, "alan", &pw, &extra)
        .await;
    let tokens = app
        .exchange(&reg, &query(&location)["code"], &pkce.verifier)
        .await;
    let claims = crate::protocol::oidc::verify_id_token(
        &app,
        tokens["id_token"].as_str().unwrap(),
        &reg.client_id,
    )
    .await;
    assert!(claims["auth_time"].as_u64().unwrap() >= app.state.now() - 5);
}

#[tokio::test]
async fn max_age_zero_asks_for_the_password_even_right_after_a_sign_in() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    // Signed in this very second (the test's clock does not move).
    let browser = signed_in(&app, &reg).await;

    let r = app
        .authorize(&browser, &params(&reg, &[("max_age", "0")]))
        .await;
    assert_eq!(r.status(), StatusCode::OK, "the sign-in page, not a code");
    assert!(r.text().await.unwrap().contains("name=\"password\""));
    let r = app
        .authorize(
            &browser,
            &params(&reg, &[("max_age", "0"), ("prompt", "none")]),
        )
        .await;
    assert_eq!(query(&location(&r))["error"], "login_required");
    // Signing in again answers the request: the new sign-in is fresh enough.
    let pw = password(B, "alan");
    let location = app
        .sign_in_and_approve(&browser, &reg, "alan", &pw, &[("max_age", "0")])
        .await;
    assert!(query(&location).contains_key("code"), "{location}");
}

#[tokio::test]
async fn an_unsupported_response_type_goes_back_to_the_app_as_unsupported_response_type() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let mut p = params(&reg, &[]);
    p.retain(|(k, _)| *k != "response_type");
    p.push(("response_type", "id_token token"));
    let r = app.authorize(&app.browser(), &p).await;
    assert_eq!(query(&location(&r))["error"], "unsupported_response_type");
}

#[tokio::test]
async fn request_objects_request_uris_and_registration_get_their_own_error_codes() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    for (name, code) in [
        ("request", "request_not_supported"),
        ("request_uri", "request_uri_not_supported"),
        ("registration", "registration_not_supported"),
    ] {
        let r = app
            .authorize(&app.browser(), &params(&reg, &[(name, "x")]))
            .await;
        let q = query(&location(&r));
        assert_eq!((q["error"].as_str(), q["state"].as_str()), (code, "st-1"));
    }
}

#[tokio::test]
async fn the_authorize_endpoint_also_takes_its_parameters_form_encoded_by_post() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let browser = signed_in(&app, &reg).await;
    let r = browser
        .post(app.url("/oauth/authorize"))
        .form(&params(&reg, &[]))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FOUND);
    let q = query(&location(&r));
    assert!(q.contains_key("code"));
    assert_eq!(q["state"], "st-1");
}
