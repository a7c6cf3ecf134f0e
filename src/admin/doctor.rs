//! The app doctor: each app's recent failed requests, in plain words, on its admin page.
//!
//! The authorize page and the token endpoint report what they refused; this module turns the
//! refusal into a problem and a fix an app developer understands ("the redirect_uri has a
//! trailing slash the registered one lacks") and keeps the last [`KEEP`] per app for [`TTL`]
//! seconds. Nothing secret is kept: no code, token, secret or verifier, only what was wrong.

use crate::domain::{ClientId, ClientRecord};
use crate::oauth::OAuthError;
use crate::state::AppState;
use crate::store::StoreError;
use serde::{Deserialize, Serialize};

/// How many failures are kept per app.
pub const KEEP: usize = 50;
/// How long failures are kept after the last one (7 days).
pub const TTL: u64 = 7 * 86_400;

/// One failed request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoctorEntry {
    /// When, Unix seconds.
    pub at: u64,
    /// `authorize` or `token`.
    pub endpoint: String,
    /// What went wrong.
    pub problem: String,
    /// What the app should change.
    pub fix: Option<String>,
}

impl From<DoctorEntry> for super::api::Failure {
    fn from(e: DoctorEntry) -> Self {
        super::api::Failure {
            at: e.at,
            endpoint: e.endpoint,
            problem: e.problem,
            fix: e.fix,
        }
    }
}

/// An app's recent failures, newest first; unreadable entries are skipped.
pub async fn recent(state: &AppState, id: &ClientId) -> Result<Vec<DoctorEntry>, StoreError> {
    let raw = state.store.failures(id).await?;
    Ok(raw
        .iter()
        .filter_map(|j| serde_json::from_str(j).ok())
        .collect())
}

async fn note(
    state: &AppState,
    id: &ClientId,
    endpoint: &str,
    problem: String,
    fix: Option<String>,
) {
    let entry = DoctorEntry {
        at: state.now(),
        endpoint: endpoint.to_owned(),
        problem,
        fix,
    };
    let Ok(json) = serde_json::to_string(&entry) else {
        return;
    };
    if let Err(e) = state.store.push_failure(id, &json, KEEP, TTL).await {
        tracing::warn!(error = %e, client_id = %id, "app doctor: failure not recorded");
    }
}

/// The registered app named by a raw client id, if any.
async fn registered(state: &AppState, raw_id: Option<&str>) -> Option<ClientRecord> {
    let id = ClientId::parse(raw_id?)?;
    state.store.client(&id).await.ok().flatten()
}

/// Notes a refused authorize request of a registered app: an unregistered redirect URI (and
/// where it differs from the closest registered one), or the error sent back to the app.
pub async fn authorize_refused(state: &AppState, raw_query: &str, error: Option<&OAuthError>) {
    let param = |name: &str| {
        url::form_urlencoded::parse(raw_query.as_bytes())
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
    };
    let Some(app) = registered(state, param("client_id").as_deref()).await else {
        return;
    };
    let attempted = param("redirect_uri").unwrap_or_default();
    let (problem, fix) = if !app.allows_redirect(&attempted) {
        let closest = closest(&app, &attempted);
        (
            format!("redirect_uri `{attempted}` is not registered for this app"),
            Some(match closest {
                Some(reg) => format!(
                    "{}. Send exactly `{reg}`, or register the new URI.",
                    difference(&attempted, reg)
                ),
                None => "Register the callback URL the app sends.".to_owned(),
            }),
        )
    } else if let Some(error) = error {
        (
            format!("{}: {}", error.code(), error.description()),
            hint(&error.description()),
        )
    } else {
        return;
    };
    note(state, &app.client_id, "authorize", problem, fix).await;
}

/// Notes a refused token request of a registered app. `via_basic` tells how the secret came.
pub async fn token_refused(
    state: &AppState,
    raw_client_id: Option<&str>,
    via_basic: bool,
    error: &OAuthError,
) {
    if error.status() >= 500 {
        return;
    }
    let Some(app) = registered(state, raw_client_id).await else {
        return;
    };
    let description = error.description();
    let problem = if description == "client authentication failed" {
        let method = if via_basic {
            "in the Authorization: Basic header"
        } else {
            "as client_secret in the body"
        };
        format!("wrong client secret (sent {method})")
    } else {
        format!("{}: {description}", error.code())
    };
    let fix = hint(&description);
    note(state, &app.client_id, "token", problem, fix).await;
}

/// What to change, for the refusals an app developer most often meets.
fn hint(description: &str) -> Option<String> {
    let has = |s: &str| description.contains(s);
    let fix = if description == "client authentication failed" {
        "Use the app's current secret: after a rotation only the new one works. In a Basic header, form-urlencode the id and the secret before base64 (RFC 6749 §2.3.1)."
    } else if has("both in the Authorization header and in the body") {
        "Send the credentials one way only: the Basic header or client_id and client_secret in the body."
    } else if has("client_secret is required") {
        "Send the secret as client_secret in the form-encoded body, or in an Authorization: Basic header."
    } else if has("public application") {
        "A public app has no secret: send only client_id, and use PKCE."
    } else if has("disabled") {
        "The app is disabled: enable it on this page when it may sign users in again."
    } else if has("already been used") {
        "A code works once: exchange it once only (a retry or a doubled callback exchanges it twice). The tokens of the first exchange were revoked."
    } else if has("code has expired") || has("invalid or has expired") {
        "Exchange the code right after the redirect: it expires within a minute."
    } else if has("code_verifier") || has("PKCE") {
        "Send code_challenge (S256) at authorize and the matching code_verifier at the token endpoint."
    } else if has("redirect_uri differs") {
        "Send the token endpoint exactly the redirect_uri used in the authorize request."
    } else if has("scope") {
        "Ask for scopes among openid, profile, email and role."
    } else {
        return None;
    };
    Some(fix.to_owned())
}

/// The registered URI sharing the longest prefix with `attempted`.
fn closest<'a>(app: &'a ClientRecord, attempted: &str) -> Option<&'a str> {
    app.redirect_uris
        .iter()
        .map(|r| r.as_str())
        .max_by_key(|r| common_prefix(r, attempted))
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

/// Where `attempted` differs from `registered`, in plain words.
pub fn difference(attempted: &str, registered: &str) -> String {
    if attempted.trim_end_matches('/') == registered.trim_end_matches('/') {
        return if attempted.ends_with('/') {
            format!("It has a trailing slash that the registered `{registered}` lacks")
        } else {
            format!("It lacks the trailing slash of the registered `{registered}`")
        };
    }
    if attempted.eq_ignore_ascii_case(registered) {
        return format!("It differs from the registered `{registered}` only in upper / lower case, which counts");
    }
    let n = common_prefix(attempted, registered);
    let tail = |s: &str| s.chars().skip(n).collect::<String>();
    format!(
        "It differs from the registered `{registered}` from character {}: `…{}` instead of `…{}`",
        n + 1,
        tail(attempted),
        tail(registered)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trailing_slash_is_named() {
        let d = difference("https://a.example/cb/", "https://a.example/cb");
        assert!(d.contains("trailing slash that the registered"), "{d}");
        let d = difference("https://a.example/cb", "https://a.example/cb/");
        assert!(d.contains("lacks the trailing slash"), "{d}");
    }

    #[test]
    fn other_differences_show_where_they_start() {
        let d = difference("http://a.example/cb", "https://a.example/cb");
        assert!(
            d.contains("character 5") && d.contains("`…://a.example/cb`"),
            "{d}"
        );
        let d = difference("https://A.example/cb", "https://a.example/cb");
        assert!(d.contains("upper / lower case"), "{d}");
    }

    #[test]
    fn hints_cover_the_common_token_mistakes() {
        assert!(hint("client authentication failed").is_some());
        assert!(hint("the code has already been used; the tokens …").is_some());
        assert!(hint("code_verifier is required: the authorization request used PKCE").is_some());
        assert!(hint("something else entirely").is_none());
    }
}
