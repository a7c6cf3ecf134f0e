//! Recovery codes: ten single-use codes shown once at enrolment, kept only as digests.

use super::MfaKey;
use crate::domain::Digest;
use rand::Rng;

/// How many codes an enrolment gets.
pub const COUNT: usize = 10;
/// Letters and digits that cannot be mistaken for one another (no 0/O, 1/l/I).
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
/// Characters per code (about 59 bits), shown as two groups of five.
const LENGTH: usize = 12;

/// A fresh set of codes, formatted for display (`xxxxxx-xxxxxx`).
pub fn generate() -> Vec<String> {
    let mut rng = rand::thread_rng();
    (0..COUNT)
        .map(|_| {
            let raw: String = (0..LENGTH)
                .map(|_| char::from(ALPHABET[rng.gen_range(0..ALPHABET.len())]))
                .collect();
            format!("{}-{}", &raw[..LENGTH / 2], &raw[LENGTH / 2..])
        })
        .collect()
}

/// The code as typed, reduced to what is compared: lowercase, without spaces or dashes.
/// `None` when it cannot be a recovery code.
pub fn normalize(typed: &str) -> Option<String> {
    let code: String = typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    (code.len() == LENGTH && code.bytes().all(|b| ALPHABET.contains(&b))).then_some(code)
}

/// The digest a code of `sub` is stored and spent by (keyed by `mfa.encryption_key`).
pub fn digest(key: &MfaKey, sub: &str, typed: &str) -> Option<Digest> {
    normalize(typed).map(|code| key.recovery_digest(sub, &code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_survive_retyping() {
        let key = MfaKey::random().unwrap();
        let codes = generate();
        assert_eq!(codes.len(), COUNT);
        let digests: std::collections::HashSet<_> = codes
            .iter()
            .map(|c| digest(&key, "ada", c).unwrap())
            .collect();
        assert_eq!(digests.len(), COUNT);
        let retyped = codes[0].to_uppercase().replace('-', " ");
        assert_eq!(
            digest(&key, "ada", &retyped),
            digest(&key, "ada", &codes[0])
        );
        assert!(digest(&key, "ada", "123456").is_none());
    }

    #[test]
    fn digests_depend_on_the_key_and_the_user() {
        let (key, other) = (MfaKey::random().unwrap(), MfaKey::random().unwrap());
        let code = &generate()[0];
        let mine = digest(&key, "ada", code);
        assert_ne!(mine, digest(&other, "ada", code));
        assert_ne!(mine, digest(&key, "grace", code));
    }
}
