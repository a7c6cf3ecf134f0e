//! Behind a reverse proxy: the client address comes from the forwarding headers of trusted
//! proxies only, and is what the attempt limits and the audit log count and record.

use crate::helpers::*;
use crate::mfa_helpers::{password_step, register_direct};
use crate::support::logs;
use reqwest::header::{HeaderMap, HeaderValue};
use reqwest::{Client, StatusCode};
use sso_bridge::audit::{self, Action, AuditFilter, AuditFrom};

/// Five failures per address in the window, so a lockout takes six requests.
fn low_address_limit(trusted_proxies: &str) -> Vec<(&'static str, String)> {
    vec![
        ("SSO_BRIDGE__LIMITS__PER_ADDRESS", "5".to_owned()),
        ("SSO_BRIDGE__LIMITS__WINDOW_SECS", "900".to_owned()),
        (
            "SSO_BRIDGE__SERVER__TRUSTED_PROXIES",
            trusted_proxies.to_owned(),
        ),
    ]
}

/// A browser whose every request carries `header: value`, as if a proxy had added it.
pub(crate) fn browser_with(header: &'static str, value: &str) -> Client {
    let mut headers = HeaderMap::new();
    headers.insert(header, HeaderValue::from_str(value).unwrap());
    Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .default_headers(headers)
        .build()
        .unwrap()
}

/// The addresses of the failed app sign-ins in the audit log.
async fn failed_sign_in_addresses(app: &TestApp) -> Vec<String> {
    let filter = AuditFilter {
        action: Some(Action::SignIn),
        failures_only: true,
        ..AuditFilter::default()
    };
    audit::search(&app.state, &filter, AuditFrom::Newest, 100)
        .await
        .unwrap()
        .events
        .into_iter()
        .map(|e| e.address.unwrap_or_default())
        .collect()
}

#[tokio::test]
async fn guessing_behind_a_trusted_proxy_locks_out_the_guesser_and_not_everyone_else() {
    let app = spawn_app_with(Backends::Real, &low_address_limit("127.0.0.1")).await;
    let reg = register_direct(&app).await;

    let guesser = browser_with("x-forwarded-for", "203.0.113.7");
    for n in 0..5 {
        let made_up = format!("nobody-{n}");
        let r = password_step(&app, &guesser, &reg, &made_up, "guess").await;
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED, "guess {n}");
    }
    let r = password_step(&app, &guesser, &reg, "nobody-5", "guess").await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    // The admin API counts the same address.
    let r = guesser
        .post(app.url("/admin/api/session"))
        .json(&serde_json::json!({"username": "ada", "password": "ada-pw"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);

    let colleague = browser_with("x-forwarded-for", "198.51.100.9");
    let r = password_step(&app, &colleague, &reg, "alan", "alan-pw").await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);

    let addresses = failed_sign_in_addresses(&app).await;
    assert_eq!(addresses.len(), 5, "{addresses:?}");
    assert!(
        addresses.iter().all(|a| a == "203.0.113.7"),
        "{addresses:?}"
    );
}

#[tokio::test]
async fn a_spoofed_x_forwarded_for_from_a_peer_that_is_not_a_trusted_proxy_is_ignored() {
    let (logs, _guard) = logs::capture();
    let app = spawn_app_with(Backends::Real, &low_address_limit("")).await;
    let reg = register_direct(&app).await;

    for n in 1..=5 {
        let spoofer = browser_with("x-forwarded-for", &format!("203.0.113.{n}"));
        let r = password_step(&app, &spoofer, &reg, &format!("nobody-{n}"), "guess").await;
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED, "guess {n}");
    }
    let spoofer = browser_with("x-forwarded-for", "198.51.100.9");
    let r = password_step(&app, &spoofer, &reg, "alan", "alan-pw").await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);

    let addresses = failed_sign_in_addresses(&app).await;
    assert_eq!(addresses, ["127.0.0.1"; 5]);
    let log = logs.text();
    assert!(log.contains("client=127.0.0.1"), "{log}");
    assert!(
        !log.contains("203.0.113.") && !log.contains("198.51.100.9"),
        "{log}"
    );
}

#[tokio::test]
async fn a_forwarded_header_through_a_chain_of_trusted_proxies_names_the_client() {
    let app = spawn_app_with(
        Backends::Embedded,
        &low_address_limit("127.0.0.1, 10.0.0.0/8"),
    )
    .await;
    let reg = register_direct(&app).await;

    let forwarded = "for=192.0.2.1, for=\"[2001:db8::7]:4711\";proto=https, for=10.0.0.2";
    let browser = browser_with("forwarded", forwarded);
    let r = password_step(&app, &browser, &reg, "alan", "wrong").await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);

    assert_eq!(failed_sign_in_addresses(&app).await, ["2001:db8::7"]);
}
