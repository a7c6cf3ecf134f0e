//! Passkeys changed on the account page: added with the ceremony, renamed, removed; each
//! after the re-check when the sign-in is stale, with the passkey's id carried through it
//! signed; another person's id refused; each audited.

use super::*;
use crate::account::{account_page, audited, post, values_of};
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
