//! Bearer secrets (tokens, codes, client secrets) and the digests they are stored as.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::RngCore;
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};
use std::fmt;
use subtle::ConstantTimeEq;

/// A raw secret handed to a client once (access token, refresh token, code, client secret).
///
/// Not `Clone` and printed as `[redacted]`: the raw value leaves the process only in the one
/// response that issues it. Only its [`Digest`] is stored.
pub struct SecretToken(SecretString);

impl SecretToken {
    /// 256 random bits, base64url without padding (43 characters).
    pub fn generate() -> Self {
        let mut bytes = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut bytes);
        Self(SecretString::from(URL_SAFE_NO_PAD.encode(bytes)))
    }

    /// Wraps a value presented by a client.
    pub fn from_presented(value: impl Into<String>) -> Self {
        Self(SecretString::from(value.into()))
    }

    /// The raw value, for the one response that hands it out.
    pub fn expose(&self) -> &str {
        self.0.expose_secret()
    }

    /// The SHA-256 digest this secret is stored and looked up by.
    pub fn digest(&self) -> Digest {
        Digest::of(self.expose())
    }
}

impl fmt::Debug for SecretToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// The lowercase hex SHA-256 of a secret: what the store keeps instead of the secret.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Digest(String);

impl Digest {
    /// Digest of a raw secret.
    pub fn of(raw: &str) -> Self {
        // Every store key of a token is built from one, so it is hex-encoded byte by byte into
        // a string of its final size: `hex::encode` goes through a char iterator, which cost
        // as much as the hash itself.
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut text = String::with_capacity(64);
        for byte in Sha256::digest(raw.as_bytes()) {
            text.push(char::from(DIGITS[usize::from(byte >> 4)]));
            text.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
        }
        Self(text)
    }

    /// Rebuilds a digest read back from the store.
    pub fn from_hex(hex: impl Into<String>) -> Self {
        Self(hex.into())
    }

    /// The hex text, used in store keys.
    pub fn as_hex(&self) -> &str {
        &self.0
    }

    /// Constant-time comparison, for checking a presented secret against a stored digest.
    pub fn ct_eq(&self, other: &Digest) -> bool {
        self.0.as_bytes().ct_eq(other.0.as_bytes()).into()
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A digest is not secret, but a prefix is all a log reader needs.
        write!(f, "Digest({}…)", &self.0[..self.0.len().min(8)])
    }
}

/// A random identifier that is not a secret but must be unguessable (ids, CSRF tokens).
pub fn random_id(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::thread_rng().fill_bytes(&mut buf);
    URL_SAFE_NO_PAD.encode(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_tokens_are_43_chars_and_distinct() {
        let a = SecretToken::generate();
        let b = SecretToken::generate();
        assert_eq!(a.expose().len(), 43);
        assert_ne!(a.expose(), b.expose());
    }

    #[test]
    fn debug_never_shows_the_secret() {
        let t = SecretToken::from_presented("hunter2");
        assert_eq!(format!("{t:?}"), "[redacted]");
    }

    #[test]
    fn digest_is_sha256_hex_and_compares_in_constant_time() {
        let d = Digest::of("abc");
        assert_eq!(
            d.as_hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(d.ct_eq(&Digest::of("abc")));
        assert!(!d.ct_eq(&Digest::of("abd")));
    }
}
