//! Who sent a request that came through reverse proxies: the `Forwarded` (RFC 7239) and
//! `X-Forwarded-For` headers, believed only from a trusted peer and read right to left.
//!
//! Each proxy appends the address it was connected from, so the right end of the list is what
//! our own proxies saw and the left end is whatever the client chose to send. Reading from the
//! right and stopping at the first address that is not one of our proxies gives the nearest
//! address no client can forge.

use crate::config::TrustedProxies;
use poem::http::header::FORWARDED;
use poem::http::{HeaderMap, HeaderValue};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// One hop a proxy recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hop {
    /// An address.
    Addr(IpAddr),
    /// `unknown`, an obfuscated identifier (`_hidden`), or something unreadable.
    Unknown,
}

/// The client of a request whose TCP peer is `peer`.
///
/// Only when `peer` is a trusted proxy are the headers read: `Forwarded` if present, else
/// `X-Forwarded-For`. Walking from the right, trusted proxies are skipped and the first other
/// address is the client; when every hop is trusted, the leftmost. A hop that hides its
/// address ends the walk at the nearest trusted one: nothing vouches for what lies beyond it.
pub fn client(peer: IpAddr, headers: &HeaderMap, trusted: &TrustedProxies) -> IpAddr {
    let peer = peer.to_canonical();
    if !trusted.contains(peer) {
        return peer;
    }
    let mut nearest = peer;
    for hop in hops(headers).into_iter().rev() {
        match hop {
            Hop::Addr(addr) if trusted.contains(addr) => nearest = addr,
            Hop::Addr(addr) => return addr,
            Hop::Unknown => break,
        }
    }
    nearest
}

/// The hops of `Forwarded`, or of `X-Forwarded-For` when there is no `Forwarded`; several
/// fields of one header are one list, in order.
fn hops(headers: &HeaderMap) -> Vec<Hop> {
    let forwarded = headers.get_all(FORWARDED);
    if forwarded.iter().next().is_some() {
        return forwarded.iter().flat_map(forwarded_hops).collect();
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .flat_map(x_forwarded_for_hops)
        .collect()
}

/// `Forwarded: for=192.0.2.60;proto=https, for="[2001:db8::1]:4711"`: one hop per element,
/// from its `for` parameter. A field that cannot be split is one unknown hop.
fn forwarded_hops(field: &HeaderValue) -> Vec<Hop> {
    let Some(elements) = field.to_str().ok().and_then(|t| split_unquoted(t, ',')) else {
        return vec![Hop::Unknown];
    };
    elements
        .into_iter()
        .filter(|element| !element.trim().is_empty())
        .map(element_hop)
        .collect()
}

/// The hop of one element: its single `for` parameter.
fn element_hop(element: &str) -> Hop {
    let Some(pairs) = split_unquoted(element, ';') else {
        return Hop::Unknown;
    };
    let mut found = None;
    for pair in pairs {
        let Some((name, value)) = pair.split_once('=') else {
            return Hop::Unknown;
        };
        if name.trim().eq_ignore_ascii_case("for") {
            if found.is_some() {
                // RFC 7239 §4: a parameter occurs at most once per element.
                return Hop::Unknown;
            }
            found = Some(value.trim());
        }
    }
    found
        .and_then(unquote)
        .map_or(Hop::Unknown, |node| node_hop(&node))
}

/// `X-Forwarded-For: 203.0.113.7, 10.0.0.2`: comma-separated addresses.
fn x_forwarded_for_hops(field: &HeaderValue) -> Vec<Hop> {
    let Ok(text) = field.to_str() else {
        return vec![Hop::Unknown];
    };
    text.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(node_hop)
        .collect()
}

/// A node: `192.0.2.43`, `192.0.2.43:47011`, `[2001:db8::1]`, `[2001:db8::1]:4711`; an IPv6
/// address without brackets too, as some proxies write it. Anything else is unknown.
fn node_hop(node: &str) -> Hop {
    let addr = if let Ok(addr) = node.parse::<IpAddr>() {
        Some(addr)
    } else if let Some(rest) = node.strip_prefix('[') {
        rest.split_once(']')
            .filter(|(_, port)| port.is_empty() || port.starts_with(':'))
            .and_then(|(v6, _)| v6.parse::<Ipv6Addr>().ok())
            .map(IpAddr::V6)
    } else {
        node.split_once(':')
            .and_then(|(v4, _)| v4.parse::<Ipv4Addr>().ok())
            .map(IpAddr::V4)
    };
    addr.map_or(Hop::Unknown, |a| Hop::Addr(a.to_canonical()))
}

/// `text` split at each `separator` outside double quotes; `None` when a quote is left open.
fn split_unquoted(text: &str, separator: char) -> Option<Vec<&str>> {
    let mut parts = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            c if c == separator && !quoted => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    if quoted {
        return None;
    }
    parts.push(&text[start..]);
    Some(parts)
}

/// A token, or a quoted string with its escapes undone; `None` for an unbalanced quote.
fn unquote(value: &str) -> Option<String> {
    let Some(inner) = value.strip_prefix('"') else {
        return (!value.contains('"')).then(|| value.to_owned());
    };
    let inner = inner.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            '"' => return None,
            c => out.push(c),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests;
