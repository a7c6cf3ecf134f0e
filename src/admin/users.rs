//! What a superadmin does to a user's account: look up which second factors they have;
//! remove their second factor (a lost phone), so they set up a new one at their next sign-in;
//! or sign them out everywhere (a leaver, a stolen laptop). Shared by the admin API and the
//! screen.

use crate::apps::Actor;
use crate::backchannel;
use crate::clock::UnixTime;
use crate::directory::DirectoryError;
use crate::domain::ClientId;
use crate::events::Event;
use crate::mfa::{enrolment, MfaError};
use crate::state::AppState;
use crate::store::StoreError;
use std::collections::HashSet;

/// What removing a user's second factor ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SecondFactorReset {
    /// Admin API tokens, admin screen sign-ins and admin sign-ins waiting for the second
    /// factor that were ended with it: whoever held the old factor holds none of them.
    pub admin_sessions: u64,
}

/// Removes the second factor (authenticator and recovery codes) of the user `sub`, and ends
/// their admin sign-ins; answers `None` when they had no second factor. Audited when they did.
pub async fn reset_second_factor(
    state: &AppState,
    actor: Actor<'_>,
    sub: &str,
) -> Result<Option<SecondFactorReset>, MfaError> {
    let sub = sub.trim();
    if sub.is_empty() || !enrolment::reset(state, sub).await? {
        return Ok(None);
    }
    let admin_sessions = state.store.end_admin_sessions(sub).await?;
    let event = Event::SecondFactorReset {
        by: actor.sub.to_owned(),
        address: actor.address.map(str::to_owned),
        sub: sub.to_owned(),
        admin_sessions,
    };
    state.events.publish(event).await;
    Ok(Some(SecondFactorReset { admin_sessions }))
}

/// Why a user could not be signed out everywhere.
#[derive(Debug, thiserror::Error)]
pub enum RevokeError {
    /// The store is down: nothing, or not everything, was revoked.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The directory did not answer, so the name could not be resolved.
    #[error(transparent)]
    Directory(#[from] DirectoryError),
}

/// What signing a user out everywhere ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedOut {
    /// The user, by subject.
    pub sub: String,
    /// SSO sessions ended.
    pub sessions: u64,
    /// Grants (token families: an app's access and refresh tokens) revoked.
    pub grants: u64,
    /// Admin API tokens, admin screen sign-ins and admin sign-ins waiting for the second
    /// factor ended.
    pub admin_sessions: u64,
}

/// Signs the user `name` (the name they sign in with, or their subject) out everywhere: ends
/// every SSO session and admin sign-in (admin API tokens included) and revokes every code,
/// access and refresh token of every app. The apps are told (back-channel logout) of each
/// session, and of each grant whose session had ended before. Audited.
///
/// Sessions and tokens are found through the store's per-user index; those issued before it
/// existed are not, and expire on their own.
pub async fn sign_out_everywhere(
    state: &AppState,
    actor: Actor<'_>,
    name: &str,
) -> Result<SignedOut, RevokeError> {
    let sub = subject_of(state, name.trim()).await?;
    // Which app holds a grant from which session, read before they go: an app whose grant
    // outlived its session is told as well as those of the sessions still live.
    let held: HashSet<(ClientId, Option<String>)> = state
        .store
        .user_grants(&sub)
        .await?
        .into_iter()
        .map(|grant| (grant.refresh.client_id, grant.refresh.sid))
        .collect();
    let grants = state.store.revoke_user(&sub).await?;
    // Then the sessions: a code one of them was handed meanwhile, redeemed or not, is revoked
    // with it; the apps that got tokens in them are told (back-channel logout).
    let ended = backchannel::end_sessions(state, &sub).await?;
    for (client, sid) in &held {
        let told = sid.as_deref().is_some_and(|sid| ended.includes(sid));
        if !told {
            backchannel::grant_ended(state, client, &sub, sid.as_deref()).await?;
        }
    }
    let sessions = ended.count;
    let admin_sessions = state.store.end_admin_sessions(&sub).await?;
    let event = Event::SignedOutEverywhere {
        by: actor.sub.to_owned(),
        address: actor.address.map(str::to_owned),
        sub: sub.clone(),
        sessions,
        grants,
        admin_sessions,
    };
    state.events.publish(event).await;
    Ok(SignedOut {
        sub,
        sessions,
        grants,
        admin_sessions,
    })
}

/// Which kinds of second factor a person has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Factors {
    /// The person, by subject.
    pub sub: String,
    /// When their authenticator app was set up; `None`: they have none.
    pub authenticator_since: Option<UnixTime>,
    /// Recovery codes not yet used.
    pub recovery_codes_left: u64,
    /// The names of their passkeys, oldest first.
    pub passkeys: Vec<String>,
}

/// Why a person's second factors could not be looked up.
#[derive(Debug, thiserror::Error)]
pub enum LookupError {
    /// The store is down.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The directory did not answer, so the name could not be resolved.
    #[error(transparent)]
    Directory(#[from] DirectoryError),
}

/// The second factors of the person `name` (the name they sign in with, or their subject).
/// Reads only: nothing is audited.
pub async fn factors(state: &AppState, name: &str) -> Result<Factors, LookupError> {
    let sub = subject_of(state, name.trim()).await?;
    let enrolment = state.store.second_factor(&sub).await?;
    let recovery_codes_left = match enrolment {
        Some(_) => state.store.recovery_codes_left(&sub).await?,
        None => 0,
    };
    let passkeys = state.store.passkeys(&sub).await?;
    Ok(Factors {
        sub,
        authenticator_since: enrolment.map(|e| e.enrolled_at),
        recovery_codes_left,
        passkeys: passkeys.into_iter().map(|p| p.name).collect(),
    })
}

/// The subject a superadmin means by `name`: a subject the directory knows, else the subject of
/// the user who signs in as `name`, else `name` itself (someone already deleted from the
/// directory is named by their subject).
async fn subject_of(state: &AppState, name: &str) -> Result<String, DirectoryError> {
    let mapping = &state.settings.claims;
    let known = state.directory.lookup(name).await?;
    if known
        .and_then(|user| mapping.claims_of(&user))
        .is_some_and(|claims| claims.sub() == name)
    {
        return Ok(name.to_owned());
    }
    let found = state.directory.find(name).await?;
    let claims = found.and_then(|user| mapping.claims_of(&user));
    Ok(claims.map_or_else(|| name.to_owned(), |c| c.sub().to_owned()))
}
