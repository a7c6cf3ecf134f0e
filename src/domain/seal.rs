//! Authenticated encryption of small values kept in the store (ChaCha20-Poly1305): refresh
//! successors kept for the grace window, second-factor secrets at rest.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chacha20poly1305::aead::{Aead, AeadCore, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Nonce};

/// Encrypts `plain` with a fresh random nonce, binding `context` (authenticated, not
/// encrypted): base64url of nonce ‖ ciphertext.
///
/// The nonce comes from the thread's CSPRNG (ChaCha, seeded and reseeded from the system),
/// as tokens do: every refresh seals its successor, and a system call per nonce is not needed.
pub fn seal_with(cipher: &ChaCha20Poly1305, context: &[u8], plain: &[u8]) -> Option<String> {
    let nonce = ChaCha20Poly1305::generate_nonce(&mut rand::thread_rng());
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
