//! `grant_type=refresh_token` (RFC 6749 §6, RFC 9700 §4.14): rotation with reuse detection.

use crate::audit::{self, Action, AuditEvent};
use crate::domain::{ClientRecord, ScopeSet};
use crate::oauth::issue::{mint, TokenGrant};
use crate::oauth::seal;
use crate::oauth::token::{TokenParams, TokenSuccess};
use crate::oauth::OAuthError;
use crate::oidc::id_token::{self, IdTokenFacts};
use crate::state::AppState;
use crate::store::Rotation;

/// Exchanges a refresh token for a new access token and a new refresh token.
///
/// The directory is read again, so a user who left gets `invalid_grant` and changed attributes
/// show in the new token.
pub async fn exchange(
    state: &AppState,
    client: &ClientRecord,
    params: TokenParams,
) -> Result<TokenSuccess, OAuthError> {
    let old = params
        .refresh_token
        .filter(|t| !t.expose().is_empty())
        .ok_or_else(|| OAuthError::InvalidRequest("refresh_token is required".into()))?;
    let invalid = |m: &str| OAuthError::InvalidGrant(m.to_owned());
    let digest = old.digest();
    let stored = state
        .store
        .refresh_token(&digest)
        .await?
        .ok_or_else(|| invalid("the refresh token is invalid, expired or revoked"))?;
    let record = stored.record;
    if record.client_id != client.client_id {
        return Err(invalid("the refresh token was issued to another client"));
    }
    let now = state.now();
    if record.expires_at <= now {
        return Err(invalid("the refresh token has expired"));
    }
    let token_scopes = match params.scope.as_deref().filter(|s| !s.trim().is_empty()) {
        None => record.scopes.clone(),
        Some(raw) => {
            let wanted =
                ScopeSet::parse(raw).map_err(|e| OAuthError::InvalidScope(e.to_string()))?;
            if !wanted.is_subset(&record.scopes) {
                return Err(OAuthError::InvalidScope(format!(
                    "a refresh may only narrow the scope; the grant has `{}`",
                    record.scopes
                )));
            }
            wanted
        }
    };

    let user = state.directory.lookup(&record.sub).await?;
    let claims = user.and_then(|u| state.settings.claims.claims(&u.attributes));
    let Some(claims) = claims.filter(|c| c.sub() == record.sub) else {
        state.store.revoke_grant(&record.grant_id).await?;
        tracing::info!(sub = %record.sub, "refresh refused: user no longer in the directory");
        let why = "refresh refused: the user is no longer in the directory; the grant was revoked";
        revoked(state, client, &record.sub, params.address.as_deref(), why).await;
        return Err(invalid("the user is no longer valid"));
    };

    let (issuance, mut response) = mint(
        state,
        TokenGrant {
            grant_id: Some(&record.grant_id),
            client_id: &client.client_id,
            grant_scopes: &record.scopes,
            token_scopes: &token_scopes,
            claims: &claims,
            auth_time: record.auth_time,
            amr: &record.amr,
        },
    );
    // OpenID Connect Core §12.2: same iss, sub, aud, azp and auth_time; no nonce.
    let facts = IdTokenFacts {
        client_id: client.client_id.as_str(),
        claims: &issuance.access.claims,
        auth_time: record.auth_time,
        nonce: None,
        amr: &record.amr,
    };
    id_token::attach(state, facts, &mut response).await?;
    let sealed = seal::seal(old.expose(), &response).ok_or(OAuthError::ServerError)?;
    let grace = state.settings.tokens.refresh_grace_secs;
    match state
        .store
        .rotate_refresh(&digest, &issuance, &sealed, now, grace)
        .await?
    {
        Rotation::Rotated => {
            let event = AuditEvent::new(Action::TokenRefreshed, Some(&record.sub))
                .app(&client.client_id)
                .from_address(params.address.as_deref())
                .detail(format!("scope `{token_scopes}`"));
            audit::record(state, event).await;
            Ok(response)
        }
        Rotation::Grace(sealed) => seal::open(old.expose(), &sealed)
            .ok_or_else(|| invalid("the refresh token is invalid, expired or revoked")),
        Rotation::Reused => {
            tracing::warn!(client_id = %client.client_id, sub = %record.sub, "rotated refresh token reused; grant revoked");
            let why =
                "a rotated refresh token was used again: every token of the grant was revoked";
            revoked(state, client, &record.sub, params.address.as_deref(), why).await;
            Err(invalid(
                "the refresh token has already been used; every token of this grant has been revoked",
            ))
        }
        Rotation::NotFound => Err(invalid("the refresh token is invalid, expired or revoked")),
    }
}

async fn revoked(
    state: &AppState,
    client: &ClientRecord,
    sub: &str,
    address: Option<&str>,
    why: &str,
) {
    let event = AuditEvent::new(Action::TokenRevoked, Some(sub))
        .app(&client.client_id)
        .from_address(address)
        .detail(why);
    audit::record(state, event).await;
}
