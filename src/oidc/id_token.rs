//! The id_token (OpenID Connect Core §2, §3.1.3.6): minted beside the access token whenever
//! `openid` is granted, on code exchange and on refresh; and read back as a logout hint.

use super::key_source::KeySet;
use super::signing_key::{KeyError, SignError};
use super::Context;
use crate::clock::UnixTime;
use crate::domain::claims::ClaimValue;
use crate::domain::{Claims, SigningAlg};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use jsonwebtoken::Validation;
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};
use std::collections::BTreeMap;

/// What an id_token says, beyond what the token response already knows.
pub struct IdTokenFacts<'a> {
    /// The app (`aud` and `azp`).
    pub client_id: &'a str,
    /// The user's claims, already filtered by the token's scopes.
    pub claims: &'a Claims,
    /// Time of the password sign-in.
    pub auth_time: UnixTime,
    /// The authorize request's `nonce`, on code exchange only (Core §12.2).
    pub nonce: Option<&'a str>,
    /// Authentication methods of the sign-in (RFC 8176).
    pub amr: &'a [String],
    /// The algorithm the app registered for; `None`: the service's default.
    pub alg: Option<SigningAlg>,
    /// The public id of the SSO session the tokens came from.
    pub sid: Option<&'a str>,
}

#[derive(Serialize)]
struct IdTokenClaims<'a> {
    iss: &'a str,
    sub: &'a str,
    aud: &'a str,
    exp: UnixTime,
    iat: UnixTime,
    auth_time: UnixTime,
    #[serde(skip_serializing_if = "Option::is_none")]
    nonce: Option<&'a str>,
    azp: &'a str,
    at_hash: String,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    amr: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    sid: Option<&'a str>,
    #[serde(flatten)]
    released: BTreeMap<&'a str, &'a ClaimValue>,
}

/// `at_hash`: base64url of the left half of the SHA-256 of the access token (Core §3.1.3.6;
/// SHA-256 for both RS256 and ES256).
pub fn at_hash(access_token: &str) -> String {
    let digest = Sha256::digest(access_token.as_bytes());
    URL_SAFE_NO_PAD.encode(&digest[..16])
}

/// Signs an id_token for `facts`, issued beside `access_token`, with the key of the app's
/// algorithm.
pub async fn sign(
    cx: &impl Context,
    facts: IdTokenFacts<'_>,
    access_token: &str,
) -> Result<String, KeyError> {
    let now = cx.now();
    let keys = cx.keys().get(cx.store(), now).await?;
    let issuer = cx.issuer();
    let released = facts
        .claims
        .as_map()
        .iter()
        .filter(|(name, _)| name.as_str() != "sub")
        .map(|(k, v)| (k.as_str(), v))
        .collect();
    let claims = IdTokenClaims {
        iss: &issuer,
        sub: facts.claims.sub(),
        aud: facts.client_id,
        exp: now + cx.oidc_settings().id_token_ttl.as_secs(),
        iat: now,
        auth_time: facts.auth_time,
        nonce: facts.nonce,
        azp: facts.client_id,
        at_hash: at_hash(access_token),
        amr: facts.amr,
        sid: facts.sid,
        released,
    };
    let signer = keys.signer(facts.alg)?;
    let input = signer.signing_input(&claims).map_err(KeyError::Sign)?;
    if !signer.is_costly() {
        return signer.sign_input(input).map_err(KeyError::Sign);
    }
    // On the blocking pool, so that the few request workers go on serving meanwhile.
    let alg = facts.alg;
    tokio::task::spawn_blocking(move || keys.signer(alg)?.sign_input(input).map_err(KeyError::Sign))
        .await
        .unwrap_or(Err(KeyError::Sign(SignError::Refused)))
}

/// The claims of an id_token presented back to us (a logout's `id_token_hint`).
#[derive(Debug, Deserialize)]
pub struct HintClaims {
    /// The user.
    pub sub: String,
    /// The app it was issued to.
    pub aud: String,
}

/// Checks that `token` is an id_token this service signed with a published key (of any
/// algorithm: the key its `kid` names decides, and the header's `alg` must be that key's), for
/// this issuer. Expiry is not checked: OpenID Connect RP-Initiated Logout 1.0 §2 accepts an
/// expired id_token as a hint.
pub fn verify_hint(keys: &KeySet, issuer: &str, token: &str) -> Option<HintClaims> {
    let header = jsonwebtoken::decode_header(token).ok()?;
    let jwk = keys.find(header.kid.as_deref()?)?;
    let (alg, key) = jwk.decoding_key()?;
    if header.alg != alg {
        return None;
    }
    let mut validation = Validation::new(alg);
    validation.validate_exp = false;
    validation.validate_aud = false;
    validation.required_spec_claims.clear();
    validation.set_issuer(&[issuer]);
    jsonwebtoken::decode::<HintClaims>(token, &key, &validation)
        .ok()
        .map(|data| data.claims)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_hash_is_the_left_half_of_sha256_base64url() {
        // OpenID Connect Core, Appendix A.3 example.
        assert_eq!(
            at_hash("jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y"),
            "77QmUPtjPfzWtF2AnpK9RQ"
        );
    }
}
