//! The admin API follows the second-factor policy as the admin screen does: a superadmin who
//! owes a second factor gets no admin token, only the enrolment operations.

use crate::helpers::*;
use crate::signin::mfa_helpers::policy;
use reqwest::StatusCode;
use serde_json::{json, Value};
use sso_bridge::audit::{Action, AuditFrom};
use sso_bridge::store::AuditIndex;

async fn post_json(app: &TestApp, path: &str, body: &Value) -> (StatusCode, Value) {
    let r = app.api.post(app.url(path)).json(body).send().await.unwrap();
    (r.status(), r.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_superadmin_without_the_second_factor_the_policy_asks_for_may_only_set_it_up() {
    let app = spawn_app_with(Backends::Embedded, &policy("superadmin")).await;
    let credentials = json!({"username": "ada", "password": "ada-demo"});

    let (status, body) = post_json(&app, "/admin/api/session", &credentials).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["error"], "mfa_enrolment_required", "{body}");
    assert!(body.get("token").is_none(), "{body}");
    assert!(
        body["error_description"]
            .as_str()
            .unwrap()
            .contains("sso-bridge users enrol-mfa --admin"),
        "{body}"
    );
    // Without a token nothing else answers.
    let list = app
        .api
        .get(app.url("/admin/api/apps"))
        .send()
        .await
        .unwrap();
    assert_eq!(list.status(), StatusCode::UNAUTHORIZED);

    // The audit log has the refusal and no admin sign-in that succeeded.
    let admin_sign_ins = [AuditIndex::Action(Action::AdminSignIn)];
    let page = app
        .state
        .store
        .audit_events(&admin_sign_ins, AuditFrom::Newest, 1000);
    let events: Vec<_> = page
        .await
        .unwrap()
        .events
        .into_iter()
        .map(|e| e.record)
        .collect();
    let sign_ins: Vec<_> = events
        .iter()
        .filter(|e| e.action == Action::AdminSignIn)
        .collect();
    assert_eq!(sign_ins.len(), 1, "{events:#?}");
    assert!(!sign_ins[0].success, "{events:#?}");
    assert_eq!(
        sign_ins[0].detail.as_deref(),
        Some("the second factor the policy asks for is not set up yet")
    );

    // The password still starts the set-up.
    let (status, setup) = post_json(&app, "/admin/api/second-factor/setup", &credentials).await;
    assert_eq!(status, StatusCode::OK, "{setup}");
    assert!(setup["setup_id"].is_string());
}

#[tokio::test]
async fn the_cli_tells_a_superadmin_who_owes_a_second_factor_what_to_run() {
    let app = spawn_app_with(Backends::Embedded, &policy("superadmin")).await;
    let base = app.base.clone();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
            .args(["apps", "list", "--admin", "ada", "--server", &base])
            .env("SSO_BRIDGE_ADMIN_PASSWORD", "ada-demo")
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let command = format!(
        "sso-bridge users enrol-mfa --admin ada --server {}",
        app.base
    );
    assert!(stderr.contains(&command), "{stderr}");
    assert!(out.stdout.is_empty());
}
