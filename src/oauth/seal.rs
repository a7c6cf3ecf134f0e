//! Seals the successor of a rotated refresh token so only the holder of the old one can open it.
//!
//! A client that retries a refresh within the grace window must get the same successor, but the
//! store keeps no raw token. The successor is therefore encrypted under a key derived from the
//! old raw refresh token, which the store never sees.

use super::token::TokenSuccess;
use crate::domain::seal::{open_with, seal_with};
use chacha20poly1305::aead::KeyInit;
use chacha20poly1305::{ChaCha20Poly1305, Key};
use sha2::{Digest, Sha256};

const CONTEXT: &[u8] = b"sso-bridge refresh-grace v1\0";

fn cipher(old_refresh_token: &str) -> ChaCha20Poly1305 {
    let mut hasher = Sha256::new();
    hasher.update(CONTEXT);
    hasher.update(old_refresh_token.as_bytes());
    ChaCha20Poly1305::new(Key::from_slice(&hasher.finalize()))
}

/// Encrypts `successor` under the old refresh token; `None` only if serialisation fails.
pub fn seal(old_refresh_token: &str, successor: &TokenSuccess) -> Option<String> {
    let plain = serde_json::to_vec(successor).ok()?;
    seal_with(&cipher(old_refresh_token), b"", &plain)
}

/// Decrypts a sealed successor with the old refresh token.
pub fn open(old_refresh_token: &str, sealed: &str) -> Option<TokenSuccess> {
    let plain = open_with(&cipher(old_refresh_token), b"", sealed)?;
    serde_json::from_slice(&plain).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn success() -> TokenSuccess {
        TokenSuccess {
            id_token: None,
            access_token: "at".into(),
            token_type: "Bearer".into(),
            expires_in: 3600,
            refresh_token: "rt".into(),
            scope: "openid".into(),
        }
    }

    #[test]
    fn only_the_old_token_opens_the_seal() {
        let sealed = seal("old", &success()).unwrap();
        assert_eq!(open("old", &sealed).unwrap().access_token, "at");
        assert!(open("other", &sealed).is_none());
        assert!(!sealed.contains("at\""));
    }
}
