//! OpenID Connect authorize parameters (`prompt`, `max_age`, `login_hint`, `nonce`), the
//! RFC 9207 `iss` response parameter, and RP-initiated logout.

use crate::helpers::*;
use reqwest::{Client, StatusCode};
use serde_json::Value;

const CB: &str = "https://app.example.com/callback";
const BYE: &str = "https://app.example.com/signed-out";
const B: Backends = Backends::Embedded;

fn params<'a>(reg: &'a Registered, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
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
    let reg = app.register(B, CB, false).await;
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
    let reg = app.register(B, CB, false).await;
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
    let reg = app.register(B, CB, false).await;
    let other = app.register(B, CB, false).await;
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
    let reg = app.register(B, CB, false).await;
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
async fn prompt_consent_shows_the_consent_page_to_an_app_approved_before() {
    let app = spawn_app(B).await;
    let reg = app.register(B, CB, false).await;
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
    let reg = app.register(B, CB, false).await;
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
    let claims =
        crate::oidc::verify_id_token(&app, tokens["id_token"].as_str().unwrap(), &reg.client_id)
            .await;
    assert!(claims["auth_time"].as_u64().unwrap() >= app.state.now() - 5);
}

#[tokio::test]
async fn an_unsupported_response_type_goes_back_to_the_app_as_unsupported_response_type() {
    let app = spawn_app(B).await;
    let reg = app.register(B, CB, false).await;
    let mut p = params(&reg, &[]);
    p.retain(|(k, _)| *k != "response_type");
    p.push(("response_type", "id_token token"));
    let r = app.authorize(&app.browser(), &p).await;
    assert_eq!(query(&location(&r))["error"], "unsupported_response_type");
}

// --- RP-initiated logout -------------------------------------------------------------------

/// Registers an app with a post-logout redirect URI.
async fn register_with_logout(app: &TestApp) -> Registered {
    let (user, pw) = superadmin(B);
    let token: Value = app.admin_token(user, pw).await.json().await.unwrap();
    let created: Value = app
        .api
        .post(app.url("/admin/api/apps"))
        .bearer_auth(token["token"].as_str().unwrap())
        .json(&serde_json::json!({"name": "Logout App", "redirect_uris": [CB], "post_logout_redirect_uris": [BYE]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        created["post_logout_redirect_uris"],
        serde_json::json!([BYE])
    );
    Registered {
        client_id: created["client_id"].as_str().unwrap().to_owned(),
        client_secret: created["client_secret"].as_str().map(str::to_owned),
        redirect_uri: CB.into(),
    }
}

/// Signs in through the browser and answers the id_token of the resulting grant.
async fn sign_in_for_id_token(app: &TestApp, browser: &Client, reg: &Registered) -> String {
    let pkce = Pkce::new();
    let pw = password(B, "alan");
    let extra = [
        ("code_challenge", pkce.challenge.as_str()),
        ("code_challenge_method", "S256"),
    ];
    let location = app
        .sign_in_and_approve(browser, reg, "alan", &pw, &extra)
        .await;
    let tokens = app
        .exchange(reg, &query(&location)["code"], &pkce.verifier)
        .await;
    tokens["id_token"].as_str().unwrap().to_owned()
}

async fn is_signed_in(app: &TestApp, browser: &Client, reg: &Registered) -> bool {
    let r = app
        .authorize(browser, &params(reg, &[("prompt", "none")]))
        .await;
    !query(&location(&r)).contains_key("error")
}

#[tokio::test]
async fn logout_with_an_id_token_hint_ends_the_session_and_returns_to_the_registered_uri() {
    let app = spawn_app(B).await;
    let reg = register_with_logout(&app).await;
    let browser = app.browser();
    let id_token = sign_in_for_id_token(&app, &browser, &reg).await;
    assert!(is_signed_in(&app, &browser, &reg).await);

    let r = browser
        .get(app.url("/oauth/logout"))
        .query(&[
            ("id_token_hint", id_token.as_str()),
            ("post_logout_redirect_uri", BYE),
            ("state", "bye-1"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&r), format!("{BYE}?state=bye-1"));
    assert!(!is_signed_in(&app, &browser, &reg).await);
}

#[tokio::test]
async fn logout_refuses_an_unregistered_return_address_or_a_foreign_hint_and_changes_nothing() {
    let app = spawn_app(B).await;
    let reg = register_with_logout(&app).await;
    let browser = app.browser();
    let id_token = sign_in_for_id_token(&app, &browser, &reg).await;
    let forged = format!("{}x", &id_token[..id_token.len() - 1]);
    for query in [
        vec![
            ("id_token_hint", id_token.as_str()),
            ("post_logout_redirect_uri", "https://evil.example/"),
        ],
        vec![("post_logout_redirect_uri", BYE)],
        vec![("id_token_hint", forged.as_str())],
    ] {
        let r = browser
            .get(app.url("/oauth/logout"))
            .query(&query)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{query:?}");
        assert!(r.headers().get("location").is_none());
    }
    assert!(is_signed_in(&app, &browser, &reg).await);
}

#[tokio::test]
async fn logout_without_a_hint_asks_the_user_and_a_forged_confirmation_is_refused() {
    let app = spawn_app(B).await;
    let reg = register_with_logout(&app).await;
    let browser = app.browser();
    sign_in_for_id_token(&app, &browser, &reg).await;

    let r = browser
        .get(app.url("/oauth/logout"))
        .query(&[
            ("client_id", reg.client_id.as_str()),
            ("post_logout_redirect_uri", BYE),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let page = r.text().await.unwrap();
    assert!(page.contains("Logout App"));
    assert!(
        is_signed_in(&app, &browser, &reg).await,
        "not before confirming"
    );

    let forged = browser
        .post(app.url("/oauth/logout"))
        .form(&[("decision", "logout"), ("csrf_token", "guess")])
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    assert!(is_signed_in(&app, &browser, &reg).await);

    let done = app.submit(&browser, &page, &[("decision", "logout")]).await;
    assert_eq!(done.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&done), BYE);
    assert!(!is_signed_in(&app, &browser, &reg).await);
}

#[tokio::test]
async fn logout_of_a_browser_without_a_session_just_says_it_is_signed_out() {
    let app = spawn_app(B).await;
    let r = app
        .browser()
        .get(app.url("/oauth/logout"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.text().await.unwrap().contains("You are signed out"));
}

async fn cli_create(base: String, logout_uri: &'static str) -> std::process::Output {
    tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
            .args(["apps", "create", "--name", "CLI Logout App"])
            .args([
                "--redirect-uri",
                CB,
                "--post-logout-redirect-uri",
                logout_uri,
            ])
            .args(["--admin", "ada", "--server", &base, "--json"])
            .env("SSO_BRIDGE_ADMIN_PASSWORD", "ada-demo")
            .output()
            .unwrap()
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn the_cli_registers_post_logout_redirect_uris_validated_like_redirect_uris() {
    let app = spawn_app(B).await;
    let out = cli_create(app.base.clone(), BYE).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let created: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        created["post_logout_redirect_uris"],
        serde_json::json!([BYE])
    );

    let out = cli_create(app.base.clone(), "http://bye.example.com/").await;
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("https"), "{err}");
}

#[tokio::test]
async fn request_objects_request_uris_and_registration_get_their_own_error_codes() {
    let app = spawn_app(B).await;
    let reg = app.register(B, CB, false).await;
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
    let reg = app.register(B, CB, false).await;
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
