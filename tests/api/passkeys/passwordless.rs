//! "Sign in with a passkey" (`mfa.passwordless`): a discoverable passkey with user
//! verification stands for both factors, and the directory still decides whether the account
//! may sign in.

use super::*;
use crate::support::metrics::{count, scrape, value};
use crate::support::samba::Samba;
use crate::support::slapd::Slapd;

const PASSWORDLESS: (&str, &str) = ("SSO_BRIDGE__MFA__PASSWORDLESS", "true");

fn on() -> Vec<(&'static str, String)> {
    vec![(PASSWORDLESS.0, PASSWORDLESS.1.into())]
}

/// The sign-in page of a new authorize request.
async fn sign_in_page(app: &TestApp, browser: &Client, reg: &Registered) -> String {
    let page = app.authorize(browser, &params(reg)).await;
    assert_eq!(page.status(), StatusCode::OK);
    page.text().await.unwrap()
}

#[tokio::test]
async fn a_passkey_alone_signs_in_as_both_factors_without_pwd_in_the_amr() {
    let app = spawn_app_on_localhost(Backends::Embedded, &on()).await;
    let reg = register_direct(&app).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "alan", "Laptop").await;
    let browser = app.browser();
    let page = sign_in_page(&app, &browser, &reg).await;
    let (options, form) = passkey_form(&page).expect("Sign in with a passkey");
    assert!(form.action.ends_with("/oauth/login/passkey"));
    assert_eq!(options["allowCredentials"], serde_json::json!([]));
    assert_eq!(options["userVerification"], "required");

    let done = post_passkey(&browser, &page, &auth.assert(&options)).await;
    let code = code_after(&app, &browser, done).await;

    assert_eq!(
        amr_for(&app, &reg, &code).await,
        serde_json::json!(["hwk", "user"])
    );
}

#[tokio::test]
async fn a_passkey_without_user_verification_does_not_sign_in_alone() {
    let app = spawn_app_on_localhost(Backends::Embedded, &on()).await;
    let reg = register_direct(&app).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "alan", "Key").await;
    auth.verifies_user = false;
    let browser = app.browser();
    let page = sign_in_page(&app, &browser, &reg).await;
    let (options, _) = passkey_form(&page).unwrap();

    let refused = post_passkey(&browser, &page, &auth.assert(&options)).await;

    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    assert!(refused
        .text()
        .await
        .unwrap()
        .contains("That passkey was not accepted"));
}

#[tokio::test]
async fn without_the_setting_the_sign_in_page_offers_no_passkey_and_the_form_is_refused() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let reg = register_direct(&app).await;
    let browser = app.browser();
    let page = sign_in_page(&app, &browser, &reg).await;
    assert!(passkey_form(&page).is_none());
    assert!(!page.contains("passkey.js"));

    let form = Form::parse(&page);
    let mut body: Vec<(String, String)> = form.hidden.into_iter().collect();
    body.push(("credential".into(), "{}".into()));
    let refused = browser
        .post(app.url("/oauth/login/passkey"))
        .form(&body)
        .send()
        .await
        .unwrap();
    assert!(refused.status().is_client_error(), "{}", refused.status());
}

#[tokio::test]
async fn a_locked_or_disabled_directory_account_is_refused_its_passkey_sign_in() {
    let slapd = Slapd::shared();
    let policy = slapd.add_policy(&Samba::unique("policy"));
    let locked = slapd.add_policy_user(&Samba::unique("pklock"), &policy);
    let disabled = slapd.add_policy_user(&Samba::unique("pkdis"), &policy);
    let fine = slapd.add_policy_user(&Samba::unique("pkfine"), &policy);
    let app = spawn_app_on_localhost(Backends::Real, &on()).await;
    let reg = register_direct(&app).await;
    let mut auths = Vec::new();
    for user in [&locked, &disabled, &fine] {
        let mut auth = authenticator(&app);
        add_passkey(&app, &mut auth, &user.uid, "Laptop").await;
        auths.push(auth);
    }
    slapd.lock_out(&locked);
    slapd.set_policy_state(&disabled, "pwdAccountLockedTime", "000001010000Z");

    let mut answers = Vec::new();
    for auth in &mut auths {
        let browser = app.browser();
        let page = sign_in_page(&app, &browser, &reg).await;
        let (options, _) = passkey_form(&page).unwrap();
        let response = post_passkey(&browser, &page, &auth.assert(&options)).await;
        let status = response.status();
        let text = response.text().await.unwrap_or_default();
        answers.push((status, text));
    }

    assert_eq!(answers[0].0, StatusCode::FORBIDDEN);
    assert!(
        answers[0].1.contains("Your account is locked"),
        "{}",
        answers[0].1
    );
    assert_eq!(answers[1].0, StatusCode::FORBIDDEN);
    assert!(answers[1].1.contains("This account cannot sign in now"));
    assert_eq!(answers[2].0, StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn refused_answers_count_against_the_address_until_nothing_more_is_checked() {
    let mut settings = on();
    settings.push(("SSO_BRIDGE__LIMITS__PER_ADDRESS", "3".into()));
    let app = spawn_app_on_localhost(Backends::Embedded, &settings).await;
    let reg = register_direct(&app).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "alan", "Laptop").await;
    let browser = app.browser();
    let page = sign_in_page(&app, &browser, &reg).await;

    // A malformed answer leaves the page's ceremony open: one page can post any number.
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(post_passkey(&browser, &page, "{}").await.status());
    }
    let page = sign_in_page(&app, &browser, &reg).await;
    let (options, _) = passkey_form(&page).unwrap();
    let held = post_passkey(&browser, &page, &auth.assert(&options)).await;

    assert_eq!(
        statuses,
        [
            StatusCode::UNAUTHORIZED,
            StatusCode::UNAUTHORIZED,
            StatusCode::UNAUTHORIZED,
            StatusCode::TOO_MANY_REQUESTS,
            StatusCode::TOO_MANY_REQUESTS,
        ]
    );
    // The address is held: even a right passkey from it is not checked.
    assert_eq!(held.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(held.text().await.unwrap().contains("Too many attempts"));
    let (metrics, text) = scrape(&app.api, &app.url("/metrics")).await;
    let of = |metric, labels: &[(&str, &str)]| {
        ["ipv4", "ipv6_64"]
            .iter()
            .map(|group| {
                let mut labels = labels.to_vec();
                labels.push(("counter", group));
                count(&metrics, metric, &labels)
            })
            .sum::<f64>()
    };
    let failed = of("sso_bridge_failed_attempts_total", &[("guess", "passkey")]);
    assert_eq!(failed, 3.0, "{text}");
    assert_eq!(of("sso_bridge_lockouts_total", &[]), 1.0, "{text}");
    // Nothing is counted by account, so no series says so; a password's series is shown.
    let series = |guess| {
        let labels = [("guess", guess), ("counter", "account")];
        value(&metrics, "sso_bridge_failed_attempts_total", &labels)
    };
    assert_eq!(series("passkey"), None, "{text}");
    assert_eq!(series("password"), Some(0.0), "{text}");
}
