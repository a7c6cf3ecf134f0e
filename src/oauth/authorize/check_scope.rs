//! The scope: required, and only the scopes the service knows (RFC 6749 §3.3).

use super::{AuthorizeError, Back, Params};
use crate::domain::bounds;
use crate::domain::ScopeSet;
use crate::events::Refusal;
use crate::oauth::OAuthError;

/// The scopes asked for, or the error that goes back to the app.
pub(super) fn check(params: &Params, back: &Back) -> Result<ScopeSet, AuthorizeError> {
    let raw = params
        .bounded("scope", bounds::SCOPE)
        .map_err(|m| back.invalid(m))?
        .ok_or_else(|| {
            back.invalid("scope is required (for example `openid profile email role`)".into())
        })?;
    ScopeSet::parse(raw).map_err(|e| {
        back.refuse(
            Refusal::Scope,
            OAuthError::InvalidScope(format!(
                "{e}; known scopes are openid, profile, email, role, groups"
            )),
        )
    })
}
