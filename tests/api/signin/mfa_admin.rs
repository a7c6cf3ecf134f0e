//! Second factor at the admin API and CLI: enrolment without a browser, sign-in with `otp`,
//! the superadmin reset; and the attempt limits on passwords and codes.

use crate::helpers::*;
use crate::signin::mfa_helpers::{password_step, policy, register_direct, Authenticator};
use reqwest::StatusCode;
use serde_json::{json, Value};
use sso_bridge::audit::Action;
use sso_bridge::store::{AuditFrom, AuditIndex};

/// Enrols `user` through the self-service API; answers the authenticator and recovery codes.
pub async fn enrol_by_api(app: &TestApp, user: &str, pw: &str) -> (Authenticator, Vec<String>) {
    let credentials = json!({"username": user, "password": pw});
    let setup = app
        .api
        .post(app.url("/admin/api/second-factor/setup"))
        .json(&credentials)
        .send()
        .await
        .unwrap();
    assert_eq!(setup.status(), StatusCode::OK);
    let setup: Value = setup.json().await.unwrap();
    assert!(setup["otpauth_url"]
        .as_str()
        .unwrap()
        .starts_with("otpauth://totp/"));
    let auth = Authenticator::from_secret(setup["secret"].as_str().unwrap());
    let mut confirm = credentials;
    confirm["otp"] = auth.code(app).into();
    confirm["setup_id"] = setup["setup_id"].clone();
    let codes: Value = app
        .api
        .post(app.url("/admin/api/second-factor/confirm"))
        .json(&confirm)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let codes = codes["recovery_codes"].as_array().unwrap();
    let codes = codes
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    (auth, codes)
}

async fn admin_sign_in(
    app: &TestApp,
    user: &str,
    pw: &str,
    otp: Option<&str>,
) -> (StatusCode, Value) {
    let mut body = json!({"username": user, "password": pw});
    if let Some(otp) = otp {
        body["otp"] = otp.into();
    }
    let r = app
        .api
        .post(app.url("/admin/api/session"))
        .json(&body)
        .send()
        .await
        .unwrap();
    (r.status(), r.json().await.unwrap_or(Value::Null))
}

async fn admin_sign_in_needs_the_second_factor(backends: Backends) {
    let app = spawn_app_with(backends, &policy("superadmin")).await;
    let (user, pw) = superadmin(backends);
    // Not set up yet: no admin token, and the answer says what to run.
    let (status, body) = admin_sign_in(&app, user, pw, None).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("mfa_enrolment_required")),
        "{body}"
    );
    assert!(body.get("token").is_none(), "{body}");
    let description = body["error_description"].as_str().unwrap();
    assert!(
        description.contains("sso-bridge users enrol-mfa --admin"),
        "{body}"
    );

    let (auth, codes) = enrol_by_api(&app, user, pw).await;
    assert_eq!(codes.len(), 10);
    app.clock.advance(30);
    let (status, body) = admin_sign_in(&app, user, pw, None).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("mfa_required"))
    );
    let (status, body) = admin_sign_in(&app, user, pw, Some("000000")).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("invalid_otp"))
    );
    let code = auth.code(&app);
    let (status, body) = admin_sign_in(&app, user, pw, Some(&code)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body["token"].is_string());
    let (status, _) = admin_sign_in(&app, user, pw, Some(&code)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "a replayed code");
    let (status, _) = admin_sign_in(&app, user, pw, Some(&codes[0])).await;
    assert_eq!(status, StatusCode::OK, "a recovery code");

    // Once enrolled, the self-service API no longer replaces the authenticator.
    let again = app
        .api
        .post(app.url("/admin/api/second-factor/setup"))
        .json(&json!({"username": user, "password": pw}))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_admin_api_asks_a_superadmin_for_a_second_factor_on_the_embedded_backends() {
    admin_sign_in_needs_the_second_factor(Backends::Embedded).await;
}

#[tokio::test]
async fn the_admin_api_asks_a_superadmin_for_a_second_factor_on_redis_and_ldap() {
    admin_sign_in_needs_the_second_factor(Backends::Real).await;
}

#[tokio::test]
async fn a_superadmin_resets_a_users_second_factor_from_the_cli() {
    let app = spawn_app_with(Backends::Embedded, &policy("admin")).await;
    let reg = register_direct(&app).await;
    enrol_by_api(&app, "grace", "grace-demo").await;

    let base = app.base.clone();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
            .args([
                "users",
                "reset-mfa",
                "grace",
                "--admin",
                "ada",
                "--server",
                &base,
            ])
            .env("SSO_BRIDGE_ADMIN_PASSWORD", "ada-demo")
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
    assert!(String::from_utf8_lossy(&out.stdout).contains("grace"));

    // grace is under the policy: the next sign-in sets up a new authenticator.
    let browser = app.browser();
    let after = password_step(&app, &browser, &reg, "grace", "grace-demo").await;
    assert!(location(&after).contains("/oauth/second-factor/enrol?"));

    // Resetting again finds nothing; only superadmins may reset.
    let token: Value = app
        .admin_token("ada", "ada-demo")
        .await
        .json()
        .await
        .unwrap();
    let again = app
        .api
        .delete(app.url("/admin/api/users/grace/second-factor"))
        .bearer_auth(token["token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_FOUND);
    let anonymous = app
        .api
        .delete(app.url("/admin/api/users/grace/second-factor"))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
}

fn limits(extra: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    let mut settings = vec![("SSO_BRIDGE__LIMITS__WINDOW_SECS", "600".to_owned())];
    settings.extend(extra.iter().map(|(k, v)| (*k, v.to_string())));
    settings
}

async fn password_guessing_locks_out(backends: Backends) {
    let app = spawn_app_with(
        backends,
        &limits(&[("SSO_BRIDGE__LIMITS__PASSWORD_PER_ACCOUNT", "3")]),
    )
    .await;
    let reg = register_direct(&app).await;
    let browser = app.browser();
    for _ in 0..3 {
        let r = password_step(&app, &browser, &reg, "alan", "wrong").await;
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    }
    let right = password(backends, "alan");
    let locked = password_step(&app, &browser, &reg, "alan", &right).await;
    assert_eq!(locked.status(), StatusCode::TOO_MANY_REQUESTS);
    let locked = locked.text().await.unwrap();
    // Every spelling of the account is the account: look-alikes buy no fresh guesses.
    for spelling in ["ALAN", " alan ", "ａｌａｎ", "𝐚𝐥𝐚𝐧"] {
        let r = password_step(&app, &browser, &reg, spelling, &right).await;
        assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS, "{spelling:?}");
    }
    // Hammering the locked account is refused every time but audited once.
    for _ in 0..5 {
        let again = password_step(&app, &browser, &reg, "alan", "wrong").await;
        assert_eq!(again.status(), StatusCode::TOO_MANY_REQUESTS);
    }
    let lockout = [AuditIndex::Action(Action::Lockout)];
    let newest = AuditFrom::Newest;
    let events = app.state.store.audit_events(&lockout, newest, 100).await;
    let events = events.unwrap().events;
    let lockouts = events.iter().filter(|e| e.record.action == Action::Lockout);
    assert_eq!(lockouts.count(), 1, "{events:#?}");

    // An account that does not exist locks out the same way, with the same words.
    for _ in 0..3 {
        password_step(&app, &browser, &reg, "nobody", "wrong").await;
    }
    let unknown = password_step(&app, &browser, &reg, "nobody", "wrong").await;
    assert_eq!(unknown.status(), StatusCode::TOO_MANY_REQUESTS);
    let alert = |page: &str| {
        crate::signin::mfa_helpers::between(page, "role=\"alert\" id=\"signin-error\">", "<")
    };
    assert_eq!(alert(&unknown.text().await.unwrap()), alert(&locked));

    // The window slides on: the failures age out and the right password works again, under
    // any spelling of the name.
    app.clock.advance(601);
    let after = password_step(&app, &browser, &reg, "alan", &right).await;
    assert_eq!(after.status(), StatusCode::SEE_OTHER);
    let look_alike = password_step(&app, &app.browser(), &reg, "𝐚𝐥𝐚𝐧", &right).await;
    assert_eq!(look_alike.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn password_guessing_locks_the_account_until_the_window_passes_on_the_embedded_backends() {
    password_guessing_locks_out(Backends::Embedded).await;
}

#[tokio::test]
async fn password_guessing_locks_the_account_until_the_window_passes_on_redis_and_ldap() {
    password_guessing_locks_out(Backends::Real).await;
}

#[tokio::test]
async fn guesses_from_one_address_are_limited_across_accounts() {
    let app = spawn_app_with(
        Backends::Real,
        &limits(&[("SSO_BRIDGE__LIMITS__PER_ADDRESS", "4")]),
    )
    .await;
    let reg = register_direct(&app).await;
    let browser = app.browser();
    for user in ["u1", "u2", "u3", "u4"] {
        let r = password_step(&app, &browser, &reg, user, "wrong").await;
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    }
    let r = password_step(&app, &browser, &reg, "alan", "alan-pw").await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn second_factor_guessing_is_limited_too() {
    let mut settings = limits(&[("SSO_BRIDGE__LIMITS__OTP_PER_ACCOUNT", "2")]);
    settings.extend(policy("admin"));
    let app = spawn_app_with(Backends::Embedded, &settings).await;
    let reg = register_direct(&app).await;
    let (auth, _) = enrol_by_api(&app, "grace", "grace-demo").await;
    app.clock.advance(30);

    let browser = app.browser();
    let after = password_step(&app, &browser, &reg, "grace", "grace-demo").await;
    let page = browser
        .get(location(&after))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for _ in 0..2 {
        let r = app.submit(&browser, &page, &[("otp", "000000")]).await;
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    }
    let r = app
        .submit(&browser, &page, &[("otp", &auth.code(&app))])
        .await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    let (status, body) = admin_sign_in(&app, "grace", "grace-demo", Some("123456")).await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "{body}: grace is no superadmin"
    );

    app.clock.advance(601);
    let r = app
        .submit(&browser, &page, &[("otp", &auth.code(&app))])
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn the_cli_sets_up_a_superadmins_second_factor_and_then_signs_in_with_it() {
    let app = spawn_app_with(Backends::Embedded, &policy("superadmin")).await;
    let base = app.base.clone();
    let clock_now = app.state.now();
    let out = tokio::task::spawn_blocking(move || {
        use std::io::{BufRead, BufReader, Write};
        use std::process::{Command, Stdio};
        let mut child = Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
            .args(["users", "enrol-mfa", "--admin", "ada", "--server", &base])
            .env("SSO_BRIDGE_ADMIN_PASSWORD", "ada-demo")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        while !line.contains("by hand") {
            line.clear();
            assert!(
                stderr.read_line(&mut line).unwrap() > 0,
                "no secret printed"
            );
        }
        line.clear();
        stderr.read_line(&mut line).unwrap();
        let auth = Authenticator::from_secret(line.trim());
        let code = auth.code_at(clock_now);
        writeln!(child.stdin.take().unwrap(), "{code}").unwrap();
        (child.wait_with_output().unwrap(), auth)
    })
    .await
    .unwrap();
    let (out, auth) = out;
    assert!(out.status.success());
    let printed = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        printed.lines().filter(|l| l.starts_with("  ")).count(),
        10,
        "{printed}"
    );

    app.clock.advance(30);
    let (status, body) = admin_sign_in(&app, "ada", "ada-demo", Some(&auth.code(&app))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// Starts an API set-up for alan; answers its secret and setup_id.
async fn start_api_setup(app: &TestApp, password: &str) -> Value {
    let r = app
        .api
        .post(app.url("/admin/api/second-factor/setup"))
        .json(&json!({"username": "alan", "password": password}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    r.json::<Value>().await.unwrap()
}

#[tokio::test]
async fn a_set_up_in_progress_is_shown_to_no_one_but_who_started_it_and_a_new_one_replaces_it() {
    let app = spawn_app(Backends::Embedded).await;
    let credentials = json!({"username": "alan", "password": "alan-demo"});
    let (mine, theirs) = (
        start_api_setup(&app, "alan-demo").await,
        start_api_setup(&app, "alan-demo").await,
    );
    assert_ne!(mine["secret"], theirs["secret"]);
    assert_ne!(mine["setup_id"], theirs["setup_id"]);

    let app = &app;
    let confirm_with = |secret: &Value, setup_id: &Value| {
        let auth = Authenticator::from_secret(secret.as_str().unwrap());
        let mut body = credentials.clone();
        body["otp"] = auth.code(app).into();
        body["setup_id"] = setup_id.clone();
        async move {
            app.api
                .post(app.url("/admin/api/second-factor/confirm"))
                .json(&body)
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    // A code of my authenticator does not confirm their set-up, and mine gave way to theirs:
    // an account has one API set-up at a time.
    let unauthorized = StatusCode::UNAUTHORIZED;
    assert_eq!(
        confirm_with(&mine["secret"], &theirs["setup_id"]).await,
        unauthorized
    );
    assert_eq!(
        confirm_with(&mine["secret"], &mine["setup_id"]).await,
        unauthorized
    );
    assert_eq!(
        confirm_with(&theirs["secret"], &theirs["setup_id"]).await,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_flood_of_api_set_ups_keeps_one_record_per_account() {
    let app = spawn_app(Backends::Real).await;
    for _ in 0..50 {
        start_api_setup(&app, "alan-pw").await;
    }
    assert_eq!(app.stored_keys("mfasetup:").await, 1);
}

#[tokio::test]
async fn a_name_no_directory_holds_is_refused_before_it_is_counted() {
    let app = spawn_app_with(
        Backends::Embedded,
        &limits(&[("SSO_BRIDGE__LIMITS__PASSWORD_PER_ACCOUNT", "1")]),
    )
    .await;
    let reg = register_direct(&app).await;
    let browser = app.browser();
    for name in ["al\nan", "al\u{0}an", &"a".repeat(300)] {
        let r = password_step(&app, &browser, &reg, name, "wrong").await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{name:?}");
    }
    // None of them counted against alan.
    let right = password(Backends::Embedded, "alan");
    let r = password_step(&app, &browser, &reg, "alan", &right).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
}
