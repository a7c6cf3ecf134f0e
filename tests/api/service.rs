//! The binary and the published documents: start-up, settings errors, OpenAPI, docs.

use crate::helpers::*;
use crate::support::ports::{free_port, wait_for_port};
use reqwest::StatusCode;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn a_bad_setting_stops_start_up_with_one_line_naming_the_key() {
    let out = Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
        .arg("serve")
        .env("SSO_BRIDGE__TOKENS__ACCESS_TTL_SECS", "soon")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("access_ttl_secs"), "{err}");
    assert!(!err.contains("panicked"));
}

#[test]
fn with_no_configuration_it_serves_the_embedded_demo_and_says_so() {
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
        .arg("serve")
        .env("SSO_BRIDGE__SERVER__LISTEN", format!("127.0.0.1:{port}"))
        .env("RUST_LOG", "info")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_port(port, Duration::from_secs(20));
    child.kill().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let _ = child.wait();
    assert!(err.contains("DEMO SETUP: memory store"), "{err}");
    assert!(err.contains("DEMO SETUP: built-in demo directory"), "{err}");
}

#[test]
fn the_committed_openapi_document_matches_the_code() {
    let committed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/openapi/openapi.json"
    ))
    .expect(
        "openapi/openapi.json exists; regenerate with: cargo run -- openapi > openapi/openapi.json",
    );
    let generated = sso_bridge::http::openapi::document();
    assert!(
        committed.trim() == generated.trim(),
        "openapi/openapi.json is out of date; regenerate with: cargo run -- openapi > openapi/openapi.json"
    );
}

#[tokio::test]
async fn the_openapi_document_and_the_docs_page_are_served_without_internet() {
    let app = spawn_app(Backends::Embedded).await;
    let spec: serde_json::Value = app
        .api
        .get(app.url("/openapi.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    for path in ["/oauth/token", "/oauth/userinfo", "/admin/api/apps"] {
        assert!(spec["paths"].get(path).is_some(), "{path}");
    }
    let docs = app.api.get(app.url("/docs")).send().await.unwrap();
    assert_eq!(docs.status(), StatusCode::OK);
    let html = docs.text().await.unwrap();
    assert!(html.contains("swagger"));
    assert!(
        !html.contains("src=\"http"),
        "the docs page must not load scripts from elsewhere"
    );
}
