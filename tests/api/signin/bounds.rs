//! Bounded input: request bodies over their limit are refused with 413 before they are read.

use crate::helpers::*;
use crate::support::streamed::{self, Framing};
use sso_bridge::web::body_limit::{ADMIN_MAX, FORM_MAX};

const FORM: &str = "application/x-www-form-urlencoded";
const JSON: &str = "application/json";
const HUNDRED_MB: usize = 100 * 1024 * 1024;

/// Endpoints that read a body, the type they read, their limit and whether they answer JSON.
const ENDPOINTS: [(&str, &str, usize, bool); 12] = [
    ("/oauth/token", FORM, FORM_MAX, true),
    ("/oauth/revoke", FORM, FORM_MAX, true),
    ("/oauth/introspect", FORM, FORM_MAX, true),
    ("/admin/api/session", JSON, ADMIN_MAX, true),
    ("/admin/api/apps", JSON, ADMIN_MAX, true),
    ("/oauth/authorize", FORM, FORM_MAX, false),
    ("/oauth/login", FORM, FORM_MAX, false),
    ("/oauth/consent", FORM, FORM_MAX, false),
    ("/oauth/second-factor", FORM, FORM_MAX, false),
    ("/oauth/logout", FORM, FORM_MAX, false),
    ("/admin/login", FORM, ADMIN_MAX, false),
    ("/admin/apps", FORM, ADMIN_MAX, false),
];

fn addr(app: &TestApp) -> String {
    app.base.trim_start_matches("http://").to_owned()
}

fn assert_refused(path: &str, limit: usize, json: bool, answer: &streamed::Answer) {
    assert_eq!(answer.status, 413, "{path}: {answer:?}");
    let description = format!("larger than {limit} bytes");
    if json {
        let body: serde_json::Value = serde_json::from_str(&answer.body).unwrap();
        assert_eq!(body["error"], "invalid_request", "{path}");
        assert!(
            body["error_description"]
                .as_str()
                .unwrap()
                .contains(&description),
            "{path}: {body}"
        );
    } else {
        assert!(answer.content_type.starts_with("text/html"), "{path}");
        assert!(answer.body.contains(&description), "{path}");
    }
}

#[tokio::test]
async fn every_endpoint_refuses_a_declared_hundred_megabytes_with_413_at_once() {
    let app = spawn_app(Backends::Embedded).await;
    for (path, content_type, limit, json) in ENDPOINTS {
        let answer = streamed::post(
            &addr(&app),
            path,
            content_type,
            HUNDRED_MB,
            Framing::Declared,
        )
        .await;
        assert_refused(path, limit, json, &answer);
    }
}

#[tokio::test]
async fn every_endpoint_cuts_off_a_chunked_hundred_megabytes_at_its_limit_with_413() {
    let app = spawn_app(Backends::Embedded).await;
    for (path, content_type, limit, json) in ENDPOINTS {
        let answer = streamed::post(
            &addr(&app),
            path,
            content_type,
            HUNDRED_MB,
            Framing::Chunked,
        )
        .await;
        assert_refused(path, limit, json, &answer);
    }
}

#[tokio::test]
async fn a_body_of_exactly_the_limit_is_read_and_answered_as_usual() {
    let app = spawn_app(Backends::Embedded).await;
    let prefix = "grant_type=refresh_token&refresh_token=r&client_id=nobody&pad=";
    let body = format!("{prefix}{}", "x".repeat(FORM_MAX - prefix.len()));
    for framing in [Framing::Declared, Framing::Chunked] {
        let answer = streamed::post_body(&addr(&app), "/oauth/token", FORM, &body, framing).await;
        assert_eq!(answer.status, 401, "{framing:?}: {answer:?}");
        assert!(answer.body.contains("invalid_client"), "{answer:?}");
    }
}
