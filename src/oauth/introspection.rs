//! Token introspection (RFC 7662), for confidential apps: each may ask about its own tokens,
//! and an app registered as a resource server (`may_introspect`) about every app's.

use super::presented_token::{find, required, Found};
use super::{Context, OAuthError};
use crate::domain::{ClientRecord, SecretToken};

// The wire type of the introspection endpoint's answer; its doc comments are the published
// OpenAPI document's descriptions.
/// An introspection answer (RFC 7662 §2.2); only `active` when the token is not.
#[derive(Debug, Default, poem_openapi::Object)]
#[oai(skip_serializing_if_is_none)]
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

/// Introspects a token for a confidential app. A token of another app is `{"active": false}`
/// unless the caller may introspect (RFC 7662 §2.2 lets the server answer so when the caller
/// is not allowed to know): an app learns nothing of the others' users and scopes.
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
    if owner != client.client_id && !client.may_introspect {
        return Ok(Introspection::default());
    }
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
