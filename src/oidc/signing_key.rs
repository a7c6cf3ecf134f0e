//! Id token signing keys: the private key that signs (RS256 or ES256) and the public keys as
//! published in the JWKS, read from PEM or generated. Where they come from is `key_source`'s job.

use crate::domain::SigningAlg;
use crate::store::StoreError;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use jsonwebtoken::{Algorithm, DecodingKey};
use openssl::hash::MessageDigest;
use openssl::pkey::{PKey, Private};
use openssl::sign::Signer;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use ring::rand::SystemRandom;
use ring::signature::{EcdsaKeyPair, ECDSA_P256_SHA256_FIXED_SIGNING};
use rsa::pkcs1::{DecodeRsaPrivateKey, DecodeRsaPublicKey, EncodeRsaPrivateKey};
use rsa::pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey, LineEnding};
use rsa::traits::PublicKeyParts;
use serde::Serialize;
use sha2::{Digest as _, Sha256};

/// Smallest RSA key accepted for RS256 (RFC 7518 §3.3).
const MIN_RSA_BITS: usize = 2048;

/// Why no signing key could be had.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// A configured key file could not be read or used.
    #[error("`{key}` ({path}): {reason}")]
    File {
        key: &'static str,
        path: String,
        reason: String,
    },
    /// A key read back from the store or just generated is unusable.
    #[error("signing key: {0}")]
    Unusable(String),
    /// An app asks for an algorithm no configured key file signs with (an app registered while
    /// keys were generated, the service since moved to key files).
    #[error("no key signs {0} id_tokens: name a {0} key in oidc.extra_signing_key_files, or register the app for another algorithm")]
    NoKeyFor(SigningAlg),
    /// The store could not be read or written.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The signing operation itself failed.
    #[error("id_token signing failed")]
    Sign(#[source] SignError),
}

// The wire type of each key at `jwks_uri`; its doc comments are the published OpenAPI
// document's descriptions.
/// A public key as published at `jwks_uri` (RFC 7517 §4, RFC 7518 §6).
#[derive(Debug, Clone, PartialEq, Eq, poem_openapi::Object)]
#[oai(skip_serializing_if_is_none)]
pub struct Jwk {
    /// `RSA` or `EC`.
    pub kty: String,
    /// Key id: the RFC 7638 thumbprint, also in each id_token's header.
    pub kid: String,
    /// Always `sig`.
    #[oai(rename = "use")]
    pub use_: String,
    /// `RS256` or `ES256`.
    pub alg: String,
    /// RSA modulus (base64url).
    pub n: Option<String>,
    /// RSA public exponent (base64url).
    pub e: Option<String>,
    /// EC curve: `P-256`.
    pub crv: Option<String>,
    /// EC x coordinate (base64url).
    pub x: Option<String>,
    /// EC y coordinate (base64url).
    pub y: Option<String>,
}

impl Jwk {
    fn rsa(key: &rsa::RsaPublicKey) -> Self {
        let n = URL_SAFE_NO_PAD.encode(key.n().to_bytes_be());
        let e = URL_SAFE_NO_PAD.encode(key.e().to_bytes_be());
        // RFC 7638 §3.2: members in lexicographic order, no whitespace.
        let kid = thumbprint(&format!(r#"{{"e":"{e}","kty":"RSA","n":"{n}"}}"#));
        Self::new("RSA", kid, "RS256", (Some(n), Some(e)), (None, None, None))
    }

    fn ec(key: &p256::PublicKey) -> Self {
        let point = key.to_encoded_point(false);
        let coord = |c: Option<&p256::FieldBytes>| {
            URL_SAFE_NO_PAD.encode(c.map(|b| b.as_slice()).unwrap_or_default())
        };
        let (x, y) = (coord(point.x()), coord(point.y()));
        let kid = thumbprint(&format!(
            r#"{{"crv":"P-256","kty":"EC","x":"{x}","y":"{y}"}}"#
        ));
        let curve = (Some("P-256".to_owned()), Some(x), Some(y));
        Self::new("EC", kid, "ES256", (None, None), curve)
    }

    fn new(
        kty: &str,
        kid: String,
        alg: &str,
        (n, e): (Option<String>, Option<String>),
        (crv, x, y): (Option<String>, Option<String>, Option<String>),
    ) -> Self {
        Self {
            kty: kty.into(),
            kid,
            use_: "sig".into(),
            alg: alg.into(),
            n,
            e,
            crv,
            x,
            y,
        }
    }

    /// The key that verifies signatures made with this key's private half.
    pub fn decoding_key(&self) -> Option<(Algorithm, DecodingKey)> {
        match self.kty.as_str() {
            "RSA" => {
                let key = DecodingKey::from_rsa_components(self.n.as_deref()?, self.e.as_deref()?);
                Some((Algorithm::RS256, key.ok()?))
            }
            "EC" => {
                let key = DecodingKey::from_ec_components(self.x.as_deref()?, self.y.as_deref()?);
                Some((Algorithm::ES256, key.ok()?))
            }
            _ => None,
        }
    }
}

fn thumbprint(canonical: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(canonical.as_bytes()))
}

/// The private key that signs id_tokens.
///
/// RSA signatures are made by the system's OpenSSL (blinded; on CPUs with AVX-512 IFMA its
/// RSA-2048 private operation takes about half of `ring`'s), ECDSA signatures by `ring` (constant
/// time): the `rsa` crate only generates and parses keys, so its private-key timing
/// (RUSTSEC-2023-0071) never meets a request.
pub struct SigningKey {
    /// Its public half, as published.
    pub jwk: Jwk,
    key: PrivateKey,
}

enum PrivateKey {
    Rsa(PKey<Private>),
    // Keys are made once and kept behind an Arc: the size difference costs nothing.
    Ec(Box<EcdsaKeyPair>),
}

/// Why a JWS could not be made.
#[derive(Debug, thiserror::Error)]
pub enum SignError {
    #[error("claims do not serialize")]
    Claims(#[from] serde_json::Error),
    #[error("the signing key refused to sign")]
    Refused,
}

impl SigningKey {
    /// Reads a PEM private key: RSA (PKCS#8 or PKCS#1) or P-256 (PKCS#8 or SEC1).
    pub fn from_pem(pem: &str) -> Result<Self, String> {
        if let Some(key) = rsa_private(pem) {
            if key.size() * 8 < MIN_RSA_BITS {
                return Err(format!("RSA keys must have at least {MIN_RSA_BITS} bits"));
            }
            let der = key.to_pkcs1_der().map_err(|e| e.to_string())?;
            let pair = openssl::rsa::Rsa::private_key_from_der(der.as_bytes())
                .and_then(PKey::from_rsa)
                .map_err(|e| e.to_string())?;
            return Ok(Self {
                jwk: Jwk::rsa(&key.to_public_key()),
                key: PrivateKey::Rsa(pair),
            });
        }
        if let Some(key) = ec_private(pem) {
            let der = key.to_pkcs8_der().map_err(|e| e.to_string())?;
            let pair = EcdsaKeyPair::from_pkcs8(
                &ECDSA_P256_SHA256_FIXED_SIGNING,
                der.as_bytes(),
                &SystemRandom::new(),
            )
            .map_err(|e| e.to_string())?;
            return Ok(Self {
                jwk: Jwk::ec(&key.public_key()),
                key: PrivateKey::Ec(Box::new(pair)),
            });
        }
        Err("not a PEM RSA or P-256 private key".into())
    }

    /// Generates a key for `alg` (`RS256`: RSA 2048; `ES256`: P-256); answers its PKCS#8 PEM.
    /// Slow for RSA: call it off the async workers.
    pub fn generate(alg: SigningAlg) -> Result<String, String> {
        let pem = match alg {
            SigningAlg::Es256 => p256::SecretKey::random(&mut rand::rngs::OsRng)
                .to_pkcs8_pem(LineEnding::LF)
                .map_err(|e| e.to_string())?,
            SigningAlg::Rs256 => rsa::RsaPrivateKey::new(&mut rand::rngs::OsRng, MIN_RSA_BITS)
                .map_err(|e| e.to_string())?
                .to_pkcs8_pem(LineEnding::LF)
                .map_err(|e| e.to_string())?,
        };
        Ok(pem.to_string())
    }

    /// The JWS (RFC 7515 §7.1) signing input of `claims`: the header, with this key's `kid`, and the payload,
    /// each base64url-encoded.
    pub fn signing_input<T: Serialize>(&self, claims: &T) -> Result<String, SignError> {
        self.signing_input_of_type(claims, "JWT")
    }

    /// [`SigningKey::signing_input`] with another `typ` in the header (a logout token's is
    /// `logout+jwt`, Back-Channel Logout 1.0 §2.4).
    pub fn signing_input_of_type<T: Serialize>(
        &self,
        claims: &T,
        typ: &str,
    ) -> Result<String, SignError> {
        let header = serde_json::json!({ "typ": typ, "alg": self.jwk.alg, "kid": self.jwk.kid });
        Ok(format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(serde_json::to_vec(&header)?),
            URL_SAFE_NO_PAD.encode(serde_json::to_vec(claims)?)
        ))
    }

    /// Signs a [`SigningKey::signing_input`]: the compact JWS.
    pub fn sign_input(&self, signing_input: String) -> Result<String, SignError> {
        let signature = match &self.key {
            // RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3): the signer's default padding.
            PrivateKey::Rsa(pair) => Signer::new(MessageDigest::sha256(), pair)
                .and_then(|mut signer| signer.sign_oneshot_to_vec(signing_input.as_bytes()))
                .map_err(|_| SignError::Refused)?,
            PrivateKey::Ec(pair) => pair
                .sign(&SystemRandom::new(), signing_input.as_bytes())
                .map_err(|_| SignError::Refused)?
                .as_ref()
                .to_vec(),
        };
        Ok(format!(
            "{signing_input}.{}",
            URL_SAFE_NO_PAD.encode(signature)
        ))
    }

    /// Whether a signature costs enough CPU to be made off the request workers: an RSA-2048
    /// signature takes most of a millisecond, a P-256 one a few dozen microseconds.
    pub fn is_costly(&self) -> bool {
        matches!(self.key, PrivateKey::Rsa(_))
    }

    /// The algorithm it signs with.
    pub fn algorithm(&self) -> SigningAlg {
        match self.key {
            PrivateKey::Rsa(_) => SigningAlg::Rs256,
            PrivateKey::Ec(_) => SigningAlg::Es256,
        }
    }
}

fn rsa_private(pem: &str) -> Option<rsa::RsaPrivateKey> {
    rsa::RsaPrivateKey::from_pkcs8_pem(pem)
        .ok()
        .or_else(|| rsa::RsaPrivateKey::from_pkcs1_pem(pem).ok())
}

fn ec_private(pem: &str) -> Option<p256::SecretKey> {
    p256::SecretKey::from_pkcs8_pem(pem)
        .ok()
        .or_else(|| p256::SecretKey::from_sec1_pem(pem).ok())
}

/// The public key of a PEM file holding a private or a public key.
pub fn public_jwk(pem: &str) -> Option<Jwk> {
    if let Some(key) = rsa_private(pem) {
        return Some(Jwk::rsa(&key.to_public_key()));
    }
    if let Some(key) = ec_private(pem) {
        return Some(Jwk::ec(&key.public_key()));
    }
    let rsa_public = rsa::RsaPublicKey::from_public_key_pem(pem)
        .ok()
        .or_else(|| rsa::RsaPublicKey::from_pkcs1_pem(pem).ok());
    if let Some(key) = rsa_public {
        return Some(Jwk::rsa(&key));
    }
    p256::PublicKey::from_public_key_pem(pem)
        .ok()
        .map(|k| Jwk::ec(&k))
}
