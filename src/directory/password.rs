//! `userPassword` values of the LDIF directory: `{ARGON2}`, `{SSHA}`, and plain text for demos.
//!
//! Verification is CPU-heavy by design (argon2), so callers run it on the blocking pool.

use argon2::password_hash::{PasswordHash, PasswordVerifier};
use argon2::Argon2;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use sha1::{Digest as _, Sha1};
use subtle::ConstantTimeEq;

/// A well-formed argon2 hash of a random string: verified against when the user is unknown, so
/// that an unknown username takes as long as a wrong password.
const DUMMY_HASH: &str = "{ARGON2}$argon2i$v=19$m=4096,t=3,p=1$dcnN5Ilfi5j82taWz2NKOw$ggodBvlwowQOiUm3xh7AX7QHNILJL7HWzvHTYAXO300";

/// Whether `password` matches the stored `userPassword` value.
///
/// Unknown schemes never match. Plain values (no `{SCHEME}`, or `{CLEARTEXT}`) are compared in
/// constant time; they are meant for demos only and the LDIF loader warns about them.
pub fn verify(stored: &str, password: &str) -> bool {
    match split_scheme(stored) {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("ARGON2") => {
            verify_argon2(rest, password)
        }
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("SSHA") => verify_ssha(rest, password),
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("CLEARTEXT") => {
            rest.as_bytes().ct_eq(password.as_bytes()).into()
        }
        Some(_) => false,
        None => stored.as_bytes().ct_eq(password.as_bytes()).into(),
    }
}

/// Spends the time of one argon2 verification and answers `false`.
pub fn verify_dummy(password: &str) -> bool {
    let _ = verify(DUMMY_HASH, password);
    false
}

/// Whether the value is stored in plain text.
pub fn is_plain(stored: &str) -> bool {
    match split_scheme(stored) {
        None => true,
        Some((scheme, _)) => scheme.eq_ignore_ascii_case("CLEARTEXT"),
    }
}

fn split_scheme(stored: &str) -> Option<(&str, &str)> {
    let rest = stored.strip_prefix('{')?;
    let end = rest.find('}')?;
    Some((&rest[..end], &rest[end + 1..]))
}

fn verify_argon2(phc: &str, password: &str) -> bool {
    PasswordHash::new(phc)
        .map(|hash| {
            Argon2::default()
                .verify_password(password.as_bytes(), &hash)
                .is_ok()
        })
        .unwrap_or(false)
}

fn verify_ssha(encoded: &str, password: &str) -> bool {
    let Ok(raw) = STANDARD.decode(encoded.trim()) else {
        return false;
    };
    // SHA-1 digest (20 bytes) followed by the salt.
    if raw.len() <= 20 {
        return false;
    }
    let (digest, salt) = raw.split_at(20);
    let mut hasher = Sha1::new();
    hasher.update(password.as_bytes());
    hasher.update(salt);
    hasher.finalize().as_slice().ct_eq(digest).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openldap_argon2_hashes_verify() {
        let stored = "{ARGON2}$argon2i$v=19$m=4096,t=3,p=1$AbY/GnMK4NxhD3bfvAMklw$e3km6kbA+r5J5urBJOIJK3+5v5Dofy4JRo6t1j1m7RQ";
        assert!(verify(stored, "test"));
        assert!(!verify(stored, "Test"));
    }

    #[test]
    fn ssha_hashes_verify() {
        let stored = "{SSHA}wMyB277RT0Y5i4siOvrFVbcagWCuBfsX";
        assert!(verify(stored, "test"));
        assert!(!verify(stored, "test "));
    }

    #[test]
    fn plain_values_compare_exactly_and_unknown_schemes_never_match() {
        assert!(verify("secret", "secret"));
        assert!(!verify("secret", "secret2"));
        assert!(verify("{CLEARTEXT}secret", "secret"));
        assert!(!verify("{MD5}X03MO1qnZdYdgyfeuILPmQ==", "password"));
        assert!(is_plain("secret") && !is_plain("{SSHA}abc"));
    }

    #[test]
    fn the_dummy_hash_is_well_formed_so_it_costs_a_real_verification() {
        assert!(PasswordHash::new(DUMMY_HASH.trim_start_matches("{ARGON2}")).is_ok());
        assert!(!verify_dummy("anything"));
    }
}
