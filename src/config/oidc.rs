//! `[oidc]`: id_token signing keys and lifetimes.

use super::secret::SecretSetting;
use super::{value, ConfigError};
use crate::domain::SigningAlg;
use secrecy::SecretString;
use serde::{Deserialize, Deserializer};
use std::path::PathBuf;
use std::time::Duration;

/// `[oidc]` id_token signing, checked.
#[derive(Debug, Clone)]
pub struct OidcSettings {
    /// PEM private key that signs id_tokens: RSA (2048 bits or more, RS256) or P-256 (ES256),
    /// PKCS#8, PKCS#1 or SEC1. Unset: a key per algorithm is generated once and kept in the
    /// store.
    pub signing_key_file: Option<PathBuf>,
    /// PEM private keys, at most one per algorithm and none of `signing_key_file`'s, signing
    /// the id_tokens of apps registered for their algorithm. Only beside `signing_key_file`.
    pub extra_signing_key_files: Vec<PathBuf>,
    /// The algorithm of apps that name none, with generated keys (with `signing_key_file`,
    /// that key's algorithm is).
    pub signing_alg: SigningAlg,
    /// PEM keys (private or public) of earlier signing keys, still published in the JWKS so
    /// tokens they signed stay verifiable until they expire.
    pub previous_key_files: Vec<PathBuf>,
    /// `oidc.id_token_ttl_secs`: lifetime of an id_token.
    pub id_token_ttl: Duration,
    /// `oidc.rotate_after_days`: age after which a generated key is replaced; zero: never. Key
    /// files are rotated by the operator.
    pub rotate_after: Duration,
    /// `oidc.key_encryption_secret`, or the first line of `oidc.key_encryption_secret_file`:
    /// encrypts a generated key kept in the store.
    pub key_encryption_secret: Option<SecretString>,
}

/// `[oidc]` as the layers give it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct OidcKeys {
    signing_key_file: Option<PathBuf>,
    #[serde(deserialize_with = "value::path_list")]
    extra_signing_key_files: Vec<PathBuf>,
    #[serde(deserialize_with = "signing_alg")]
    signing_alg: SigningAlg,
    #[serde(deserialize_with = "value::path_list")]
    previous_key_files: Vec<PathBuf>,
    #[serde(deserialize_with = "value::positive_secs")]
    id_token_ttl_secs: Duration,
    #[serde(deserialize_with = "value::days")]
    rotate_after_days: Duration,
    key_encryption_secret: Option<SecretString>,
    key_encryption_secret_file: Option<PathBuf>,
}

fn signing_alg<'de, D: Deserializer<'de>>(de: D) -> Result<SigningAlg, D::Error> {
    value::choice(de, &SigningAlg::NAMES)
}

impl OidcKeys {
    /// Reads the key encryption secret; refuses extra key files without a signing key file
    /// (generated keys already cover every algorithm, so they would be silently unused).
    pub(super) fn check(self) -> Result<OidcSettings, ConfigError> {
        if self.signing_key_file.is_none() && !self.extra_signing_key_files.is_empty() {
            return Err(ConfigError::key(
                "oidc.extra_signing_key_files",
                "needs oidc.signing_key_file: without it keys are generated for every algorithm",
            ));
        }
        let key_encryption_secret = SecretSetting {
            value: self.key_encryption_secret,
            file: self.key_encryption_secret_file,
        }
        .resolve("oidc.key_encryption_secret")?;
        Ok(OidcSettings {
            signing_key_file: self.signing_key_file,
            extra_signing_key_files: self.extra_signing_key_files,
            signing_alg: self.signing_alg,
            previous_key_files: self.previous_key_files,
            id_token_ttl: self.id_token_ttl_secs,
            rotate_after: self.rotate_after_days,
            key_encryption_secret,
        })
    }
}
