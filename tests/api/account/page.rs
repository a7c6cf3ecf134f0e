//! The account page, `/account`: a person sees the apps they let in and the browsers they are
//! signed in with, takes an app back and ends sessions; ids that are not theirs change nothing.
//! Two real people (ken and alan) against a real slapd and Redis.

use crate::helpers::*;
use crate::support::receiver::{Answer, Receiver};
use reqwest::{Client, StatusCode};
use serde_json::Value;
use std::time::Duration;

/// One person's browser, signed in to one app, with the tokens it got.
struct Signed {
    browser: Client,
    tokens: Value,
}

impl Signed {
    /// The public id of the browser's session (the id_token's `sid`).
    fn sid(&self) -> String {
        use base64::Engine;
        let id_token = self.tokens["id_token"].as_str().unwrap();
        let payload = id_token.split('.').nth(1).unwrap();
        let json = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap();
        let claims: Value = serde_json::from_slice(&json).unwrap();
        claims["sid"].as_str().unwrap().to_owned()
    }
}

/// Signs `user` in to `reg` in `browser` (single sign-on once signed in) and exchanges the code.
async fn sign_in_with(app: &TestApp, browser: Client, reg: &Registered, user: &str) -> Signed {
    let pkce = Pkce::new();
    let extra = [
        ("code_challenge", pkce.challenge.as_str()),
        ("code_challenge_method", "S256"),
    ];
    let mut params = vec![
        ("client_id", reg.client_id.as_str()),
        ("redirect_uri", reg.redirect_uri.as_str()),
        ("response_type", "code"),
        ("scope", "openid profile email"),
        ("state", "s"),
    ];
    params.extend_from_slice(&extra);
    let first = app.authorize(&browser, &params).await;
    let location = if first.status() == StatusCode::FOUND {
        location(&first)
    } else {
        let page = first.text().await.unwrap();
        let after = if page.contains("name=\"password\"") {
            let pw = app.password(user);
            let after = app
                .submit(&browser, &page, &[("username", user), ("password", &pw)])
                .await;
            location(&after)
        } else {
            location(
                &app.submit(&browser, &page, &[("decision", "approve")])
                    .await,
            )
        };
        if after.starts_with(&reg.redirect_uri) {
            after
        } else {
            let consent = browser.get(&after).send().await.unwrap();
            let consent = consent.text().await.unwrap();
            location(
                &app.submit(&browser, &consent, &[("decision", "approve")])
                    .await,
            )
        }
    };
    let tokens = app
        .exchange(reg, &query(&location)["code"], &pkce.verifier)
        .await;
    Signed { browser, tokens }
}

async fn sign_in(app: &TestApp, reg: &Registered, user: &str) -> Signed {
    sign_in_with(app, app.browser(), reg, user).await
}

/// The account page as `browser` sees it (asserted to be shown).
pub(crate) async fn account_page(app: &TestApp, browser: &Client) -> String {
    let page = browser.get(app.url("/account")).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    page.text().await.unwrap()
}

/// Every value of the hidden input `name` on `page`.
pub(crate) fn values_of(page: &str, name: &str) -> Vec<String> {
    let needle = format!("name=\"{name}\" value=\"");
    page.match_indices(&needle)
        .map(|(i, _)| {
            let rest = &page[i + needle.len()..];
            unescape(&rest[..rest.find('"').unwrap()])
        })
        .collect()
}

/// Posts one of the account page's forms from `browser`, with the page's CSRF token.
pub(crate) async fn post(
    app: &TestApp,
    browser: &Client,
    path: &str,
    fields: &[(&str, &str)],
) -> reqwest::Response {
    let page = account_page(app, browser).await;
    let csrf = values_of(&page, "csrf_token").remove(0);
    let mut body = vec![("csrf_token", csrf.as_str())];
    body.extend_from_slice(fields);
    browser
        .post(app.url(path))
        .form(&body)
        .send()
        .await
        .unwrap()
}

/// Whether the access token still reads userinfo.
async fn token_works(app: &TestApp, s: &Signed) -> bool {
    let token = s.tokens["access_token"].as_str().unwrap();
    app.userinfo(token).await.status() == StatusCode::OK
}

/// Whether the browser is still signed in to single sign-on.
async fn still_signed_in(app: &TestApp, browser: &Client) -> bool {
    let page = browser.get(app.url("/account")).send().await.unwrap();
    page.status() == StatusCode::OK
}

/// The audit log's events of `action`, newest first.
pub(crate) async fn audited(app: &TestApp, action: &str) -> Vec<Value> {
    let token = app.superadmin_token().await;
    let log: Value = app
        .api
        .get(app.url(&format!("/admin/api/audit?action={action}")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    log["events"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_browser_without_a_session_signs_in_and_comes_back_to_the_page() {
    let app = spawn_app(Backends::Real).await;
    let browser = app.browser();

    let first = browser.get(app.url("/account")).send().await.unwrap();
    assert_eq!(first.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&first), "/account/login");
    let form = browser.get(app.url("/account/login")).send().await.unwrap();
    let form = form.text().await.unwrap();
    let csrf = values_of(&form, "csrf_token").remove(0);
    let pw = app.password("alan");
    let fields = [
        ("csrf_token", csrf.as_str()),
        ("username", "alan"),
        ("password", pw.as_str()),
    ];
    let after = browser
        .post(app.url("/account/login"))
        .form(&fields)
        .send()
        .await
        .unwrap();

    assert_eq!(after.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&after), "/account");
    let page = browser.get(app.url("/account")).send().await.unwrap();
    assert_eq!(page.headers()["cache-control"], "no-store");
    assert_eq!(page.headers()["x-frame-options"], "DENY");
    let page = page.text().await.unwrap();
    assert!(page.contains("(alan)"), "{page}");
    assert_eq!(values_of(&page, "session").len(), 1);
    assert!(page.contains("id=\"this-browser\""));
    // The sign-in just made is the newest event of the person's activity.
    let activity = &page[page.find("id=\"activity-heading\"").unwrap()..];
    assert!(activity.contains("<td>sign in</td>"), "{activity}");
    assert!(page.contains("Authenticator app") && page.contains("Not set up."));
}

#[tokio::test]
async fn a_person_sees_their_apps_and_sessions_and_nobody_elses() {
    let app = spawn_app(Backends::Real).await;
    let payroll = app.register("https://payroll.example.com/cb", false).await;
    let wiki = app.register("https://wiki.example.com/cb", false).await;
    let hr = app.register("https://hr.example.com/cb", false).await;
    let ken = sign_in(&app, &payroll, "ken").await;
    let ken_wiki = sign_in_with(&app, ken.browser.clone(), &wiki, "ken").await;
    let ken_elsewhere = sign_in(&app, &payroll, "ken").await;
    let alan = sign_in(&app, &hr, "alan").await;

    let page = account_page(&app, &ken.browser).await;

    let mut apps = values_of(&page, "client_id");
    apps.sort();
    let mut expected = vec![payroll.client_id.clone(), wiki.client_id.clone()];
    expected.sort();
    assert_eq!(apps, expected, "ken's apps, not alan's");
    let sessions = values_of(&page, "session");
    assert_eq!(sessions.len(), 2, "{page}");
    assert_eq!(sessions[0], ken.sid(), "this browser first");
    assert_eq!(ken_wiki.sid(), ken.sid());
    assert!(sessions.contains(&ken_elsewhere.sid()));
    assert!(!sessions.contains(&alan.sid()));
    assert!(page.contains("openid") && page.contains("email"));
}

#[tokio::test]
async fn ids_that_are_not_the_persons_own_are_refused_and_change_nothing() {
    let app = spawn_app(Backends::Real).await;
    let payroll = app.register("https://payroll.example.com/cb", false).await;
    let hr = app.register("https://hr.example.com/cb", false).await;
    let ken = sign_in(&app, &payroll, "ken").await;
    let alan = sign_in(&app, &hr, "alan").await;

    let foreign_session = post(
        &app,
        &ken.browser,
        "/account/sessions/end",
        &[("session", &alan.sid())],
    )
    .await;
    let foreign_app = post(
        &app,
        &ken.browser,
        "/account/apps/revoke",
        &[("client_id", &hr.client_id)],
    )
    .await;
    let unknown_app = post(
        &app,
        &ken.browser,
        "/account/apps/revoke",
        &[("client_id", "no-such-app")],
    )
    .await;
    let forged = ken
        .browser
        .post(app.url("/account/sessions/end-all"))
        .form(&[("csrf_token", "guessed")])
        .send()
        .await
        .unwrap();

    assert_eq!(foreign_session.status(), StatusCode::NOT_FOUND);
    assert_eq!(foreign_app.status(), StatusCode::NOT_FOUND);
    assert_eq!(unknown_app.status(), StatusCode::NOT_FOUND);
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    assert!(still_signed_in(&app, &alan.browser).await);
    assert!(token_works(&app, &alan).await);
    assert!(token_works(&app, &ken).await);
    let alans = account_page(&app, &alan.browser).await;
    assert_eq!(values_of(&alans, "client_id"), vec![hr.client_id.clone()]);
}

#[tokio::test]
async fn removing_an_app_revokes_the_persons_tokens_forgets_the_approval_and_tells_the_app() {
    let app = spawn_app(Backends::Real).await;
    let receiver = Receiver::start(&[Answer::Status(200)]).await;
    let payroll = app
        .register_with(
            "https://payroll.example.com/cb",
            serde_json::json!({
                "public": false,
                "backchannel_logout_uri": receiver.url("/logout"),
            }),
        )
        .await;
    let ken = sign_in(&app, &payroll, "ken").await;
    let alan = sign_in(&app, &payroll, "alan").await;

    let removed = post(
        &app,
        &ken.browser,
        "/account/apps/revoke",
        &[("client_id", &payroll.client_id)],
    )
    .await;

    assert_eq!(removed.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&removed), "/account?done=app_removed");
    assert!(!token_works(&app, &ken).await);
    let refresh = ken.tokens["refresh_token"].as_str().unwrap();
    assert_eq!(
        app.refresh(&payroll, refresh).await.status(),
        StatusCode::BAD_REQUEST
    );
    assert!(token_works(&app, &alan).await, "alan keeps his tokens");
    let page = account_page(&app, &ken.browser).await;
    assert!(values_of(&page, "client_id").is_empty());
    assert!(
        page.contains("<td>app removed by the person</td>"),
        "{page}"
    );
    assert!(
        still_signed_in(&app, &ken.browser).await,
        "the session stays"
    );
    // The approval is forgotten: the app asks again.
    let again = app
        .authorize(
            &ken.browser,
            &[
                ("client_id", payroll.client_id.as_str()),
                ("redirect_uri", payroll.redirect_uri.as_str()),
                ("response_type", "code"),
                ("scope", "openid"),
                ("code_challenge", &Pkce::new().challenge),
                ("code_challenge_method", "S256"),
            ],
        )
        .await;
    assert_eq!(again.status(), StatusCode::OK);
    assert!(again.text().await.unwrap().contains("value=\"approve\""));
    let told = receiver.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(told.len(), 1);
    let removed = audited(&app, "app_removed").await;
    assert_eq!(removed.len(), 1);
    assert_eq!(removed[0]["actor"], "ken");
    assert_eq!(removed[0]["client_id"], payroll.client_id);
}

#[tokio::test]
async fn a_code_issued_a_moment_before_the_app_is_removed_is_not_exchanged() {
    let app = spawn_app(Backends::Real).await;
    let payroll = app.register("https://payroll.example.com/cb", false).await;
    let ken = sign_in(&app, &payroll, "ken").await;
    // Signed in and approved: the next authorization answers a code at once, which the app
    // has not exchanged yet when ken takes the app back.
    let pkce = Pkce::new();
    let issued = app
        .authorize(
            &ken.browser,
            &[
                ("client_id", payroll.client_id.as_str()),
                ("redirect_uri", payroll.redirect_uri.as_str()),
                ("response_type", "code"),
                ("scope", "openid profile email"),
                ("code_challenge", &pkce.challenge),
                ("code_challenge_method", "S256"),
            ],
        )
        .await;
    assert_eq!(issued.status(), StatusCode::FOUND);
    let code = query(&location(&issued))["code"].clone();

    let removed = post(
        &app,
        &ken.browser,
        "/account/apps/revoke",
        &[("client_id", &payroll.client_id)],
    )
    .await;
    assert_eq!(location(&removed), "/account?done=app_removed");

    let exchange = app
        .token(
            &payroll,
            &[
                ("grant_type", "authorization_code"),
                ("code", code.as_str()),
                ("redirect_uri", payroll.redirect_uri.as_str()),
                ("code_verifier", pkce.verifier.as_str()),
            ],
        )
        .await;
    assert_eq!(exchange.status(), StatusCode::BAD_REQUEST);
    let body: Value = exchange.json().await.unwrap();
    assert_eq!(body["error"], "invalid_grant", "{body}");
    let removed = audited(&app, "app_removed").await;
    assert_eq!(
        removed[0]["detail"],
        "removed by the person: 1 grants and 1 unused codes revoked, approval forgotten"
    );
}

#[tokio::test]
async fn ending_sessions_signs_those_browsers_out_and_revokes_what_they_gave() {
    let app = spawn_app(Backends::Real).await;
    let payroll = app.register("https://payroll.example.com/cb", false).await;
    let here = sign_in(&app, &payroll, "ken").await;
    let there = sign_in(&app, &payroll, "ken").await;
    let third = sign_in(&app, &payroll, "ken").await;
    let alan = sign_in(&app, &payroll, "alan").await;

    let one = post(
        &app,
        &here.browser,
        "/account/sessions/end",
        &[("session", &there.sid())],
    )
    .await;

    assert_eq!(one.status(), StatusCode::SEE_OTHER);
    assert!(!still_signed_in(&app, &there.browser).await);
    assert!(!token_works(&app, &there).await);
    assert!(still_signed_in(&app, &third.browser).await);

    let all = post(&app, &here.browser, "/account/sessions/end-all", &[]).await;

    assert_eq!(location(&all), "/account?done=sessions_ended&count=1");
    assert!(!still_signed_in(&app, &third.browser).await);
    assert!(!token_works(&app, &third).await);
    assert!(still_signed_in(&app, &here.browser).await);
    assert!(token_works(&app, &here).await);
    assert!(still_signed_in(&app, &alan.browser).await, "alan untouched");
    assert!(token_works(&app, &alan).await);

    let mine = post(
        &app,
        &here.browser,
        "/account/sessions/end",
        &[("session", &here.sid())],
    )
    .await;

    assert_eq!(location(&mine), "/oauth/logout");
    assert!(!still_signed_in(&app, &here.browser).await);
    assert!(!token_works(&app, &here).await);
    assert_eq!(audited(&app, "session_ended").await.len(), 3);
}
