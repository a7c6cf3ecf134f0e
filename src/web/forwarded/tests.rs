//! The client behind trusted proxies, header by header.

use super::client;
use crate::config::TrustedProxies;
use poem::http::{HeaderMap, HeaderName, HeaderValue};
use std::net::IpAddr;

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap()
}

fn trusted(networks: &[&str]) -> TrustedProxies {
    TrustedProxies::new(networks.iter().map(|n| n.parse().unwrap()).collect())
}

fn headers(fields: &[(&str, &str)]) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (name, value) in fields {
        map.append(
            HeaderName::from_bytes(name.as_bytes()).unwrap(),
            HeaderValue::from_str(value).unwrap(),
        );
    }
    map
}

/// The client as seen by a service behind the proxies 10.0.0.0/8 and fd00::/8, reached
/// from the proxy 10.0.0.1.
fn behind_proxies(fields: &[(&str, &str)]) -> IpAddr {
    client(
        ip("10.0.0.1"),
        &headers(fields),
        &trusted(&["10.0.0.0/8", "fd00::/8"]),
    )
}

#[test]
fn headers_from_a_peer_that_is_not_a_trusted_proxy_are_ignored() {
    let spoofed = headers(&[
        ("x-forwarded-for", "198.51.100.1"),
        ("forwarded", "for=198.51.100.2"),
    ]);
    assert_eq!(
        client(ip("203.0.113.5"), &spoofed, &trusted(&[])),
        ip("203.0.113.5")
    );
    assert_eq!(
        client(ip("203.0.113.5"), &spoofed, &trusted(&["10.0.0.0/8"])),
        ip("203.0.113.5")
    );
}

#[test]
fn a_trusted_proxy_without_forwarding_headers_is_the_client() {
    assert_eq!(behind_proxies(&[]), ip("10.0.0.1"));
}

#[test]
fn x_forwarded_for_is_read_from_the_right_skipping_trusted_hops() {
    assert_eq!(
        behind_proxies(&[("x-forwarded-for", "203.0.113.7")]),
        ip("203.0.113.7")
    );
    assert_eq!(
        behind_proxies(&[("x-forwarded-for", "203.0.113.7, 10.0.0.2,10.0.0.3")]),
        ip("203.0.113.7")
    );
}

#[test]
fn what_the_client_wrote_left_of_the_proxies_entry_is_not_believed() {
    // The client sent "X-Forwarded-For: 192.0.2.99"; our proxy appended the real address.
    assert_eq!(
        behind_proxies(&[("x-forwarded-for", "192.0.2.99, 203.0.113.7")]),
        ip("203.0.113.7")
    );
}

#[test]
fn when_every_hop_is_trusted_the_leftmost_is_the_client() {
    assert_eq!(
        behind_proxies(&[("x-forwarded-for", "10.0.0.9, 10.0.0.2")]),
        ip("10.0.0.9")
    );
}

#[test]
fn several_header_fields_form_one_list_in_order() {
    assert_eq!(
        behind_proxies(&[
            ("x-forwarded-for", "192.0.2.99"),
            ("x-forwarded-for", "203.0.113.7, 10.0.0.2"),
        ]),
        ip("203.0.113.7")
    );
    assert_eq!(
        behind_proxies(&[
            ("forwarded", "for=192.0.2.99"),
            ("forwarded", "for=203.0.113.7;proto=https, for=10.0.0.2"),
        ]),
        ip("203.0.113.7")
    );
}

#[test]
fn forwarded_gives_the_for_parameter_of_each_element() {
    assert_eq!(
        behind_proxies(&[(
            "forwarded",
            "for=192.0.2.60;proto=http;by=203.0.113.43, For=\"10.0.0.2\";host=sso.example.com"
        )]),
        ip("192.0.2.60")
    );
    assert_eq!(
        behind_proxies(&[("forwarded", "proto=https;for=\"192.0.2.43:47011\"")]),
        ip("192.0.2.43")
    );
}

#[test]
fn forwarded_reads_quoted_ipv6_with_and_without_a_port() {
    assert_eq!(
        behind_proxies(&[("forwarded", "for=\"[2001:db8:cafe::17]:4711\"")]),
        ip("2001:db8:cafe::17")
    );
    assert_eq!(
        behind_proxies(&[(
            "forwarded",
            "for=\"[2001:db8::1]\", for=\"[fd00::2]:80\", for=10.0.0.3"
        )]),
        ip("2001:db8::1")
    );
}

#[test]
fn an_ipv6_proxy_and_an_ipv4_peer_through_a_dual_stack_socket_are_trusted() {
    let proxies = trusted(&["10.0.0.0/8", "fd00::/8"]);
    let xff = headers(&[("x-forwarded-for", "[2001:db8::5]:1234")]);
    assert_eq!(client(ip("fd00::1"), &xff, &proxies), ip("2001:db8::5"));
    assert_eq!(
        client(ip("::ffff:10.0.0.1"), &xff, &proxies),
        ip("2001:db8::5")
    );
}

#[test]
fn forwarded_is_preferred_when_both_headers_are_present() {
    assert_eq!(
        behind_proxies(&[
            ("x-forwarded-for", "198.51.100.1"),
            ("forwarded", "for=203.0.113.7"),
        ]),
        ip("203.0.113.7")
    );
}

#[test]
fn an_unknown_or_obfuscated_hop_ends_the_walk_at_the_nearest_trusted_proxy() {
    assert_eq!(
        behind_proxies(&[("forwarded", "for=203.0.113.7, for=_hidden, for=10.0.0.2")]),
        ip("10.0.0.2")
    );
    assert_eq!(
        behind_proxies(&[("forwarded", "for=203.0.113.7, for=unknown")]),
        ip("10.0.0.1")
    );
    assert_eq!(
        behind_proxies(&[("x-forwarded-for", "203.0.113.7, unknown")]),
        ip("10.0.0.1")
    );
    // Left of the client's own address, an obfuscated hop changes nothing.
    assert_eq!(
        behind_proxies(&[("forwarded", "for=_client, for=203.0.113.7")]),
        ip("203.0.113.7")
    );
}

#[test]
fn malformed_elements_are_unknown_hops() {
    for bad in [
        "for=\"203.0.113.7",
        "for=203.0.113.7;for=203.0.113.8",
        "for",
        "for=\"[2001:db8::1]x\"",
        "for=example.com",
        "for=203.0.113.7\"",
    ] {
        assert_eq!(
            behind_proxies(&[("forwarded", bad)]),
            ip("10.0.0.1"),
            "{bad}"
        );
    }
}

#[test]
fn a_comma_inside_a_quoted_value_does_not_split_the_element() {
    assert_eq!(
        behind_proxies(&[(
            "forwarded",
            "for=203.0.113.7;host=\"a,b\\\"c\", for=10.0.0.2"
        )]),
        ip("203.0.113.7")
    );
}
