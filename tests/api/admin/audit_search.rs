//! Searching the audit log through the admin API: every event kept is found by its actor, app,
//! action or failure, however many came after it.

use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::Value;
use sso_bridge::audit::{self, Action, AuditEvent};

/// `GET /admin/api/audit{query}` as the superadmin.
async fn audit(app: &TestApp, backends: Backends, query: &str) -> Value {
    let (user, pw) = superadmin(backends);
    let token: Value = app.admin_token(user, pw).await.json().await.unwrap();
    let response = app
        .api
        .get(app.url(&format!("/admin/api/audit{query}")))
        .bearer_auth(token["token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{query}");
    response.json().await.unwrap()
}

/// The events of `log` with this action, as (action, actor, client id) triples.
fn with_action<'a>(log: &'a Value, action: &str) -> Vec<&'a Value> {
    log["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == action)
        .collect()
}

/// Records `n` token exchanges of `alan` on another app, straight through the audit log.
async fn token_exchanges(app: &TestApp, n: usize) {
    for _ in 0..n {
        let event = AuditEvent::new(Action::TokenIssued, Some("alan"))
            .app("another-app")
            .detail("authorization code exchanged; scope `openid`");
        audit::record(&app.state, event).await;
    }
}

async fn an_early_event_is_found_after_ten_thousand_later_ones(backends: Backends) {
    let app = spawn_app(backends).await;
    let (admin, _) = superadmin(backends);
    let registered = app.register("https://early.example.com/cb", false).await;
    let refused = app.admin_token(admin, "not-the-password").await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);

    // Later by the clock too, not only in the order written.
    app.clock.advance(1);
    token_exchanges(&app, 10_001).await;

    let id = registered.client_id.as_str();
    for query in [
        format!("?actor={admin}"),
        format!("?actor={}", admin.to_uppercase()),
        format!("?client_id={id}"),
        "?action=app_created".to_owned(),
        format!("?action=app_created&client_id={id}&actor={admin}"),
    ] {
        let log = audit(&app, backends, &query).await;
        let created = with_action(&log, "app_created");
        assert_eq!(created.len(), 1, "{query}: {log}");
        assert_eq!(created[0]["client_id"], id, "{query}");
        assert_eq!(created[0]["actor"], admin, "{query}");
    }
    let failures = audit(&app, backends, "?failures_only=true").await;
    let refused = with_action(&failures, "admin_sign_in");
    assert_eq!(refused.len(), 1, "{failures}");
    assert_eq!(refused[0]["success"], false);
    assert_eq!(refused[0]["actor"], admin);
}

#[tokio::test]
async fn an_early_event_is_found_after_ten_thousand_later_ones_in_memory() {
    an_early_event_is_found_after_ten_thousand_later_ones(Backends::Embedded).await;
}

#[tokio::test]
async fn an_early_event_is_found_after_ten_thousand_later_ones_on_redis() {
    an_early_event_is_found_after_ten_thousand_later_ones(Backends::Real).await;
}

#[tokio::test]
async fn an_actor_is_matched_whole_unless_the_search_holds_a_star() {
    let app = spawn_app(Backends::Embedded).await;
    for actor in ["ada", "adalbert", "nada"] {
        audit::record(&app.state, AuditEvent::new(Action::SignOut, Some(actor))).await;
    }
    let actors = |log: Value| -> Vec<String> {
        let events = log["events"].as_array().unwrap().clone();
        events
            .iter()
            .filter(|e| e["action"] == "sign_out")
            .map(|e| e["actor"].as_str().unwrap().to_owned())
            .collect()
    };

    let exact = audit(&app, Backends::Embedded, "?actor=Ada").await;
    let starting = audit(&app, Backends::Embedded, "?actor=ada*").await;
    let containing = audit(&app, Backends::Embedded, "?actor=*ADA*").await;

    assert_eq!(actors(exact), ["ada"]);
    assert_eq!(actors(starting), ["adalbert", "ada"]);
    assert_eq!(actors(containing), ["nada", "adalbert", "ada"]);
}

/// Records `n` sign-outs of `alan`, numbered in their detail from 0, oldest first.
async fn sign_outs(app: &TestApp, n: usize) {
    for i in 0..n {
        let event = AuditEvent::new(Action::SignOut, Some("alan")).detail(format!("n{i}"));
        audit::record(&app.state, event).await;
    }
}

/// The details of a page's events, newest first.
fn details(log: &Value) -> Vec<String> {
    let events = log["events"].as_array().unwrap();
    events
        .iter()
        .map(|e| e["detail"].as_str().unwrap().to_owned())
        .collect()
}

/// The details `n{from}`, `n{from - 1}`, ... down to `n{to}`.
fn numbered(from: usize, to: usize) -> Vec<String> {
    (to..=from).rev().map(|i| format!("n{i}")).collect()
}

async fn the_api_pages_through_a_filtered_log_both_ways(backends: Backends) {
    let app = spawn_app(backends).await;
    sign_outs(&app, 100).await;
    let page = |query: String| {
        let app = &app;
        async move { audit(app, backends, &format!("?actor=alan&limit=40{query}")).await }
    };

    let first = page(String::new()).await;
    let second = page(format!("&before={}", first["older"])).await;
    let third = page(format!("&before={}", second["older"])).await;
    let back = page(format!("&after={}", third["newer"])).await;

    assert_eq!(details(&first), numbered(99, 60));
    assert!(first.get("newer").is_none(), "{first}");
    assert_eq!(details(&second), numbered(59, 20));
    assert_eq!(details(&third), numbered(19, 0));
    assert!(third.get("older").is_none(), "{third}");
    assert_eq!(details(&back), numbered(59, 20));
    assert_eq!(back["newer"], second["newer"]);

    let (user, pw) = superadmin(backends);
    let token: Value = app.admin_token(user, pw).await.json().await.unwrap();
    let both = app
        .api
        .get(app.url("/admin/api/audit?before=5&after=2"))
        .bearer_auth(token["token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(both.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_api_pages_through_a_filtered_log_both_ways_in_memory() {
    the_api_pages_through_a_filtered_log_both_ways(Backends::Embedded).await;
}

#[tokio::test]
async fn the_api_pages_through_a_filtered_log_both_ways_on_redis() {
    the_api_pages_through_a_filtered_log_both_ways(Backends::Real).await;
}

#[tokio::test]
async fn a_pattern_search_goes_on_page_by_page_through_the_whole_log() {
    let app = spawn_app(Backends::Embedded).await;
    let early = AuditEvent::new(Action::SignIn, Some("ada.lovelace")).failed("wrong password");
    audit::record(&app.state, early).await;
    app.clock.advance(1);
    token_exchanges(&app, 10_001).await;

    let first = audit(&app, Backends::Embedded, "?actor=*LOVE*").await;
    assert!(details(&first).is_empty(), "{first}");
    let older = format!("?actor=*LOVE*&before={}", first["older"]);
    let further = audit(&app, Backends::Embedded, &older).await;

    assert_eq!(further["events"][0]["actor"], "ada.lovelace", "{further}");
    assert!(further.get("older").is_none(), "{further}");
}

/// A browser signed in to the admin screen as the superadmin.
async fn screen(app: &TestApp) -> reqwest::Client {
    let browser = app.browser();
    let page = browser.get(app.url("/admin/login")).send().await.unwrap();
    let form = Form::parse(&page.text().await.unwrap());
    let mut body = form.hidden;
    body.extend([("username", "ada"), ("password", "ada-demo")].map(|(k, v)| (k.into(), v.into())));
    let signed_in = browser.post(app.url(&form.action)).form(&body).send();
    assert_eq!(signed_in.await.unwrap().status(), StatusCode::SEE_OTHER);
    browser
}

/// The audit page at `path`: its rows' details and its page links.
async fn audit_page(
    browser: &reqwest::Client,
    app: &TestApp,
    path: &str,
) -> (Vec<String>, Option<String>, Option<String>) {
    let html = browser.get(app.url(path)).send().await.unwrap();
    let html = html.text().await.unwrap();
    let rows = html.split("<tr>").skip(2).map(|row| {
        let cell = row.rsplit("</span> ").next().unwrap();
        cell[..cell.find("</td>").unwrap()].to_owned()
    });
    let link = |rel: &str| {
        let at = html.find(&format!("rel=\"{rel}\""))?;
        let start = html[..at].rfind("href=\"")? + 6;
        Some(unescape(&html[start..start + html[start..].find('"')?]))
    };
    (rows.collect(), link("prev"), link("next"))
}

#[tokio::test]
async fn the_audit_page_links_older_and_newer_pages_keeping_the_filter() {
    let app = spawn_app(Backends::Embedded).await;
    sign_outs(&app, 150).await;
    let browser = screen(&app).await;

    let (first, newer, older) = audit_page(&browser, &app, "/admin/audit?actor=alan").await;
    let older = older.expect("an older page");
    let (second, back, none) = audit_page(&browser, &app, &older).await;
    let back = back.expect("a newer page");
    let (again, _, _) = audit_page(&browser, &app, &back).await;

    assert_eq!(first, numbered(149, 50));
    assert!(newer.is_none());
    assert!(
        older.contains("actor=alan") && older.contains("before="),
        "{older}"
    );
    assert_eq!(second, numbered(49, 0));
    assert!(none.is_none(), "no page older than the oldest");
    assert!(
        back.contains("actor=alan") && back.contains("after="),
        "{back}"
    );
    assert_eq!(again, first);
}
