//! Tests of the error pages' middleware: a page error becomes its page, a sign-in requirement a
//! redirect, other errors pass through, and without the middleware nothing internal leaks.

// A failed expectation in a test should stop that test loudly.
#![allow(clippy::expect_used)]

use super::*;
use poem::{handler, EndpointExt};

fn error_pages() -> ErrorPages {
    ErrorPages::new(
        Arc::new(Templates::new().expect("built-in templates parse")),
        RequestLanguages::new(&crate::config::defaults()),
    )
}

#[handler]
fn forged() -> Result<Response, PageError> {
    Err(PageError::Forged)
}

#[handler]
fn signed_out() -> Result<Response, PageError> {
    Err(PageError::SignInFirst("/admin/login"))
}

#[handler]
fn directory_down() -> Result<Response, PageError> {
    Err(PageError::Directory(
        "ldap.internal.example:636 refused".into(),
    ))
}

#[handler]
fn missing() -> poem::Result<Response> {
    Err(poem::error::NotFoundError.into())
}

async fn body(response: Response) -> String {
    response
        .into_body()
        .into_string()
        .await
        .expect("a text body")
}

#[tokio::test]
async fn a_page_error_is_answered_with_its_error_page() {
    let response = forged
        .with(error_pages())
        .call(Request::default())
        .await
        .expect("the middleware answers the page error");

    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert_eq!(response.headers()["x-frame-options"], "DENY");
    let html = body(response).await;
    assert!(html.starts_with("<!doctype html>"), "{html}");
    assert!(html.contains("Request refused"));
    assert!(html.contains("<code>"), "the page shows a request id");
}

#[tokio::test]
async fn a_sign_in_requirement_is_a_redirect_to_the_sign_in_form() {
    let response = signed_out
        .with(error_pages())
        .call(Request::default())
        .await
        .expect("the middleware answers the page error");

    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()["location"], "/admin/login");
}

#[tokio::test]
async fn other_errors_pass_through() {
    let error = missing
        .with(error_pages())
        .call(Request::default())
        .await
        .expect_err("not a page error");

    assert_eq!(error.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_cause_never_reaches_the_browser() {
    let rendered = directory_down
        .with(error_pages())
        .call(Request::default())
        .await
        .expect("the middleware answers the page error");
    let bare = directory_down
        .call(Request::default())
        .await
        .expect_err("no middleware")
        .into_response();

    for response in [rendered, bare] {
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        let html = body(response).await;
        assert!(!html.contains("ldap.internal"), "{html}");
    }
}

#[tokio::test]
async fn an_error_page_is_in_the_browsers_language_and_says_so() {
    let app = forged.with(error_pages());
    let request = Request::builder()
        .header("accept-language", "fr-CH, de;q=0.5")
        .finish();
    let response = app.call(request).await.expect("an answer");
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        response
            .headers()
            .get("content-language")
            .map(|v| v.as_bytes()),
        Some(&b"fr"[..])
    );
    let html = body(response).await;
    assert!(html.contains(r#"<html lang="fr">"#), "{html}");
    assert!(html.contains("Requête refusée"), "{html}");
    assert!(!html.contains("<form"), "{html}");
}
