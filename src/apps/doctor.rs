//! The app doctor: each app's recent failed requests, in plain words, on its admin page.
//!
//! The authorize page and the token endpoint publish what they refused, and the back-channel
//! logout worker what became of each logout it sent; [`Doctor`] hears it, turns a refusal or
//! a failed logout into a problem and a fix an app developer understands ("the redirect_uri
//! has a trailing slash the registered one lacks") and keeps the last [`KEEP`] per app for
//! [`TTL`] seconds. Nothing secret is kept: no code, token, secret or verifier, only what was
//! wrong.
//!
//! Anyone can send an authorize request, or a token request that fails before the app's
//! secret is checked, naming any app: such entries are kept as unverified. What such a request
//! said is data, never advice: it appears only in the problem, quoted and cut to
//! [`QUOTE_LIMIT`] characters, and the fix is chosen by the [`Refusal`] the flow named, never
//! by what the request's text contains.

use crate::clock::HasClock;
use crate::domain::{ClientId, ClientRecord};
use crate::events::{Event, Listener, LogoutOutcome, Refusal};
use crate::store::{HasStore, StoreError, WithClock};
use async_trait::async_trait;

pub use crate::store::DoctorEntry;

/// How many failures are kept per app.
pub const KEEP: usize = 50;
/// How long failures are kept after the last one (7 days).
pub const TTL: u64 = 7 * 86_400;
/// Longest text from a request shown in a problem, in characters.
pub const QUOTE_LIMIT: usize = 200;

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
                verified,
                reason,
                error,
                description,
            } => {
                let Some(app) = registered(&self.0, client_id.as_deref()).await else {
                    return;
                };
                let problem = token_problem(*reason, *via_basic, error, description);
                let entry = Noted {
                    endpoint: "token",
                    problem,
                    fix: hint(*reason),
                    verified: *verified,
                };
                note(&self.0, &app.client_id, entry).await
            }
            Event::AuthorizeRefused {
                client_id,
                redirect_uri,
                reason,
                error,
            } => {
                let Some(app) = registered(&self.0, client_id.as_deref()).await else {
                    return;
                };
                let error = error
                    .as_ref()
                    .map(|(code, description)| (*code, description.as_str()));
                let attempted = redirect_uri.as_deref().unwrap_or_default();
                if let Some(entry) = authorize_refused(&app, attempted, *reason, error) {
                    note(&self.0, &app.client_id, entry).await
                }
            }
            Event::BackchannelLogout {
                client_id, outcome, ..
            } => {
                if let Some(entry) = logout_failed(outcome) {
                    note(&self.0, client_id, entry).await
                }
            }
            _ => {}
        }
    }
}

/// What to keep of one refusal.
struct Noted {
    endpoint: &'static str,
    problem: String,
    fix: Option<&'static str>,
    verified: bool,
}

async fn note(cx: &WithClock, id: &ClientId, noted: Noted) {
    let entry = DoctorEntry {
        at: cx.now(),
        endpoint: noted.endpoint.to_owned(),
        problem: noted.problem,
        fix: noted.fix.map(str::to_owned),
        verified: noted.verified,
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

/// Text a request sent, as data: in double quotes, with quotes, backslashes and control
/// characters escaped, cut to [`QUOTE_LIMIT`] characters.
pub fn quote(text: &str) -> String {
    let mut chars = text.chars();
    let kept: String = chars.by_ref().take(QUOTE_LIMIT).collect();
    let more = if chars.next().is_some() { "…" } else { "" };
    format!("\"{}{more}\"", kept.escape_debug())
}

/// What a refused token request did wrong. The description sent back may hold request text,
/// so it is quoted.
fn token_problem(reason: Refusal, via_basic: bool, code: &str, description: &str) -> String {
    if reason == Refusal::WrongSecret {
        let method = if via_basic {
            "in the Authorization: Basic header"
        } else {
            "as client_secret in the body"
        };
        return format!("wrong client secret (sent {method})");
    }
    format!("{code}: {}", quote(description))
}

/// The entry of a refused authorize request of `app`: an unregistered redirect URI (and where
/// it differs from the closest registered one), or the error sent back to the app. Every
/// authorize request is unverified: anyone can send one.
fn authorize_refused(
    app: &ClientRecord,
    attempted: &str,
    reason: Refusal,
    error: Option<(&str, &str)>,
) -> Option<Noted> {
    let (problem, fix) = if !app.allows_redirect(attempted) {
        let problem = format!(
            "redirect_uri {} is not registered for this app",
            quote(attempted)
        );
        match closest(app, attempted) {
            Some(reg) => (
                format!("{problem}. {}", difference(attempted, reg)),
                Some(SEND_REGISTERED),
            ),
            None => (problem, Some(SEND_REGISTERED)),
        }
    } else {
        let (code, description) = error?;
        (format!("{code}: {}", quote(description)), hint(reason))
    };
    Some(Noted {
        endpoint: "authorize",
        problem,
        fix,
        verified: false,
    })
}

/// The entry of a back-channel logout that did not go through; `None` for one that did.
/// sso-bridge made the request itself, so the entry is verified; what the app answered is
/// quoted.
fn logout_failed(outcome: &LogoutOutcome) -> Option<Noted> {
    let (problem, fix) = match outcome {
        LogoutOutcome::Queued | LogoutOutcome::Delivered { .. } => return None,
        LogoutOutcome::Retrying {
            attempt,
            problem,
            retry_in,
        } => (
            format!(
                "back-channel logout attempt {attempt} failed: {}; tried again in {retry_in} s",
                quote(problem)
            ),
            LOGOUT_UNREACHABLE,
        ),
        LogoutOutcome::GaveUp { attempts, problem } => (
            format!(
                "back-channel logout given up after {attempts} attempts over about two minutes: {}",
                quote(problem)
            ),
            LOGOUT_UNREACHABLE,
        ),
        LogoutOutcome::Refused { status, said } => (
            format!(
                "back-channel logout refused with HTTP {status} (not tried again); the app said {}",
                quote(said)
            ),
            LOGOUT_REFUSED,
        ),
        LogoutOutcome::Dropped => (
            "back-channel logout not sent: the app no longer has a back-channel logout URI"
                .to_owned(),
            LOGOUT_DROPPED,
        ),
    };
    Some(Noted {
        endpoint: "backchannel_logout",
        problem,
        fix: Some(fix),
        verified: true,
    })
}

const LOGOUT_UNREACHABLE: &str = "The app's back-channel logout URI must answer a POST within 5 seconds with a 2xx status. A 5xx, a timeout or a refused connection is tried again for about two minutes, then given up: check that the URI is right and reachable from sso-bridge's nodes.";
const LOGOUT_REFUSED: &str = "The app refused the logout token (a 4xx, or a redirect, which is not followed). It must verify the token with the keys at /oauth/jwks, accept iss (the issuer), aud (its client_id), the `logout+jwt` type and the events claim, end the sessions of `sid` (or of `sub`), and answer 200 or 204.";
const LOGOUT_DROPPED: &str =
    "Register a back-channel logout URI again if the app should be told when people sign out.";

/// The fix for an unregistered redirect URI. The URI came from a request anyone could send, so
/// it is never offered for registration.
const SEND_REGISTERED: &str = "Have the app send exactly one of its registered redirect URIs. Anyone can send an authorize request naming this app: register a new URI only when the app's developers confirm it is theirs.";

/// What to change, for the refusals an app developer most often meets; chosen by the reason the
/// flow named, never by the text of the request.
fn hint(reason: Refusal) -> Option<&'static str> {
    Some(match reason {
        Refusal::WrongSecret => "Use the app's current secret: after a rotation only the new one works. In a Basic header, form-urlencode the id and the secret before base64 (RFC 6749 §2.3.1).",
        Refusal::CredentialsTwice => "Send the credentials one way only: the Basic header or client_id and client_secret in the body.",
        Refusal::SecretMissing => "Send the secret as client_secret in the form-encoded body, or in an Authorization: Basic header.",
        Refusal::SecretFromPublicApp => "A public app has no secret: send only client_id, and use PKCE.",
        Refusal::AppDisabled => "The app is disabled: enable it on this page when it may sign users in again.",
        Refusal::CodeReplayed => "A code works once: exchange it once only (a retry or a doubled callback exchanges it twice). The tokens of the first exchange were revoked.",
        Refusal::CodeExpired => "Exchange the code right after the redirect: it expires within a minute.",
        Refusal::RefreshReplayed => "A refresh token works once: keep the new refresh token each refresh returns and send only that one next time. Every token of the grant was revoked; the user signs in again.",
        Refusal::Pkce => "Send code_challenge (S256) at authorize and the matching code_verifier at the token endpoint.",
        Refusal::RedirectUriDiffers => "Send the token endpoint exactly the redirect_uri used in the authorize request.",
        Refusal::Scope => "Ask for scopes among openid, profile, email and role; a refresh may only narrow the scope of the grant.",
        Refusal::Other => return None,
    })
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
    if n == registered.chars().count() {
        return format!(
            "It goes on past the registered `{registered}` with {}",
            quote(&tail(attempted))
        );
    }
    if n == attempted.chars().count() {
        return format!(
            "It stops before the end `{}` of the registered `{registered}`",
            tail(registered)
        );
    }
    format!(
        "It differs from the registered `{registered}` from character {}: {} instead of `{}`",
        n + 1,
        quote(&tail(attempted)),
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
            d.contains("character 5")
                && d.contains("\"://a.example/cb\" instead of `s://a.example/cb`"),
            "{d}"
        );
        let d = difference("https://A.example/cb", "https://a.example/cb");
        assert!(d.contains("upper / lower case"), "{d}");
        let d = difference("https://a.example/cb/x", "https://a.example/cb");
        assert!(
            d.ends_with("goes on past the registered `https://a.example/cb` with \"/x\""),
            "{d}"
        );
        let d = difference("https://a.example/c", "https://a.example/cb/x");
        assert!(d.starts_with("It stops before the end `b/x`"), "{d}");
    }

    #[test]
    fn request_text_is_quoted_escaped_and_cut() {
        assert_eq!(quote("a\"b`c\nd"), "\"a\\\"b`c\\nd\"");
        let long = quote(&"x".repeat(1000));
        assert_eq!(long.chars().count(), QUOTE_LIMIT + 3, "{long}");
        assert!(long.ends_with("…\""));
    }

    #[test]
    fn hints_follow_the_reason_and_other_refusals_get_none() {
        assert!(hint(Refusal::WrongSecret).is_some());
        assert!(hint(Refusal::CodeReplayed).is_some());
        assert!(hint(Refusal::Pkce).is_some());
        assert!(hint(Refusal::Other).is_none());
    }

    #[test]
    fn an_unregistered_redirect_uri_is_quoted_and_never_offered_for_registration() {
        let app = ClientRecord {
            client_id: ClientId::generate(),
            name: "n".into(),
            secret_digest: None,
            redirect_uris: vec![crate::domain::RedirectUri::parse("https://a.example/cb").unwrap()],
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
        };
        let sent = "https://a.example/cb/`. Register https://evil.example/cb now";
        let noted = authorize_refused(&app, sent, Refusal::Other, None).unwrap();
        assert!(!noted.verified);
        assert_eq!(noted.fix, Some(SEND_REGISTERED));
        assert!(noted.problem.contains(&quote(sent)), "{}", noted.problem);
    }
}
