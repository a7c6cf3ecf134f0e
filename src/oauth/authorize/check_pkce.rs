//! PKCE: a code challenge with the S256 method, or none for a confidential app registered
//! without PKCE (RFC 7636 §4.3; the plain method is refused, RFC 9700 §2.1.1).

use super::{AuthorizeError, Back, Params};
use crate::domain::ClientRecord;
use crate::events::Refusal;
use crate::oauth::{pkce, OAuthError};

/// The request's code challenge, if any, or the error that goes back to the app.
pub(super) fn check(
    client: &ClientRecord,
    params: &Params,
    back: &Back,
) -> Result<Option<String>, AuthorizeError> {
    let refuse = |m: String| back.refuse(Refusal::Pkce, OAuthError::InvalidRequest(m));
    let challenge = params
        .non_empty("code_challenge")
        .map_err(|m| back.invalid(m))?;
    let method = params
        .non_empty("code_challenge_method")
        .map_err(|m| back.invalid(m))?;
    match (challenge, method) {
        (Some(c), Some("S256")) if pkce::is_valid_challenge(c) => Ok(Some(c.to_owned())),
        (Some(_), Some("S256")) => Err(refuse(
            "code_challenge must be the base64url SHA-256 of the verifier (43 characters)".into(),
        )),
        (Some(_), None) => Err(refuse(
            "code_challenge_method is required; only S256 is supported".into(),
        )),
        (_, Some(m)) if m != "S256" => Err(refuse(format!(
            "code_challenge_method `{m}` is not supported; use S256"
        ))),
        (None, Some(_)) => Err(refuse(
            "code_challenge_method without code_challenge".into(),
        )),
        (Some(_), Some(_)) => Err(refuse("code_challenge_method must be S256".into())),
        (None, None) if client.require_pkce || client.is_public() => Err(refuse(
            "this application must use PKCE (code_challenge with S256)".into(),
        )),
        (None, None) => Ok(None),
    }
}
