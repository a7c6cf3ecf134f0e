//! Signing in with a passkey: after the password, with one of the person's own passkeys
//! (user verification preferred), or alone, with any discoverable passkey and user
//! verification required. Either way the signature counter is checked and kept.

use super::ceremony::{self, Ceremony};
use super::manage::credential_of;
use super::{party, read_answer, Context, PasskeyError};
use crate::events::{Event, SecondFactorOutcome};
use crate::store::PasskeyRecord;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use webauthn_rs_core::proto::{
    AuthenticationResult, AuthenticationState, PublicKeyCredential, UserVerificationPolicy,
};

/// A passkey that passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// Whose it is.
    pub sub: String,
    /// Whether the authenticator verified the person (PIN, biometric).
    pub user_verified: bool,
}

/// Starts a second-factor ceremony for `sub`'s passkeys, bound to `key`; answers the
/// `publicKey` options for `navigator.credentials.get()` as JSON, or `None` when `sub` has no
/// passkey.
pub async fn start_second_factor(
    cx: &impl Context,
    sub: &str,
    key: &str,
) -> Result<Option<String>, PasskeyError> {
    let party = party(cx)?;
    let records = cx.store().passkeys(sub).await?;
    if records.is_empty() {
        return Ok(None);
    }
    let credentials = records
        .iter()
        .map(credential_of)
        .collect::<Result<Vec<_>, _>>()?;
    let builder = party
        .new_challenge_authenticate_builder(credentials, Some(UserVerificationPolicy::Preferred))
        .map_err(PasskeyError::Refused)?;
    let (options, state) = party
        .generate_challenge_authenticate(builder)
        .map_err(PasskeyError::Refused)?;
    let started = Ceremony::SecondFactor {
        sub: sub.to_owned(),
        state,
    };
    ceremony::keep(cx, key, &started).await?;
    let json = serde_json::to_string(&options.public_key)
        .map_err(|e| PasskeyError::Corrupt(e.to_string()))?;
    Ok(Some(json))
}

/// Checks `answer` to `sub`'s second-factor ceremony under `key`; publishes how it went.
pub async fn finish_second_factor(
    cx: &impl Context,
    sub: &str,
    key: &str,
    answer: &str,
) -> Result<Verified, PasskeyError> {
    let result = second_factor(cx, sub, key, answer).await;
    let outcome = match &result {
        Ok(_) => Some(SecondFactorOutcome::Passkey),
        Err(e) if e.is_refusal() => Some(SecondFactorOutcome::Wrong),
        Err(_) => None,
    };
    if let Some(outcome) = outcome {
        let event = Event::SecondFactorChecked {
            sub: sub.to_owned(),
            outcome,
        };
        cx.events().publish(event).await;
    }
    result
}

async fn second_factor(
    cx: &impl Context,
    sub: &str,
    key: &str,
    answer: &str,
) -> Result<Verified, PasskeyError> {
    let answer: PublicKeyCredential = read_answer(answer)?;
    let Ceremony::SecondFactor {
        sub: started_for,
        state,
    } = ceremony::take(cx, key).await?
    else {
        return Err(PasskeyError::NoCeremony);
    };
    if started_for != sub {
        return Err(PasskeyError::NoCeremony);
    }
    let record = own_passkey(cx, sub, &answer).await?;
    verify(cx, sub, record, &answer, &state).await
}

/// Starts a passwordless ceremony bound to `key`: no list of passkeys (the authenticator
/// offers the discoverable ones it holds for this site), user verification required. Answers
/// the `publicKey` options for `navigator.credentials.get()` as JSON.
pub async fn start_passwordless(cx: &impl Context, key: &str) -> Result<String, PasskeyError> {
    let party = party(cx)?;
    let builder = party
        .new_challenge_authenticate_builder(Vec::new(), Some(UserVerificationPolicy::Required))
        .map_err(PasskeyError::Refused)?;
    let (options, state) = party
        .generate_challenge_authenticate(builder)
        .map_err(PasskeyError::Refused)?;
    ceremony::keep(cx, key, &Ceremony::Passwordless { state }).await?;
    serde_json::to_string(&options.public_key).map_err(|e| PasskeyError::Corrupt(e.to_string()))
}

/// Checks `answer` to the passwordless ceremony under `key`: whose passkey it is comes from
/// the credential id, and the user handle the authenticator returns must be theirs. The
/// directory is not asked here (see `crate::signin`).
pub async fn finish_passwordless(
    cx: &impl Context,
    key: &str,
    answer: &str,
) -> Result<Verified, PasskeyError> {
    let answer: PublicKeyCredential = read_answer(answer)?;
    let Ceremony::Passwordless { state } = ceremony::take(cx, key).await? else {
        return Err(PasskeyError::NoCeremony);
    };
    let id = URL_SAFE_NO_PAD.encode(answer.raw_id.as_slice());
    let sub = cx
        .store()
        .passkey_owner(&id)
        .await?
        .ok_or(PasskeyError::NotTheirs)?;
    let record = own_passkey(cx, &sub, &answer).await?;
    // A discoverable answer must name its person, and name the owner of the credential.
    let handle = answer.response.user_handle.as_deref().unwrap_or_default();
    if URL_SAFE_NO_PAD.encode(handle) != record.user_handle {
        return Err(PasskeyError::NotTheirs);
    }
    verify(cx, &sub, record, &answer, &state).await
}

/// `sub`'s passkey that `answer` comes from; a user handle, when given, must be theirs.
async fn own_passkey(
    cx: &impl Context,
    sub: &str,
    answer: &PublicKeyCredential,
) -> Result<PasskeyRecord, PasskeyError> {
    let id = URL_SAFE_NO_PAD.encode(answer.raw_id.as_slice());
    let record = cx
        .store()
        .passkeys(sub)
        .await?
        .into_iter()
        .find(|p| p.id == id)
        .ok_or(PasskeyError::NotTheirs)?;
    if let Some(handle) = answer.response.user_handle.as_deref() {
        if URL_SAFE_NO_PAD.encode(handle) != record.user_handle {
            return Err(PasskeyError::NotTheirs);
        }
    }
    Ok(record)
}

/// Checks the signature of `answer` by `record`'s key under `state`, and keeps the new
/// counter and the time of use.
async fn verify(
    cx: &impl Context,
    sub: &str,
    mut record: PasskeyRecord,
    answer: &PublicKeyCredential,
    state: &AuthenticationState,
) -> Result<Verified, PasskeyError> {
    let mut credential = credential_of(&record)?;
    // The library refuses a counter that did not move forward (a cloned authenticator).
    let result = party(cx)?
        .authenticate_single_credential(answer, state, &credential)
        .map_err(PasskeyError::Refused)?;
    keep_counter(&mut credential, &result);
    record.credential =
        serde_json::to_string(&credential).map_err(|e| PasskeyError::Corrupt(e.to_string()))?;
    record.last_used_at = Some(cx.now());
    // Removed meanwhile (by its owner or a reset): no longer a passkey of theirs.
    if !cx.store().update_passkey(sub, &record).await? {
        return Err(PasskeyError::NotTheirs);
    }
    Ok(Verified {
        sub: sub.to_owned(),
        user_verified: result.user_verified(),
    })
}

fn keep_counter(
    credential: &mut webauthn_rs_core::proto::Credential,
    result: &AuthenticationResult,
) {
    if result.counter() > credential.counter {
        credential.counter = result.counter();
    }
    credential.backup_state = result.backup_state();
    credential.backup_eligible |= result.backup_eligible();
}
