//! Where the signing keys come from: PEM files named in `[oidc]`, or, when none is named, keys
//! generated and kept in the store (`generated_keys`) so that every node signs with the same key.
//!
//! Stored keys are read again every `RELOAD_SECS`, so a rotation made by any node reaches every
//! node. The first key is created with the store's atomic set-if-absent, and a rotation with its
//! compare-and-set: nodes starting or rotating together agree on one list.

use super::generated_keys::{StoredKeys, Vault, RELOAD_SECS};
use super::signing_key::{public_jwk, Jwk, KeyError, SigningKey};
use crate::clock::UnixTime;
use crate::config::{OidcSettings, StoreBackend};
use crate::store::KeyStore;
use std::path::Path;
use std::sync::Arc;
use tokio::sync::Mutex;

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

/// A key set read from the store, and when.
struct Cached {
    set: Arc<KeySet>,
    read_at: UnixTime,
}

/// The service's keys: from files at start-up, or from the store.
pub struct Keys {
    settings: OidcSettings,
    previous: Vec<Jwk>,
    source: Source,
}

/// Where the signing key comes from.
enum Source {
    /// `oidc.signing_key_file`, read at start-up.
    File(Arc<KeySet>),
    /// Generated and kept in the store, opened by the vault.
    Store {
        vault: Vault,
        /// An async lock: one request reads (or generates) the keys while the others wait.
        cached: Mutex<Option<Cached>>,
    },
}

impl Keys {
    /// Reads the key files named in `settings` now, so a bad file stops start-up. Without a
    /// signing key file, keys are read (or generated) from the store on first use: sealed with
    /// `oidc.key_encryption_secret`, or in clear on the memory store only (it never leaves the
    /// process). Redis with neither the file nor the secret is refused.
    pub fn new(settings: &OidcSettings, store: StoreBackend) -> Result<Self, KeyError> {
        let previous = previous_keys(settings)?;
        let source = match (&settings.signing_key_file, &settings.key_encryption_secret) {
            (Some(path), _) => {
                let signer = SigningKey::from_pem(&read("oidc.signing_key_file", path)?)
                    .map_err(|reason| file_error("oidc.signing_key_file", path, reason))?;
                Source::File(Arc::new(key_set(signer, Vec::new(), &previous)))
            }
            (None, Some(secret)) => Source::stored(Vault::sealing(secret.clone())),
            (None, None) if store == StoreBackend::Memory => Source::stored(Vault::in_clear()),
            (None, None) => {
                return Err(KeyError::Unusable(
                    "the redis store keeps a generated signing key only encrypted: set oidc.key_encryption_secret or oidc.signing_key_file".into(),
                ))
            }
        };
        Ok(Self {
            settings: settings.clone(),
            previous,
            source,
        })
    }

    /// The key set at `now`.
    pub async fn get(&self, store: &dyn KeyStore, now: UnixTime) -> Result<Arc<KeySet>, KeyError> {
        let (vault, cached) = match &self.source {
            Source::File(set) => return Ok(Arc::clone(set)),
            Source::Store { vault, cached } => (vault, cached),
        };
        let mut cached = cached.lock().await;
        if let Some(c) = cached.as_ref().filter(|c| now < c.read_at + RELOAD_SECS) {
            return Ok(Arc::clone(&c.set));
        }
        let set = Arc::new(self.load(store, vault, now).await?);
        *cached = Some(Cached {
            set: Arc::clone(&set),
            read_at: now,
        });
        Ok(set)
    }

    /// Reads the stored keys, creating the first one, sealing any held in clear, and rotating
    /// when due.
    async fn load(
        &self,
        store: &dyn KeyStore,
        vault: &Vault,
        now: UnixTime,
    ) -> Result<KeySet, KeyError> {
        let json = self.read_or_create(store, vault, now).await?;
        let (json, mut keys) = seal_in_clear(store, vault, json).await?;
        let rotate_after = self.settings.rotate_after.as_secs();
        if keys.rotation_due(rotate_after, now) {
            keys = self.rotate(store, vault, &json, keys, now).await?;
        }
        let live = keys.live(vault, now)?;
        // The newest key that has started signing; a brand-new key waits until every node
        // publishes it.
        let signer_at = live.iter().rposition(|k| k.active_from <= now).unwrap_or(0);
        let mut others = Vec::new();
        let mut signer = None;
        for (i, opened) in live.into_iter().enumerate().rev() {
            if i == signer_at {
                signer = Some(opened.key);
            } else {
                others.push(opened.key.jwk);
            }
        }
        let signer = signer.ok_or_else(|| KeyError::Unusable("no stored key is live".into()))?;
        Ok(key_set(signer, others, &self.previous))
    }

    /// The stored key list (JSON), generating and storing the first key when there is none.
    async fn read_or_create(
        &self,
        store: &dyn KeyStore,
        vault: &Vault,
        now: UnixTime,
    ) -> Result<String, KeyError> {
        if let Some(json) = store.signing_keys().await? {
            return Ok(json);
        }
        let alg = self.settings.signing_alg;
        let first = StoredKeys {
            keys: vec![vault.generate(alg, now).await?],
        };
        let json = first.encode()?;
        let kept = store.signing_keys_or_insert(&json).await?;
        if kept == json {
            tracing::info!(target: "audit", event = "signing_key_generated", %alg, encrypted = vault.encrypts(), "generated the id_token signing key and stored it");
        }
        Ok(kept)
    }

    async fn rotate(
        &self,
        store: &dyn KeyStore,
        vault: &Vault,
        json: &str,
        keys: StoredKeys,
        now: UnixTime,
    ) -> Result<StoredKeys, KeyError> {
        let next = vault.generate(self.settings.signing_alg, now).await?;
        let rotated = keys.rotated(next, self.settings.id_token_ttl.as_secs(), now);
        if store.replace_signing_keys(json, &rotated.encode()?).await? {
            tracing::info!(target: "audit", event = "signing_key_rotated", "generated a new id_token signing key; the old one stays published until its tokens expire");
            return Ok(rotated);
        }
        // Another node rotated first: use its list.
        Ok(read_again(store).await?.1)
    }
}

impl Source {
    fn stored(vault: Vault) -> Self {
        Source::Store {
            vault,
            cached: Mutex::new(None),
        }
    }
}

/// The stored list decoded, after sealing any key it holds in clear when the vault seals (a
/// key stored by an earlier version, or before the secret was set): compare-and-set, so of
/// several nodes one writes and the others read what it wrote.
async fn seal_in_clear(
    store: &dyn KeyStore,
    vault: &Vault,
    json: String,
) -> Result<(String, StoredKeys), KeyError> {
    let keys = StoredKeys::decode(&json)?;
    let Some(sealed) = keys.sealed(vault)? else {
        return Ok((json, keys));
    };
    let sealed_json = sealed.encode()?;
    if store.replace_signing_keys(&json, &sealed_json).await? {
        tracing::info!(target: "audit", event = "signing_key_sealed", "encrypted the stored id_token signing keys that were kept in clear");
        return Ok((sealed_json, sealed));
    }
    read_again(store).await
}

/// The stored list (JSON and decoded) as another node left it.
async fn read_again(store: &dyn KeyStore) -> Result<(String, StoredKeys), KeyError> {
    let latest = store.signing_keys().await?;
    let latest = latest.ok_or_else(|| KeyError::Unusable("stored keys vanished".into()))?;
    let keys = StoredKeys::decode(&latest)?;
    Ok((latest, keys))
}

fn key_set(signer: SigningKey, mut others: Vec<Jwk>, previous: &[Jwk]) -> KeySet {
    let mut published = vec![signer.jwk.clone()];
    others.extend(previous.iter().cloned());
    for jwk in others {
        if !published.iter().any(|k| k.kid == jwk.kid) {
            published.push(jwk);
        }
    }
    KeySet { signer, published }
}

fn previous_keys(settings: &OidcSettings) -> Result<Vec<Jwk>, KeyError> {
    let key = "oidc.previous_key_files";
    settings
        .previous_key_files
        .iter()
        .map(|path| {
            public_jwk(&read(key, path)?)
                .ok_or_else(|| file_error(key, path, "not a PEM RSA or P-256 key".into()))
        })
        .collect()
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
