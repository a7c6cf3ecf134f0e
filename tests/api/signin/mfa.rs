//! Second factor by policy in the browser flow: enrolment, sign-in with a code, wrong and
//! replayed codes, drift, recovery codes, sessions that came under the policy, encryption.

use crate::helpers::*;
use crate::signin::mfa_helpers::*;
use reqwest::{Client, StatusCode};
use totp_rs::Secret;

async fn approve(app: &TestApp, browser: &Client, response: reqwest::Response) -> String {
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let next = location(&response);
    if next.starts_with(CB) {
        return next;
    }
    assert!(next.contains("/oauth/consent?"), "{next}");
    let consent = browser
        .get(&next)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let done = app
        .submit(browser, &consent, &[("decision", "approve")])
        .await;
    location(&done)
}

async fn enrols_then_signs_in_with_a_code(backends: Backends) {
    let app = spawn_app_with(backends, &policy("admin")).await;
    let reg = register_direct(&app).await;
    let pw = password(backends, "grace");

    let browser = app.browser();
    let (auth, codes, page) = enrol(&app, &browser, &reg, "grace", &pw).await;
    assert_eq!(codes.len(), 10);
    let done = app.submit(&browser, &page, &[]).await;
    let back = approve(&app, &browser, done).await;
    assert!(query(&back).contains_key("code"), "{back}");

    // A new browser: password, then the code form, then straight back (consent remembered).
    app.clock.advance(30);
    let browser = app.browser();
    let after = password_step(&app, &browser, &reg, "grace", &pw).await;
    assert!(
        location(&after).contains("/oauth/second-factor?"),
        "{}",
        location(&after)
    );
    let (_, page) = follow(&browser, &after).await;
    assert_eq!(Form::parse(&page).hidden.len(), 2);
    assert!(page.contains("name=\"otp\""));
    let done = app
        .submit(&browser, &page, &[("otp", &auth.code(&app))])
        .await;
    let back = approve(&app, &browser, done).await;
    assert!(query(&back).contains_key("code"), "{back}");

    // The same browser is signed in with both factors: single sign-on skips both.
    let again = app.authorize(&browser, &params(&reg)).await;
    assert_eq!(again.status(), StatusCode::FOUND);
    assert!(location(&again).starts_with(CB));
}

#[tokio::test]
async fn a_user_under_policy_enrols_then_signs_in_with_a_code_on_the_embedded_backends() {
    enrols_then_signs_in_with_a_code(Backends::Embedded).await;
}

#[tokio::test]
async fn a_user_under_policy_enrols_then_signs_in_with_a_code_on_redis_and_ldap() {
    enrols_then_signs_in_with_a_code(Backends::Real).await;
}

#[tokio::test]
async fn without_the_second_factor_no_code_is_issued_and_consent_is_not_shown() {
    let app = spawn_app_with(Backends::Embedded, &policy("admin")).await;
    let reg = register_direct(&app).await;
    let browser = app.browser();
    let after = password_step(&app, &browser, &reg, "grace", "grace-demo").await;
    let request_id = query(&location(&after))["request_id"].clone();

    // Skipping ahead to consent, or starting over, leads back to the second factor.
    let consent = browser
        .get(app.url(&format!("/oauth/consent?request_id={request_id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(consent.status(), StatusCode::FOUND);
    assert!(location(&consent).contains("/oauth/second-factor/enrol?"));
    let again = app.authorize(&browser, &params(&reg)).await;
    assert_eq!(again.status(), StatusCode::FOUND);
    assert!(location(&again).contains("/oauth/second-factor/enrol?"));
}

#[tokio::test]
async fn a_user_outside_the_policy_goes_to_consent_and_may_enrol_by_choice() {
    let app = spawn_app_with(Backends::Embedded, &policy("admin")).await;
    let reg = register_direct(&app).await;
    let browser = app.browser();
    let after = password_step(&app, &browser, &reg, "alan", "alan-demo").await;
    assert!(location(&after).contains("/oauth/consent?"));
    let (_, consent) = follow(&browser, &after).await;

    // The consent page offers the set-up; once done, alan is asked like anyone enrolled.
    let enrol_url = unescape(&between(&consent, "class=\"hint\"><a href=\"", "\""));
    let page = browser
        .get(&enrol_url)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let auth = Authenticator::from_page(&page);
    let codes = app
        .submit(&browser, &page, &[("otp", &auth.code(&app))])
        .await;
    let codes = codes.text().await.unwrap();
    assert_eq!(recovery_codes(&codes).len(), 10);
    let done = app.submit(&browser, &codes, &[]).await;
    let back = approve(&app, &browser, done).await;
    assert!(query(&back).contains_key("code"));

    let after = password_step(&app, &app.browser(), &reg, "alan", "alan-demo").await;
    assert!(location(&after).contains("/oauth/second-factor?"));
}

#[tokio::test]
async fn wrong_and_replayed_codes_are_refused_and_one_step_of_drift_is_accepted() {
    let app = spawn_app_with(Backends::Embedded, &policy("admin")).await;
    let reg = register_direct(&app).await;
    let browser = app.browser();
    let (auth, _, _) = enrol(&app, &browser, &reg, "grace", "grace-demo").await;
    let enrolled_code = auth.code(&app);

    let code_form = |browser: Client| {
        let (app, reg) = (&app, &reg);
        async move {
            let after = password_step(app, &browser, reg, "grace", "grace-demo").await;
            let (_, page) = follow(&browser, &after).await;
            (browser, page)
        }
    };
    // The code that confirmed the enrolment was spent: its replay is refused.
    let (browser, page) = code_form(app.browser()).await;
    let replay = app
        .submit(&browser, &page, &[("otp", &enrolled_code)])
        .await;
    assert_eq!(replay.status(), StatusCode::UNAUTHORIZED);
    assert!(replay.text().await.unwrap().contains("already used"));

    let wrong = format!(
        "{:06}",
        (enrolled_code.parse::<u32>().unwrap() + 1) % 1_000_000
    );
    let refused = app.submit(&browser, &page, &[("otp", &wrong)]).await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    assert!(refused.text().await.unwrap().contains("not right"));

    // A phone 30 s behind is accepted; 60 s behind is not.
    app.clock.advance(120);
    let now = app.state.now();
    let too_slow = app
        .submit(&browser, &page, &[("otp", &auth.code_at(now - 60))])
        .await;
    assert_eq!(too_slow.status(), StatusCode::UNAUTHORIZED);
    let behind = app
        .submit(&browser, &page, &[("otp", &auth.code_at(now - 30))])
        .await;
    assert_eq!(behind.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn a_recovery_code_signs_in_once_and_offers_a_new_authenticator() {
    let app = spawn_app_with(Backends::Embedded, &policy("admin")).await;
    let reg = register_direct(&app).await;
    let (_, codes, _) = enrol(&app, &app.browser(), &reg, "grace", "grace-demo").await;

    let browser = app.browser();
    let after = password_step(&app, &browser, &reg, "grace", "grace-demo").await;
    let (_, page) = follow(&browser, &after).await;
    let used = app
        .submit(&browser, &page, &[("otp", &codes[3].to_uppercase())])
        .await;
    assert_eq!(used.status(), StatusCode::OK);
    let used = used.text().await.unwrap();
    assert!(used.contains("id=\"codes-left\">9<"), "{used}");

    // The offered re-enrolment replaces the authenticator (the session passed the factor).
    let enrol_url = unescape(&between(&used, "<a href=\"", "\""));
    let page = browser
        .get(&enrol_url)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let fresh = Authenticator::from_page(&page);
    let done = app
        .submit(&browser, &page, &[("otp", &fresh.code(&app))])
        .await;
    assert_eq!(recovery_codes(&done.text().await.unwrap()).len(), 10);

    // The old codes went with the old authenticator; the spent one never works again.
    let browser = app.browser();
    let after = password_step(&app, &browser, &reg, "grace", "grace-demo").await;
    let (_, page) = follow(&browser, &after).await;
    for code in [&codes[3], &codes[4]] {
        let r = app.submit(&browser, &page, &[("otp", code)]).await;
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    }
}

#[tokio::test]
async fn a_password_alone_cannot_replace_an_enrolled_authenticator() {
    let app = spawn_app_with(Backends::Embedded, &policy("admin")).await;
    let reg = register_direct(&app).await;
    enrol(&app, &app.browser(), &reg, "grace", "grace-demo").await;

    let browser = app.browser();
    let after = password_step(&app, &browser, &reg, "grace", "grace-demo").await;
    let request_id = query(&location(&after))["request_id"].clone();
    let enrol_page = browser
        .get(app.url(&format!(
            "/oauth/second-factor/enrol?request_id={request_id}"
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(enrol_page.status(), StatusCode::SEE_OTHER);
    assert!(location(&enrol_page).contains("/oauth/second-factor?"));
}

#[tokio::test]
async fn a_session_from_before_the_enrolment_is_asked_at_the_next_authorize() {
    let app = spawn_app_with(Backends::Embedded, &policy("")).await;
    let reg = register_direct(&app).await;
    let browser = app.browser();
    let after = password_step(&app, &browser, &reg, "alan", "alan-demo").await;
    approve(&app, &browser, after).await;

    // alan enrols by choice (self-service, as `sso-bridge users enrol-mfa` does); the older
    // session must now pass the second factor too.
    crate::signin::mfa_admin::enrol_by_api(&app, "alan", "alan-demo").await;

    let again = app.authorize(&browser, &params(&reg)).await;
    assert_eq!(again.status(), StatusCode::FOUND);
    assert!(
        location(&again).contains("/oauth/second-factor?"),
        "{}",
        location(&again)
    );
}

#[tokio::test]
async fn enrolment_secrets_are_encrypted_at_rest() {
    let app = spawn_app_with(Backends::Real, &policy("admin")).await;
    let reg = register_direct(&app).await;
    let browser = app.browser();
    let after = password_step(&app, &browser, &reg, "grace", "grace-pw").await;
    let (_, page) = follow(&browser, &after).await;
    let shown = between(&page, "id=\"totp-secret\">", "</code>").replace(' ', "");
    let auth = Authenticator::from_secret(&shown);
    app.submit(&browser, &page, &[("otp", &auth.code(&app))])
        .await;

    let record = app
        .state
        .store
        .second_factor("grace")
        .await
        .unwrap()
        .unwrap();
    // What the store keeps is this record's JSON.
    let stored = serde_json::to_string(&record).unwrap();
    let raw = Secret::Encoded(shown.clone()).to_bytes().unwrap();
    assert!(!stored.contains(&shown), "{stored}");
    assert!(!stored.contains(&hex::encode(&raw)));
    assert!(!stored.contains(&base64::Engine::encode(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD,
        &raw
    )));
}
