//! Tokens seen by resource servers: revocation (RFC 7009) and introspection (RFC 7662).

use super::{Context, OAuthError};
use crate::domain::{ClientRecord, SecretToken};
use crate::events::{Event, Revocation};
use crate::store::{AccessRecord, StoredRefresh};

/// Which kind of token a presented value turned out to be.
enum Found {
    Access(AccessRecord),
    Refresh(StoredRefresh),
}

/// Looks `token` up as the hinted type first, then as the other (RFC 7009 §2.1: a hint only
/// speeds up the search).
async fn find(
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

fn required(token: Option<SecretToken>) -> Result<SecretToken, OAuthError> {
    token
        .filter(|t| !t.expose().is_empty())
        .ok_or_else(|| OAuthError::InvalidRequest("token is required".into()))
}

/// Revokes an access or refresh token of `client` and every token of its grant.
///
/// Unknown, expired and already revoked tokens answer success (RFC 7009 §2.2), and so do
/// tokens of another app, which are left alone: the answer tells nothing about them.
pub async fn revoke(
    cx: &impl Context,
    client: &ClientRecord,
    token: Option<SecretToken>,
    hint: Option<&str>,
) -> Result<(), OAuthError> {
    let token = required(token)?;
    let (grant_id, owner, sub, refresh) = match find(cx, &token, hint).await? {
        None => return Ok(()),
        Some(Found::Access(a)) => (a.grant_id, a.client_id, a.claims.sub().to_owned(), false),
        Some(Found::Refresh(r)) => {
            let r = r.record;
            (r.grant_id, r.client_id, r.sub, true)
        }
    };
    if owner != client.client_id {
        tracing::warn!(client_id = %client.client_id, "revocation of another app's token ignored");
        return Ok(());
    }
    cx.store().revoke_grant(&grant_id).await?;
    let event = Event::GrantRevoked {
        client_id: owner,
        sub,
        reason: Revocation::ByApp { refresh },
        address: None,
    };
    cx.events().publish(event).await;
    Ok(())
}

/// An introspection answer (RFC 7662 §2.2); only `active` when the token is not.
#[derive(Debug, Default, serde::Serialize)]
pub struct Introspection {
    /// Whether the token is currently valid.
    pub active: bool,
    /// Space-separated scopes of the token.
    pub scope: Option<String>,
    /// The app the token was issued to.
    pub client_id: Option<String>,
    /// The user.
    pub sub: Option<String>,
    /// `Bearer` for access tokens, `refresh_token` for refresh tokens.
    pub token_type: Option<String>,
    /// Expiry, Unix seconds.
    pub exp: Option<u64>,
    /// The issuer.
    pub iss: Option<String>,
    /// The audience: the app the token was issued to.
    pub aud: Option<String>,
}

/// Introspects a token for a resource server registered as a confidential app.
pub async fn introspect(
    cx: &impl Context,
    client: &ClientRecord,
    token: Option<SecretToken>,
    hint: Option<&str>,
) -> Result<Introspection, OAuthError> {
    if client.is_public() {
        return Err(OAuthError::InvalidClient(
            "introspection is for confidential apps (with a client secret)".into(),
        ));
    }
    let token = required(token)?;
    let (scope, owner, sub, kind, exp) = match find(cx, &token, hint).await? {
        None => return Ok(Introspection::default()),
        Some(Found::Access(a)) => (
            a.scopes,
            a.client_id,
            a.claims.sub().to_owned(),
            "Bearer",
            a.expires_at,
        ),
        // A rotated refresh token is spent: a retry within the grace window still works at
        // the token endpoint, but it is no longer a token anyone should accept.
        Some(Found::Refresh(r)) if r.rotated_at.is_some() => return Ok(Introspection::default()),
        Some(Found::Refresh(r)) => {
            let r = r.record;
            (r.scopes, r.client_id, r.sub, "refresh_token", r.expires_at)
        }
    };
    Ok(Introspection {
        active: true,
        scope: Some(scope.to_string()),
        client_id: Some(owner.to_string()),
        sub: Some(sub),
        token_type: Some(kind.into()),
        exp: Some(exp),
        iss: Some(cx.issuer()),
        aud: Some(owner.to_string()),
    })
}
