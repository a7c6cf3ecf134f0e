//! The admin screen, driven as a browser without script would: sign-in, register, the secret
//! shown once, edit, rotate, disable, delete, the audit page; refusals and the idle timeout.

use crate::helpers::*;
use crate::mfa_helpers::between;
use reqwest::{Client, StatusCode};

/// The form of `page` whose action ends with `action`: its action and hidden inputs.
pub(crate) fn form(page: &str, action: &str) -> Form {
    let needle = format!("action=\"{}\"", action);
    let at = page
        .find(&needle)
        .unwrap_or_else(|| panic!("no form posting to {action} in {page}"));
    let start = page[..at].rfind("<form").unwrap();
    let end = at + page[at..].find("</form>").unwrap();
    Form::parse(&page[start..end])
}

pub async fn post(
    browser: &Client,
    app: &TestApp,
    page: &str,
    action: &str,
    fields: &[(&str, &str)],
) -> reqwest::Response {
    let form = form(page, action);
    let mut body = form.hidden;
    body.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    browser
        .post(app.url(&form.action))
        .form(&body)
        .send()
        .await
        .unwrap()
}

pub async fn get(browser: &Client, app: &TestApp, path: &str) -> (StatusCode, String) {
    let r = browser.get(app.url(path)).send().await.unwrap();
    (r.status(), r.text().await.unwrap())
}

/// The value of the input with id `id`.
pub(crate) fn input(page: &str, id: &str) -> String {
    let at = page.find(&format!("id=\"{id}\"")).unwrap();
    let tag = &page[page[..at].rfind("<input").unwrap()..];
    let start = tag.find(" value=\"").unwrap() + 8;
    unescape(&tag[start..start + tag[start..].find('"').unwrap()])
}

/// A browser signed in to the admin screen as `user`; answers the response to the sign-in.
pub async fn sign_in(app: &TestApp, user: &str, password: &str) -> (Client, reqwest::Response) {
    let browser = app.browser();
    let first = browser.get(app.url("/admin/apps")).send().await.unwrap();
    assert_eq!(first.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&first), "/admin/login");
    let (_, page) = get(&browser, app, "/admin/login").await;
    let after = post(
        &browser,
        app,
        &page,
        "/admin/login",
        &[("username", user), ("password", password)],
    )
    .await;
    (browser, after)
}

async fn screen_life(backends: Backends) {
    let app = spawn_app(backends).await;
    let (user, pw) = superadmin(backends);
    let (browser, after) = sign_in(&app, user, pw).await;
    assert_eq!(after.status(), StatusCode::SEE_OTHER);
    let (status, list) = get(&browser, &app, "/admin/apps").await;
    assert_eq!(status, StatusCode::OK);
    assert!(list.contains("No apps are registered yet"), "{list}");

    // Register, with a name that must stay text.
    let (_, new) = get(&browser, &app, "/admin/apps/new").await;
    let bad = post(
        &browser,
        &app,
        &new,
        "/admin/apps",
        &[
            ("name", "X"),
            (
                "redirect_uris",
                "http://x.example.com/cb\nhttps://ok.example.com/cb#f",
            ),
            ("app_type", "confidential"),
        ],
    )
    .await;
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    let bad = unescape(&bad.text().await.unwrap());
    assert!(
        bad.contains("`http://x.example.com/cb` must use https") && bad.contains("has a fragment"),
        "{bad}"
    );
    let name = "<script>alert(1)</script>";
    let created = post(
        &browser,
        &app,
        &new,
        "/admin/apps",
        &[
            ("name", name),
            ("redirect_uris", "https://screen.example.com/cb"),
            ("app_type", "confidential"),
            ("require_pkce", "on"),
        ],
    )
    .await;
    assert_eq!(created.status(), StatusCode::CREATED);
    assert_eq!(created.headers()["x-frame-options"], "DENY");
    let created = created.text().await.unwrap();
    assert!(
        !created.contains(name) && created.contains("&lt;script&gt;"),
        "{created}"
    );
    let registered = Registered {
        client_id: input(&created, "client_id"),
        client_secret: Some(input(&created, "client_secret")),
        redirect_uri: "https://screen.example.com/cb".into(),
    };
    let (code, verifier) = app.code_for(&registered, "alan").await;
    let tokens = app.exchange(&registered, &code, &verifier).await;
    let id = registered.client_id.clone();

    // The secret is never shown again.
    let (_, shown) = get(&browser, &app, &format!("/admin/apps/{id}")).await;
    assert!(!shown.contains(registered.client_secret.as_deref().unwrap()));
    assert!(shown.contains("&lt;script&gt;") && !shown.contains(name));

    // Search finds it by id, not by an unrelated word.
    let (_, found) = get(&browser, &app, &format!("/admin/apps?q={}", &id[..6])).await;
    assert!(found.contains(&id));
    let (_, none) = get(&browser, &app, "/admin/apps?q=payroll").await;
    assert!(none.contains("No app matches") && !none.contains(&id));

    // Edit, rotate, disable.
    let saved = post(
        &browser,
        &app,
        &shown,
        &format!("/admin/apps/{id}"),
        &[
            ("name", "Screen"),
            (
                "redirect_uris",
                "https://screen.example.com/cb\nhttps://screen.example.com/cb2",
            ),
            ("require_pkce", "on"),
        ],
    )
    .await;
    assert_eq!(
        saved.status(),
        StatusCode::SEE_OTHER,
        "{}",
        saved.text().await.unwrap()
    );
    assert_eq!(location(&saved), format!("/admin/apps/{id}?done=updated"));
    let rotated = post(
        &browser,
        &app,
        &shown,
        &format!("/admin/apps/{id}/rotate"),
        &[],
    )
    .await
    .text()
    .await
    .unwrap();
    let new_secret = input(&rotated, "client_secret");
    assert_ne!(Some(new_secret), registered.client_secret);
    post(
        &browser,
        &app,
        &shown,
        &format!("/admin/apps/{id}/disable"),
        &[],
    )
    .await;
    let access = tokens["access_token"].as_str().unwrap();
    assert_eq!(
        app.userinfo(access).await.status(),
        StatusCode::UNAUTHORIZED
    );
    let (_, shown) = get(&browser, &app, &format!("/admin/apps/{id}?done=disabled")).await;
    assert!(shown.contains("App disabled") && shown.contains("badge-off"));

    // Delete after confirmation; the audit page tells the story.
    let (_, confirm) = get(&browser, &app, &format!("/admin/apps/{id}/delete")).await;
    let deleted = post(
        &browser,
        &app,
        &confirm,
        &format!("/admin/apps/{id}/delete"),
        &[],
    )
    .await;
    assert_eq!(location(&deleted), "/admin/apps?done=deleted");
    let (status, _) = get(&browser, &app, &format!("/admin/apps/{id}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, log) = get(&browser, &app, &format!("/admin/audit?client_id={id}")).await;
    for action in [
        "app deleted",
        "app disabled",
        "secret rotated",
        "app updated",
        "app created",
        "token issued",
    ] {
        assert!(
            log.contains(&format!("<td>{action}</td>")),
            "{action} missing from {log}"
        );
    }
}

#[tokio::test]
async fn a_superadmin_runs_the_whole_life_of_an_app_from_the_screen_in_memory() {
    screen_life(Backends::Embedded).await;
}

#[tokio::test]
async fn a_superadmin_runs_the_whole_life_of_an_app_from_the_screen_on_redis_and_ldap() {
    screen_life(Backends::Real).await;
}

#[tokio::test]
async fn a_non_superadmin_gets_a_403_page_and_no_admin_session() {
    let app = spawn_app(Backends::Embedded).await;
    let (browser, refused) = sign_in(&app, "grace", "grace-demo").await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert!(refused.text().await.unwrap().contains("Superadmins only"));
    let (status, _) = get(&browser, &app, "/admin/apps").await;
    assert_eq!(status, StatusCode::SEE_OTHER);

    // Signed in to single sign-on as a non-superadmin: still refused.
    let registered = app.register("https://x.example.com/cb", false).await;
    let sso = app.browser();
    app.sign_in_and_approve(&sso, &registered, "grace", "grace-demo", &[])
        .await;
    let page = sso.get(app.url("/admin/apps")).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn state_changing_forms_without_the_csrf_token_are_refused() {
    let app = spawn_app(Backends::Embedded).await;
    let registered = app.register("https://csrf.example.com/cb", false).await;
    let (browser, _) = sign_in(&app, "ada", "ada-demo").await;
    let path = format!("/admin/apps/{}/disable", registered.client_id);
    for body in [vec![], vec![("csrf_token", "forged")]] {
        let r = browser
            .post(app.url(&path))
            .form(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::FORBIDDEN);
    }
    let (_, page) = get(
        &browser,
        &app,
        &format!("/admin/apps/{}", registered.client_id),
    )
    .await;
    assert!(page.contains("badge-on"));
    // The sign-in form itself needs its cookie-bound token.
    let r = app
        .browser()
        .post(app.url("/admin/login"))
        .form(&[
            ("username", "ada"),
            ("password", "ada-demo"),
            ("csrf_token", "x"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_admin_screen_asks_for_the_password_again_after_the_idle_timeout() {
    let app = spawn_app(Backends::Embedded).await;
    let (browser, _) = sign_in(&app, "ada", "ada-demo").await;
    app.clock.advance(600);
    assert_eq!(get(&browser, &app, "/admin/apps").await.0, StatusCode::OK);
    app.clock.advance(600);
    assert_eq!(
        get(&browser, &app, "/admin/apps").await.0,
        StatusCode::OK,
        "activity renews the timeout"
    );
    app.clock.advance(901);
    let r = browser.get(app.url("/admin/apps")).send().await.unwrap();
    assert_eq!(
        (r.status(), location(&r)),
        (StatusCode::SEE_OTHER, "/admin/login".to_owned())
    );
}

#[tokio::test]
async fn a_superadmin_under_the_policy_passes_the_second_factor_on_a_second_page() {
    let app = spawn_app_with(
        Backends::Embedded,
        &crate::mfa_helpers::policy("superadmin"),
    )
    .await;
    let (user, pw) = superadmin(Backends::Embedded);

    // Not set up yet: the screen says how, and opens nothing.
    let (browser, refused) = sign_in(&app, user, pw).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert!(refused.text().await.unwrap().contains("enrol-mfa"));
    let (status, _) = get(&browser, &app, "/admin/apps").await;
    assert_eq!(status, StatusCode::SEE_OTHER);

    let (auth, _) = crate::mfa_admin::enrol_by_api(&app, user, pw).await;
    let (browser, step) = sign_in(&app, user, pw).await;
    assert_eq!(
        step.status(),
        StatusCode::OK,
        "the password alone opens nothing"
    );
    let page = step.text().await.unwrap();
    assert!(page.contains("name=\"otp\""), "{page}");
    let (status, _) = get(&browser, &app, "/admin/apps").await;
    assert_eq!(status, StatusCode::SEE_OTHER);

    let wrong = post(&browser, &app, &page, "/admin/login", &[("otp", "000000")]).await;
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    let page = wrong.text().await.unwrap();
    assert!(page.contains("not right"), "{page}");

    app.clock.advance(30);
    let code = auth.code(&app);
    let done = post(&browser, &app, &page, "/admin/login", &[("otp", &code)]).await;
    assert_eq!(done.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&done), "/admin/apps");
    let (status, list) = get(&browser, &app, "/admin/apps").await;
    assert_eq!(status, StatusCode::OK);
    assert!(list.contains("Connected Apps"));

    // A code already used cannot open a second browser.
    let (other, step) = sign_in(&app, user, pw).await;
    let page = step.text().await.unwrap();
    let replay = post(&other, &app, &page, "/admin/login", &[("otp", &code)]).await;
    assert_eq!(replay.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_superadmin_removes_a_users_second_factor_from_the_screen() {
    let app = spawn_app(Backends::Embedded).await;
    crate::mfa_admin::enrol_by_api(&app, "grace", &password(Backends::Embedded, "grace")).await;
    let (user, pw) = superadmin(Backends::Embedded);
    let (browser, _) = sign_in(&app, user, pw).await;

    let (status, page) = get(&browser, &app, "/admin/users").await;
    assert_eq!(status, StatusCode::OK);
    let done = post(
        &browser,
        &app,
        &page,
        "/admin/users",
        &[("username", "grace")],
    )
    .await;
    assert_eq!(done.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&done), "/admin/users?reset=grace&admin=0");
    let (_, page) = get(&browser, &app, &location(&done)).await;
    assert!(
        page.contains("Two-step verification of grace removed"),
        "{page}"
    );
    assert!(app
        .state
        .store
        .second_factor("grace")
        .await
        .unwrap()
        .is_none());

    let again = post(
        &browser,
        &app,
        &page,
        "/admin/users",
        &[("username", "grace")],
    )
    .await;
    assert_eq!(again.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(again.text().await.unwrap().contains("nothing to remove"));

    let (_, audit) = get(&browser, &app, "/admin/audit?action=second_factor_reset").await;
    assert!(audit.contains("second factor of grace removed"), "{audit}");
}

#[tokio::test]
async fn a_superadmin_looks_up_which_second_factors_a_user_has() {
    let app = spawn_app(Backends::Embedded).await;
    crate::mfa_admin::enrol_by_api(&app, "grace", &password(Backends::Embedded, "grace")).await;
    let (user, pw) = superadmin(Backends::Embedded);
    let (browser, _) = sign_in(&app, user, pw).await;

    let (status, grace) = get(&browser, &app, "/admin/users?user=+grace+").await;
    let (_, alan) = get(&browser, &app, "/admin/users?user=alan").await;

    assert_eq!(status, StatusCode::OK);
    let factors = between(&grace, r#"id="user-factors""#, "</dl>");
    assert!(factors.contains("Yes, set up on"), "{factors}");
    assert!(factors.contains("10 codes left."), "{factors}");
    assert_eq!(
        input(&grace, "username"),
        "grace",
        "the reset applies to grace"
    );
    assert_eq!(input(&grace, "revoke-username"), "grace");
    let factors = between(&alan, r#"id="user-factors""#, "</dl>");
    assert!(
        factors.contains(r#"<dd id="factor-authenticator">No</dd>"#),
        "{factors}"
    );
    assert!(factors.contains(r#"<dd id="factor-recovery-codes">None</dd>"#));

    let reset = post(
        &browser,
        &app,
        &grace,
        "/admin/users",
        &[("username", "grace")],
    )
    .await;
    assert_eq!(reset.status(), StatusCode::SEE_OTHER);
    let (_, after) = get(&browser, &app, "/admin/users?user=grace").await;
    assert!(
        after.contains(r#"<dd id="factor-authenticator">No</dd>"#),
        "{after}"
    );
}
