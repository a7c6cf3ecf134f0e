//! Where the signing keys come from: PEM files named in `[oidc]`, or, when none is named, a key
//! generated once and kept in the store so that every node signs with the same key.
//!
//! Generation is guarded by the store's atomic set-if-absent: of several nodes starting together,
//! all end up with the one key that was stored first. With `oidc.key_encryption_secret` set, the
//! stored private key is encrypted (ChaCha20-Poly1305 under a key derived from the secret), so a
//! copy of the store alone cannot sign tokens.

use super::keys::{public_jwk, Jwk, KeyError, SigningKey};
use crate::config::OidcSettings;
use crate::store::Store;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chacha20poly1305::aead::{Aead, AeadCore, KeyInit, OsRng};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};
use std::path::Path;
use std::sync::Arc;
use tokio::sync::OnceCell;

/// The signing key and every public key to publish (the signing key's first).
pub struct KeySet {
    signer: SigningKey,
    published: Vec<Jwk>,
}

impl KeySet {
    /// The key that signs.
    pub fn signer(&self) -> &SigningKey {
        &self.signer
    }

    /// Every published public key.
    pub fn published(&self) -> &[Jwk] {
        &self.published
    }

    /// The published key with this `kid`.
    pub fn find(&self, kid: &str) -> Option<&Jwk> {
        self.published.iter().find(|k| k.kid == kid)
    }
}

/// A generated key as the store keeps it: the PKCS#8 PEM, in clear or sealed.
#[derive(Serialize, Deserialize)]
struct StoredKey {
    alg: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pem: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sealed: Option<String>,
}

/// The service's keys: from files at start-up, or from the store on first use.
pub struct Keys {
    settings: OidcSettings,
    encryption: Option<SecretString>,
    loaded: OnceCell<Arc<KeySet>>,
}

impl Keys {
    /// Reads the key files named in `settings` now, so a bad file stops start-up. Without a
    /// signing key file the key is read (or generated) from the store on first use.
    pub fn new(settings: &OidcSettings) -> Result<Self, KeyError> {
        let loaded = OnceCell::new();
        if let Some(path) = &settings.signing_key_file {
            let signer = SigningKey::from_pem(&read("oidc.signing_key_file", path)?)
                .map_err(|reason| file_error("oidc.signing_key_file", path, reason))?;
            let _ = loaded.set(Arc::new(with_previous(signer, settings)?));
        }
        let encryption = match (
            &settings.key_encryption_secret,
            &settings.key_encryption_secret_file,
        ) {
            (Some(secret), _) => Some(secret.clone()),
            (None, Some(path)) => {
                let key = "oidc.key_encryption_secret_file";
                let text = read(key, path)?;
                let first = text.lines().next().unwrap_or_default().trim().to_owned();
                if first.is_empty() {
                    return Err(file_error(key, path, "the file is empty".into()));
                }
                Some(SecretString::from(first))
            }
            (None, None) => None,
        };
        Ok(Self {
            settings: settings.clone(),
            encryption,
            loaded,
        })
    }

    /// The key set; the first call without key files reads or generates the stored key.
    pub async fn get(&self, store: &dyn Store) -> Result<Arc<KeySet>, KeyError> {
        self.loaded
            .get_or_try_init(|| async {
                let json = match store.signing_keys().await? {
                    Some(json) => json,
                    None => self.generate_and_store(store).await?,
                };
                let signer =
                    SigningKey::from_pem(&self.open(&json)?).map_err(KeyError::Unusable)?;
                Ok(Arc::new(with_previous(signer, &self.settings)?))
            })
            .await
            .cloned()
    }

    /// Generates a key off the async workers and stores it unless another node was first;
    /// answers whichever key the store kept.
    async fn generate_and_store(&self, store: &dyn Store) -> Result<String, KeyError> {
        let alg = self.settings.signing_alg.clone();
        let generated = alg.clone();
        let pem = tokio::task::spawn_blocking(move || SigningKey::generate(&generated))
            .await
            .map_err(|e| KeyError::Unusable(e.to_string()))?
            .map_err(KeyError::Unusable)?;
        let stored = match &self.encryption {
            Some(secret) => StoredKey {
                alg,
                pem: None,
                sealed: Some(seal(secret, &pem)?),
            },
            None => StoredKey {
                alg,
                pem: Some(pem),
                sealed: None,
            },
        };
        let json = serde_json::to_string(&stored).map_err(|e| KeyError::Unusable(e.to_string()))?;
        let kept = store.signing_keys_or_insert(&json).await?;
        if kept == json {
            tracing::info!(alg = %stored.alg, encrypted = self.encryption.is_some(), "generated the id_token signing key and stored it");
        }
        Ok(kept)
    }

    /// The PEM of a stored key, decrypting it when sealed.
    fn open(&self, json: &str) -> Result<String, KeyError> {
        let stored: StoredKey = serde_json::from_str(json)
            .map_err(|e| KeyError::Unusable(format!("stored key: {e}")))?;
        match (stored.pem, stored.sealed, &self.encryption) {
            (Some(pem), _, _) => Ok(pem),
            (None, Some(sealed), Some(secret)) => unseal(secret, &sealed),
            (None, Some(_), None) => Err(KeyError::Unusable(
                "the stored signing key is encrypted: set oidc.key_encryption_secret".into(),
            )),
            (None, None, _) => Err(KeyError::Unusable("stored key holds no key".into())),
        }
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

fn with_previous(signer: SigningKey, settings: &OidcSettings) -> Result<KeySet, KeyError> {
    let mut published = vec![signer.jwk.clone()];
    for path in &settings.previous_key_files {
        let key = "oidc.previous_key_files";
        let jwk = public_jwk(&read(key, path)?)
            .ok_or_else(|| file_error(key, path, "not a PEM RSA or P-256 key".into()))?;
        if !published.iter().any(|k| k.kid == jwk.kid) {
            published.push(jwk);
        }
    }
    Ok(KeySet { signer, published })
}

fn read(key: &'static str, path: &Path) -> Result<String, KeyError> {
    std::fs::read_to_string(path).map_err(|e| file_error(key, path, e.to_string()))
}

fn file_error(key: &'static str, path: &Path, reason: String) -> KeyError {
    KeyError::File {
        key,
        path: path.display().to_string(),
        reason,
    }
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
}
