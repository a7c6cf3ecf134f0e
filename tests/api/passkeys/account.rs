//! Passkeys changed on the account page: added with the ceremony, renamed, removed; each
//! after the re-check when the sign-in is stale, with the passkey's id carried through it
//! signed; another person's id refused; each audited.

use super::*;
use crate::account::page::{account_page, audited, post, values_of};
use authenticator::SoftAuthenticator;

/// Signs `user` in at `/account/login` (password only) in a new browser.
async fn signed_in(app: &TestApp, user: &str) -> Client {
    let browser = app.browser();
    let page = browser.get(app.url("/account/login")).send().await.unwrap();
    let page = page.text().await.unwrap();
    let csrf = values_of(&page, "csrf_token").remove(0);
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

/// The id of `sub`'s passkey named `name`.
async fn id_of(app: &TestApp, sub: &str, name: &str) -> String {
    passkey::list(&app.state, sub)
        .await
        .unwrap()
        .into_iter()
        .find(|p| p.name == name)
        .map(|p| p.id)
        .expect("the passkey")
}

/// Adds a passkey named `name` from the account page's ceremony (the sign-in being fresh).
async fn add_from_page(app: &TestApp, browser: &Client, auth: &mut SoftAuthenticator, name: &str) {
    let page = browser
        .get(app.url("/account/passkeys/add"))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let page = page.text().await.unwrap();
    let (options, form) = passkey_form(&page).expect("the add ceremony");
    assert_eq!(form.action, app.url("/account/passkeys/add"));
    let answer = auth.register(&options);
    let csrf = values_of(&page, "csrf_token").remove(0);
    let added = browser
        .post(app.url("/account/passkeys/add"))
        .form(&[
            ("csrf_token", csrf.as_str()),
            ("name", name),
            ("credential", answer.as_str()),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(location(&added), "/account?done=passkey_added");
}

#[tokio::test]
async fn a_person_adds_renames_and_removes_their_own_passkeys_and_each_change_is_audited() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let mut auth = authenticator(&app);
    let browser = signed_in(&app, "alan").await;

    add_from_page(&app, &browser, &mut auth, "Desk key").await;
    let shown = account_page(&app, &browser).await;
    assert!(shown.contains("Desk key"), "{shown}");

    let id = id_of(&app, "alan", "Desk key").await;
    let renamed = post(
        &app,
        &browser,
        "/account/passkeys/rename",
        &[("passkey", &id), ("name", "Office key")],
    )
    .await;
    assert_eq!(location(&renamed), "/account?done=passkey_renamed");
    assert_eq!(id_of(&app, "alan", "Office key").await, id);

    let removed = post(
        &app,
        &browser,
        "/account/passkeys/remove",
        &[("passkey", &id)],
    )
    .await;
    assert_eq!(location(&removed), "/account?done=passkey_removed");
    assert!(passkey::list(&app.state, "alan").await.unwrap().is_empty());

    for action in ["passkey_added", "passkey_renamed", "passkey_removed"] {
        assert_eq!(audited(&app, action).await.len(), 1, "{action}");
    }
    let shown = account_page(&app, &browser).await;
    assert!(
        shown.contains("passkey renamed"),
        "recent activity: {shown}"
    );
}

#[tokio::test]
async fn another_persons_passkey_cannot_be_renamed_or_removed() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "ada", "Ada's key").await;
    let theirs = id_of(&app, "ada", "Ada's key").await;
    let browser = signed_in(&app, "alan").await;

    let renamed = post(
        &app,
        &browser,
        "/account/passkeys/rename",
        &[("passkey", &theirs), ("name", "Mine now")],
    )
    .await;
    assert!(renamed.status().is_client_error(), "{}", renamed.status());
    let removed = post(
        &app,
        &browser,
        "/account/passkeys/remove",
        &[("passkey", &theirs)],
    )
    .await;
    assert!(removed.status().is_client_error(), "{}", removed.status());

    let kept = passkey::list(&app.state, "ada").await.unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].name, "Ada's key");
}

#[tokio::test]
async fn a_stale_sign_in_re_checks_first_and_the_carried_id_cannot_be_swapped() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "ada", "Ada's key").await;
    let theirs = id_of(&app, "ada", "Ada's key").await;
    let browser = signed_in(&app, "alan").await;
    add_from_page(&app, &browser, &mut auth, "Laptop").await;
    let mine = id_of(&app, "alan", "Laptop").await;
    app.clock.advance(6 * 60);

    let asked = post(
        &app,
        &browser,
        "/account/passkeys/remove",
        &[("passkey", &mine)],
    )
    .await;
    assert_eq!(asked.status(), StatusCode::SEE_OTHER);
    let to = location(&asked);
    assert!(
        to.starts_with("/account/confirm?next=remove_passkey&passkey="),
        "{to}"
    );
    let page = browser.get(app.url(&to)).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let page = page.text().await.unwrap();
    let csrf = values_of(&page, "csrf_token").remove(0);
    let sig = values_of(&page, "sig").remove(0);
    let pw = app.password("alan");
    let confirm = |passkey: String| {
        let body = [
            ("csrf_token", csrf.clone()),
            ("next", "remove_passkey".to_owned()),
            ("passkey", passkey),
            ("name", String::new()),
            ("sig", sig.clone()),
            ("password", pw.clone()),
        ];
        browser.post(app.url("/account/confirm")).form(&body).send()
    };

    let swapped = confirm(theirs.clone()).await.unwrap();
    assert_eq!(swapped.status(), StatusCode::FORBIDDEN);
    assert_eq!(passkey::list(&app.state, "ada").await.unwrap().len(), 1);
    let done = confirm(mine).await.unwrap();
    assert_eq!(location(&done), "/account?done=passkey_removed");
    assert!(passkey::list(&app.state, "alan").await.unwrap().is_empty());
}

#[tokio::test]
async fn a_stale_sign_in_gets_the_re_check_not_a_new_ceremony_from_a_refused_add_form() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let browser = signed_in(&app, "alan").await;
    app.clock.advance(6 * 60);

    // A name that cannot be stored, or an answer that cannot be read: neither may start a
    // ceremony whose answer would then be taken without the re-check.
    for fields in [
        [("name", ""), ("credential", "")],
        [("name", "Laptop"), ("credential", "{not json")],
    ] {
        let refused = post(&app, &browser, "/account/passkeys/add", &fields).await;
        assert_eq!(refused.status(), StatusCode::SEE_OTHER);
        let to = location(&refused);
        assert!(to.starts_with("/account/confirm?next=add_passkey"), "{to}");
    }
    assert!(passkey::list(&app.state, "alan").await.unwrap().is_empty());
}

/// Posts `user`'s password at `/account/login` in `browser`; answers the response.
async fn password_at_account(app: &TestApp, browser: &Client, user: &str) -> Response {
    let page = browser.get(app.url("/account/login")).send().await.unwrap();
    let page = page.text().await.unwrap();
    let csrf = values_of(&page, "csrf_token").remove(0);
    let pw = app.password(user);
    let fields = [
        ("csrf_token", csrf.as_str()),
        ("username", user),
        ("password", pw.as_str()),
    ];
    browser
        .post(app.url("/account/login"))
        .form(&fields)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_person_whose_only_second_factor_is_a_passkey_signs_in_to_the_account_page_with_it() {
    let app = spawn_app_on_localhost(Backends::Embedded, &[]).await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "alan", "Laptop").await;
    let browser = app.browser();

    let step = password_at_account(&app, &browser, "alan").await;
    assert_eq!(step.status(), StatusCode::OK);
    let page = step.text().await.unwrap();
    let (options, form) = passkey_form(&page).expect("the passkey is offered");
    assert_eq!(form.action, app.url("/account/login/passkey"));
    assert!(
        !page.contains(r#"name="otp""#),
        "no code form that could never pass"
    );
    let not_yet = browser.get(app.url("/account")).send().await.unwrap();
    assert_eq!(not_yet.status(), StatusCode::SEE_OTHER);
    let mut someone_else = authenticator(&app);
    add_passkey(&app, &mut someone_else, "ada", "Ada's key").await;
    let wrong = post_passkey(&browser, &page, &someone_else.assert(&options)).await;
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    let page = wrong.text().await.unwrap();
    let (options, _) = passkey_form(&page).expect("offered again");
    let done = post_passkey(&browser, &page, &auth.assert(&options)).await;

    assert_eq!(location(&done), "/account");
    let shown = account_page(&app, &browser).await;
    assert!(shown.contains("Laptop"));
}

#[tokio::test]
async fn with_passwordless_on_the_account_sign_in_offers_a_passkey_alone() {
    let app = spawn_app_on_localhost(
        Backends::Embedded,
        &[("SSO_BRIDGE__MFA__PASSWORDLESS", "true".into())],
    )
    .await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "alan", "Laptop").await;
    let browser = app.browser();

    let page = browser.get(app.url("/account/login")).send().await.unwrap();
    let page = page.text().await.unwrap();
    let (options, form) = passkey_form(&page).expect("sign in with a passkey");
    assert_eq!(form.action, app.url("/account/login/passkey"));
    let done = post_passkey(&browser, &page, &auth.assert(&options)).await;

    assert_eq!(location(&done), "/account");
    let shown = account_page(&app, &browser).await;
    assert!(shown.contains("Laptop"));
    // Signed in without a password, the re-check asks for the passkey.
    app.clock.advance(6 * 60);
    let id = id_of(&app, "alan", "Laptop").await;
    let asked = post(
        &app,
        &browser,
        "/account/passkeys/rename",
        &[("passkey", &id), ("name", "Work")],
    )
    .await;
    let page = browser
        .get(app.url(&location(&asked)))
        .send()
        .await
        .unwrap();
    let page = page.text().await.unwrap();
    assert!(!page.contains(r#"name="password""#), "{page}");
    let (_, form) = passkey_form(&page).expect("the re-check asks for the passkey");
    assert_eq!(form.action, app.url("/account/confirm"));
    // No answer (the person cancelled the browser's prompt) is said as such, with a new
    // request to answer.
    let unanswered = post_passkey(&browser, &page, "").await;
    assert_eq!(unanswered.status(), StatusCode::BAD_REQUEST);
    let page = unanswered.text().await.unwrap();
    let said = page
        .split("id=\"reauth-error\">")
        .nth(1)
        .unwrap_or_default();
    assert!(said.starts_with("No passkey answer arrived"), "{page}");
    let (options, _) = passkey_form(&page).expect("asked again");
    let done = post_passkey(&browser, &page, &auth.assert(&options)).await;
    assert_eq!(location(&done), "/account?done=passkey_renamed");
    assert_eq!(id_of(&app, "alan", "Work").await, id);
}

#[tokio::test]
async fn the_last_second_factor_stays_where_the_policy_requires_one() {
    let app = spawn_app_on_localhost(
        Backends::Embedded,
        &crate::signin::mfa_helpers::policy("finance"),
    )
    .await;
    let mut auth = authenticator(&app);
    add_passkey(&app, &mut auth, "ken", "Laptop").await;
    let browser = app.browser();
    let page = password_at_account(&app, &browser, "ken")
        .await
        .text()
        .await
        .unwrap();
    let (options, _) = passkey_form(&page).expect("the passkey is offered");
    let done = post_passkey(&browser, &page, &auth.assert(&options)).await;
    assert_eq!(location(&done), "/account");
    let id = id_of(&app, "ken", "Laptop").await;

    let refused = post(
        &app,
        &browser,
        "/account/passkeys/remove",
        &[("passkey", &id)],
    )
    .await;

    assert_eq!(location(&refused), "/account?done=passkey_required");
    let page = browser
        .get(app.url(&location(&refused)))
        .send()
        .await
        .unwrap();
    let page = page.text().await.unwrap();
    assert!(page.contains("this is your last one"), "{page}");
    assert_eq!(passkey::list(&app.state, "ken").await.unwrap().len(), 1);
    assert!(audited(&app, "passkey_removed").await.is_empty());
}
