//! Connected apps (OAuth clients) as the store keeps them.

use super::app_access::{self, OriginSet, WebOrigin};
use super::claims::{Claims, Role};
use super::redirect_uri::RedirectUri;
use super::secret::Digest;
use super::signing_alg::SigningAlg;
use crate::clock::UnixTime;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A client id: 128 random bits, not secret but unguessable.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ClientId(String);

impl ClientId {
    /// A fresh random id. It never starts with `-`, so that command lines take it as an id
    /// rather than an option (`sso-bridge apps disable <id>`).
    pub fn generate() -> Self {
        loop {
            let id = super::secret::random_id(16);
            if !id.starts_with('-') {
                return Self(id);
            }
        }
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
    /// A resource server: may introspect the tokens of other apps (RFC 7662). Without it an
    /// app learns only about its own tokens. Absent (false) in records written before.
    #[serde(default)]
    pub may_introspect: bool,
    /// The algorithm its id_tokens are signed with (`id_token_signed_response_alg`, OpenID
    /// Connect Dynamic Client Registration 1.0 §2); `None`: the service's default. Absent
    /// (`None`) in records written before apps could choose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_token_signed_response_alg: Option<SigningAlg>,
    /// How many changes the record has been through since it was registered: a change is
    /// written only over the revision it was made from, so two admins changing one app at the
    /// same moment (on two nodes) cannot undo each other. Absent (0) in earlier records.
    #[serde(default)]
    pub revision: u64,
    /// Roles whose holders may use the app; with `allowed_groups` both empty (as in records
    /// written before access existed), everyone may.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_roles: Vec<Role>,
    /// Groups (names as the `groups` claim shows them, or DNs) whose members may use the app.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_groups: Vec<String>,
    /// Browser origins given besides those of the redirect URIs, whose scripts may call the
    /// app's endpoints (CORS).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub web_origins: Vec<WebOrigin>,
    /// Where the app hears that someone signed out (Back-Channel Logout 1.0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backchannel_logout_uri: Option<String>,
}

impl ClientRecord {
    /// Whether the app has no secret (authenticates with `none` and must use PKCE).
    pub fn is_public(&self) -> bool {
        self.secret_digest.is_none()
    }

    /// Whether `uri` is registered, by exact string comparison (RFC 9700 §2.1) — except that
    /// a public (native) app's loopback IP redirect URI matches with any port, as RFC 8252
    /// §7.3 requires: the app listens on whatever port the system gives it.
    pub fn allows_redirect(&self, uri: &str) -> bool {
        self.redirect_uris.iter().any(|r| {
            r.as_str() == uri || (self.is_public() && same_but_loopback_port(r.as_str(), uri))
        })
    }

    /// Whether `claims` (a person, with their groups) may use the app.
    pub fn allows(&self, claims: &Claims) -> bool {
        app_access::allows(&self.allowed_roles, &self.allowed_groups, claims)
    }

    /// Whether only some people may use the app.
    pub fn is_restricted(&self) -> bool {
        !(self.allowed_roles.is_empty() && self.allowed_groups.is_empty())
    }

    /// Whether scripts of `origin` may call the app's endpoints: an origin of a redirect URI
    /// (a public app's loopback one on any port, as RFC 8252 matching allows), or one given.
    pub fn allows_origin(&self, origin: &WebOrigin) -> bool {
        self.origins().contains(origin)
    }

    /// Every origin whose scripts may call the app's endpoints (see
    /// [`ClientRecord::allows_origin`]).
    pub fn origins(&self) -> OriginSet {
        let mut set = OriginSet::default();
        for origin in &self.web_origins {
            set.insert(origin.clone(), false);
        }
        for uri in &self.redirect_uris {
            let origin = url::Url::parse(uri.as_str())
                .ok()
                .and_then(|u| WebOrigin::of_url(&u));
            if let Some(origin) = origin {
                set.insert(origin, self.is_public());
            }
        }
        set
    }

    /// Whether `uri` is a registered post-logout redirect URI, by exact string comparison.
    pub fn allows_post_logout_redirect(&self, uri: &str) -> bool {
        self.post_logout_redirect_uris
            .iter()
            .any(|r| r.as_str() == uri)
    }
}

/// Whether two URLs are `http` to a loopback IP literal and equal, as strings, once the port
/// is taken out of each.
fn same_but_loopback_port(registered: &str, presented: &str) -> bool {
    let Ok(url) = url::Url::parse(registered) else {
        return false;
    };
    let loopback = match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        _ => false,
    };
    let Some(host) = url
        .host_str()
        .filter(|_| loopback && url.scheme() == "http")
    else {
        return false;
    };
    let prefix = format!("http://{host}");
    let without_port = |s: &str| {
        let rest = s.strip_prefix(&prefix)?;
        let rest = match rest.strip_prefix(':') {
            Some(r) => r.trim_start_matches(|c: char| c.is_ascii_digit()),
            None => rest,
        };
        Some(rest.to_owned())
    };
    without_port(registered).is_some_and(|r| without_port(presented) == Some(r))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_generated_id_never_starts_like_an_option() {
        for _ in 0..2000 {
            assert!(!super::ClientId::generate().as_str().starts_with('-'));
        }
    }

    use super::*;

    fn app(uri: &str, public: bool) -> ClientRecord {
        ClientRecord {
            client_id: ClientId::generate(),
            name: "n".into(),
            secret_digest: (!public).then(|| Digest::of("s")),
            redirect_uris: vec![RedirectUri::parse(uri).unwrap()],
            require_pkce: true,
            enabled: true,
            created_by: "a".into(),
            created_at: 0,
            post_logout_redirect_uris: Vec::new(),
            may_introspect: false,
            id_token_signed_response_alg: None,
            revision: 0,
            allowed_roles: Vec::new(),
            allowed_groups: Vec::new(),
            web_origins: Vec::new(),
            backchannel_logout_uri: None,
        }
    }

    #[test]
    fn origins_come_from_redirect_uris_and_the_ones_given() {
        let mut confidential = app("https://app.example.com/cb", false);
        let origin = |raw: &str| WebOrigin::parse(raw).unwrap();
        assert!(confidential.allows_origin(&origin("https://app.example.com")));
        assert!(!confidential.allows_origin(&origin("https://app.example.com:8443")));
        assert!(!confidential.allows_origin(&origin("https://spa.example.com")));
        confidential
            .web_origins
            .push(origin("https://spa.example.com"));
        assert!(confidential.allows_origin(&origin("https://spa.example.com")));
        let native = app("http://127.0.0.1/cb", true);
        assert!(native.allows_origin(&origin("http://127.0.0.1:5173")));
        assert!(!native.allows_origin(&origin("http://127.0.0.2:5173")));
    }

    #[test]
    fn a_native_apps_loopback_redirect_matches_any_port() {
        let native = app("http://127.0.0.1/cb", true);
        assert!(native.allows_redirect("http://127.0.0.1:51004/cb"));
        assert!(native.allows_redirect("http://127.0.0.1/cb"));
        assert!(!native.allows_redirect("http://127.0.0.1:51004/cb/"));
        assert!(!native.allows_redirect("http://127.0.0.2:51004/cb"));
        assert!(!native.allows_redirect("http://localhost:51004/cb"));
        let v6 = app("http://[::1]:8000/cb", true);
        assert!(v6.allows_redirect("http://[::1]:9/cb"));
        let root = app("http://127.0.0.1/", true);
        assert!(root.allows_redirect("http://127.0.0.1:4000/"));
        assert!(!root.allows_redirect("http://127.0.0.1:4000/x"));
        assert!(!root.allows_redirect("http://127.0.0.1.evil.example/"));
    }

    #[test]
    fn an_app_stored_before_introspection_rights_reads_back_as_no_resource_server() {
        let mut stored = serde_json::to_value(app("https://a.example/cb", false)).unwrap();
        stored.as_object_mut().unwrap().remove("may_introspect");
        let read: ClientRecord = serde_json::from_value(stored).unwrap();
        assert!(!read.may_introspect);
    }

    #[test]
    fn an_app_stored_before_apps_chose_their_id_token_algorithm_reads_back_with_the_default() {
        let mut stored = serde_json::to_value(app("https://a.example/cb", false)).unwrap();
        assert!(
            stored.get("id_token_signed_response_alg").is_none(),
            "the default is not written: {stored}"
        );
        let read: ClientRecord = serde_json::from_value(stored.clone()).unwrap();
        assert_eq!(read.id_token_signed_response_alg, None);

        stored["id_token_signed_response_alg"] = "ES256".into();
        let read: ClientRecord = serde_json::from_value(stored).unwrap();
        assert_eq!(read.id_token_signed_response_alg, Some(SigningAlg::Es256));
    }

    #[test]
    fn a_confidential_apps_redirect_matches_exactly() {
        let web = app("http://127.0.0.1:8000/cb", false);
        assert!(web.allows_redirect("http://127.0.0.1:8000/cb"));
        assert!(!web.allows_redirect("http://127.0.0.1:8001/cb"));
    }
}
