//! `grant_type=refresh_token` (RFC 6749 §6, RFC 9700 §4.14): rotation with reuse detection.

use crate::backchannel;
use crate::domain::{ClientRecord, Escaped, ScopeSet, SecretToken};
use crate::events::{Event, Grant, Refusal, Revocation};
use crate::oauth::error::Cause;
use crate::oauth::issue::{issue_tokens, sign_id_token, TokenGrant};
use crate::oauth::seal;
use crate::oauth::token::TokenSuccess;
use crate::oauth::{Context, OAuthError, Refused};
use crate::store::Rotation;

const SPENT: &str = "the refresh token is invalid, expired or revoked";

/// Exchanges a refresh token for a new access token and a new refresh token; `scope` narrows
/// the new access token.
///
/// The directory is read again, so a user who left gets `invalid_grant` and changed attributes
/// show in the new token.
pub async fn exchange(
    cx: &impl Context,
    client: &ClientRecord,
    old: SecretToken,
    scope: Option<String>,
    address: Option<String>,
) -> Result<TokenSuccess, Refused> {
    let invalid = |m: &str| Refused::from(OAuthError::InvalidGrant(m.to_owned()));
    let wider = |error| Refused::because(Refusal::Scope, error);
    let digest = old.digest();
    let record = cx
        .store()
        .refresh_record(&digest)
        .await?
        .ok_or_else(|| invalid(SPENT))?;
    if record.client_id != client.client_id {
        return Err(invalid("the refresh token was issued to another client"));
    }
    let now = cx.now();
    if record.expires_at <= now {
        return Err(invalid("the refresh token has expired"));
    }
    let token_scopes = match scope.as_deref() {
        None => record.scopes.clone(),
        Some(raw) => {
            let wanted =
                ScopeSet::parse(raw).map_err(|e| wider(OAuthError::InvalidScope(e.to_string())))?;
            if !wanted.is_subset(&record.scopes) {
                return Err(wider(OAuthError::InvalidScope(format!(
                    "a refresh may only narrow the scope; the grant has `{}`",
                    record.scopes
                ))));
            }
            wanted
        }
    };

    let user = cx.directory().lookup(&record.sub).await?;
    let claims = user.and_then(|u| cx.claim_mapping().claims_of(&u));
    let Some(claims) = claims.filter(|c| c.sub() == record.sub) else {
        // The record may be the store's copy of what it issued: a token revoked since is
        // refused as spent, with no revocation to report.
        if cx.store().refresh_token(&digest).await?.is_none() {
            return Err(invalid(SPENT));
        }
        cx.store().revoke_grant(&record.grant_id).await?;
        // A leaver found here is signed out of single sign-on and the admin side too, as the
        // directory re-check of a session would: no browser of theirs gets another code, and
        // the apps that got tokens in their sessions are told.
        let ended = backchannel::end_sessions(cx, &record.sub).await?;
        cx.store().end_admin_sessions(&record.sub).await?;
        // This app is told too, when the session its grant came from was not among them.
        let sid = record.sid.as_deref();
        if sid.is_none_or(|sid| !ended.includes(sid)) {
            backchannel::grant_ended(cx, &client.client_id, &record.sub, sid).await?;
        }
        tracing::info!(sub = ?Escaped(&record.sub), "refresh refused: user no longer in the directory, or disabled or expired there; their sessions ended");
        revoked(cx, client, &record.sub, address, Revocation::UserGone).await;
        return Err(invalid("the user is no longer valid"));
    };
    // Whether the person may still use the app: their role and groups as just read, and the
    // app's lists as they are now.
    if !client.allows(&claims) {
        if cx.store().refresh_token(&digest).await?.is_none() {
            return Err(invalid(SPENT));
        }
        cx.store().revoke_grant(&record.grant_id).await?;
        // The person's SSO session stays (other apps are still theirs); this app is told.
        let sid = record.sid.as_deref();
        backchannel::grant_ended(cx, &client.client_id, &record.sub, sid).await?;
        let event = Event::AccessDenied {
            sub: record.sub.clone(),
            client_id: client.client_id.clone(),
            address: address.clone(),
            at: "refresh",
        };
        cx.events().publish(event).await;
        revoked(cx, client, &record.sub, address, Revocation::AccessRemoved).await;
        return Err(invalid("the user may no longer use this application"));
    }

    // OpenID Connect Core §12.2: same iss, sub, aud, azp and auth_time; no nonce.
    let grant = TokenGrant {
        grant_id: Some(&record.grant_id),
        client_id: &client.client_id,
        grant_scopes: &record.scopes,
        token_scopes: &token_scopes,
        claims: &claims,
        auth_time: record.auth_time,
        amr: &record.amr,
        id_token_alg: client.id_token_signed_response_alg,
        sid: record.sid.as_deref(),
    };
    let (issuance, mut response) = issue_tokens(cx, grant, None).await?;
    // The successor is sealed without its id_token, most of its size: the store keeps the seal
    // for the old token's whole lifetime, and every rotation sends it. A retry gets an id_token
    // signed again, with the same iss, sub, aud, azp and auth_time (OpenID Connect Core §12.2).
    let id_token = response.id_token.take();
    let sealed = seal::seal(old.expose(), &response).ok_or_else(|| {
        Refused::from(OAuthError::ServerError(Cause::says(
            "the refresh token's successor could not be sealed",
        )))
    })?;
    response.id_token = id_token;
    let grace = cx.token_settings().refresh_grace.as_secs();
    match cx
        .store()
        .rotate_refresh(&digest, &issuance, &sealed, now, grace)
        .await?
    {
        Rotation::Rotated => {
            let event = Event::TokensIssued {
                client_id: client.client_id.clone(),
                sub: record.sub,
                grant: Grant::RefreshToken,
                scope: token_scopes.to_string(),
                address,
            };
            cx.events().publish(event).await;
            Ok(response)
        }
        Rotation::Grace(sealed) => {
            let mut successor = seal::open(old.expose(), &sealed).ok_or_else(|| invalid(SPENT))?;
            // An earlier version sealed the id_token too. Otherwise one is signed again, for
            // the successor's access token (its `at_hash`), when this request has one.
            if successor.id_token.is_none() && response.id_token.is_some() {
                let access = &successor.access_token;
                let signed = sign_id_token(cx, grant, &issuance.access, None, access).await?;
                successor.id_token = Some(signed);
            }
            Ok(successor)
        }
        Rotation::Reused => {
            tracing::warn!(client_id = %client.client_id, sub = ?Escaped(&record.sub), "rotated refresh token reused; grant revoked");
            revoked(cx, client, &record.sub, address, Revocation::RefreshReused).await;
            Err(Refused::because(
                Refusal::RefreshReplayed,
                OAuthError::InvalidGrant(
                    "the refresh token has already been used; every token of this grant has been revoked".into(),
                ),
            ))
        }
        Rotation::NotFound => Err(invalid(SPENT)),
        Rotation::AppDisabled => Err(super::app_disabled()),
    }
}

async fn revoked(
    cx: &impl Context,
    client: &ClientRecord,
    sub: &str,
    address: Option<String>,
    reason: Revocation,
) {
    let event = Event::GrantRevoked {
        client_id: client.client_id.clone(),
        sub: sub.to_owned(),
        reason,
        address,
    };
    cx.events().publish(event).await;
}
