//! Seals the successor of a rotated refresh token so only the holder of the old one can open it.
//!
//! A client that retries a refresh within the grace window must get the same successor, but the
//! store keeps no raw token. The successor is therefore encrypted under a key derived from the
//! old raw refresh token, which the store never sees.

use super::token::TokenSuccess;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chacha20poly1305::aead::{Aead, AeadCore, KeyInit, OsRng, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
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

/// Encrypts `plain` with a fresh random nonce, binding `context` (authenticated, not
/// encrypted): base64url of nonce ‖ ciphertext. Also used for second-factor secrets at rest.
pub fn seal_with(cipher: &ChaCha20Poly1305, context: &[u8], plain: &[u8]) -> Option<String> {
    let nonce = ChaCha20Poly1305::generate_nonce(&mut OsRng);
    let payload = Payload {
        msg: plain,
        aad: context,
    };
    let mut out = nonce.to_vec();
    out.extend(cipher.encrypt(&nonce, payload).ok()?);
    Some(URL_SAFE_NO_PAD.encode(out))
}

/// Opens what [`seal_with`] sealed under the same key and `context`; `None` if anything differs.
pub fn open_with(cipher: &ChaCha20Poly1305, context: &[u8], sealed: &str) -> Option<Vec<u8>> {
    let raw = URL_SAFE_NO_PAD.decode(sealed).ok()?;
    if raw.len() < 12 {
        return None;
    }
    let (nonce, body) = raw.split_at(12);
    let payload = Payload {
        msg: body,
        aad: context,
    };
    cipher.decrypt(Nonce::from_slice(nonce), payload).ok()
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
