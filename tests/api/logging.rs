//! What the service writes to its log: one line per request without the query string, and
//! names typed by users escaped so that they cannot forge a line.

use crate::helpers::*;
use crate::support::logs;
use reqwest::StatusCode;

#[tokio::test]
async fn no_log_line_holds_a_query_string_value() {
    let (logs, _guard) = logs::capture();
    let app = spawn_app(Backends::Embedded).await;
    let reg = app
        .register(Backends::Embedded, "https://quiet.example.com/cb", false)
        .await;

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
