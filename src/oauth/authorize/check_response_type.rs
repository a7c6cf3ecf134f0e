//! The response type: `code`, the only one served (RFC 6749 §4.1.1; no implicit or hybrid
//! flows, RFC 9700 §2.1.2).

use super::{AuthorizeError, Back, Params};
use crate::oauth::OAuthError;

/// `response_type=code`, or the error that goes back to the app.
pub(super) fn check(params: &Params, back: &Back) -> Result<(), AuthorizeError> {
    match params
        .non_empty("response_type")
        .map_err(|m| back.invalid(m))?
    {
        None => Err(back.invalid("response_type is required".into())),
        Some("code") => Ok(()),
        Some(other) => Err(back.other(OAuthError::UnsupportedResponseType(format!(
            "response_type `{other}` is not supported; use `code`"
        )))),
    }
}
