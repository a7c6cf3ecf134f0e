//! The binary and the published documents: start-up, settings errors, OpenAPI, docs.

use crate::helpers::*;
use crate::support::ports::{free_port, wait_for_port};
use crate::support::redis::RedisServer;
use reqwest::StatusCode;
use sso_bridge::startup::Application;
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

/// Builds an app on Redis and LDAP with `extra` settings; answers why start-up was refused.
async fn refusal(extra: &[(&str, String)]) -> String {
    let redis = RedisServer::shared();
    let settings = settings(Backends::Real, 0, Some(&redis), extra);
    match Application::build(settings).await {
        Ok(_) => panic!("start-up was not refused"),
        Err(e) => e.to_string(),
    }
}

#[tokio::test]
async fn on_redis_start_up_is_refused_without_each_secret_and_goes_ahead_with_them() {
    let unset = String::new();
    let no_mfa_key = refusal(&[("SSO_BRIDGE__MFA__ENCRYPTION_KEY", unset.clone())]).await;
    let no_key_secret = refusal(&[
        (SIGNING_KEY_FILE, unset.clone()),
        (KEY_ENCRYPTION_SECRET, unset.clone()),
    ])
    .await;

    let mfa = "mfa.encryption_key (or mfa.encryption_key_file)";
    let oidc = "oidc.key_encryption_secret (or oidc.signing_key_file)";
    assert!(
        no_mfa_key.contains(mfa) && !no_mfa_key.contains("oidc."),
        "{no_mfa_key}"
    );
    assert!(
        no_key_secret.contains(oidc) && !no_key_secret.contains("mfa."),
        "{no_key_secret}"
    );
    for err in [&no_mfa_key, &no_key_secret] {
        assert!(
            err.starts_with("configuration: the redis store needs"),
            "{err}"
        );
        assert!(err.contains("openssl rand -base64 32"), "{err}");
    }

    // With both secrets it starts; a key file of its own stands in for the signing-key secret.
    let redis = RedisServer::shared();
    let both = settings(
        Backends::Real,
        0,
        Some(&redis),
        &[(SIGNING_KEY_FILE, unset.clone())],
    );
    let key_file = settings(
        Backends::Real,
        0,
        Some(&redis),
        &[(KEY_ENCRYPTION_SECRET, unset)],
    );
    assert!(both.oidc.key_encryption_secret.is_some() && both.oidc.signing_key_file.is_none());
    assert!(key_file.oidc.key_encryption_secret.is_none());
    for settings in [both, key_file] {
        let app = Application::build(settings).await;
        assert!(app.is_ok(), "{:?}", app.err());
    }
}

#[test]
fn serve_on_redis_without_its_secrets_exits_with_one_line_naming_them() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
        .arg("serve")
        .env("SSO_BRIDGE__STORE__BACKEND", "redis")
        .env(
            "SSO_BRIDGE__SERVER__LISTEN",
            format!("127.0.0.1:{}", free_port()),
        )
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A service that started instead of refusing is stopped, so the test fails, not hangs.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let _ = child.wait();

    let status = status.unwrap_or_else(|| panic!("serve started without the secrets: {err}"));
    assert!(!status.success(), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    for key in [
        "mfa.encryption_key",
        "oidc.key_encryption_secret",
        "oidc.signing_key_file",
        "openssl rand -base64 32",
    ] {
        assert!(err.contains(key), "{key} missing from {err}");
    }
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
    let spec = app.get_json("/openapi.json").await;
    for path in ["/oauth/token", "/oauth/userinfo", "/admin/api/apps"] {
        assert!(spec["paths"].get(path).is_some(), "{path}");
    }
    // Made when first asked for: it names this node as the APIs' server, and stays the same.
    assert_eq!(
        spec["servers"][0]["url"],
        app.url(""),
        "{}",
        spec["servers"]
    );
    assert_eq!(app.get_json("/openapi.json").await, spec);
    let docs = app.api.get(app.url("/docs")).send().await.unwrap();
    assert_eq!(docs.status(), StatusCode::OK);
    // The pages' protections: no framing, and only its own inline scripts may run.
    let header = |name: &str| {
        docs.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let policy = header("content-security-policy");
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    assert!(policy.contains("script-src 'sha256-"), "{policy}");
    assert!(!policy.contains("unsafe-eval") && !policy.contains("script-src 'unsafe-inline'"));
    assert_eq!(header("x-frame-options"), "DENY");
    assert_eq!(header("x-content-type-options"), "nosniff");
    let html = docs.text().await.unwrap();
    assert!(html.contains("swagger"));
    let again = app.api.get(app.url("/docs")).send().await.unwrap();
    assert_eq!(again.text().await.unwrap(), html);
    assert!(
        !html.contains("src=\"http"),
        "the docs page must not load scripts from elsewhere"
    );
}
