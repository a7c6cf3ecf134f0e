//! What the store keeps of a person's passkey: public data only.

use crate::clock::UnixTime;
use serde::{Deserialize, Serialize};

/// One passkey of a person. Nothing here is secret: the private key never leaves the
/// authenticator, and the credential holds the public key and the signature counter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PasskeyRecord {
    /// The credential id, base64url without padding: how browsers name the passkey.
    pub id: String,
    /// The name its owner gave it.
    pub name: String,
    /// The user handle the passkey holds (base64url), the same for each of a person's
    /// passkeys: what a passwordless sign-in is checked against.
    pub user_handle: String,
    /// The credential as the WebAuthn library keeps it (JSON): public key, signature counter,
    /// flags. Read and written only by `crate::mfa::passkey`.
    pub credential: String,
    /// When it was added.
    pub created_at: UnixTime,
    /// When it last signed someone in.
    #[serde(default)]
    pub last_used_at: Option<UnixTime>,
}

/// How adding a passkey went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PasskeyAdded {
    /// Stored.
    Added,
    /// Not stored: its credential id is already a passkey of someone (the same person or
    /// another).
    Taken,
    /// Not stored: the person has as many passkeys as they may.
    Full,
}
