//! Tests of the template registry: strict mode bites, render errors name their template, no
//! template disables escaping, and the error page every failure shows.

// A failed expectation in a test should stop that test loudly.
#![allow(clippy::expect_used)]

use super::*;
use crate::web::errors::ErrorPage;

fn templates() -> Templates {
    Templates::new().expect("built-in templates parse")
}

fn error_page() -> ErrorPage {
    ErrorPage {
        status: 400,
        title: "Unknown application".into(),
        message: "The app that sent you here is not registered.".into(),
        request_id: Some("01HZX-REQ".into()),
        back: None,
    }
}

#[test]
fn the_error_page_is_a_full_document_with_the_stylesheet() {
    let html = templates().page(&error_page()).expect("error renders");

    assert!(html.starts_with("<!doctype html>"), "{html}");
    assert!(html.contains(r#"<html lang="en">"#));
    assert!(html.contains(r#"name="viewport""#));
    assert!(html.contains(r#"<link rel="stylesheet" href="/assets/style.css">"#));
    assert!(html.contains("sso-bridge"));
    assert!(html.contains(r#"<main class="card">"#));
    assert!(html.trim_end().ends_with("</html>"));
}

#[test]
fn strict_mode_rejects_data_missing_a_field() {
    let templates = templates();
    let incomplete = serde_json::json!({ "app_name": "Payroll", "action": "/login" });

    let result = templates.registry.render(name::SIGNIN, &incomplete);

    let error = result.expect_err("a missing field is an error, not an empty string");
    assert!(
        matches!(
            error.reason(),
            handlebars::RenderErrorReason::MissingVariable(_)
        ),
        "{error}"
    );
}

#[test]
fn a_missing_field_surfaces_as_a_render_error_naming_the_template() {
    let templates = templates();

    let result = templates.render(name::CONSENT, &serde_json::json!({ "app_name": "Payroll" }));

    assert!(matches!(
        result,
        Err(RenderError::Render {
            name: name::CONSENT,
            ..
        })
    ));
}

#[test]
fn error_page_shows_the_request_id_and_no_links() {
    let templates = templates();
    let with_id = templates.page(&error_page()).expect("renders");
    let without_id = templates
        .page(&ErrorPage {
            request_id: None,
            ..error_page()
        })
        .expect("renders");

    assert!(with_id.contains("<code>01HZX-REQ</code>"));
    assert!(with_id.contains("400"));
    assert!(with_id.contains("<title>Unknown application · sso-bridge</title>"));
    assert!(!without_id.contains("<code>"));
    for html in [&with_id, &without_id] {
        assert!(!html.contains("<a "), "{html}");
        assert!(!html.contains("<form"), "{html}");
    }
}

#[test]
fn a_way_back_to_the_app_is_one_escaped_link() {
    let html = templates()
        .page(&ErrorPage {
            back: Some(crate::web::errors::BackLink {
                text: "Back to <Payroll>".into(),
                url: "https://app.example.com/cb?error=access_denied&x=<y>".into(),
            }),
            ..error_page()
        })
        .expect("renders");

    assert_eq!(html.matches("<a ").count(), 1, "{html}");
    assert!(html.contains("Back to &lt;Payroll&gt;"), "{html}");
    assert!(
        html.contains(
            "href=\"https://app.example.com/cb?error&#x3D;access_denied&amp;x&#x3D;&lt;y&gt;\""
        ),
        "{html}"
    );
}

#[test]
fn templates_never_disable_escaping() {
    for (name, source) in BUILT_IN {
        assert!(!source.contains("{{{"), "{name} uses a triple-stash");
        assert!(
            !source.contains("{{&"),
            "{name} uses an unescaped expression"
        );
    }
}

#[test]
fn stylesheet_loads_nothing_from_elsewhere() {
    assert!(!STYLESHEET.is_empty());
    assert!(!STYLESHEET.contains("@import"));
    assert!(!STYLESHEET.contains("url("));
}
