//! What an app may be told besides its redirect URIs: who may use it (roles and groups), which
//! browser origins may call its endpoints (CORS), and where it hears that someone signed out
//! (OpenID Connect Back-Channel Logout 1.0).

use super::claims::{Claims, Role};
use super::dn::normalize_dn;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;

/// Most roles or groups one app may name, and the longest group name or DN.
pub const MAX_ENTRIES: usize = 50;
/// The longest group name or DN an app may name, in bytes.
pub const MAX_GROUP: usize = 512;

/// A browser origin (`scheme://host[:port]`), lower-case, without its scheme's default port.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct WebOrigin(String);

/// Why a value cannot be registered for an app.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AccessError {
    #[error("`{0}` is not one of the seven roles (employee, manager, hr, finance, ceo, admin, superadmin)")]
    UnknownRole(String),
    #[error("a group must be named: its name as the groups claim shows it, or its DN, at most {MAX_GROUP} bytes")]
    BadGroup,
    #[error("at most {MAX_ENTRIES} roles, groups or web origins may be listed")]
    TooMany,
    #[error("`{0}` is not a web origin: give scheme://host[:port] only (http or https; no path, no *, no null)")]
    BadOrigin(String),
    #[error("`{0}` cannot receive back-channel logouts: give an https URL (http only to localhost / 127.0.0.1 / [::1]), without a fragment")]
    BadLogoutUri(String),
}

impl WebOrigin {
    /// Reads an origin given for an app: `scheme://host[:port]` and nothing else (a trailing
    /// `/` is forgiven).
    pub fn parse(raw: &str) -> Result<Self, AccessError> {
        let raw = raw.trim();
        let refuse = || AccessError::BadOrigin(raw.chars().take(200).collect());
        if raw.contains('*') || raw.eq_ignore_ascii_case("null") || raw.len() > 512 {
            return Err(refuse());
        }
        let url = url::Url::parse(raw).map_err(|_| refuse())?;
        let bare = url.path() == "/"
            && url.query().is_none()
            && url.fragment().is_none()
            && url.username().is_empty()
            && url.password().is_none()
            && !raw.trim_end_matches('/').ends_with('?');
        // Only a trailing slash may follow the authority.
        let authority_end = raw
            .find("://")
            .map(|i| i + 3)
            .and_then(|start| raw[start..].find('/').map(|j| start + j));
        let only_slash = authority_end.is_none_or(|i| &raw[i..] == "/");
        if !bare || !only_slash {
            return Err(refuse());
        }
        Self::of_url(&url).ok_or_else(refuse)
    }

    /// The origin of a URL (its scheme, host and port), for http and https URLs.
    pub fn of_url(url: &url::Url) -> Option<Self> {
        if !matches!(url.scheme(), "http" | "https") {
            return None;
        }
        let host = url.host_str()?.to_ascii_lowercase();
        Some(match url.port() {
            // `url` already drops a port that is the scheme's default.
            Some(port) => Self(format!("{}://{host}:{port}", url.scheme())),
            None => Self(format!("{}://{host}", url.scheme())),
        })
    }

    /// The origin of the `Origin` header `raw`, when it is one.
    pub fn of_header(raw: &str) -> Option<Self> {
        if raw.len() > 512 || raw.eq_ignore_ascii_case("null") {
            return None;
        }
        url::Url::parse(raw).ok().and_then(|url| Self::of_url(&url))
    }

    /// The origin text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this is `http` to a loopback IP literal, which a public app's loopback redirect
    /// URI matches on any port (RFC 8252 §7.3).
    pub fn same_loopback_host(&self, other: &WebOrigin) -> bool {
        self.loopback_host()
            .is_some_and(|h| other.loopback_host() == Some(h))
    }

    /// The host of an `http` origin on a loopback IP literal (`127.0.0.1`, `[::1]`), without
    /// its port; `None` for any other origin.
    fn loopback_host(&self) -> Option<&str> {
        let rest = self.0.strip_prefix("http://")?;
        let host = match rest.strip_prefix('[') {
            Some(v6) => &rest[..v6.find(']')? + 2],
            None => rest.split(':').next()?,
        };
        let ip = host.trim_start_matches('[').trim_end_matches(']');
        let loopback = ip
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
        loopback.then_some(host)
    }
}

/// The browser origins whose scripts may call an app's endpoints (or any of several apps'),
/// ready to be matched: exact origins, and loopback hosts whose every port matches (a public
/// app's loopback redirect URI, RFC 8252 §7.3).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OriginSet {
    exact: HashSet<WebOrigin>,
    any_port: HashSet<String>,
}

impl OriginSet {
    /// Whether `origin` is in the set.
    pub fn contains(&self, origin: &WebOrigin) -> bool {
        self.exact.contains(origin)
            || origin
                .loopback_host()
                .is_some_and(|host| self.any_port.contains(host))
    }

    /// Adds `origin`; on every port of its host when `any_port` and it is a loopback origin.
    pub fn insert(&mut self, origin: WebOrigin, any_port: bool) {
        if any_port {
            if let Some(host) = origin.loopback_host() {
                self.any_port.insert(host.to_owned());
                return;
            }
        }
        self.exact.insert(origin);
    }

    /// Adds every origin of `other`.
    pub fn extend(&mut self, other: &OriginSet) {
        self.exact.extend(other.exact.iter().cloned());
        self.any_port.extend(other.any_port.iter().cloned());
    }

    /// Whether the set holds no origin.
    pub fn is_empty(&self) -> bool {
        self.exact.is_empty() && self.any_port.is_empty()
    }
}

impl fmt::Display for WebOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reads the roles given for an app; duplicates dropped.
pub fn parse_roles(raw: &[String]) -> Result<Vec<Role>, AccessError> {
    let mut roles = Vec::new();
    for name in raw.iter().map(|r| r.trim()).filter(|r| !r.is_empty()) {
        let role = Role::parse(name).ok_or_else(|| AccessError::UnknownRole(name.to_owned()))?;
        if !roles.contains(&role) {
            roles.push(role);
        }
    }
    if roles.len() > MAX_ENTRIES {
        return Err(AccessError::TooMany);
    }
    Ok(roles)
}

/// Reads the groups given for an app: names or DNs, trimmed; duplicates (case aside) dropped.
pub fn parse_groups(raw: &[String]) -> Result<Vec<String>, AccessError> {
    let mut groups: Vec<String> = Vec::new();
    for group in raw.iter().map(|g| g.trim()).filter(|g| !g.is_empty()) {
        if group.len() > MAX_GROUP || group.chars().any(char::is_control) {
            return Err(AccessError::BadGroup);
        }
        if !groups.iter().any(|g| g.eq_ignore_ascii_case(group)) {
            groups.push(group.to_owned());
        }
    }
    if groups.len() > MAX_ENTRIES {
        return Err(AccessError::TooMany);
    }
    Ok(groups)
}

/// Reads the web origins given for an app; duplicates dropped.
pub fn parse_origins(raw: &[String]) -> Result<Vec<WebOrigin>, AccessError> {
    let mut origins = Vec::new();
    for origin in raw.iter().map(|o| o.trim()).filter(|o| !o.is_empty()) {
        let origin = WebOrigin::parse(origin)?;
        if !origins.contains(&origin) {
            origins.push(origin);
        }
    }
    if origins.len() > MAX_ENTRIES {
        return Err(AccessError::TooMany);
    }
    Ok(origins)
}

/// Reads a back-channel logout URI: https, or http to the loopback; a query is allowed, a
/// fragment is not (Back-Channel Logout 1.0 §2.2).
pub fn parse_logout_uri(raw: &str) -> Result<String, AccessError> {
    let raw = raw.trim();
    let refuse = || AccessError::BadLogoutUri(raw.chars().take(200).collect());
    if raw.len() > super::bounds::REDIRECT_URI || raw.contains('#') {
        return Err(refuse());
    }
    let url = url::Url::parse(raw).map_err(|_| refuse())?;
    match url.scheme() {
        "https" if url.host_str().is_some() => Ok(raw.to_owned()),
        "http" if super::redirect_uri::is_loopback(&url) => Ok(raw.to_owned()),
        _ => Err(refuse()),
    }
}

/// Who may use an app: everyone when both lists are empty, else a person whose role is listed
/// or who is a member (nested membership counted) of a listed group, named as the `groups`
/// claim shows it or by DN, compared case-insensitively.
pub fn allows(allowed_roles: &[Role], allowed_groups: &[String], claims: &Claims) -> bool {
    if allowed_roles.is_empty() && allowed_groups.is_empty() {
        return true;
    }
    if claims
        .role()
        .is_some_and(|role| allowed_roles.contains(&role))
    {
        return true;
    }
    let member = |listed: &String| {
        if listed.contains('=') {
            let listed = normalize_dn(listed);
            claims.group_dns().any(|dn| normalize_dn(dn) == listed)
        } else {
            claims
                .groups()
                .any(|name| name.eq_ignore_ascii_case(listed))
        }
    };
    allowed_groups.iter().any(member)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(raw: &str) -> Result<String, AccessError> {
        WebOrigin::parse(raw).map(|o| o.as_str().to_owned())
    }

    #[test]
    fn an_origin_is_scheme_host_and_port_lower_case_without_the_default_port() {
        assert_eq!(
            origin("https://App.Example.com").unwrap(),
            "https://app.example.com"
        );
        assert_eq!(
            origin("https://app.example.com:443").unwrap(),
            "https://app.example.com"
        );
        assert_eq!(
            origin("http://127.0.0.1:5173/").unwrap(),
            "http://127.0.0.1:5173"
        );
        assert_eq!(
            origin("https://app.example.com:8443").unwrap(),
            "https://app.example.com:8443"
        );
        for bad in [
            "https://app.example.com/path",
            "https://*.example.com",
            "null",
            "app.example.com",
            "https://app.example.com?x=1",
            "https://user@app.example.com",
            "ftp://app.example.com",
        ] {
            assert!(origin(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_origin_set_matches_exact_origins_and_loopback_hosts_on_any_port() {
        let o = |raw: &str| WebOrigin::parse(raw).unwrap();
        let mut set = OriginSet::default();
        assert!(set.is_empty());
        set.insert(o("https://spa.example.com"), true);
        set.insert(o("http://127.0.0.1:8080"), true);
        set.insert(o("http://[::1]:8080"), true);
        set.insert(o("http://127.0.0.2:8080"), false);
        assert!(set.contains(&o("https://spa.example.com")));
        assert!(!set.contains(&o("https://spa.example.com:8443")));
        assert!(set.contains(&o("http://127.0.0.1:5173")));
        assert!(set.contains(&o("http://127.0.0.1")));
        assert!(set.contains(&o("http://[::1]:9")));
        assert!(set.contains(&o("http://127.0.0.2:8080")));
        assert!(!set.contains(&o("http://127.0.0.2:8081")));
        assert!(!set.contains(&o("https://127.0.0.1:5173")));
        assert!(!set.contains(&o("http://localhost:5173")));
    }

    #[test]
    fn a_logout_uri_is_https_or_loopback_http_without_a_fragment() {
        assert!(parse_logout_uri("https://app.example.com/logout?x=1").is_ok());
        assert!(parse_logout_uri("http://127.0.0.1:8000/bcl").is_ok());
        assert!(parse_logout_uri("http://app.example.com/bcl").is_err());
        assert!(parse_logout_uri("https://app.example.com/bcl#x").is_err());
    }

    #[test]
    fn roles_and_groups_are_checked_and_deduplicated() {
        let roles = parse_roles(&["Finance".into(), "ceo".into(), "finance".into()]).unwrap();
        assert_eq!(roles, [Role::Finance, Role::Ceo]);
        assert!(parse_roles(&["intern".into()]).is_err());
        let groups = parse_groups(&["finance-team".into(), "FINANCE-team".into(), " ".into()]);
        assert_eq!(groups.unwrap(), ["finance-team"]);
        assert!(parse_groups(&["bad\ngroup".into()]).is_err());
    }

    #[test]
    fn a_listed_group_matches_by_name_or_by_dn_spelled_either_way() {
        let claims = Claims::new(std::collections::BTreeMap::from([
            ("sub".to_string(), "ken".to_string()),
            ("role".to_string(), "staff".to_string()),
        ]))
        .unwrap()
        .with_groups(
            vec!["finance-team".into()],
            vec!["cn=finance-team,ou=groups,dc=example,dc=com".into()],
        );
        let allows = |groups: &[&str]| {
            let groups: Vec<String> = groups.iter().map(|g| g.to_string()).collect();
            allows(&[], &groups, &claims)
        };
        assert!(allows(&["Finance-Team"]));
        assert!(allows(&["CN=finance-team, OU=Groups,dc=example,dc=com"]));
        assert!(!allows(&["cn=finance-team,ou=other,dc=example,dc=com"]));
        assert!(!allows(&["people-team"]));
        assert!(allows(&[]), "no list: everyone");
    }
}
