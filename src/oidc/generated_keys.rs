//! Generated signing keys as the store keeps them, and their rotation.
//!
//! The store holds one JSON list of keys, of every algorithm, oldest first. Each key has a time
//! from which it signs (`active_from`) and, once replaced, a time after which it is no longer
//! published (`retire_at`). Each algorithm rotates on its own: a rotation adds a key of that
//! algorithm that starts signing only after every node has reloaded the list (so every node's
//! JWKS already shows it), and keeps the key it replaces published until the last id_token it
//! can have signed has expired.
//!
//! With `oidc.key_encryption_secret` set, private keys are encrypted (ChaCha20-Poly1305 under a
//! key derived from the secret): a copy of the store alone cannot sign tokens. Only the memory
//! store, which never leaves the process, may keep them in clear; a key found in clear under a
//! sealing vault is sealed when the list is next read (`StoredKeys::sealed`).

use super::signing_key::{KeyError, SigningKey};
use crate::clock::UnixTime;
use crate::domain::SigningAlg;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chacha20poly1305::aead::{Aead, AeadCore, KeyInit, OsRng};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

/// How long a node keeps the key list before reading it again; also how long a new key waits
/// before it signs.
pub const RELOAD_SECS: u64 = 60;

/// The stored key list.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredKeys {
    /// Oldest first.
    pub keys: Vec<StoredKey>,
}

/// One generated key. Its `Debug` leaves the private key out.
#[derive(Clone, Serialize, Deserialize)]
pub struct StoredKey {
    alg: SigningAlg,
    /// PKCS#8 PEM, when not encrypted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pem: Option<String>,
    /// The PEM sealed under the key encryption secret.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sealed: Option<String>,
    created_at: UnixTime,
    active_from: UnixTime,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    retire_at: Option<UnixTime>,
}

impl std::fmt::Debug for StoredKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredKey")
            .field("alg", &self.alg)
            .field("private_key", &"[redacted]")
            .field("encrypted", &self.sealed.is_some())
            .field("created_at", &self.created_at)
            .field("active_from", &self.active_from)
            .field("retire_at", &self.retire_at)
            .finish()
    }
}

/// A stored key, opened.
pub struct OpenedKey {
    /// The private key.
    pub key: SigningKey,
    /// From when it signs.
    pub active_from: UnixTime,
}

impl StoredKeys {
    /// Reads the stored JSON.
    pub fn decode(json: &str) -> Result<Self, KeyError> {
        serde_json::from_str(json).map_err(|e| KeyError::Unusable(format!("stored keys: {e}")))
    }

    /// The JSON to store.
    pub fn encode(&self) -> Result<String, KeyError> {
        serde_json::to_string(self).map_err(|e| KeyError::Unusable(e.to_string()))
    }

    /// The first of `algs` that no key still published at `now` is for.
    pub fn missing(&self, algs: &[SigningAlg], now: UnixTime) -> Option<SigningAlg> {
        algs.iter()
            .copied()
            .find(|alg| !self.keys.iter().any(|k| k.alg == *alg && k.live_at(now)))
    }

    /// The list with `key`, of an algorithm it had no key of, put first. First, not last: a
    /// node of an earlier version, which knew one algorithm, signs with the list's newest key,
    /// so during an upgrade it keeps signing with the algorithm it did.
    pub fn with_first(&self, key: StoredKey) -> Self {
        let mut keys = vec![key];
        keys.extend(self.keys.iter().cloned());
        Self { keys }
    }

    /// Whether the newest key of `alg` is older than `rotate_after` seconds (0: never rotate).
    pub fn rotation_due(&self, alg: SigningAlg, rotate_after: u64, now: UnixTime) -> bool {
        let newest = self
            .keys
            .iter()
            .filter(|k| k.alg == alg)
            .map(|k| k.created_at)
            .max();
        rotate_after > 0 && newest.is_some_and(|n| now >= n.saturating_add(rotate_after))
    }

    /// The list after adding `next`: it signs from `now + RELOAD_SECS`; the keys of its
    /// algorithm that it replaces stay published until an id_token they may still sign has
    /// expired, and keys already past their retirement are dropped.
    pub fn rotated(&self, mut next: StoredKey, id_token_ttl: u64, now: UnixTime) -> Self {
        next.active_from = now + RELOAD_SECS;
        // A node that read the list just before this rotation signs with the old key for up
        // to RELOAD_SECS after `active_from`.
        let retire_at = next.active_from + RELOAD_SECS + id_token_ttl;
        let mut keys: Vec<StoredKey> = self
            .keys
            .iter()
            .filter(|k| k.live_at(now))
            .cloned()
            .map(|mut k| {
                if k.alg == next.alg {
                    k.retire_at = Some(k.retire_at.unwrap_or(retire_at).min(retire_at));
                }
                k
            })
            .collect();
        keys.push(next);
        Self { keys }
    }

    /// The list with every key held in clear sealed by `vault`, or `None` when there is none
    /// to seal (or the vault keeps keys in clear): how a key stored in clear by an earlier
    /// version, or before the secret was set, stops being readable from the store.
    pub fn sealed(&self, vault: &Vault) -> Result<Option<Self>, KeyError> {
        let Some(secret) = &vault.encryption else {
            return Ok(None);
        };
        if self.keys.iter().all(|k| k.pem.is_none()) {
            return Ok(None);
        }
        let keys = self
            .keys
            .iter()
            .map(|k| {
                let mut k = k.clone();
                if let Some(pem) = k.pem.take() {
                    k.sealed = Some(seal(secret, &pem)?);
                }
                Ok(k)
            })
            .collect::<Result<_, KeyError>>()?;
        Ok(Some(Self { keys }))
    }

    /// The keys still published at `now`, opened, oldest first.
    pub fn live(&self, vault: &Vault, now: UnixTime) -> Result<Vec<OpenedKey>, KeyError> {
        self.keys
            .iter()
            .filter(|k| k.live_at(now))
            .map(|k| {
                Ok(OpenedKey {
                    key: vault.open(k)?,
                    active_from: k.active_from,
                })
            })
            .collect()
    }
}

impl StoredKey {
    /// Whether it is still published at `now`.
    fn live_at(&self, now: UnixTime) -> bool {
        self.retire_at.is_none_or(|r| r > now)
    }
}

/// Generates, seals and opens stored keys.
pub struct Vault {
    encryption: Option<SecretString>,
}

impl Vault {
    /// A vault sealing every key it generates with `secret` (`oidc.key_encryption_secret`).
    pub fn sealing(secret: SecretString) -> Self {
        Self {
            encryption: Some(secret),
        }
    }

    /// A vault keeping keys in clear: for the memory store only, whose keys never leave the
    /// process.
    pub fn in_clear() -> Self {
        Self { encryption: None }
    }

    /// Whether stored keys are encrypted.
    pub fn encrypts(&self) -> bool {
        self.encryption.is_some()
    }

    /// A new key for `alg`, generated off the async workers (RSA generation is slow), active
    /// from `now`.
    pub async fn generate(&self, alg: SigningAlg, now: UnixTime) -> Result<StoredKey, KeyError> {
        let pem = tokio::task::spawn_blocking(move || SigningKey::generate(alg))
            .await
            .map_err(|e| KeyError::Unusable(e.to_string()))?
            .map_err(KeyError::Unusable)?;
        let (pem, sealed) = match &self.encryption {
            Some(secret) => (None, Some(seal(secret, &pem)?)),
            None => (Some(pem), None),
        };
        Ok(StoredKey {
            alg,
            pem,
            sealed,
            created_at: now,
            active_from: now,
            retire_at: None,
        })
    }

    fn open(&self, key: &StoredKey) -> Result<SigningKey, KeyError> {
        let pem = match (&key.pem, &key.sealed, &self.encryption) {
            (Some(pem), _, _) => pem.clone(),
            (None, Some(sealed), Some(secret)) => unseal(secret, sealed)?,
            (None, Some(_), None) => {
                return Err(KeyError::Unusable(
                    "the stored signing key is encrypted: set oidc.key_encryption_secret".into(),
                ))
            }
            (None, None, _) => return Err(KeyError::Unusable("a stored key holds no key".into())),
        };
        SigningKey::from_pem(&pem).map_err(KeyError::Unusable)
    }
}

const CONTEXT: &[u8] = b"sso-bridge signing-key v1\0";

fn cipher(secret: &SecretString) -> ChaCha20Poly1305 {
    let mut hasher = Sha256::new();
    hasher.update(CONTEXT);
    hasher.update(secret.expose_secret().as_bytes());
    ChaCha20Poly1305::new(Key::from_slice(&hasher.finalize()))
}

fn seal(secret: &SecretString, pem: &str) -> Result<String, KeyError> {
    let nonce = ChaCha20Poly1305::generate_nonce(&mut OsRng);
    let body = cipher(secret)
        .encrypt(&nonce, pem.as_bytes())
        .map_err(|_| KeyError::Unusable("cannot encrypt the signing key".into()))?;
    let mut out = nonce.to_vec();
    out.extend(body);
    Ok(URL_SAFE_NO_PAD.encode(out))
}

fn unseal(secret: &SecretString, sealed: &str) -> Result<String, KeyError> {
    let wrong = || {
        KeyError::Unusable(
            "the stored signing key does not open with oidc.key_encryption_secret".into(),
        )
    };
    let raw = URL_SAFE_NO_PAD.decode(sealed).map_err(|_| wrong())?;
    if raw.len() < 12 {
        return Err(wrong());
    }
    let (nonce, body) = raw.split_at(12);
    let plain = cipher(secret)
        .decrypt(Nonce::from_slice(nonce), body)
        .map_err(|_| wrong())?;
    String::from_utf8(plain).map_err(|_| wrong())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_key_opens_only_with_its_secret() {
        let secret = SecretString::from("correct horse");
        let sealed = seal(&secret, "-----BEGIN PRIVATE KEY-----").unwrap();
        assert!(!sealed.contains("PRIVATE"));
        assert_eq!(
            unseal(&secret, &sealed).unwrap(),
            "-----BEGIN PRIVATE KEY-----"
        );
        assert!(unseal(&SecretString::from("wrong"), &sealed).is_err());
    }

    #[test]
    fn keys_held_in_clear_are_sealed_only_by_a_sealing_vault() {
        let clear = StoredKeys {
            keys: vec![key(1000), key(2000)],
        };
        let vault = Vault::sealing(SecretString::from("correct horse"));
        let sealed = clear.sealed(&vault).unwrap().expect("keys to seal");
        let json = sealed.encode().unwrap();
        assert!(
            json.contains("sealed") && !json.contains("\"pem\""),
            "{json}"
        );
        assert_eq!(sealed.keys[1].created_at, 2000);
        assert!(
            sealed.sealed(&vault).unwrap().is_none(),
            "nothing left in clear"
        );
        assert!(clear.sealed(&Vault::in_clear()).unwrap().is_none());
    }

    fn key(created_at: UnixTime) -> StoredKey {
        key_of(SigningAlg::Es256, created_at)
    }

    fn key_of(alg: SigningAlg, created_at: UnixTime) -> StoredKey {
        StoredKey {
            alg,
            pem: Some(String::new()),
            sealed: None,
            created_at,
            active_from: created_at,
            retire_at: None,
        }
    }

    #[test]
    fn a_rotation_delays_the_new_key_and_retires_the_old_after_its_tokens_expire() {
        let keys = StoredKeys {
            keys: vec![key(1000)],
        };
        let es = SigningAlg::Es256;
        assert!(!keys.rotation_due(es, 500, 1499));
        assert!(keys.rotation_due(es, 500, 1500));
        assert!(!keys.rotation_due(es, 0, 1_000_000));
        let rotated = keys.rotated(key(1500), 3600, 1500);
        assert_eq!(rotated.keys[1].active_from, 1500 + RELOAD_SECS);
        assert_eq!(
            rotated.keys[0].retire_at,
            Some(1500 + 2 * RELOAD_SECS + 3600)
        );
        let again = rotated.rotated(key(9000), 3600, 9000);
        assert_eq!(again.keys.len(), 2, "the retired key is dropped");
        assert_eq!(again.keys[0].created_at, 1500);
    }

    #[test]
    fn each_algorithm_has_its_own_keys_and_rotates_on_its_own() {
        let (rs, es) = (SigningAlg::Rs256, SigningAlg::Es256);
        let keys = StoredKeys {
            keys: vec![key_of(rs, 1000)],
        };
        assert_eq!(keys.missing(&[rs, es], 1000), Some(es));
        let keys = keys.with_first(key_of(es, 2000));
        assert_eq!(keys.missing(&[rs, es], 2000), None);
        assert_eq!(keys.keys[0].alg, es, "a new algorithm's key goes first");

        assert!(keys.rotation_due(rs, 1500, 2500));
        assert!(!keys.rotation_due(es, 1500, 2500));
        let rotated = keys.rotated(key_of(rs, 2500), 3600, 2500);
        let retiring: Vec<_> = rotated.keys.iter().map(|k| (k.alg, k.retire_at)).collect();
        assert_eq!(
            retiring,
            vec![
                (es, None),
                (rs, Some(2500 + 2 * RELOAD_SECS + 3600)),
                (rs, None)
            ],
            "only the rotated algorithm's key retires"
        );
        let later = 2500 + 2 * RELOAD_SECS + 3600;
        let live: Vec<_> = rotated.keys.iter().filter(|k| k.live_at(later)).collect();
        assert_eq!(live.len(), 2, "the replaced key is no longer published");
        assert_eq!(rotated.missing(&[rs, es], later), None);
    }

    #[test]
    fn a_list_stored_by_an_earlier_version_reads_back() {
        let json = r#"{"keys":[{"alg":"RS256","pem":"x","created_at":5,"active_from":5}]}"#;
        let keys = StoredKeys::decode(json).unwrap();
        assert_eq!(keys.keys[0].alg, SigningAlg::Rs256);
        assert_eq!(
            keys.missing(&[SigningAlg::Rs256, SigningAlg::Es256], 6),
            Some(SigningAlg::Es256)
        );
        assert!(
            StoredKeys::decode(r#"{"keys":[{"alg":"HS256","created_at":5,"active_from":5}]}"#)
                .is_err()
        );
    }
}
