//! Where the signing keys come from: PEM files named in `[oidc]`, or, when none is named, keys
//! generated and kept in the store (`generated_keys`) so that every node signs with the same keys.
//!
//! The service holds one signing key for each algorithm an app may ask for: with key files, the
//! algorithm of `oidc.signing_key_file` (the default) and those of `oidc.extra_signing_key_files`;
//! with generated keys, every algorithm, `oidc.signing_alg` the default.
//!
//! Stored keys are read again every `RELOAD_SECS`, so a rotation made by any node reaches every
//! node. The first key is created with the store's atomic set-if-absent, and every later change
//! (a key for an algorithm the list lacks, a rotation, sealing) with its compare-and-set: nodes
//! starting or rotating together agree on one list. Every algorithm's key is in that list from
//! the first read on, so a key is never first published by the node that first signs with it.

use super::generated_keys::{StoredKeys, Vault, RELOAD_SECS};
use super::signing_key::{public_jwk, Jwk, KeyError, SigningKey};
use crate::clock::UnixTime;
use crate::config::{OidcSettings, StoreBackend};
use crate::domain::SigningAlg;
use crate::store::KeyStore;
use std::path::Path;
use std::sync::Arc;
use tokio::sync::Mutex;

/// Compare-and-set rounds one read may take. Each round either changes the list or finds
/// another node changed it first, and a list needs at most a handful of changes (seal, one key
/// per algorithm, one rotation per algorithm): running out means something keeps rewriting it.
const MAX_ROUNDS: usize = 16;

/// The signing keys, one per algorithm, and every public key to publish (the signing keys'
/// first).
pub struct KeySet {
    /// The default algorithm's key first.
    signers: Vec<SigningKey>,
    published: Vec<Jwk>,
}

impl KeySet {
    /// The key that signs for an app asking for `alg`; `None`: the service's default.
    pub fn signer(&self, alg: Option<SigningAlg>) -> Result<&SigningKey, KeyError> {
        let found = match alg {
            None => self.signers.first(),
            Some(alg) => self.signers.iter().find(|k| k.algorithm() == alg),
        };
        found.ok_or_else(|| match alg {
            Some(alg) => KeyError::NoKeyFor(alg),
            None => KeyError::Unusable("no signing key".into()),
        })
    }

    /// The algorithms it signs with, the default first.
    pub fn algorithms(&self) -> Vec<SigningAlg> {
        self.signers.iter().map(SigningKey::algorithm).collect()
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
    /// The algorithms it signs with, the default first.
    algorithms: Vec<SigningAlg>,
    source: Source,
}

/// Where the signing keys come from.
enum Source {
    /// `oidc.signing_key_file` and `oidc.extra_signing_key_files`, read at start-up.
    File(Arc<KeySet>),
    /// Generated and kept in the store, opened by the vault.
    Store {
        vault: Vault,
        /// An async lock: one request reads (or generates) the keys while the others wait.
        cached: Mutex<Option<Cached>>,
    },
}

/// What one compare-and-set round does to the stored list.
enum Change {
    /// Keys held in clear are sealed.
    Sealed,
    /// A key is added for an algorithm the list has none of.
    Added(SigningAlg),
    /// An algorithm's key is due for replacement.
    Rotated(SigningAlg),
}

impl Keys {
    /// Reads the key files named in `settings` now, so a bad file stops start-up. Without a
    /// signing key file, keys are read (or generated) from the store on first use: sealed with
    /// `oidc.key_encryption_secret`, or in clear on the memory store only (it never leaves the
    /// process). Redis with neither the file nor the secret is refused.
    pub fn new(settings: &OidcSettings, store: StoreBackend) -> Result<Self, KeyError> {
        let previous = previous_keys(settings)?;
        let (source, algorithms) = match (
            &settings.signing_key_file,
            &settings.key_encryption_secret,
        ) {
            (Some(path), _) => {
                let set = file_keys(path, &settings.extra_signing_key_files, &previous)?;
                let algorithms = set.algorithms();
                (Source::File(Arc::new(set)), algorithms)
            }
            (None, secret) => {
                let vault = match (secret, store) {
                        (Some(secret), _) => Vault::sealing(secret.clone()),
                        (None, StoreBackend::Memory) => Vault::in_clear(),
                        (None, _) => return Err(KeyError::Unusable(
                            "the redis store keeps a generated signing key only encrypted: set oidc.key_encryption_secret or oidc.signing_key_file".into(),
                        )),
                    };
                let default = settings.signing_alg;
                let mut algorithms = vec![default];
                algorithms.extend(SigningAlg::ALL.into_iter().filter(|a| *a != default));
                (Source::stored(vault), algorithms)
            }
        };
        Ok(Self {
            settings: settings.clone(),
            previous,
            algorithms,
            source,
        })
    }

    /// The algorithms id_tokens can be signed with, the service's default first.
    pub fn algorithms(&self) -> &[SigningAlg] {
        &self.algorithms
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

    /// Reads the stored keys, creating the first one, then sealing any held in clear, adding a
    /// key for each algorithm without one and rotating those due, one compare-and-set at a
    /// time; a node that loses a race reads the winner's list and looks again.
    async fn load(
        &self,
        store: &dyn KeyStore,
        vault: &Vault,
        now: UnixTime,
    ) -> Result<KeySet, KeyError> {
        let mut json = self.read_or_create(store, vault, now).await?;
        for _ in 0..MAX_ROUNDS {
            let keys = StoredKeys::decode(&json)?;
            let Some((change, changed)) = self.change_due(vault, &keys, now).await? else {
                return self.stored_key_set(&keys, vault, now);
            };
            let changed_json = changed.encode()?;
            if store.replace_signing_keys(&json, &changed_json).await? {
                announce(&change, vault);
                json = changed_json;
            } else {
                json = read_again(store).await?;
            }
        }
        Err(KeyError::Unusable(
            "the stored signing keys kept changing while this node read them".into(),
        ))
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
            announce(&Change::Added(alg), vault);
        }
        Ok(kept)
    }

    /// The next change the stored list needs, and the list after it; `None` when it needs none.
    async fn change_due(
        &self,
        vault: &Vault,
        keys: &StoredKeys,
        now: UnixTime,
    ) -> Result<Option<(Change, StoredKeys)>, KeyError> {
        if let Some(sealed) = keys.sealed(vault)? {
            return Ok(Some((Change::Sealed, sealed)));
        }
        // Active at once: no node has signed with this algorithm yet, and every node of this
        // version fills the list before it serves from it, so each one publishes this key.
        if let Some(alg) = keys.missing(&self.algorithms, now) {
            let key = vault.generate(alg, now).await?;
            return Ok(Some((Change::Added(alg), keys.with_first(key))));
        }
        let rotate_after = self.settings.rotate_after.as_secs();
        let mut algorithms = self.algorithms.iter().copied();
        if let Some(alg) = algorithms.find(|a| keys.rotation_due(*a, rotate_after, now)) {
            let next = vault.generate(alg, now).await?;
            let ttl = self.settings.id_token_ttl.as_secs();
            return Ok(Some((Change::Rotated(alg), keys.rotated(next, ttl, now))));
        }
        Ok(None)
    }

    /// The live stored keys as a key set: for each algorithm, its newest key that has started
    /// signing signs (a brand-new key waits until every node publishes it).
    fn stored_key_set(
        &self,
        keys: &StoredKeys,
        vault: &Vault,
        now: UnixTime,
    ) -> Result<KeySet, KeyError> {
        let live = keys.live(vault, now)?;
        let chosen: Vec<Option<usize>> = self
            .algorithms
            .iter()
            .map(|alg| {
                let of_alg = || (0..live.len()).filter(|i| live[*i].key.algorithm() == *alg);
                of_alg()
                    .rev()
                    .find(|i| live[*i].active_from <= now)
                    .or_else(|| of_alg().next())
            })
            .collect();
        let mut signers: Vec<Option<SigningKey>> = self.algorithms.iter().map(|_| None).collect();
        let mut others = Vec::new();
        for (i, opened) in live.into_iter().enumerate().rev() {
            match chosen.iter().position(|c| *c == Some(i)) {
                Some(slot) => signers[slot] = Some(opened.key),
                None => others.push(opened.key.jwk),
            }
        }
        let signers = signers
            .into_iter()
            .zip(&self.algorithms)
            .map(|(key, alg)| {
                key.ok_or_else(|| KeyError::Unusable(format!("no stored {alg} key is live")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(key_set(signers, others, &self.previous))
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

/// Writes the audit log line of a change this node made.
fn announce(change: &Change, vault: &Vault) {
    match change {
        Change::Sealed => {
            tracing::info!(target: "audit", event = "signing_key_sealed", "encrypted the stored id_token signing keys that were kept in clear")
        }
        Change::Added(alg) => {
            tracing::info!(target: "audit", event = "signing_key_generated", %alg, encrypted = vault.encrypts(), "generated an id_token signing key and stored it")
        }
        Change::Rotated(alg) => {
            tracing::info!(target: "audit", event = "signing_key_rotated", %alg, "generated a new id_token signing key; the old one stays published until its tokens expire")
        }
    }
}

/// The stored list (JSON) as another node left it.
async fn read_again(store: &dyn KeyStore) -> Result<String, KeyError> {
    let latest = store.signing_keys().await?;
    latest.ok_or_else(|| KeyError::Unusable("stored keys vanished".into()))
}

/// The keys of `oidc.signing_key_file` and `oidc.extra_signing_key_files`: one per algorithm.
fn file_keys(
    path: &Path,
    extra: &[std::path::PathBuf],
    previous: &[Jwk],
) -> Result<KeySet, KeyError> {
    let mut signers = vec![signing_key_file("oidc.signing_key_file", path)?];
    let key = "oidc.extra_signing_key_files";
    for path in extra {
        let signer = signing_key_file(key, path)?;
        let alg = signer.algorithm();
        if signers.iter().any(|k| k.algorithm() == alg) {
            let reason = format!("a second {alg} key: name at most one key per algorithm, none of oidc.signing_key_file's");
            return Err(file_error(key, path, reason));
        }
        signers.push(signer);
    }
    Ok(key_set(signers, Vec::new(), previous))
}

fn signing_key_file(key: &'static str, path: &Path) -> Result<SigningKey, KeyError> {
    SigningKey::from_pem(&read(key, path)?).map_err(|reason| file_error(key, path, reason))
}

fn key_set(signers: Vec<SigningKey>, mut others: Vec<Jwk>, previous: &[Jwk]) -> KeySet {
    let mut published: Vec<Jwk> = signers.iter().map(|s| s.jwk.clone()).collect();
    others.extend(previous.iter().cloned());
    for jwk in others {
        if !published.iter().any(|k| k.kid == jwk.kid) {
            published.push(jwk);
        }
    }
    KeySet { signers, published }
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
