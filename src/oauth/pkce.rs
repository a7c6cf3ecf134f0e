//! PKCE (RFC 7636), S256 only.

use crate::domain::bounds;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// Whether `value` is 43–128 characters of the RFC 7636 §4.1 unreserved set.
fn is_pkce_string(value: &str) -> bool {
    (43..=bounds::CODE_VERIFIER).contains(&value.len())
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

/// Whether a `code_challenge` is a well-formed S256 challenge: the base64url (no padding) of a
/// 32-byte SHA-256 digest, 43 characters.
pub fn is_valid_challenge(challenge: &str) -> bool {
    challenge.len() == 43
        && is_pkce_string(challenge)
        && URL_SAFE_NO_PAD
            .decode(challenge)
            .is_ok_and(|bytes| bytes.len() == 32)
}

/// Whether a `code_verifier` has the RFC 7636 §4.1 form.
pub fn is_valid_verifier(verifier: &str) -> bool {
    is_pkce_string(verifier)
}

/// The S256 challenge of a verifier.
pub fn challenge_of(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// Whether `verifier` answers `challenge` (constant time).
pub fn verify(verifier: &str, challenge: &str) -> bool {
    is_valid_verifier(verifier)
        && challenge_of(verifier)
            .as_bytes()
            .ct_eq(challenge.as_bytes())
            .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc7636_appendix_b_example_verifies() {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert!(is_valid_challenge(challenge));
        assert!(verify(verifier, challenge));
        assert!(!verify(
            "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXK",
            challenge
        ));
    }

    #[test]
    fn malformed_values_are_refused() {
        assert!(!is_valid_challenge("short"));
        assert!(!is_valid_challenge(&"a".repeat(44)));
        assert!(!is_valid_challenge(
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw+cM"
        ));
        assert!(!is_valid_verifier(&"a".repeat(42)));
        assert!(!is_valid_verifier(&"a".repeat(129)));
        assert!(!is_valid_verifier(&format!("{}!", "a".repeat(43))));
    }
}
