//! The key that encrypts enrolment secrets at rest (`mfa.encryption_key`).
//!
//! A copy of the store alone then reveals no authenticator secret. Each secret is sealed with
//! the user's subject as associated data, so a sealed secret moved to another user's record
//! does not open.

use crate::config::{Settings, StoreBackend};
use crate::domain::seal::{open_with, seal_with};
use crate::domain::Digest;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use chacha20poly1305::aead::{KeyInit, OsRng};
use chacha20poly1305::ChaCha20Poly1305;
use hmac::{Hmac, Mac};
use secrecy::ExposeSecret;
use sha2::Sha256;
use std::fmt;

const HINT: &str = "generate one with `openssl rand -base64 32` and set mfa.encryption_key_file (or SSO_BRIDGE__MFA__ENCRYPTION_KEY)";

/// The key could not be used; start-up stops with this message.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// Not base64 of 32 bytes.
    #[error("mfa.encryption_key must be base64 of exactly 32 bytes; {HINT}")]
    Malformed,
    /// Unset on a store that outlives the process.
    #[error("mfa.encryption_key is not set and the redis store needs it; {HINT}")]
    Missing,
}

/// The second-factor encryption key. Printed as `[redacted]`.
pub struct MfaKey {
    cipher: ChaCha20Poly1305,
    /// Keys the digests of recovery codes, derived from the same secret.
    recovery: Hmac<Sha256>,
}

impl fmt::Debug for MfaKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MfaKey([redacted])")
    }
}

impl MfaKey {
    /// Reads the key from settings. Unset with the memory store: a random key for this process
    /// (enrolments die with the process anyway), announced loudly. Unset with Redis:
    /// [`KeyError::Missing`], so start-up stops (the settings check says so first).
    pub fn from_settings(settings: &Settings) -> Result<Self, KeyError> {
        match &settings.mfa.encryption_key {
            // Base64 holds no spaces: any around the key were typed with it, not part of it.
            Some(key) => Self::from_base64(key.expose_secret().trim()),
            None if settings.store.backend == StoreBackend::Memory => {
                tracing::warn!("DEMO SETUP: mfa.encryption_key is not set; second-factor secrets are encrypted with a key that lives only in this process. Set one (`openssl rand -base64 32`) in production");
                Self::random()
            }
            None => Err(KeyError::Missing),
        }
    }

    /// A key from its base64 text.
    pub fn from_base64(text: &str) -> Result<Self, KeyError> {
        let bytes = STANDARD.decode(text).map_err(|_| KeyError::Malformed)?;
        Self::from_bytes(&bytes)
    }

    /// A random key.
    pub fn random() -> Result<Self, KeyError> {
        Self::from_bytes(ChaCha20Poly1305::generate_key(&mut OsRng).as_slice())
    }

    fn from_bytes(bytes: &[u8]) -> Result<Self, KeyError> {
        let cipher = ChaCha20Poly1305::new_from_slice(bytes).map_err(|_| KeyError::Malformed)?;
        // A separate key for the recovery-code digests, so the two uses never share one.
        let mut derive =
            <Hmac<Sha256> as Mac>::new_from_slice(bytes).map_err(|_| KeyError::Malformed)?;
        derive.update(b"sso-bridge recovery-code digests v1");
        let recovery = <Hmac<Sha256> as Mac>::new_from_slice(&derive.finalize().into_bytes())
            .map_err(|_| KeyError::Malformed)?;
        Ok(Self { cipher, recovery })
    }

    /// The digest a recovery code of `sub` is stored and spent by: keyed, so a copy of the
    /// store alone cannot be searched for codes, and bound to the user.
    pub fn recovery_digest(&self, sub: &str, code: &str) -> Digest {
        let mut mac = self.recovery.clone();
        mac.update(sub.as_bytes());
        mac.update(&[0]);
        mac.update(code.as_bytes());
        Digest::from_hex(hex::encode(mac.finalize().into_bytes()))
    }

    /// Encrypts `secret` for the user `sub`.
    pub fn seal(&self, sub: &str, secret: &[u8]) -> Option<String> {
        seal_with(&self.cipher, sub.as_bytes(), secret)
    }

    /// Decrypts a secret sealed for `sub`; `None` if the key, the user or the text differ.
    pub fn open(&self, sub: &str, sealed: &str) -> Option<Vec<u8>> {
        open_with(&self.cipher, sub.as_bytes(), sealed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_secret_opens_only_for_its_user_and_key() {
        let key = MfaKey::random().unwrap();
        let sealed = key.seal("ada", b"secret").unwrap();
        assert_eq!(key.open("ada", &sealed).unwrap(), b"secret");
        assert!(key.open("grace", &sealed).is_none());
        assert!(MfaKey::random().unwrap().open("ada", &sealed).is_none());
    }

    #[test]
    fn a_key_must_be_32_bytes_of_base64() {
        assert!(MfaKey::from_base64(&STANDARD.encode([7u8; 32])).is_ok());
        assert!(MfaKey::from_base64(&STANDARD.encode([7u8; 16])).is_err());
        assert!(MfaKey::from_base64("not base64!").is_err());
    }
}
