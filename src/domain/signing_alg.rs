//! The JWS algorithms an id_token may be signed with (RFC 7518 §3.1), by the names OpenID
//! Connect uses for them: the service's default (`oidc.signing_alg`) and an app's
//! `id_token_signed_response_alg` (OpenID Connect Dynamic Client Registration 1.0 §2).

use serde::{Deserialize, Serialize};
use std::fmt;

/// An id_token signing algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SigningAlg {
    /// RSA PKCS#1 v1.5 with SHA-256 (a key of 2048 bits or more).
    #[serde(rename = "RS256")]
    Rs256,
    /// ECDSA on P-256 with SHA-256: a signature costs a small fraction of an RSA one.
    #[serde(rename = "ES256")]
    Es256,
}

impl SigningAlg {
    /// Every algorithm the service can sign with.
    pub const ALL: [Self; 2] = [Self::Rs256, Self::Es256];

    /// Each algorithm by its JWS name.
    pub const NAMES: [(&'static str, Self); 2] = [("RS256", Self::Rs256), ("ES256", Self::Es256)];

    /// The JWS name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Rs256 => "RS256",
            Self::Es256 => "ES256",
        }
    }

    /// The algorithm of a JWS name, exactly as written (`RS256`, `ES256`).
    pub fn parse(name: &str) -> Option<Self> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, alg)| *alg)
    }
}

impl fmt::Display for SigningAlg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_algorithm_reads_and_writes_as_its_jws_name() {
        for alg in SigningAlg::ALL {
            assert_eq!(SigningAlg::parse(alg.as_str()), Some(alg));
            let json = serde_json::to_string(&alg).unwrap();
            assert_eq!(json, format!("\"{alg}\""));
            assert_eq!(serde_json::from_str::<SigningAlg>(&json).unwrap(), alg);
        }
        assert_eq!(SigningAlg::parse("es256"), None);
        assert_eq!(SigningAlg::parse("HS256"), None);
    }
}
