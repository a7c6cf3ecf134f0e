//! What the service writes to its log: one line per request without the query string, and
//! names typed by users escaped so that they cannot forge a line.

use crate::helpers::*;
use crate::support::logs;
use reqwest::StatusCode;

#[tokio::test]
async fn no_log_line_holds_a_query_string_value() {
    let (logs, _guard) = logs::capture();
    let app = spawn_app(Backends::Embedded).await;
    let reg = app.register("https://quiet.example.com/cb", false).await;

    let browser = app.browser();
    let page = app
        .authorize(
            &browser,
            &[
                ("client_id", reg.client_id.as_str()),
                ("redirect_uri", reg.redirect_uri.as_str()),
                ("response_type", "code"),
                ("scope", "openid"),
                ("code", "SECRET-code"),
                ("access_token", "SECRET-access-token"),
                ("refresh_token", "SECRET-refresh-token"),
                ("client_secret", "SECRET-client-secret"),
                ("password", "SECRET-password"),
            ],
        )
        .await;
    assert_eq!(page.status(), StatusCode::OK);
    for path in [
        "/oauth/userinfo?access_token=SECRET-userinfo",
        "/oauth/logout?id_token_hint=SECRET-hint",
        "/oauth/token?code=SECRET-token-code&client_secret=SECRET-token-secret",
        "/no-such-page?code=SECRET-not-found",
    ] {
        app.api.get(app.url(path)).send().await.unwrap();
    }

    let log = logs.text();
    assert!(
        log.contains("path=\"/oauth/authorize\"") && log.contains("status=200"),
        "{log}"
    );
    assert!(log.contains("path=\"/oauth/userinfo\""), "{log}");
    assert!(!log.contains("SECRET"), "{log}");
}

/// What an attacker would like the log to show as a line of its own.
const FORGED: &str = "\n2030-01-01T00:00:00.000000Z  INFO audit: audit event action=\"admin_sign_in\" actor=\"ada\" success=true\u{1b}[1A";

#[tokio::test]
async fn a_name_or_an_address_from_a_request_cannot_forge_a_log_line() {
    let (logs, _guard) = logs::capture();
    let app = spawn_app(Backends::Embedded).await;
    let reg = app.register("https://quiet.example.com/cb", false).await;

    let typed_name = format!("mallory{FORGED}");
    let r = app
        .api
        .post(app.url("/admin/api/session"))
        .json(&serde_json::json!({"username": typed_name, "password": "guess"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let unregistered = format!("https://quiet.example.com/other{FORGED}");
    let page = app
        .authorize(
            &app.browser(),
            &[
                ("client_id", reg.client_id.as_str()),
                ("redirect_uri", unregistered.as_str()),
                ("response_type", "code"),
            ],
        )
        .await;
    assert_eq!(page.status(), StatusCode::BAD_REQUEST);

    let log = logs.text();
    assert!(log.contains("actor=\"mallory\\n2030"), "{log}");
    assert!(log.contains("quiet.example.com/other\\n2030"), "{log}");
    assert!(!log.lines().any(|l| l.starts_with("2030")), "{log}");
    assert!(!log.contains('\u{1b}'), "{log}");
}
