//! Passkeys at the admin side: the admin screen's second step offers the passkey (the same
//! ceremony as the app sign-in), and the admin API, which has no browser, says what a
//! superadmin with only a passkey needs instead.

use super::*;
use crate::helpers::Form;
use serde_json::json;
use sso_bridge::mfa::enrolment;

/// Signs `user` in to the admin screen with the password; answers the second step's page.
async fn admin_second_step(app: &TestApp, browser: &Client, user: &str) -> String {
    let page = browser.get(app.url("/admin/login")).send().await.unwrap();
    let form = Form::parse(&page.text().await.unwrap());
    let mut body = form.hidden;
    let password = app.password(user);
    body.extend(
        [("username", user), ("password", password.as_str())].map(|(k, v)| (k.into(), v.into())),
    );
    let response = browser
        .post(app.url(&form.action))
        .form(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.text().await.unwrap()
}

#[tokio::test]
async fn a_superadmin_with_only_a_passkey_signs_in_to_the_admin_screen_with_it() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "ada", "Laptop").await;
    let browser = app.browser();

    let page = admin_second_step(&app, &browser, "ada").await;
    let (options, form) = passkey_form(&page).expect("the passkey is offered");
    assert!(
        form.action.ends_with("/admin/login/passkey"),
        "{}",
        form.action
    );
    assert!(page.contains(r#"<script src="/assets/passkey.js" defer></script>"#));
    // No authenticator app: no code form that could never pass.
    assert!(!page.contains("name=\"otp\""), "{page}");
    let done = post_passkey(&browser, &page, &auth.assert(&options)).await;

    assert_eq!(done.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&done), "/admin/apps");
    let apps = browser.get(app.url("/admin/apps")).send().await.unwrap();
    assert_eq!(apps.status(), StatusCode::OK);
    let stored = passkey::list(&app.state, "ada").await.unwrap();
    assert!(stored[0].last_used_at.is_some());
}

#[tokio::test]
async fn a_refused_passkey_at_the_admin_screen_shows_the_step_again_and_opens_nothing() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "ada", "Laptop").await;
    let browser = app.browser();
    let page = admin_second_step(&app, &browser, "ada").await;
    let (options, _) = passkey_form(&page).unwrap();
    let answer = auth.assert(&options);

    // The answer of another ceremony (the challenge of this page, replayed after a first use).
    let first = post_passkey(&browser, &page, &answer).await;
    assert_eq!(first.status(), StatusCode::SEE_OTHER);
    let other = app.browser();
    let page = admin_second_step(&app, &other, "ada").await;
    let refused = post_passkey(&other, &page, &answer).await;

    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let again = refused.text().await.unwrap();
    assert!(
        passkey_form(&again).is_some(),
        "the passkey is offered again"
    );
    let apps = other.get(app.url("/admin/apps")).send().await.unwrap();
    assert_ne!(apps.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_superadmin_with_a_passkey_and_an_app_is_offered_both_at_the_admin_screen() {
    let app = spawn_app_on_localhost(Backends::Embedded, &policy("superadmin")).await;
    let reg = register_direct(&app).await;
    enrol(&app, &app.browser(), &reg, "ada", &app.password("ada")).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "ada", "Laptop").await;

    let page = admin_second_step(&app, &app.browser(), "ada").await;

    assert!(passkey_form(&page).is_some());
    assert!(page.contains("name=\"otp\""));
}

#[tokio::test]
async fn the_admin_api_tells_a_superadmin_with_only_a_passkey_what_the_cli_needs() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "ada", "Laptop").await;

    for otp in [None, Some("123456")] {
        let mut body = json!({"username": "ada", "password": app.password("ada")});
        if let Some(otp) = otp {
            body["otp"] = otp.into();
        }
        let response = app
            .api
            .post(app.url("/admin/api/session"))
            .json(&body)
            .send()
            .await
            .unwrap();

        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"], "mfa_passkey_only", "{body}");
        let description = body["error_description"].as_str().unwrap();
        assert!(description.contains("authenticator app"), "{description}");
        assert!(description.contains("recovery code"), "{description}");
    }
}

#[tokio::test]
async fn a_password_alone_does_not_add_an_authenticator_app_beside_a_passkey() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "ada", "Laptop").await;

    let body = json!({"username": "ada", "password": app.password("ada")});
    let response = app
        .api
        .post(app.url("/admin/api/second-factor/setup"))
        .json(&body)
        .send()
        .await
        .unwrap();

    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(!enrolment::is_enrolled(&app.state, "ada").await.unwrap());
}

#[tokio::test]
async fn the_users_page_shows_how_many_passkeys_a_person_has_and_their_names() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "ada", "Admin key").await;
    add_passkey(&app, &mut auth, "grace", "Laptop").await;
    add_passkey(&app, &mut auth, "grace", "Phone <work>").await;
    let browser = app.browser();
    let page = admin_second_step(&app, &browser, "ada").await;
    let (options, _) = passkey_form(&page).expect("the passkey is offered");
    let answer = auth.assert_with(0, &options);
    let done = post_passkey(&browser, &page, &answer).await;
    assert_eq!(location(&done), "/admin/apps");

    let grace = browser
        .get(app.url("/admin/users?user=grace"))
        .send()
        .await
        .unwrap();
    let alan = browser
        .get(app.url("/admin/users?user=alan"))
        .send()
        .await
        .unwrap();

    assert_eq!(grace.status(), StatusCode::OK);
    let grace = grace.text().await.unwrap();
    let row = between(&grace, r#"<dd id="factor-passkeys">"#, "</dd>");
    assert!(row.contains("2 passkeys:"), "{row}");
    assert!(row.contains("<li>Laptop</li>"), "{row}");
    assert!(row.contains("<li>Phone &lt;work&gt;</li>"), "{row}");
    let alan = alan.text().await.unwrap();
    assert!(alan.contains(r#"<dd id="factor-passkeys">None</dd>"#));
}
