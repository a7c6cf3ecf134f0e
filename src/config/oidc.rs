//! `[oidc]`: id_token signing keys and lifetimes.

use super::value;
use secrecy::SecretString;
use serde::Deserialize;
use std::path::PathBuf;
use std::time::Duration;

/// The algorithm of a generated signing key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SigningAlg {
    /// RSA PKCS#1 v1.5 with SHA-256 (a 2048-bit key).
    Rs256,
    /// ECDSA on P-256 with SHA-256.
    Es256,
}

impl SigningAlg {
    /// Each algorithm by its JWS name (RFC 7518 §3.1), the name the setting takes.
    const NAMES: [(&'static str, Self); 2] = [("RS256", Self::Rs256), ("ES256", Self::Es256)];

    /// The JWS name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Rs256 => "RS256",
            Self::Es256 => "ES256",
        }
    }
}

impl<'de> Deserialize<'de> for SigningAlg {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        value::choice(de, &Self::NAMES)
    }
}

impl std::fmt::Display for SigningAlg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `[oidc]` id_token signing.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OidcSettings {
    /// PEM private key that signs id_tokens: RSA (2048 bits or more, RS256) or P-256 (ES256),
    /// PKCS#8, PKCS#1 or SEC1. Unset: a key is generated once and kept in the store.
    pub signing_key_file: Option<PathBuf>,
    /// Algorithm of a generated key.
    pub signing_alg: SigningAlg,
    /// PEM keys (private or public) of earlier signing keys, still published in the JWKS so
    /// tokens they signed stay verifiable until they expire. In the environment: a
    /// comma-separated list.
    #[serde(deserialize_with = "path_list")]
    pub previous_key_files: Vec<PathBuf>,
    /// `oidc.id_token_ttl_secs`: lifetime of an id_token.
    #[serde(
        rename = "id_token_ttl_secs",
        deserialize_with = "value::positive_secs"
    )]
    pub id_token_ttl: Duration,
    /// `oidc.rotate_after_days`: age after which a generated key is replaced; zero: never. Key
    /// files are rotated by the operator.
    #[serde(rename = "rotate_after_days", deserialize_with = "value::days")]
    pub rotate_after: Duration,
    /// Encrypts a generated key kept in the store (or `key_encryption_secret_file`).
    pub key_encryption_secret: Option<SecretString>,
    /// File holding `key_encryption_secret` (first line).
    pub key_encryption_secret_file: Option<PathBuf>,
}

/// A list of paths, as a TOML array or a comma-separated string (environment variables).
fn path_list<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Vec<PathBuf>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Paths {
        List(Vec<PathBuf>),
        Joined(String),
    }
    Ok(match Paths::deserialize(de)? {
        Paths::List(paths) => paths,
        Paths::Joined(joined) => joined
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(PathBuf::from)
            .collect(),
    })
}
