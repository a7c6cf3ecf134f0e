//! Connected apps (OAuth clients) as the store keeps them.

use super::redirect_uri::RedirectUri;
use super::secret::Digest;
use crate::clock::UnixTime;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A client id: 128 random bits, not secret but unguessable.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ClientId(String);

impl ClientId {
    /// A fresh random id.
    pub fn generate() -> Self {
        Self(super::secret::random_id(16))
    }

    /// Wraps a presented id. Ids are opaque: any non-empty string of at most 128 visible
    /// ASCII characters may be looked up.
    pub fn parse(raw: &str) -> Option<Self> {
        let ok = !raw.is_empty() && raw.len() <= 128 && raw.bytes().all(|b| b.is_ascii_graphic());
        ok.then(|| Self(raw.to_owned()))
    }

    /// The id text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ClientId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A registered app.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientRecord {
    /// Public identifier.
    pub client_id: ClientId,
    /// Human name shown on the consent page.
    pub name: String,
    /// Digest of the client secret; `None` for a public (native / mobile) app.
    pub secret_digest: Option<Digest>,
    /// Registered callback URLs, matched exactly.
    pub redirect_uris: Vec<RedirectUri>,
    /// Whether the app must use PKCE (always true for public apps).
    pub require_pkce: bool,
    /// Disabled apps cannot start flows or obtain tokens.
    pub enabled: bool,
    /// The superadmin who registered it.
    pub created_by: String,
    /// When it was registered.
    pub created_at: UnixTime,
    /// Where OpenID Connect RP-initiated logout may send the browser afterwards, matched
    /// exactly. Absent in records written before logout existed.
    #[serde(default)]
    pub post_logout_redirect_uris: Vec<RedirectUri>,
}

impl ClientRecord {
    /// Whether the app has no secret (authenticates with `none` and must use PKCE).
    pub fn is_public(&self) -> bool {
        self.secret_digest.is_none()
    }

    /// Whether `uri` is registered, by exact string comparison (RFC 9700 §2.1).
    pub fn allows_redirect(&self, uri: &str) -> bool {
        self.redirect_uris.iter().any(|r| r.as_str() == uri)
    }

    /// Whether `uri` is a registered post-logout redirect URI, by exact string comparison.
    pub fn allows_post_logout_redirect(&self, uri: &str) -> bool {
        self.post_logout_redirect_uris
            .iter()
            .any(|r| r.as_str() == uri)
    }
}
