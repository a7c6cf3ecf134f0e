//! The attempt limits count a client by its address group: an IPv6 client by its /64 (one host
//! commonly holds a whole /64), with a looser counter per /48 (a site), an IPv4 client by its
//! address. Guesses spread over the addresses of one network meet a limit; the metrics count
//! failures by group kind, and the log says when a group is throttled.

use crate::helpers::*;
use crate::mfa_helpers::{password_step, register_direct};
use crate::support::logs;
use crate::support::metrics::{count, scrape};
use reqwest::{Client, StatusCode};

/// A browser behind the trusted proxy, as the client `address`.
fn client_at(address: &str) -> Client {
    crate::proxies::browser_with("x-forwarded-for", address)
}

/// Settings: the test itself is the trusted proxy; guesses name a new account each time, so
/// only the address limits hold them.
fn behind_proxy(per_address: u64, per_ipv6_48: u64) -> Vec<(&'static str, String)> {
    vec![
        ("SSO_BRIDGE__SERVER__TRUSTED_PROXIES", "127.0.0.1".into()),
        ("SSO_BRIDGE__LIMITS__PER_ADDRESS", per_address.to_string()),
        ("SSO_BRIDGE__LIMITS__PER_IPV6_48", per_ipv6_48.to_string()),
    ]
}

/// Guesses a password of a made-up account from each of `addresses`; answers the statuses.
async fn spray(app: &TestApp, addresses: &[String]) -> Vec<StatusCode> {
    let reg = register_direct(app).await;
    let mut statuses = Vec::new();
    for (n, address) in addresses.iter().enumerate() {
        let browser = client_at(address);
        let name = format!("nobody-{n}");
        let r = password_step(app, &browser, &reg, &name, "Summer2026!").await;
        statuses.push(r.status());
    }
    statuses
}

fn tally(statuses: &[StatusCode]) -> (usize, usize) {
    let refused = |s: StatusCode| statuses.iter().filter(|x| **x == s).count();
    (
        refused(StatusCode::UNAUTHORIZED),
        refused(StatusCode::TOO_MANY_REQUESTS),
    )
}

#[tokio::test]
async fn two_hundred_guesses_from_two_hundred_addresses_of_one_ipv6_64_are_held_at_its_limit() {
    let (logs, _guard) = logs::capture();
    let app = spawn_app_with(Backends::Embedded, &behind_proxy(50, 1000)).await;
    let addresses: Vec<String> = (1..=200)
        .map(|n| format!("2001:db8:1:2:{n:x}:{:x}::{n:x}", n * 7))
        .collect();

    let statuses = spray(&app, &addresses).await;

    assert_eq!(tally(&statuses), (50, 150), "{statuses:?}");
    assert!(statuses[..50]
        .iter()
        .all(|s| *s == StatusCode::UNAUTHORIZED));
    // Another host's /64 is a client of its own.
    let other = spray(&app, &["2001:db8:1:3::1".to_owned()]).await;
    assert_eq!(other, [StatusCode::UNAUTHORIZED]);
    let (metrics, text) = scrape(&app.api, &app.url("/metrics")).await;
    let failures = |counter| {
        let labels = [("guess", "password"), ("counter", counter)];
        count(&metrics, "sso_bridge_failed_attempts_total", &labels)
    };
    assert_eq!(failures("ipv6_64"), 51.0, "{text}");
    assert_eq!(failures("ipv6_48"), 51.0, "{text}");
    assert_eq!(failures("account"), 51.0, "{text}");
    let lockouts = count(
        &metrics,
        "sso_bridge_lockouts_total",
        &[("counter", "ipv6_64")],
    );
    assert_eq!(lockouts, 1.0, "{text}");
    let log = logs.text();
    let throttled: Vec<&str> = log.lines().filter(|l| l.contains("throttled")).collect();
    assert_eq!(throttled.len(), 1, "{log}");
    assert!(
        throttled[0].contains("2001:db8:1:2::/64") && throttled[0].contains("ipv6_64"),
        "{log}"
    );
}

#[tokio::test]
async fn guesses_spread_over_the_64s_of_one_48_meet_its_looser_limit() {
    let app = spawn_app_with(Backends::Real, &behind_proxy(50, 30)).await;
    // Forty /64s of one /48, one guess from each: every /64 stays far below its own limit.
    let addresses: Vec<String> = (1..=40).map(|n| format!("2001:db8:7:{n:x}::1")).collect();

    let statuses = spray(&app, &addresses).await;

    assert_eq!(tally(&statuses), (30, 10), "{statuses:?}");
    // Another site is not held by this one's limit, nor is IPv4.
    let others = spray(
        &app,
        &["2001:db8:8:1::1".to_owned(), "192.0.2.44".to_owned()],
    )
    .await;
    assert_eq!(others, [StatusCode::UNAUTHORIZED; 2]);
}
