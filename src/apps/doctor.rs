//! The app doctor: each app's recent failed requests, in plain words, on its admin page.
//!
//! The authorize page and the token endpoint publish what they refused; [`Doctor`] hears it,
//! turns the refusal into a problem and a fix an app developer understands ("the redirect_uri
//! has a trailing slash the registered one lacks") and keeps the last [`KEEP`] per app for
//! [`TTL`] seconds. Nothing secret is kept: no code, token, secret or verifier, only what was
//! wrong.

use crate::clock::HasClock;
use crate::domain::{ClientId, ClientRecord};
use crate::events::{Event, Listener};
use crate::store::{HasStore, StoreError, WithClock};
use async_trait::async_trait;

pub use crate::store::DoctorEntry;

/// How many failures are kept per app.
pub const KEEP: usize = 50;
/// How long failures are kept after the last one (7 days).
pub const TTL: u64 = 7 * 86_400;

/// An app's recent failures, newest first; unreadable entries are skipped.
pub async fn recent(cx: &impl HasStore, id: &ClientId) -> Result<Vec<DoctorEntry>, StoreError> {
    cx.store().failures(id).await
}

/// Explains the refusals the flows publish.
pub struct Doctor(pub WithClock);

#[async_trait]
impl Listener for Doctor {
    async fn on(&self, event: &Event) {
        match event {
            Event::TokenRefused {
                client_id,
                via_basic,
                error,
                description,
            } => {
                token_refused(
                    &self.0,
                    client_id.as_deref(),
                    *via_basic,
                    error,
                    description,
                )
                .await
            }
            Event::AuthorizeRefused {
                client_id,
                redirect_uri,
                error,
            } => {
                let error = error
                    .as_ref()
                    .map(|(code, description)| (*code, description.as_str()));
                authorize_refused(
                    &self.0,
                    client_id.as_deref(),
                    redirect_uri.as_deref(),
                    error,
                )
                .await
            }
            _ => {}
        }
    }
}

async fn note(cx: &WithClock, id: &ClientId, endpoint: &str, problem: String, fix: Option<String>) {
    let entry = DoctorEntry {
        at: cx.now(),
        endpoint: endpoint.to_owned(),
        problem,
        fix,
    };
    if let Err(e) = cx.store().push_failure(id, &entry, KEEP, TTL).await {
        tracing::warn!(error = %e, client_id = %id, "app doctor: failure not recorded");
    }
}

/// The registered app named by a raw client id, if any.
async fn registered(cx: &WithClock, raw_id: Option<&str>) -> Option<ClientRecord> {
    let id = ClientId::parse(raw_id?)?;
    cx.store().client(&id).await.ok().flatten()
}

/// Notes a refused authorize request of a registered app: an unregistered redirect URI (and
/// where it differs from the closest registered one), or the error sent back to the app.
async fn authorize_refused(
    cx: &WithClock,
    client_id: Option<&str>,
    redirect_uri: Option<&str>,
    error: Option<(&str, &str)>,
) {
    let Some(app) = registered(cx, client_id).await else {
        return;
    };
    let attempted = redirect_uri.unwrap_or_default();
    let (problem, fix) = if !app.allows_redirect(attempted) {
        let closest = closest(&app, attempted);
        (
            format!("redirect_uri `{attempted}` is not registered for this app"),
            Some(match closest {
                Some(reg) => format!(
                    "{}. Send exactly `{reg}`, or register the new URI.",
                    difference(attempted, reg)
                ),
                None => "Register the callback URL the app sends.".to_owned(),
            }),
        )
    } else if let Some((code, description)) = error {
        (format!("{code}: {description}"), hint(description))
    } else {
        return;
    };
    note(cx, &app.client_id, "authorize", problem, fix).await;
}

/// Notes a refused token request of a registered app. `via_basic` tells how the secret came.
async fn token_refused(
    cx: &WithClock,
    raw_client_id: Option<&str>,
    via_basic: bool,
    code: &str,
    description: &str,
) {
    let Some(app) = registered(cx, raw_client_id).await else {
        return;
    };
    let problem = if description == "client authentication failed" {
        let method = if via_basic {
            "in the Authorization: Basic header"
        } else {
            "as client_secret in the body"
        };
        format!("wrong client secret (sent {method})")
    } else {
        format!("{code}: {description}")
    };
    let fix = hint(description);
    note(cx, &app.client_id, "token", problem, fix).await;
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
