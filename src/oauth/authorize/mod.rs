//! `/oauth/authorize` request validation (RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 9700 §2.1), one
//! named check per file: the app (`check_client`), its return address
//! (`check_redirect_uri`), then the response type, the scope and PKCE.
//!
//! Order matters: `client_id` and `redirect_uri` are checked first, and until both are known-good
//! every error is shown as a page, never sent to a redirect URI (RFC 6749 §4.1.2.1).

mod check_client;
mod check_pkce;
mod check_redirect_uri;
mod check_response_type;
mod check_scope;
mod params;

use params::Params;

use super::OAuthError;
use crate::domain::bounds::{self, check};
use crate::domain::{ClientRecord, OidcParams};
use crate::events::{Event, HasEvents, Refusal};
use crate::store::{ClientStore, StoreError};

/// The request [`validate`] produces; it lives in `domain`, where the store can keep it.
pub use crate::domain::AuthorizationRequest;

/// Why an authorize request cannot go on.
#[derive(Debug)]
pub enum AuthorizeError {
    /// The client or redirect URI is not trustworthy: show this on a page, never redirect.
    Untrusted(Untrusted),
    /// The client and redirect URI are known-good: send the error there, with the state.
    Redirect {
        /// Where to send the error.
        redirect_uri: String,
        /// The request's state, returned unchanged.
        state: Option<String>,
        /// What was wrong.
        error: OAuthError,
        /// Why, for the app doctor.
        reason: Refusal,
    },
    /// The store could not be read.
    Store(StoreError),
}

/// Why a request cannot be trusted enough to send anything back to it; the page that says so
/// is the web layer's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Untrusted {
    /// The whole request is longer than [`bounds::AUTHORIZE_REQUEST`].
    #[error("the request is longer than {max} bytes")]
    TooLong {
        /// The bound.
        max: usize,
    },
    /// `client_id` or `redirect_uri` does not read (too long, repeated).
    #[error("{0}")]
    Malformed(String),
    /// No `client_id`.
    #[error("client_id is missing")]
    NoClient,
    /// No registered, enabled app has this `client_id`.
    #[error("unknown or disabled application")]
    UnknownClient,
    /// No `redirect_uri`.
    #[error("redirect_uri is missing")]
    NoRedirectUri,
    /// The `redirect_uri` is not one the app registered.
    #[error("unregistered redirect_uri (received: {received})")]
    UnregisteredRedirectUri {
        /// What the request sent.
        received: String,
    },
}

impl From<StoreError> for AuthorizeError {
    fn from(err: StoreError) -> Self {
        AuthorizeError::Store(err)
    }
}

/// Validates an authorize query string against the registered clients: one named check after
/// the other, in the order RFC 6749 §4.1.2.1 asks (the app and its return address before
/// anything may go back to it).
pub async fn validate(
    store: &dyn ClientStore,
    raw_query: &str,
) -> Result<(ClientRecord, AuthorizationRequest), AuthorizeError> {
    // Before anything is parsed: no parameter could make a longer request legitimate.
    if raw_query.len() > bounds::AUTHORIZE_REQUEST {
        return Err(AuthorizeError::Untrusted(Untrusted::TooLong {
            max: bounds::AUTHORIZE_REQUEST,
        }));
    }
    let params = Params::parse(raw_query);
    let client = check_client::check(store, &params).await?;
    let redirect_uri = check_redirect_uri::check(&client, &params)?;

    // From here on errors go back to the app.
    let back = Back::new(redirect_uri, &params);
    back.check_state(&params)?;
    check_response_type::check(&params, &back)?;
    let scopes = check_scope::check(&params, &back)?;
    let code_challenge = check_pkce::check(&client, &params, &back)?;
    refuse_unsupported(|name| params.has(name)).map_err(|e| back.other(e))?;
    let oidc = OidcParams::parse(|name| params.non_empty(name)).map_err(|m| back.invalid(m))?;
    Ok((
        client.clone(),
        AuthorizationRequest {
            client_id: client.client_id,
            redirect_uri: back.redirect_uri,
            scopes,
            state: back.state,
            code_challenge,
            oidc,
        },
    ))
}

/// An error shown on a page: the request cannot be trusted enough to redirect.
fn untrusted(why: Untrusted) -> AuthorizeError {
    AuthorizeError::Untrusted(why)
}

/// Where errors go once the app and its redirect URI are known-good: back to it, with the
/// request's state.
struct Back {
    redirect_uri: String,
    state: Option<String>,
}

impl Back {
    fn new(redirect_uri: String, params: &Params) -> Self {
        // A state too long to accept is not echoed either.
        let state = params
            .one("state")
            .ok()
            .flatten()
            .filter(|s| s.len() <= bounds::STATE)
            .map(str::to_owned);
        Self {
            redirect_uri,
            state,
        }
    }

    /// The state must be one value, of at most [`bounds::STATE`] bytes.
    fn check_state(&self, params: &Params) -> Result<(), AuthorizeError> {
        if let Some(raw) = params.one("state").map_err(|m| self.invalid(m))? {
            check("state", raw, bounds::STATE).map_err(|m| self.invalid(m))?;
        }
        Ok(())
    }

    /// `error` goes back to the app, for `reason`.
    fn refuse(&self, reason: Refusal, error: OAuthError) -> AuthorizeError {
        AuthorizeError::Redirect {
            redirect_uri: self.redirect_uri.clone(),
            state: self.state.clone(),
            error,
            reason,
        }
    }

    /// `error` goes back to the app, for no reason the app doctor names.
    fn other(&self, error: OAuthError) -> AuthorizeError {
        self.refuse(Refusal::Other, error)
    }

    /// `invalid_request`, saying `message`.
    fn invalid(&self, message: String) -> AuthorizeError {
        self.other(OAuthError::InvalidRequest(message))
    }
}

/// `redirect_uri` with `params` appended to its query, keeping any query it already has.
pub fn redirect_with(redirect_uri: &str, params: &[(&str, &str)]) -> String {
    match url::Url::parse(redirect_uri) {
        Ok(mut url) => {
            {
                let mut query = url.query_pairs_mut();
                for (k, v) in params {
                    query.append_pair(k, v);
                }
            }
            url.to_string()
        }
        // Registered URIs were validated as absolute URLs; this is only reachable for records
        // written by hand into the store.
        Err(_) => redirect_uri.to_owned(),
    }
}

/// The redirect carrying an error, the state and the issuer (RFC 9207 `iss`).
pub fn error_redirect(
    issuer: &str,
    redirect_uri: &str,
    state: Option<&str>,
    error: &OAuthError,
) -> String {
    let description = error.description();
    let mut params = vec![
        ("error", error.code()),
        ("error_description", description.as_str()),
    ];
    if let Some(state) = state {
        params.push(("state", state));
    }
    params.push(("iss", issuer));
    redirect_with(redirect_uri, &params)
}

/// Reports a refused authorize request, so the app doctor can explain it to the app's developer:
/// `error` is what was sent back to the app, when something was, and why.
pub async fn refused(cx: &impl HasEvents, raw_query: &str, error: Option<(Refusal, &OAuthError)>) {
    // What the app doctor keeps of a refused request is bounded like an accepted one.
    let param = |name: &str, max: usize| {
        url::form_urlencoded::parse(raw_query.as_bytes())
            .find(|(k, _)| k == name)
            .map(|(_, v)| clip(&v, max).to_owned())
    };
    let event = Event::AuthorizeRefused {
        client_id: param("client_id", bounds::CLIENT_ID),
        redirect_uri: param("redirect_uri", bounds::REDIRECT_URI),
        reason: error.map_or(Refusal::Other, |(reason, _)| reason),
        error: error.map(|(_, e)| (e.code(), e.description())),
    };
    cx.events().publish(event).await;
}

/// The longest start of `value` of at most `max` bytes that ends on a character boundary.
fn clip(value: &str, max: usize) -> &str {
    let mut end = value.len().min(max);
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    &value[..end]
}

/// Refuses the OpenID Connect parameters this service does not support, with the error code
/// Core §3.1.2.6 names for each (request objects, dynamic registration).
pub fn refuse_unsupported(present: impl Fn(&str) -> bool) -> Result<(), OAuthError> {
    if present("request") {
        return Err(OAuthError::RequestNotSupported(
            "request objects are not supported; send the parameters in the query".into(),
        ));
    }
    if present("request_uri") {
        return Err(OAuthError::RequestUriNotSupported(
            "request_uri is not supported; send the parameters in the query".into(),
        ));
    }
    if present("registration") {
        return Err(OAuthError::RegistrationNotSupported(
            "apps are registered by a superadmin, not in the request".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirects_keep_the_registered_query_and_encode_the_state() {
        let url = redirect_with(
            "https://app.example/cb?x=1",
            &[("code", "abc"), ("state", "a b&c=d/é")],
        );
        assert_eq!(
            url,
            "https://app.example/cb?x=1&code=abc&state=a+b%26c%3Dd%2F%C3%A9"
        );
        let back: Vec<(String, String)> = url::Url::parse(&url)
            .unwrap()
            .query_pairs()
            .into_owned()
            .collect();
        assert_eq!(back[2].1, "a b&c=d/é");
    }
}
