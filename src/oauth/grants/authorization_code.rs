//! `grant_type=authorization_code` (RFC 6749 §4.1.3, RFC 7636 §4.6).

use crate::audit::{self, Action, AuditEvent};
use crate::domain::ClientRecord;
use crate::oauth::issue::{mint, TokenGrant};
use crate::oauth::token::{TokenParams, TokenSuccess};
use crate::oauth::{pkce, OAuthError};
use crate::oidc::id_token::{self, IdTokenFacts};
use crate::state::AppState;
use crate::store::Redemption;

/// Exchanges a one-time code for tokens.
pub async fn exchange(
    state: &AppState,
    client: &ClientRecord,
    params: TokenParams,
) -> Result<TokenSuccess, OAuthError> {
    let code = params
        .code
        .filter(|c| !c.expose().is_empty())
        .ok_or_else(|| OAuthError::InvalidRequest("code is required".into()))?;
    let redirect_uri = params
        .redirect_uri
        .filter(|r| !r.is_empty())
        .ok_or_else(|| OAuthError::InvalidRequest("redirect_uri is required".into()))?;
    let digest = code.digest();
    let invalid = |m: &str| OAuthError::InvalidGrant(m.to_owned());

    let stored = state
        .store
        .code(&digest)
        .await?
        .ok_or_else(|| invalid("the code is invalid or has expired"))?;
    if let Some(grant_id) = &stored.consumed_by {
        state.store.revoke_grant(grant_id).await?;
        tracing::warn!(client_id = %client.client_id, "authorization code replayed; its tokens were revoked");
        replayed(state, client, stored.record.claims.sub(), &params.address).await;
        return Err(invalid(
            "the code has already been used; the tokens issued with it have been revoked",
        ));
    }
    let code = stored.record;
    if code.expires_at <= state.now() {
        return Err(invalid("the code has expired"));
    }
    if code.client_id != client.client_id {
        return Err(invalid("the code was issued to another client"));
    }
    if code.redirect_uri != redirect_uri {
        return Err(invalid(
            "redirect_uri differs from the one used in the authorization request",
        ));
    }
    match (
        &code.code_challenge,
        params.code_verifier.as_deref().filter(|v| !v.is_empty()),
    ) {
        (Some(challenge), Some(verifier)) => {
            if !pkce::verify(verifier, challenge) {
                return Err(invalid("code_verifier does not match the code_challenge"));
            }
        }
        (Some(_), None) => {
            return Err(invalid(
                "code_verifier is required: the authorization request used PKCE",
            ))
        }
        (None, Some(_)) => {
            return Err(invalid(
                "code_verifier was sent but the authorization request had no code_challenge",
            ))
        }
        (None, None) => {}
    }

    let (issuance, mut response) = mint(
        state,
        TokenGrant {
            grant_id: None,
            client_id: &client.client_id,
            grant_scopes: &code.scopes,
            token_scopes: &code.scopes,
            claims: &code.claims,
            auth_time: code.auth_time,
            amr: &code.amr,
        },
    );
    let facts = IdTokenFacts {
        client_id: client.client_id.as_str(),
        claims: &issuance.access.claims,
        auth_time: code.auth_time,
        nonce: code.nonce.as_deref(),
        amr: &code.amr,
    };
    id_token::attach(state, facts, &mut response).await?;
    match state.store.redeem_code(&digest, &issuance).await? {
        Redemption::Issued => {
            let event = AuditEvent::new(Action::TokenIssued, Some(code.claims.sub()))
                .app(&client.client_id)
                .from_address(params.address.as_deref())
                .detail(format!(
                    "authorization code exchanged; scope `{}`",
                    code.scopes
                ));
            audit::record(state, event).await;
            Ok(response)
        }
        Redemption::NotFound => Err(invalid("the code is invalid or has expired")),
        Redemption::Replayed => {
            replayed(state, client, code.claims.sub(), &params.address).await;
            Err(invalid(
                "the code has already been used; the tokens issued with it have been revoked",
            ))
        }
    }
}

async fn replayed(state: &AppState, client: &ClientRecord, sub: &str, address: &Option<String>) {
    let event = AuditEvent::new(Action::TokenRevoked, Some(sub))
        .app(&client.client_id)
        .from_address(address.as_deref())
        .detail("authorization code used twice: the tokens issued with it were revoked");
    audit::record(state, event).await;
}
