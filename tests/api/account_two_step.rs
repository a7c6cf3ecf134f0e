//! Two-step verification changed on the account page: an authenticator app set up, replaced
//! and removed, a new set of recovery codes; each after the password again when the sign-in
//! is older than five minutes, and each in the audit log and the person's recent activity.

use crate::account::{account_page, audited, post, values_of};
use crate::helpers::*;
use crate::mfa_helpers::{policy, recovery_codes, Authenticator};
use reqwest::{Client, StatusCode};
use sso_bridge::mfa::enrolment;

/// Signs `user` in at `/account/login` in a new browser; answers the browser.
async fn signed_in(app: &TestApp, user: &str) -> Client {
    let browser = app.browser();
    let form = browser.get(app.url("/account/login")).send().await.unwrap();
    let form = form.text().await.unwrap();
    let csrf = values_of(&form, "csrf_token").remove(0);
    let pw = app.password(user);
    let fields = [
        ("csrf_token", csrf.as_str()),
        ("username", user),
        ("password", pw.as_str()),
    ];
    let after = browser
        .post(app.url("/account/login"))
        .form(&fields)
        .send()
        .await
        .unwrap();
    assert_eq!(location(&after), "/account");
    browser
}

/// Answers the re-check at `/account/confirm` with `password`, for the change `next`.
async fn confirm(app: &TestApp, browser: &Client, next: &str, password: &str) -> reqwest::Response {
    let page = browser
        .get(app.url(&format!("/account/confirm?next={next}")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let page = page.text().await.unwrap();
    assert!(page.contains(r#"name="password""#), "{page}");
    let csrf = values_of(&page, "csrf_token").remove(0);
    let body = [
        ("csrf_token", csrf.as_str()),
        ("next", next),
        ("password", password),
    ];
    browser
        .post(app.url("/account/confirm"))
        .form(&body)
        .send()
        .await
        .unwrap()
}

/// Sets up an authenticator from the account page (the sign-in being fresh); answers it and
/// the recovery codes shown.
async fn set_up(app: &TestApp, browser: &Client) -> (Authenticator, Vec<String>) {
    let page = browser
        .get(app.url("/account/two-step/authenticator"))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let page = page.text().await.unwrap();
    assert!(page.contains("data:image/svg+xml;base64,"), "QR code");
    assert!(!page.contains(r#"name="request_id""#));
    let auth = Authenticator::from_page(&page);
    let csrf = values_of(&page, "csrf_token").remove(0);
    let done = browser
        .post(app.url("/account/two-step/authenticator"))
        .form(&[("csrf_token", csrf.as_str()), ("otp", &auth.code(app))])
        .send()
        .await
        .unwrap();
    assert_eq!(done.status(), StatusCode::OK);
    assert_eq!(done.headers()["cache-control"], "no-store");
    let codes = recovery_codes(&done.text().await.unwrap());
    assert_eq!(codes.len(), 10);
    (auth, codes)
}

#[tokio::test]
async fn a_stale_sign_in_gives_the_password_again_then_sets_up_an_authenticator_and_new_codes() {
    let app = spawn_app(Backends::Real).await;
    let browser = signed_in(&app, "alan").await;
    app.clock.advance(6 * 60);

    let asked = browser
        .get(app.url("/account/two-step/authenticator"))
        .send()
        .await
        .unwrap();
    assert_eq!(asked.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&asked), "/account/confirm?next=authenticator");
    let wrong = confirm(&app, &browser, "authenticator", "not-the-password").await;
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    assert!(wrong
        .text()
        .await
        .unwrap()
        .contains("That password is not right."));
    let pw = app.password("alan");
    let right = confirm(&app, &browser, "authenticator", &pw).await;
    assert_eq!(right.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&right), "/account/two-step/authenticator");
    let (auth, first_codes) = set_up(&app, &browser).await;

    // Within five minutes of the re-check, the next change does not ask again.
    app.clock.advance(4 * 60);
    let page = account_page(&app, &browser).await;
    assert!(
        page.contains("Set up on") && page.contains("10 codes left."),
        "{page}"
    );
    let renewed = post(&app, &browser, "/account/two-step/recovery-codes", &[]).await;
    assert_eq!(renewed.status(), StatusCode::OK);
    let new_codes = recovery_codes(&renewed.text().await.unwrap());

    assert_eq!(new_codes.len(), 10);
    assert!(new_codes.iter().all(|c| !first_codes.contains(c)));
    let old = enrolment::verify(&app.state, "alan", &first_codes[0]).await;
    assert!(old.is_err(), "the old set stopped working");
    let new = enrolment::verify(&app.state, "alan", &new_codes[0]).await;
    assert!(new.is_ok(), "{new:?}");
    let code = auth.code_at(app.state.now() + 30);
    assert!(enrolment::verify(&app.state, "alan", &code).await.is_ok());
    assert_eq!(audited(&app, "second_factor_enrolled").await.len(), 1);
    let renewals = audited(&app, "recovery_codes_renewed").await;
    assert_eq!(renewals.len(), 1);
    assert_eq!(renewals[0]["actor"], "alan", "{renewals:?}");
    let page = account_page(&app, &browser).await;
    let activity = &page[page.find("id=\"activity-heading\"").unwrap()..];
    assert!(activity.contains("new recovery codes"), "{activity}");
    assert!(activity.contains("second factor"), "{activity}");
}

#[tokio::test]
async fn a_replaced_authenticator_works_until_the_new_one_is_confirmed() {
    let app = spawn_app(Backends::Embedded).await;
    let browser = signed_in(&app, "alan").await;
    let (old, _) = set_up(&app, &browser).await;

    // The set-up page of a replacement is open: the old app still signs in.
    let page = browser
        .get(app.url("/account/two-step/authenticator"))
        .send()
        .await
        .unwrap();
    let page = page.text().await.unwrap();
    let new = Authenticator::from_page(&page);
    let still = enrolment::verify(&app.state, "alan", &old.code_at(app.state.now() - 30)).await;
    assert!(still.is_ok(), "{still:?}");
    let csrf = values_of(&page, "csrf_token").remove(0);
    let done = browser
        .post(app.url("/account/two-step/authenticator"))
        .form(&[("csrf_token", csrf.as_str()), ("otp", &new.code(&app))])
        .send()
        .await
        .unwrap();

    assert_eq!(done.status(), StatusCode::OK);
    let gone = enrolment::verify(&app.state, "alan", &old.code_at(app.state.now() + 30)).await;
    assert!(gone.is_err(), "the old app stopped working");
    let works = enrolment::verify(&app.state, "alan", &new.code_at(app.state.now() + 30)).await;
    assert!(works.is_ok(), "{works:?}");
    let enrolled = audited(&app, "second_factor_enrolled").await;
    assert_eq!(enrolled.len(), 2);
    assert!(
        enrolled[0]["detail"].as_str().unwrap().contains("replaced"),
        "{enrolled:?}"
    );
}

#[tokio::test]
async fn removing_the_authenticator_asks_again_when_stale_and_is_refused_under_the_policy() {
    let app = spawn_app_with(Backends::Embedded, &policy("finance")).await;
    let alan = signed_in(&app, "alan").await;
    set_up(&app, &alan).await;
    app.clock.advance(10 * 60);

    let forged = alan
        .post(app.url("/account/two-step/authenticator/remove"))
        .form(&[("csrf_token", "forged")])
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let asked = post(&app, &alan, "/account/two-step/authenticator/remove", &[]).await;
    assert_eq!(asked.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        location(&asked),
        "/account/confirm?next=remove_authenticator"
    );
    let pw = app.password("alan");
    let removed = confirm(&app, &alan, "remove_authenticator", &pw).await;
    assert_eq!(removed.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&removed), "/account?done=authenticator_removed");
    let page = alan.get(app.url(&location(&removed))).send().await.unwrap();
    let page = page.text().await.unwrap();
    assert!(page.contains("Your authenticator app and its recovery codes were removed."));
    assert!(page.contains("Not set up."));
    assert!(!enrolment::is_enrolled(&app.state, "alan").await.unwrap());
    assert_eq!(audited(&app, "second_factor_removed").await.len(), 1);

    // ken is in finance: the policy keeps his second factor, whatever the form says.
    let ken = app.browser();
    let (_, _, _) = crate::mfa_helpers::enrol(
        &app,
        &ken,
        &crate::mfa_helpers::register_direct(&app).await,
        "ken",
        &app.password("ken"),
    )
    .await;
    let page = account_page(&app, &ken).await;
    assert!(page.contains("Your role asks for a second step"), "{page}");
    assert!(!page.contains("/account/two-step/authenticator/remove"));
    let refused = post(&app, &ken, "/account/two-step/authenticator/remove", &[]).await;
    assert_eq!(refused.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&refused), "/account?done=authenticator_required");
    let page = ken.get(app.url(&location(&refused))).send().await.unwrap();
    let page = page.text().await.unwrap();
    assert!(page.contains("cannot be removed"), "{page}");
    assert!(enrolment::is_enrolled(&app.state, "ken").await.unwrap());
    assert_eq!(audited(&app, "second_factor_removed").await.len(), 1);
}

#[tokio::test]
async fn a_person_the_policy_requires_a_factor_of_sets_one_up_at_the_account_sign_in() {
    let app = spawn_app_with(Backends::Real, &policy("employee")).await;
    let browser = app.browser();
    let form = browser.get(app.url("/account/login")).send().await.unwrap();
    let form = form.text().await.unwrap();
    let csrf = values_of(&form, "csrf_token").remove(0);
    let pw = app.password("alan");
    let fields = [
        ("csrf_token", csrf.as_str()),
        ("username", "alan"),
        ("password", pw.as_str()),
    ];

    let setup = browser
        .post(app.url("/account/login"))
        .form(&fields)
        .send()
        .await
        .unwrap();

    assert_eq!(setup.status(), StatusCode::OK);
    let setup = setup.text().await.unwrap();
    assert!(setup.contains("data:image/svg+xml;base64,"), "{setup}");
    assert!(setup.contains(r#"action="/account/login""#));
    let not_yet = browser.get(app.url("/account")).send().await.unwrap();
    assert_eq!(
        not_yet.status(),
        StatusCode::SEE_OTHER,
        "no session before the code"
    );
    let auth = Authenticator::from_page(&setup);
    let csrf = values_of(&setup, "csrf_token").remove(0);
    let wrong = browser
        .post(app.url("/account/login"))
        .form(&[("csrf_token", csrf.as_str()), ("otp", "000000")])
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    let again = wrong.text().await.unwrap();
    assert_eq!(Authenticator::from_page(&again).code(&app), auth.code(&app));
    let done = browser
        .post(app.url("/account/login"))
        .form(&[("csrf_token", csrf.as_str()), ("otp", &auth.code(&app))])
        .send()
        .await
        .unwrap();

    assert_eq!(done.status(), StatusCode::OK);
    let codes = done.text().await.unwrap();
    assert_eq!(recovery_codes(&codes).len(), 10);
    assert!(codes.contains(r#"href="/account""#), "{codes}");
    let page = account_page(&app, &browser).await;
    assert!(
        page.contains("Set up on") && page.contains("10 codes left."),
        "{page}"
    );
    assert!(enrolment::is_enrolled(&app.state, "alan").await.unwrap());
    assert_eq!(audited(&app, "second_factor_enrolled").await.len(), 1);
}
