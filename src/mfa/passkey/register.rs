//! Adding a passkey: the options the browser hands the authenticator (a discoverable
//! credential, user verification preferred), then its answer checked and stored.

use super::ceremony::{self, Ceremony};
use super::manage::credential_of;
use super::{party, read_answer, Context, PasskeyError, MAX_PER_PERSON};
use crate::domain::secret::random_id;
use crate::events::Event;
use crate::store::{PasskeyAdded, PasskeyRecord};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use webauthn_rs_core::proto::{
    AttestationConveyancePreference, RegisterPublicKeyCredential, RequestRegistrationExtensions,
    UserVerificationPolicy,
};

/// Starts adding a passkey for `sub` (shown to the authenticator as `display_name`), bound to
/// `key`; answers the `publicKey` options for `navigator.credentials.create()`, as JSON.
pub async fn start_registration(
    cx: &impl Context,
    sub: &str,
    display_name: &str,
    key: &str,
) -> Result<String, PasskeyError> {
    let party = party(cx)?;
    let existing = cx.store().passkeys(sub).await?;
    if existing.len() >= MAX_PER_PERSON {
        return Err(PasskeyError::Full);
    }
    // Every passkey of a person holds the same handle, so a passwordless answer names them.
    let user_handle = existing
        .first()
        .map(|p| p.user_handle.clone())
        .unwrap_or_else(|| random_id(16));
    let handle = URL_SAFE_NO_PAD
        .decode(&user_handle)
        .map_err(|e| PasskeyError::Corrupt(e.to_string()))?;
    let exclude = existing
        .iter()
        .map(|p| credential_of(p).map(|c| c.cred_id))
        .collect::<Result<Vec<_>, _>>()?;
    let display_name = Some(display_name.trim())
        .filter(|d| !d.is_empty())
        .unwrap_or(sub);
    let builder = party
        .new_challenge_register_builder(&handle, sub, display_name)
        .map_err(PasskeyError::Refused)?
        .attestation(AttestationConveyancePreference::None)
        .user_verification_policy(UserVerificationPolicy::Preferred)
        .require_resident_key(true)
        .exclude_credentials(Some(exclude))
        .extensions(Some(RequestRegistrationExtensions {
            cred_protect: None,
            uvm: None,
            cred_props: Some(true),
            min_pin_length: None,
            hmac_create_secret: None,
        }));
    let (options, state) = party
        .generate_challenge_register(builder)
        .map_err(PasskeyError::Refused)?;
    let started = Ceremony::Register {
        sub: sub.to_owned(),
        user_handle,
        state,
    };
    ceremony::keep(cx, key, &started).await?;
    serde_json::to_string(&options.public_key).map_err(|e| PasskeyError::Corrupt(e.to_string()))
}

/// Finishes adding a passkey named `name` (already parsed) for `sub` with the authenticator's
/// `answer` to the ceremony under `key`; answers what was stored, and whether the
/// authenticator verified the person.
pub async fn finish_registration(
    cx: &impl Context,
    sub: &str,
    key: &str,
    name: &str,
    answer: &str,
) -> Result<(PasskeyRecord, bool), PasskeyError> {
    let answer: RegisterPublicKeyCredential = read_answer(answer)?;
    let Ceremony::Register {
        sub: started_by,
        user_handle,
        state,
    } = ceremony::take(cx, key).await?
    else {
        return Err(PasskeyError::NoCeremony);
    };
    if started_by != sub {
        return Err(PasskeyError::NoCeremony);
    }
    let credential = party(cx)?
        .register_credential(&answer, &state, None)
        .map_err(PasskeyError::Refused)?;
    let record = PasskeyRecord {
        id: URL_SAFE_NO_PAD.encode(credential.cred_id.as_slice()),
        name: name.to_owned(),
        user_handle,
        credential: serde_json::to_string(&credential)
            .map_err(|e| PasskeyError::Corrupt(e.to_string()))?,
        created_at: cx.now(),
        last_used_at: None,
    };
    match cx.store().add_passkey(sub, &record, MAX_PER_PERSON).await? {
        PasskeyAdded::Added => {}
        PasskeyAdded::Taken => return Err(PasskeyError::Duplicate),
        PasskeyAdded::Full => return Err(PasskeyError::Full),
    }
    let event = Event::PasskeyAdded {
        sub: sub.to_owned(),
        name: record.name.clone(),
    };
    cx.events().publish(event).await;
    Ok((record, credential.user_verified))
}
