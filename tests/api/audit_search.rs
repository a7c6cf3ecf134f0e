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
    let registered = app
        .register(backends, "https://early.example.com/cb", false)
        .await;
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
