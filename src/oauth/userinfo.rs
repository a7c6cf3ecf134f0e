//! `/oauth/userinfo` (OpenID Connect Core §5.3; docs/src/protocol.md, Userinfo endpoint): the
//! claims of the token's grant, in one store read.

use super::Context;
use super::OAuthError;
use crate::domain::bounds;
use crate::domain::{Claims, ClientId, SecretToken};

/// Why a bearer credential was not accepted (RFC 6750 §3.1).
pub fn parse_bearer(authorization: Option<&str>) -> Result<SecretToken, OAuthError> {
    let header = authorization.ok_or_else(|| {
        OAuthError::InvalidToken(
            "an access token is required: Authorization: Bearer <token>".into(),
        )
    })?;
    let (scheme, token) = header
        .trim()
        .split_once(' ')
        .ok_or_else(|| OAuthError::InvalidRequest("malformed Authorization header".into()))?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(OAuthError::InvalidToken(
            "the Authorization header must use the Bearer scheme".into(),
        ));
    }
    let token = token.trim();
    if token.len() > bounds::TOKEN {
        return Err(OAuthError::InvalidRequest(bounds::too_long(
            "the bearer token",
            bounds::TOKEN,
        )));
    }
    // RFC 6750 §2.1 b64token syntax.
    let well_formed = !token.is_empty()
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/=".contains(&b));
    if !well_formed {
        return Err(OAuthError::InvalidRequest("malformed bearer token".into()));
    }
    Ok(SecretToken::from_presented(token))
}

/// The claims released to this access token, and the app it was issued to.
pub async fn claims(
    cx: &impl Context,
    token: &SecretToken,
) -> Result<(ClientId, Claims), OAuthError> {
    let record = cx
        .store()
        .access_token(&token.digest())
        .await?
        .filter(|r| r.expires_at > cx.now())
        .ok_or_else(|| {
            OAuthError::InvalidToken("the access token is invalid, expired or revoked".into())
        })?;
    Ok((record.client_id, record.claims))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scheme_is_case_insensitive() {
        assert_eq!(parse_bearer(Some("bearer abc")).unwrap().expose(), "abc");
        assert_eq!(parse_bearer(Some("BEARER abc")).unwrap().expose(), "abc");
    }

    #[test]
    fn missing_or_other_schemes_are_invalid_token() {
        assert_eq!(parse_bearer(None).unwrap_err().code(), "invalid_token");
        assert_eq!(
            parse_bearer(Some("Basic abc")).unwrap_err().code(),
            "invalid_token"
        );
        assert_eq!(
            parse_bearer(Some("Bearer a b")).unwrap_err().code(),
            "invalid_request"
        );
    }
}
