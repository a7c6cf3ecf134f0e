//! OpenID Connect RP-initiated logout (`/oauth/logout`) and post-logout redirect URIs.

use crate::helpers::*;
use crate::protocol::oidc_authorize::params;
use reqwest::{Client, StatusCode};
use serde_json::Value;

const CB: &str = "https://app.example.com/callback";
const BYE: &str = "https://app.example.com/signed-out";
const B: Backends = Backends::Embedded;

/// Registers an app with a post-logout redirect URI.
async fn register_with_logout(app: &TestApp) -> Registered {
    let (user, pw) = superadmin(B);
    let token: Value = app.admin_token(user, pw).await.json().await.unwrap();
    let created: Value = app
        .api
        .post(app.url("/admin/api/apps"))
        .bearer_auth(token["token"].as_str().unwrap())
        .json(&serde_json::json!({"name": "Logout App", "redirect_uris": [CB], "post_logout_redirect_uris": [BYE], "require_pkce": false}))
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
async fn a_hint_for_another_user_does_not_sign_out_the_browsers_user_without_asking() {
    let app = spawn_app(B).await;
    let reg = register_with_logout(&app).await;
    let alans_token = sign_in_for_id_token(&app, &app.browser(), &reg).await;
    let graces_browser = app.browser();
    let pkce = Pkce::new();
    let extra = [
        ("code_challenge", pkce.challenge.as_str()),
        ("code_challenge_method", "S256"),
    ];
    let pw = password(B, "grace");
    app.sign_in_and_approve(&graces_browser, &reg, "grace", &pw, &extra)
        .await;

    let r = graces_browser
        .get(app.url("/oauth/logout"))
        .query(&[
            ("id_token_hint", alans_token.as_str()),
            ("post_logout_redirect_uri", BYE),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.status(),
        StatusCode::OK,
        "a confirmation page, not a redirect"
    );
    assert!(is_signed_in(&app, &graces_browser, &reg).await);
}
