//! Registered callback URLs.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A callback URL accepted for registration: absolute, no fragment, no wildcard, https unless
/// it points at the loopback interface, and never a `javascript:` or `data:` URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RedirectUri(String);

/// Why a redirect URI cannot be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RedirectUriError {
    #[error("`{0}` is not an absolute URL")]
    NotAbsolute(String),
    #[error("`{0}` has a fragment (#...), which a redirect URI must not have")]
    Fragment(String),
    #[error("`{0}` contains a wildcard; register each callback URL exactly")]
    Wildcard(String),
    #[error("`{0}` uses a scheme that is never allowed")]
    ForbiddenScheme(String),
    #[error("`{0}` must use https (plain http is allowed only for localhost / 127.0.0.1 / [::1])")]
    NotHttps(String),
    #[error("`{0}…` is longer than {max} bytes", max = super::bounds::REDIRECT_URI)]
    TooLong(String),
}

impl RedirectUri {
    /// Validates a URL for registration.
    pub fn parse(raw: &str) -> Result<Self, RedirectUriError> {
        if raw.len() > super::bounds::REDIRECT_URI {
            // Named by its start only: the message must not be as long as the URI.
            let start = raw.char_indices().nth(60).map_or(raw.len(), |(i, _)| i);
            return Err(RedirectUriError::TooLong(raw[..start].to_owned()));
        }
        let owned = || raw.to_owned();
        if raw.contains('*') {
            return Err(RedirectUriError::Wildcard(owned()));
        }
        let url = url::Url::parse(raw).map_err(|_| RedirectUriError::NotAbsolute(owned()))?;
        if url.fragment().is_some() || raw.contains('#') {
            return Err(RedirectUriError::Fragment(owned()));
        }
        match url.scheme() {
            "javascript" | "data" | "vbscript" | "file" | "blob" => {
                Err(RedirectUriError::ForbiddenScheme(owned()))
            }
            "https" => Ok(Self(raw.to_owned())),
            "http" if is_loopback(&url) => Ok(Self(raw.to_owned())),
            "http" => Err(RedirectUriError::NotHttps(owned())),
            // A private-use scheme of a native app (RFC 8252 §7.1), e.g. com.example.app:/cb
            scheme if scheme.contains('.') => Ok(Self(raw.to_owned())),
            _ => Err(RedirectUriError::ForbiddenScheme(owned())),
        }
    }

    /// The URL text, exactly as registered.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Whether `url` names this machine's loopback (`localhost`, 127.0.0.0/8, `::1`): traffic to
/// it never leaves the machine.
pub fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

impl fmt::Display for RedirectUri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uri_over_the_limit_is_refused_and_named_by_its_start() {
        let long = format!("https://app.example.com/{}", "a".repeat(2048));
        let err = RedirectUri::parse(&long).unwrap_err().to_string();
        assert!(err.starts_with("`https://app.example.com/aaa"), "{err}");
        assert!(err.ends_with("…` is longer than 2048 bytes"), "{err}");
        assert!(err.len() < 120, "{err}");
    }

    #[test]
    fn https_and_loopback_http_are_accepted() {
        assert!(RedirectUri::parse("https://app.example.com/callback").is_ok());
        assert!(RedirectUri::parse("http://127.0.0.1:9000/cb").is_ok());
        assert!(RedirectUri::parse("http://localhost/cb").is_ok());
        assert!(RedirectUri::parse("com.example.app:/oauth").is_ok());
    }

    #[test]
    fn dangerous_or_vague_uris_are_refused() {
        assert!(matches!(
            RedirectUri::parse("http://app.example.com/cb"),
            Err(RedirectUriError::NotHttps(_))
        ));
        assert!(matches!(
            RedirectUri::parse("https://app.example.com/cb#x"),
            Err(RedirectUriError::Fragment(_))
        ));
        assert!(matches!(
            RedirectUri::parse("https://*.example.com/cb"),
            Err(RedirectUriError::Wildcard(_))
        ));
        assert!(matches!(
            RedirectUri::parse("javascript:alert(1)"),
            Err(RedirectUriError::ForbiddenScheme(_))
        ));
        assert!(matches!(
            RedirectUri::parse("/relative"),
            Err(RedirectUriError::NotAbsolute(_))
        ));
    }
}
