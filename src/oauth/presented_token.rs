//! A token presented back by an app (to revoke or introspect it), found as whichever kind it is.

use super::{Context, OAuthError};
use crate::domain::bounds::{self, check};
use crate::domain::SecretToken;
use crate::store::{AccessRecord, StoredRefresh};

/// Which kind of token a presented value turned out to be.
pub(super) enum Found {
    /// An access token.
    Access(AccessRecord),
    /// A refresh token, with its rotation state.
    Refresh(StoredRefresh),
}

/// Looks `token` up as the hinted type first, then as the other (RFC 7009 §2.1: a hint only
/// speeds up the search).
pub(super) async fn find(
    cx: &impl Context,
    token: &SecretToken,
    hint: Option<&str>,
) -> Result<Option<Found>, OAuthError> {
    let digest = token.digest();
    let now = cx.now();
    let refresh_first = hint == Some("refresh_token");
    for refresh in [refresh_first, !refresh_first] {
        if refresh {
            if let Some(r) = cx.store().refresh_token(&digest).await? {
                if r.record.expires_at > now {
                    return Ok(Some(Found::Refresh(r)));
                }
            }
        } else if let Some(a) = cx.store().access_token(&digest).await? {
            if a.expires_at > now {
                return Ok(Some(Found::Access(a)));
            }
        }
    }
    Ok(None)
}

/// The `token` parameter, which revocation and introspection both require.
pub(super) fn required(token: Option<SecretToken>) -> Result<SecretToken, OAuthError> {
    let token = token
        .filter(|t| !t.expose().is_empty())
        .ok_or_else(|| OAuthError::InvalidRequest("token is required".into()))?;
    check("token", token.expose(), bounds::TOKEN).map_err(OAuthError::InvalidRequest)?;
    Ok(token)
}
