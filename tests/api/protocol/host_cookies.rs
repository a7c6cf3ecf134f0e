//! `__Host-` cookies: on an https public address at the root path the browser holds every
//! cookie to `Secure`, `Path=/` and no `Domain`, so no other host of the domain can plant one.

use crate::helpers::*;
use crate::signin::mfa_helpers::{params, register_direct};
use reqwest::header::{COOKIE, SET_COOKIE};
use reqwest::{Response, StatusCode};

/// An app whose public address is `base_url` (it still listens on loopback http).
async fn app_at(base_url: &str) -> TestApp {
    spawn_app_with(
        Backends::Embedded,
        &[("SSO_BRIDGE__SERVER__BASE_URL", base_url.to_owned())],
    )
    .await
}

fn set_cookies(response: &Response) -> Vec<String> {
    response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect()
}

/// The one cookie named `name` that `response` sets: (`name=value`, its attributes).
fn cookie(response: &Response, name: &str) -> (String, Vec<String>) {
    let found: Vec<String> = set_cookies(response)
        .into_iter()
        .filter(|c| c.starts_with(&format!("{name}=")))
        .collect();
    assert_eq!(found.len(), 1, "{name} in {:?}", set_cookies(response));
    let mut parts = found[0].split(';').map(|p| p.trim().to_owned());
    let pair = parts.next().unwrap();
    (pair, parts.collect())
}

fn assert_host_only(name: &str, attributes: &[String]) {
    assert!(
        attributes.iter().any(|a| a == "Secure"),
        "{name}: {attributes:?}"
    );
    assert!(
        attributes.iter().any(|a| a == "Path=/"),
        "{name}: {attributes:?}"
    );
    assert!(
        !attributes
            .iter()
            .any(|a| a.to_lowercase().starts_with("domain")),
        "{name}: {attributes:?}"
    );
}

#[tokio::test]
async fn cookies_take_the_host_prefix_when_the_public_address_is_https_at_the_root() {
    let app = app_at("https://sso.example.com/").await;
    let reg = register_direct(&app).await;

    // reqwest keeps no Secure cookie over http: the test carries the flow cookie by hand.
    let page = app
        .api
        .get(app.url("/oauth/authorize"))
        .query(&params(&reg))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let (flow, attributes) = cookie(&page, "__Host-sso_flow");
    assert_host_only("flow", &attributes);

    let form = Form::parse(&page.text().await.unwrap());
    let mut body = form.hidden;
    body.extend([
        ("username".to_owned(), "alan".to_owned()),
        ("password".to_owned(), password(Backends::Embedded, "alan")),
    ]);
    let signed_in = app
        .api
        .post(app.url("/oauth/login"))
        .header(COOKIE, &flow)
        .form(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(signed_in.status(), StatusCode::SEE_OTHER);
    let (_, attributes) = cookie(&signed_in, "__Host-sso_session");
    assert_host_only("session", &attributes);

    let admin = app.api.get(app.url("/admin/login")).send().await.unwrap();
    let (_, attributes) = cookie(&admin, "__Host-sso_admin_login");
    assert_host_only("admin sign-in", &attributes);
}

#[tokio::test]
async fn cookies_keep_their_plain_names_when_the_public_address_has_a_path() {
    let app = app_at("https://sso.example.com/sso/").await;
    let reg = register_direct(&app).await;

    let page = app
        .api
        .get(app.url("/oauth/authorize"))
        .query(&params(&reg))
        .send()
        .await
        .unwrap();
    let (_, attributes) = cookie(&page, "sso_flow");
    assert!(
        attributes.iter().any(|a| a == "Path=/sso"),
        "{attributes:?}"
    );
    assert!(attributes.iter().any(|a| a == "Secure"), "{attributes:?}");
    assert!(set_cookies(&page).iter().all(|c| !c.starts_with("__Host-")));
}

#[tokio::test]
async fn cookies_keep_their_plain_names_on_plain_http() {
    let app = spawn_app(Backends::Embedded).await;
    let reg = register_direct(&app).await;

    let page = app
        .api
        .get(app.url("/oauth/authorize"))
        .query(&params(&reg))
        .send()
        .await
        .unwrap();
    let (_, attributes) = cookie(&page, "sso_flow");
    assert!(!attributes.iter().any(|a| a == "Secure"), "{attributes:?}");
}
