//! `grant_type=authorization_code` (RFC 6749 §4.1.3, RFC 7636 §4.6).

use crate::domain::{ClientRecord, SecretToken};
use crate::events::{Event, Grant, Refusal, Revocation};
use crate::oauth::issue::{issue_tokens, TokenGrant};
use crate::oauth::token::TokenSuccess;
use crate::oauth::{pkce, Context, OAuthError, Refused};
use crate::store::Redemption;

/// What the app presented with its code.
pub struct Presented {
    /// The one-time code.
    pub code: SecretToken,
    /// The redirect URI of the authorize request.
    pub redirect_uri: String,
    /// The PKCE verifier.
    pub code_verifier: Option<String>,
}

const REPLAYED: &str =
    "the code has already been used; the tokens issued with it have been revoked";
const UNKNOWN: &str = "the code is invalid or has expired";

/// Exchanges a one-time code for tokens.
pub async fn exchange(
    cx: &impl Context,
    client: &ClientRecord,
    presented: Presented,
    address: Option<String>,
) -> Result<TokenSuccess, Refused> {
    let digest = presented.code.digest();
    let invalid =
        |reason, m: &str| Refused::because(reason, OAuthError::InvalidGrant(m.to_owned()));
    let pkce = |m: &str| invalid(Refusal::Pkce, m);

    let stored = cx
        .store()
        .code_to_redeem(&digest)
        .await?
        .ok_or_else(|| invalid(Refusal::CodeExpired, UNKNOWN))?;
    if let Some(grant_id) = &stored.consumed_by {
        cx.store().revoke_grant(grant_id).await?;
        tracing::warn!(client_id = %client.client_id, "authorization code replayed; its tokens were revoked");
        replayed(cx, client, stored.record.claims.sub(), address).await;
        return Err(invalid(Refusal::CodeReplayed, REPLAYED));
    }
    let code = stored.record;
    if code.expires_at <= cx.now() {
        return Err(invalid(Refusal::CodeExpired, "the code has expired"));
    }
    if code.client_id != client.client_id {
        return Err(invalid(
            Refusal::Other,
            "the code was issued to another client",
        ));
    }
    if code.redirect_uri != presented.redirect_uri {
        return Err(invalid(
            Refusal::RedirectUriDiffers,
            "redirect_uri differs from the one used in the authorization request",
        ));
    }
    match (&code.code_challenge, presented.code_verifier.as_deref()) {
        (Some(challenge), Some(verifier)) => {
            if !pkce::verify(verifier, challenge) {
                return Err(pkce("code_verifier does not match the code_challenge"));
            }
        }
        (Some(_), None) => {
            return Err(pkce(
                "code_verifier is required: the authorization request used PKCE",
            ))
        }
        (None, Some(_)) => {
            return Err(pkce(
                "code_verifier was sent but the authorization request had no code_challenge",
            ))
        }
        (None, None) => {}
    }

    let grant = TokenGrant {
        grant_id: None,
        client_id: &client.client_id,
        grant_scopes: &code.scopes,
        token_scopes: &code.scopes,
        claims: &code.claims,
        auth_time: code.auth_time,
        amr: &code.amr,
        id_token_alg: client.id_token_signed_response_alg,
        sid: code.sid.as_deref(),
    };
    let (issuance, response) = issue_tokens(cx, grant, code.nonce.as_deref()).await?;
    match cx.store().redeem_code(&digest, &issuance).await? {
        Redemption::Issued => {
            let event = Event::TokensIssued {
                client_id: client.client_id.clone(),
                sub: code.claims.sub().to_owned(),
                grant: Grant::AuthorizationCode,
                scope: code.scopes.to_string(),
                address,
            };
            cx.events().publish(event).await;
            Ok(response)
        }
        Redemption::NotFound => Err(invalid(Refusal::CodeExpired, UNKNOWN)),
        Redemption::AppDisabled => Err(super::app_disabled()),
        Redemption::Replayed => {
            replayed(cx, client, code.claims.sub(), address).await;
            Err(invalid(Refusal::CodeReplayed, REPLAYED))
        }
    }
}

async fn replayed(cx: &impl Context, client: &ClientRecord, sub: &str, address: Option<String>) {
    let event = Event::GrantRevoked {
        client_id: client.client_id.clone(),
        sub: sub.to_owned(),
        reason: Revocation::CodeReplayed,
        address,
    };
    cx.events().publish(event).await;
}
