//! A passkey as the second factor after the password.

use super::*;
use sso_bridge::mfa::enrolment;

/// Signs `user` in with the password; answers the second-factor page.
async fn second_factor_page(
    app: &TestApp,
    browser: &Client,
    reg: &Registered,
    user: &str,
) -> String {
    let after = password_step(app, browser, reg, user, &app.password(user)).await;
    assert!(
        location(&after).contains("/oauth/second-factor?"),
        "{}",
        location(&after)
    );
    let (status, page) = follow(browser, &after).await;
    assert_eq!(status, StatusCode::OK);
    page
}

async fn a_passkey_is_offered_first_and_passes_with_pwd_hwk_user(backends: Backends) {
    let app = spawn_app_on_localhost(backends, &[]).await;
    let reg = register_direct(&app).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "alan", "Laptop").await;

    let browser = app.browser();
    let page = second_factor_page(&app, &browser, &reg, "alan").await;
    let (options, _) = passkey_form(&page).expect("the passkey is offered");
    assert!(page.find("data-passkey=").unwrap() < page.find("</form>").unwrap());
    assert!(page.contains(r#"<script src="/assets/passkey.js" defer></script>"#));
    // No authenticator app: no code form.
    assert!(!page.contains("name=\"otp\""));
    let answer = auth.assert(&options);
    let done = post_passkey(&browser, &page, &answer).await;
    let code = code_after(&app, &browser, done).await;

    assert_eq!(
        amr_for(&app, &reg, &code).await,
        serde_json::json!(["pwd", "hwk", "user"])
    );
    let stored = passkey::list(&app.state, "alan").await.unwrap();
    assert!(stored[0].last_used_at.is_some());
}

#[tokio::test]
async fn a_person_with_a_passkey_is_offered_it_first_and_it_counts_as_pwd_hwk_user_embedded() {
    a_passkey_is_offered_first_and_passes_with_pwd_hwk_user(Backends::Embedded).await;
}

#[tokio::test]
async fn a_person_with_a_passkey_is_offered_it_first_and_it_counts_as_pwd_hwk_user_on_redis_and_ldap(
) {
    a_passkey_is_offered_first_and_passes_with_pwd_hwk_user(Backends::Real).await;
}

#[tokio::test]
async fn without_user_verification_the_passkey_counts_as_pwd_and_hwk() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let reg = register_direct(&app).await;
    let mut auth = authenticator(&app);
    auth.verifies_user = false;
    add_passkey(&app, &mut auth, "alan", "Key").await;

    let browser = app.browser();
    let page = second_factor_page(&app, &browser, &reg, "alan").await;
    let (options, _) = passkey_form(&page).unwrap();
    let done = post_passkey(&browser, &page, &auth.assert(&options)).await;
    let code = code_after(&app, &browser, done).await;

    assert_eq!(
        amr_for(&app, &reg, &code).await,
        serde_json::json!(["pwd", "hwk"])
    );
}

#[tokio::test]
async fn an_authenticator_code_still_works_beside_a_passkey() {
    let app = spawn_app_on_localhost(Backends::Embedded, &policy("hr")).await;
    let reg = register_direct(&app).await;
    let browser = app.browser();
    let (totp, _, page) = enrol(&app, &browser, &reg, "hedy", &app.password("hedy")).await;
    app.submit(&browser, &page, &[]).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "hedy", "Phone").await;
    app.clock.advance(30);

    let browser = app.browser();
    let page = second_factor_page(&app, &browser, &reg, "hedy").await;
    assert!(passkey_form(&page).is_some());
    assert!(page.contains("name=\"otp\""));
    let form = Form::parse(&page[page.find("</form>").unwrap()..]);
    let mut body: Vec<(String, String)> = form.hidden.into_iter().collect();
    body.push(("otp".into(), totp.code(&app)));
    let done = browser.post(form.action).form(&body).send().await.unwrap();
    let code = code_after(&app, &browser, done).await;

    assert_eq!(
        amr_for(&app, &reg, &code).await,
        serde_json::json!(["pwd", "otp"])
    );
}

#[tokio::test]
async fn a_replayed_challenge_is_refused() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let reg = register_direct(&app).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "alan", "Laptop").await;
    let browser = app.browser();
    let first = second_factor_page(&app, &browser, &reg, "alan").await;
    let (options, _) = passkey_form(&first).unwrap();
    let old_answer = auth.assert(&options);

    // The page shown again has a new challenge: the answer to the old one does not pass it.
    let again = browser
        .get(app.url(&format!(
            "/oauth/second-factor?request_id={}",
            Form::parse(&first).hidden[0].1
        )))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let refused = post_passkey(&browser, &again, &old_answer).await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);

    // The refusal spent that challenge too, and the page it shows has a new one: the same
    // answer once more is refused again.
    let page = refused_page(refused).await;
    assert_eq!(
        post_passkey(&browser, &page, &old_answer).await.status(),
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn an_answer_that_passed_does_not_pass_again() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let reg = register_direct(&app).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "alan", "Laptop").await;
    let browser = app.browser();
    let page = second_factor_page(&app, &browser, &reg, "alan").await;
    let (options, _) = passkey_form(&page).unwrap();
    let answer = auth.assert(&options);
    assert_eq!(
        post_passkey(&browser, &page, &answer).await.status(),
        StatusCode::SEE_OTHER
    );

    let spent = post_passkey(&browser, &page, &answer).await;

    assert_eq!(spent.status(), StatusCode::BAD_REQUEST);
    assert!(spent
        .text()
        .await
        .unwrap()
        .contains("The passkey request has expired"));
}

async fn refused_page(response: Response) -> String {
    let page = response.text().await.unwrap();
    assert!(page.contains("That passkey was not accepted"), "{page}");
    page
}

#[tokio::test]
async fn an_answer_made_for_another_origin_is_refused() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let reg = register_direct(&app).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "alan", "Laptop").await;
    let browser = app.browser();
    let page = second_factor_page(&app, &browser, &reg, "alan").await;
    let (options, _) = passkey_form(&page).unwrap();

    auth.origin = auth.origin.replace("localhost", "phish.localhost");
    let refused = post_passkey(&browser, &page, &auth.assert(&options)).await;

    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_passkey_of_another_person_is_refused() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let reg = register_direct(&app).await;
    let mut alans = authenticator(&app);
    add_passkey(&app, &mut alans, "alan", "Laptop").await;
    let mut hedys = authenticator(&app);
    add_passkey(&app, &mut hedys, "hedy", "Phone").await;
    let browser = app.browser();
    let page = second_factor_page(&app, &browser, &reg, "alan").await;
    let (options, _) = passkey_form(&page).unwrap();

    let refused = post_passkey(&browser, &page, &hedys.assert(&options)).await;

    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let ids = |list: Vec<sso_bridge::store::PasskeyRecord>| list.len();
    assert_eq!(ids(passkey::list(&app.state, "alan").await.unwrap()), 1);
}

#[tokio::test]
async fn a_signature_counter_that_goes_back_is_refused_as_a_cloned_authenticator() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let reg = register_direct(&app).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "alan", "Laptop").await;
    let browser = app.browser();
    let page = second_factor_page(&app, &browser, &reg, "alan").await;
    let (options, _) = passkey_form(&page).unwrap();
    let done = post_passkey(&browser, &page, &auth.assert(&options)).await;
    code_after(&app, &browser, done).await;

    // A copy of the key that never counted the first use.
    auth.held[0].counter = 0;
    let browser = app.browser();
    let page = second_factor_page(&app, &browser, &reg, "alan").await;
    let (options, _) = passkey_form(&page).unwrap();
    let refused = post_passkey(&browser, &page, &auth.assert(&options)).await;

    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn resetting_the_second_factor_removes_the_passkeys() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let reg = register_direct(&app).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "alan", "Laptop").await;
    add_passkey(&app, &mut auth, "alan", "Phone").await;

    assert!(enrolment::reset(&app.state, "alan").await.unwrap());

    assert!(passkey::list(&app.state, "alan").await.unwrap().is_empty());
    let browser = app.browser();
    let after = password_step(&app, &browser, &reg, "alan", &app.password("alan")).await;
    assert!(
        !location(&after).contains("/oauth/second-factor"),
        "{}",
        location(&after)
    );
}

#[tokio::test]
async fn with_an_ip_address_base_url_no_passkey_is_offered() {
    let app = spawn_app(Backends::Embedded).await;

    assert!(!passkey::offered(&app.state));
    let refused = passkey::start_registration(&app.state, "alan", "Alan", "k").await;
    assert!(matches!(refused, Err(passkey::PasskeyError::NotOffered)));
    let browser = app.browser();
    let reg = register_direct(&app).await;
    let page = app
        .authorize(&browser, &params(&reg))
        .await
        .text()
        .await
        .unwrap();
    assert!(passkey_form(&page).is_none());
    assert!(!page.contains("passkey.js"));
}

/// Posts `answer` and `name` in the passkey form of the set-up page.
async fn post_new_passkey(browser: &Client, page: &str, name: &str, answer: &str) -> Response {
    let (_, form) = passkey_form(page).expect("a passkey set-up form");
    let mut body: Vec<(String, String)> = form.hidden.into_iter().collect();
    body.retain(|(field, _)| field != "credential");
    body.push(("credential".into(), answer.into()));
    body.push(("name".into(), name.into()));
    browser.post(form.action).form(&body).send().await.unwrap()
}

#[tokio::test]
async fn under_policy_a_person_may_set_up_a_passkey_instead_of_an_app_and_is_through() {
    let app = spawn_app_on_localhost(Backends::Embedded, &policy("employee")).await;
    let reg = register_direct(&app).await;
    let browser = app.browser();
    let after = password_step(&app, &browser, &reg, "alan", &app.password("alan")).await;
    assert!(location(&after).contains("/oauth/second-factor/enrol?"));
    let (_, page) = follow(&browser, &after).await;
    // Both ways are offered: the app's QR code, and a passkey.
    assert!(page.contains("data:image/svg+xml;base64,"));
    let (options, form) = passkey_form(&page).expect("a passkey is offered");
    assert!(form.action.ends_with("/oauth/second-factor/enrol/passkey"));
    assert_eq!(options["authenticatorSelection"]["residentKey"], "required");
    assert_eq!(
        options["authenticatorSelection"]["userVerification"],
        "preferred"
    );
    let mut auth = authenticator(&app);
    let answer = auth.register(&options);

    let too_long = post_new_passkey(&browser, &page, &"x".repeat(65), &answer).await;
    assert_eq!(too_long.status(), StatusCode::BAD_REQUEST);
    let page = too_long.text().await.unwrap();
    assert!(page.contains("Give the passkey a name of 1 to 64 characters"));
    let (options, _) = passkey_form(&page).unwrap();
    let answer = auth.register(&options);
    let done = post_new_passkey(&browser, &page, "Work laptop", &answer).await;
    let code = code_after(&app, &browser, done).await;

    assert_eq!(
        amr_for(&app, &reg, &code).await,
        serde_json::json!(["pwd", "hwk", "user"])
    );
    let stored = passkey::list(&app.state, "alan").await.unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].name, "Work laptop");
    // From then on the passkey is the second factor.
    let browser = app.browser();
    let page = second_factor_page(&app, &browser, &reg, "alan").await;
    let (options, _) = passkey_form(&page).unwrap();
    let done = post_passkey(&browser, &page, &auth.assert_with(1, &options)).await;
    code_after(&app, &browser, done).await;
}
