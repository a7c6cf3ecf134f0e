//! The logout token (OpenID Connect Back-Channel Logout 1.0 §2.4): a JWT telling an app that a
//! person's session ended, signed like the app's id_tokens.

use super::signing_key::{KeyError, SignError};
use super::Context;
use crate::clock::UnixTime;
use crate::domain::secret::random_id;
use crate::domain::ClientRecord;
use serde::Serialize;
use std::collections::BTreeMap;

/// The event a logout token announces.
pub const BACKCHANNEL_LOGOUT_EVENT: &str = "http://schemas.openid.net/event/backchannel-logout";
/// Its header's `typ` (Back-Channel Logout 1.0 §2.4).
pub const TYP: &str = "logout+jwt";
/// How long a logout token is valid: the spec recommends at most two minutes.
pub const LIFETIME: u64 = 120;

#[derive(Serialize)]
struct LogoutClaims<'a> {
    iss: &'a str,
    aud: &'a str,
    iat: UnixTime,
    exp: UnixTime,
    jti: String,
    sub: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    sid: Option<&'a str>,
    events: BTreeMap<&'static str, serde_json::Map<String, serde_json::Value>>,
}

/// Signs a logout token for `app` saying that `sub`'s session `sid` (or, without one, every
/// session of `sub` the app knows from the grant that ended) is over: with the algorithm and
/// key the app's id_tokens are signed with, a fresh `jti`, and no `nonce`.
pub async fn sign(
    cx: &impl Context,
    app: &ClientRecord,
    sub: &str,
    sid: Option<&str>,
) -> Result<String, KeyError> {
    let now = cx.now();
    let keys = cx.keys().get(cx.store(), now).await?;
    let issuer = cx.issuer();
    let claims = LogoutClaims {
        iss: &issuer,
        aud: app.client_id.as_str(),
        iat: now,
        exp: now + LIFETIME,
        jti: random_id(16),
        sub,
        sid,
        events: BTreeMap::from([(BACKCHANNEL_LOGOUT_EVENT, serde_json::Map::new())]),
    };
    let alg = app.id_token_signed_response_alg;
    let signer = keys.signer(alg)?;
    let input = signer
        .signing_input_of_type(&claims, TYP)
        .map_err(KeyError::Sign)?;
    if !signer.is_costly() {
        return signer.sign_input(input).map_err(KeyError::Sign);
    }
    tokio::task::spawn_blocking(move || keys.signer(alg)?.sign_input(input).map_err(KeyError::Sign))
        .await
        .unwrap_or(Err(KeyError::Sign(SignError::Refused)))
}
