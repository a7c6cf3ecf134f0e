//! Sign out everywhere: `POST /admin/api/users/{username}/revoke`, `sso-bridge users revoke`
//! and the admin screen's button end every SSO session of a person and revoke every code and
//! token of every app, audited. Real slapd and Redis.

use crate::helpers::*;
use crate::screen;
use crate::support::slapd::Slapd;
use reqwest::{Client, StatusCode};
use serde_json::Value;

/// A user's browser, signed in and holding tokens for one app.
struct Signed {
    browser: Client,
    app: Registered,
    tokens: Value,
}

/// Signs `user` in to `reg` in a fresh browser (a session of its own) and exchanges the code.
async fn signed_in(app: &TestApp, reg: &Registered, user: &str) -> Signed {
    let pkce = Pkce::new();
    let browser = app.browser();
    let location = app
        .sign_in_and_approve(
            &browser,
            reg,
            user,
            &password(Backends::Real, user),
            &[
                ("code_challenge", &pkce.challenge),
                ("code_challenge_method", "S256"),
            ],
        )
        .await;
    let tokens = app
        .exchange(reg, &query(&location)["code"], &pkce.verifier)
        .await;
    Signed {
        browser,
        app: reg.clone(),
        tokens,
    }
}

/// Ken at two apps (two browsers), and Alan at the first.
async fn two_apps_and_two_users(app: &TestApp) -> (Vec<Signed>, Signed) {
    let payroll = app.register("https://payroll.example.com/cb", false).await;
    let wiki = app.register("https://wiki.example.com/cb", false).await;
    let ken = vec![
        signed_in(app, &payroll, "ken").await,
        signed_in(app, &wiki, "ken").await,
    ];
    let alan = signed_in(app, &payroll, "alan").await;
    (ken, alan)
}

/// Whether `s`'s access token, refresh token and browser session still work.
async fn still_in(app: &TestApp, s: &Signed) -> (bool, bool, bool) {
    let access = app
        .userinfo(s.tokens["access_token"].as_str().unwrap())
        .await;
    let refresh = app
        .token(
            &s.app,
            &[
                ("grant_type", "refresh_token"),
                ("refresh_token", s.tokens["refresh_token"].as_str().unwrap()),
            ],
        )
        .await;
    let refused = refresh.status() == StatusCode::BAD_REQUEST;
    if refused {
        let body: Value = refresh.json().await.unwrap();
        assert_eq!(body["error"], "invalid_grant");
    }
    let params = [
        ("client_id", s.app.client_id.as_str()),
        ("redirect_uri", s.app.redirect_uri.as_str()),
        ("response_type", "code"),
        ("scope", "openid profile email role"),
    ];
    let sso = app.authorize(&s.browser, &params).await;
    (
        access.status() == StatusCode::OK,
        !refused,
        sso.status() == StatusCode::FOUND,
    )
}

async fn assert_out(app: &TestApp, s: &Signed) {
    assert_eq!(still_in(app, s).await, (false, false, false));
}

async fn assert_in(app: &TestApp, s: &Signed) {
    assert_eq!(still_in(app, s).await, (true, true, true));
}

async fn admin_token(app: &TestApp) -> String {
    let body: Value = app.admin_token("ada", "ada-pw").await.json().await.unwrap();
    body["token"].as_str().unwrap().to_owned()
}

async fn revoke_by_api(app: &TestApp, username: &str) -> reqwest::Response {
    app.api
        .post(app.url(&format!("/admin/api/users/{username}/revoke")))
        .bearer_auth(admin_token(app).await)
        .send()
        .await
        .unwrap()
}

async fn audited(app: &TestApp) -> Vec<Value> {
    let log: Value = app
        .api
        .get(app.url("/admin/api/audit?action=user_revoked"))
        .bearer_auth(admin_token(app).await)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    log["events"].as_array().unwrap().clone()
}

#[tokio::test]
async fn the_admin_api_signs_a_user_out_of_every_session_and_every_app_and_audits_it() {
    let app = spawn_app(Backends::Real).await;
    let (ken, alan) = two_apps_and_two_users(&app).await;

    let r = revoke_by_api(&app, "ken").await;

    assert_eq!(r.status(), StatusCode::OK);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["sub"], "ken");
    assert_eq!(body["sessions_ended"], 2);
    assert_eq!(body["grants_revoked"], 2);
    for signed in &ken {
        assert_out(&app, signed).await;
    }
    assert_in(&app, &alan).await;
    let events = audited(&app).await;
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["actor"], "ada");
    let detail = events[0]["detail"].as_str().unwrap();
    assert!(detail.contains("ken signed out everywhere"), "{detail}");
}

#[tokio::test]
async fn the_cli_signs_a_user_out_everywhere() {
    let app = spawn_app(Backends::Real).await;
    let (ken, alan) = two_apps_and_two_users(&app).await;
    let base = app.base.clone();

    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
            .args([
                "users", "revoke", "ken", "--admin", "ada", "--server", &base, "--json",
            ])
            .env("SSO_BRIDGE_ADMIN_PASSWORD", "ada-pw")
            .output()
            .unwrap()
    })
    .await
    .unwrap();

    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let body: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(body["sub"], "ken");
    assert_eq!(body["sessions_ended"], 2);
    for signed in &ken {
        assert_out(&app, signed).await;
    }
    assert_in(&app, &alan).await;
    assert_eq!(audited(&app).await.len(), 1);
}

#[tokio::test]
async fn the_admin_screens_button_signs_a_user_out_everywhere() {
    let app = spawn_app(Backends::Real).await;
    let (ken, alan) = two_apps_and_two_users(&app).await;
    let (browser, _) = screen::sign_in(&app, "ada", "ada-pw").await;
    let (_, page) = screen::get(&browser, &app, "/admin/users").await;

    let done = screen::post(
        &browser,
        &app,
        &page,
        "/admin/users/revoke",
        &[("username", "ken")],
    )
    .await;

    assert_eq!(done.status(), StatusCode::SEE_OTHER);
    let (_, page) = screen::get(&browser, &app, &location(&done)).await;
    assert!(
        page.contains("ken is signed out everywhere: 2 sessions ended, 2 grants revoked"),
        "{page}"
    );
    for signed in &ken {
        assert_out(&app, signed).await;
    }
    assert_in(&app, &alan).await;
    let (_, audit) = screen::get(&browser, &app, "/admin/audit?action=user_revoked").await;
    assert!(audit.contains("ken signed out everywhere"), "{audit}");
}

#[tokio::test]
async fn the_screens_sign_out_form_needs_the_csrf_token() {
    let app = spawn_app(Backends::Real).await;
    let (browser, _) = screen::sign_in(&app, "ada", "ada-pw").await;

    let r = browser
        .post(app.url("/admin/users/revoke"))
        .form(&[("username", "ken")])
        .send()
        .await
        .unwrap();

    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert!(audited(&app).await.is_empty());
}

#[tokio::test]
async fn a_user_already_deleted_from_the_directory_is_signed_out_by_subject() {
    let slapd = Slapd::start();
    let app = spawn_app_with(
        Backends::Real,
        &[("SSO_BRIDGE__DIRECTORY__URL", slapd.url())],
    )
    .await;
    let (ken, _) = two_apps_and_two_users(&app).await;
    slapd.delete("uid=ken,ou=people,dc=example,dc=com");

    let r = revoke_by_api(&app, "ken").await;

    assert_eq!(r.status(), StatusCode::OK);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["grants_revoked"], 2);
    let access = app
        .userinfo(ken[0].tokens["access_token"].as_str().unwrap())
        .await;
    assert_eq!(access.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_user_is_named_by_their_sign_in_name_when_the_subject_is_another_attribute() {
    let app = spawn_app_with(
        Backends::Real,
        &[
            ("SSO_BRIDGE__CLAIMS__SUB", "employeeNumber".into()),
            (
                "SSO_BRIDGE__DIRECTORY__LOOKUP_FILTER",
                "(&(objectClass=inetOrgPerson)(employeeNumber={sub}))".into(),
            ),
        ],
    )
    .await;
    let (ken, alan) = two_apps_and_two_users(&app).await;

    let r = revoke_by_api(&app, "ken").await;

    let body: Value = r.json().await.unwrap();
    assert_eq!(body["sub"], "E0006");
    assert_eq!(body["sessions_ended"], 2);
    for signed in &ken {
        assert_out(&app, signed).await;
    }
    assert_in(&app, &alan).await;
}

/// Whether `token` still works on the admin API.
async fn admin_token_works(app: &TestApp, token: &str) -> bool {
    crate::leavers::list_apps(app, token).await == StatusCode::OK
}

#[tokio::test]
async fn signing_a_superadmin_out_everywhere_ends_their_admin_tokens_and_counts_them() {
    for backends in [Backends::Embedded, Backends::Real] {
        let app = spawn_app(backends).await;
        // A laptop with two admin tokens is stolen; the superadmin signs out everywhere from
        // another machine (a third token).
        let stolen = [app.superadmin_token().await, app.superadmin_token().await];
        let acting = app.superadmin_token().await;
        let r = app
            .api
            .post(app.url("/admin/api/users/ada/revoke"))
            .bearer_auth(&acting)
            .send()
            .await
            .unwrap();

        assert_eq!(r.status(), StatusCode::OK, "{backends:?}");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["admin_sessions_ended"], 3, "{body}");
        for token in stolen.iter().chain([&acting]) {
            assert!(!admin_token_works(&app, token).await, "{backends:?}");
            let create = app
                .api
                .post(app.url("/admin/api/apps"))
                .bearer_auth(token)
                .json(&serde_json::json!({
                    "name": "Exfiltration",
                    "redirect_uris": ["https://evil.example.com/cb"],
                }))
                .send()
                .await
                .unwrap();
            assert_eq!(create.status(), StatusCode::UNAUTHORIZED);
        }
        // A new sign-in works as before.
        assert!(admin_token_works(&app, &app.superadmin_token().await).await);
    }
}

#[tokio::test]
async fn the_cli_says_how_many_admin_sign_ins_a_sign_out_ended() {
    let app = spawn_app(Backends::Real).await;
    let stolen = app.superadmin_token().await;
    let base = app.base.clone();

    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
            .args([
                "users", "revoke", "ada", "--admin", "ada", "--server", &base,
            ])
            .env("SSO_BRIDGE_ADMIN_PASSWORD", "ada-pw")
            .output()
            .unwrap()
    })
    .await
    .unwrap();

    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("2 admin sign-ins ended"), "{said}");
    assert!(!admin_token_works(&app, &stolen).await);
}

#[tokio::test]
async fn a_second_factor_reset_ends_the_persons_admin_tokens() {
    use crate::mfa_admin::enrol_by_api;
    for backends in [Backends::Embedded, Backends::Real] {
        let app = spawn_app(backends).await;
        let (user, pw) = app.superadmin();
        let (auth, codes) = enrol_by_api(&app, user, pw).await;
        app.clock.advance(30);
        let sign_in = |otp: String| {
            let app = &app;
            async move {
                let body = serde_json::json!({"username": user, "password": pw, "otp": otp});
                let r = app
                    .api
                    .post(app.url("/admin/api/session"))
                    .json(&body)
                    .send()
                    .await
                    .unwrap();
                let body: Value = r.json().await.unwrap();
                body["token"].as_str().unwrap().to_owned()
            }
        };
        // Whoever holds the phone holds a token; the superadmin resets the factor with
        // another (a recovery code).
        let stolen = sign_in(auth.code(&app)).await;
        let acting = sign_in(codes[0].clone()).await;

        let r = app
            .api
            .delete(app.url(&format!("/admin/api/users/{user}/second-factor")))
            .bearer_auth(&acting)
            .send()
            .await
            .unwrap();

        assert_eq!(r.status(), StatusCode::OK, "{backends:?}");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["admin_sessions_ended"], 2, "{body}");
        assert!(!admin_token_works(&app, &stolen).await, "{backends:?}");
    }
}
