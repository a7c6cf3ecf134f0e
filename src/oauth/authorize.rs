//! `/oauth/authorize` request validation (RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 9700 §2.1).
//!
//! Order matters: `client_id` and `redirect_uri` are checked first, and until both are known-good
//! every error is shown as a page, never sent to a redirect URI (RFC 6749 §4.1.2.1).

use super::{pkce, OAuthError};
use crate::domain::bounds::{self, check};
use crate::domain::{ClientId, ClientRecord, OidcParams, ScopeSet};
use crate::events::{Event, HasEvents, Refusal};
use crate::store::{ClientStore, StoreError};
use std::collections::HashMap;

/// The request [`validate`] produces; it lives in `domain`, where the store can keep it.
pub use crate::domain::AuthorizationRequest;

/// Why an authorize request cannot go on.
#[derive(Debug)]
pub enum AuthorizeError {
    /// The client or redirect URI is not trustworthy: show this on a page, never redirect.
    Untrusted {
        /// Short title.
        title: &'static str,
        /// Plain-words explanation.
        message: String,
    },
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

impl From<StoreError> for AuthorizeError {
    fn from(err: StoreError) -> Self {
        AuthorizeError::Store(err)
    }
}

/// Query parameters, each with every value it was given.
struct Params(HashMap<String, Vec<String>>);

impl Params {
    fn parse(raw_query: &str) -> Self {
        let mut map: HashMap<String, Vec<String>> = HashMap::new();
        for (k, v) in url::form_urlencoded::parse(raw_query.as_bytes()) {
            map.entry(k.into_owned()).or_default().push(v.into_owned());
        }
        Self(map)
    }

    /// The single value of `name`; `Err` when it is repeated (RFC 6749 §3.1).
    fn one(&self, name: &str) -> Result<Option<&str>, String> {
        match self.0.get(name).map(Vec::as_slice) {
            None | Some([]) => Ok(None),
            Some([one]) => Ok(Some(one.as_str())),
            Some(_) => Err(format!("parameter `{name}` must not be repeated")),
        }
    }

    /// The single value of `name`, treating an empty value as absent (RFC 6749 §3.1).
    fn non_empty(&self, name: &str) -> Result<Option<&str>, String> {
        Ok(self.one(name)?.filter(|v| !v.is_empty()))
    }

    /// [`Params::non_empty`], refused when longer than `max` bytes.
    fn bounded(&self, name: &str, max: usize) -> Result<Option<&str>, String> {
        self.non_empty(name)?
            .map(|v| check(name, v, max))
            .transpose()
    }
}

/// Validates an authorize query string against the registered clients.
pub async fn validate(
    store: &dyn ClientStore,
    raw_query: &str,
) -> Result<(ClientRecord, AuthorizationRequest), AuthorizeError> {
    let untrusted = |title, message: String| AuthorizeError::Untrusted { title, message };
    // Before anything is parsed: no parameter could make a longer request legitimate.
    if raw_query.len() > bounds::AUTHORIZE_REQUEST {
        return Err(untrusted(
            "Invalid request",
            format!(
                "The request is longer than {} bytes. Nothing was sent back to the application.",
                bounds::AUTHORIZE_REQUEST
            ),
        ));
    }
    let params = Params::parse(raw_query);

    let client_id = params
        .bounded("client_id", bounds::CLIENT_ID)
        .map_err(|m| untrusted("Invalid request", m))?
        .ok_or_else(|| {
            untrusted(
                "Invalid request",
                "The request names no application (client_id is missing).".into(),
            )
        })?;
    let client = match ClientId::parse(client_id) {
        Some(id) => store.client(&id).await?,
        None => None,
    };
    let Some(client) = client.filter(|c| c.enabled) else {
        return Err(untrusted(
            "Unknown application",
            "The application that sent you here is not registered with sign-on, or has been disabled. Contact the team that runs the application.".into(),
        ));
    };
    let redirect_uri = params
        .bounded("redirect_uri", bounds::REDIRECT_URI)
        .map_err(|m| untrusted("Invalid request", m))?
        .ok_or_else(|| {
            untrusted(
                "Invalid request",
                "The request names no return address (redirect_uri is missing).".into(),
            )
        })?;
    if !client.allows_redirect(redirect_uri) {
        return Err(untrusted(
            "Unregistered return address",
            format!(
                "The application asked to send you back to an address that is not registered for it. Nothing was sent there. The application's developers should register the exact callback URL (received: {redirect_uri})."
            ),
        ));
    }

    // From here on errors go back to the app.
    let redirect_uri = redirect_uri.to_owned();
    // A state too long to accept is not echoed either.
    let state = params
        .one("state")
        .ok()
        .flatten()
        .filter(|s| s.len() <= bounds::STATE)
        .map(str::to_owned);
    let refuse = |reason, error: OAuthError| AuthorizeError::Redirect {
        redirect_uri: redirect_uri.clone(),
        state: state.clone(),
        error,
        reason,
    };
    let fail = |error| refuse(Refusal::Other, error);
    let invalid = |m: String| fail(OAuthError::InvalidRequest(m));
    let pkce = |m: String| refuse(Refusal::Pkce, OAuthError::InvalidRequest(m));

    if let Some(raw) = params.one("state").map_err(invalid)? {
        check("state", raw, bounds::STATE).map_err(invalid)?;
    }
    match params.non_empty("response_type").map_err(invalid)? {
        None => return Err(invalid("response_type is required".into())),
        Some("code") => {}
        Some(other) => {
            return Err(fail(OAuthError::UnsupportedResponseType(format!(
                "response_type `{other}` is not supported; use `code`"
            ))))
        }
    }
    let scopes = match params.bounded("scope", bounds::SCOPE).map_err(invalid)? {
        None => {
            return Err(invalid(
                "scope is required (for example `openid profile email role`)".into(),
            ))
        }
        Some(raw) => ScopeSet::parse(raw).map_err(|e| {
            refuse(
                Refusal::Scope,
                OAuthError::InvalidScope(format!(
                    "{e}; known scopes are openid, profile, email, role"
                )),
            )
        })?,
    };
    let challenge = params.non_empty("code_challenge").map_err(invalid)?;
    let method = params.non_empty("code_challenge_method").map_err(invalid)?;
    let code_challenge = match (challenge, method) {
        (Some(c), Some("S256")) if pkce::is_valid_challenge(c) => Some(c.to_owned()),
        (Some(_), Some("S256")) => {
            return Err(pkce(
                "code_challenge must be the base64url SHA-256 of the verifier (43 characters)"
                    .into(),
            ))
        }
        (Some(_), None) => {
            return Err(pkce(
                "code_challenge_method is required; only S256 is supported".into(),
            ))
        }
        (_, Some(m)) if m != "S256" => {
            return Err(pkce(format!(
                "code_challenge_method `{m}` is not supported; use S256"
            )))
        }
        (None, Some(_)) => return Err(pkce("code_challenge_method without code_challenge".into())),
        (Some(_), Some(_)) => return Err(pkce("code_challenge_method must be S256".into())),
        (None, None) if client.require_pkce || client.is_public() => {
            return Err(pkce(
                "this application must use PKCE (code_challenge with S256)".into(),
            ))
        }
        (None, None) => None,
    };
    refuse_unsupported(|name| params.0.contains_key(name)).map_err(fail)?;
    let oidc = OidcParams::parse(|name| params.non_empty(name)).map_err(invalid)?;
    Ok((
        client.clone(),
        AuthorizationRequest {
            client_id: client.client_id,
            redirect_uri,
            scopes,
            state,
            code_challenge,
            oidc,
        },
    ))
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

    #[test]
    fn repeated_parameters_are_detected() {
        let p = Params::parse("a=1&a=2&b=3&c=");
        assert!(p.one("a").is_err());
        assert_eq!(p.one("b"), Ok(Some("3")));
        assert_eq!(p.non_empty("c"), Ok(None));
    }
}
