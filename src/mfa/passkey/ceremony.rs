//! A ceremony's state between the page that starts it and the form that answers it: kept in
//! the store under what it is bound to (a pending sign-in, a session), for
//! [`CEREMONY_TTL`](super::CEREMONY_TTL), and taken once.

use super::{Context, PasskeyError};
use serde::{Deserialize, Serialize};
use webauthn_rs_core::proto::{AuthenticationState, RegistrationState};

/// Largest state kept: a second-factor ceremony lists the person's passkeys, at most ten.
const STATE_MAX: usize = 32 * 1024;

/// What a ceremony is waiting for.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(super) enum Ceremony {
    /// A new passkey of `sub`, holding `user_handle`.
    Register {
        sub: String,
        user_handle: String,
        state: RegistrationState,
    },
    /// One of `sub`'s passkeys, after their password.
    SecondFactor {
        sub: String,
        state: AuthenticationState,
    },
    /// Anyone's passkey, alone.
    Passwordless { state: AuthenticationState },
}

/// Keeps `ceremony` under `key`, replacing the one started there before.
pub(super) async fn keep(
    cx: &impl Context,
    key: &str,
    ceremony: &Ceremony,
) -> Result<(), PasskeyError> {
    let json = serde_json::to_string(ceremony).map_err(|e| PasskeyError::Corrupt(e.to_string()))?;
    if json.len() > STATE_MAX {
        return Err(PasskeyError::Corrupt(format!(
            "a ceremony state of {} bytes is over {STATE_MAX}",
            json.len()
        )));
    }
    let ttl = super::CEREMONY_TTL.as_secs();
    cx.store().put_ceremony(key, &json, ttl).await?;
    Ok(())
}

/// Takes the ceremony under `key`: it answers once.
pub(super) async fn take(cx: &impl Context, key: &str) -> Result<Ceremony, PasskeyError> {
    let json = cx
        .store()
        .take_ceremony(key)
        .await?
        .ok_or(PasskeyError::NoCeremony)?;
    serde_json::from_str(&json).map_err(|e| PasskeyError::Corrupt(e.to_string()))
}
