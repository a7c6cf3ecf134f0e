//! Client authentication at the token endpoint (RFC 6749 §2.3.1): `client_secret_basic`,
//! `client_secret_post`, and `none` for public apps (which must use PKCE instead).

use super::Context;
use super::{OAuthError, Refused};
use crate::domain::bounds::{self, check};
use crate::domain::{ClientId, ClientRecord, Digest, SecretToken};
use crate::events::Refusal;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;

/// How the client presented itself.
#[derive(Debug)]
pub struct ClientCredentials {
    /// The client id, from the Basic header or the body.
    pub client_id: Option<String>,
    /// The secret, if any was sent.
    pub secret: Option<SecretToken>,
    /// Whether they came in an `Authorization: Basic` header (for the app doctor's advice).
    pub via_basic: bool,
}

impl ClientCredentials {
    /// Combines an `Authorization` header and the body's `client_id` / `client_secret`.
    ///
    /// Using both Basic and a body secret is refused (RFC 6749 §2.3: one method per request).
    /// In the Basic header, id and secret are each form-urlencoded (RFC 6749 §2.3.1), so a
    /// secret holding `+`, `/` or `:` arrives intact. An id or secret over its documented
    /// maximum, however sent, is `invalid_request`.
    pub fn from_request(
        authorization: Option<&str>,
        body_client_id: Option<String>,
        body_secret: Option<SecretToken>,
    ) -> Result<Self, Refused> {
        let body_client_id = body_client_id.filter(|s| !s.is_empty());
        let body_secret = body_secret.filter(|s| !s.expose().is_empty());
        let credentials = Self::combine(authorization, body_client_id, body_secret)?;
        let too_long = OAuthError::InvalidRequest;
        if let Some(id) = &credentials.client_id {
            check("client_id", id, bounds::CLIENT_ID).map_err(too_long)?;
        }
        if let Some(secret) = &credentials.secret {
            check("client_secret", secret.expose(), bounds::CLIENT_SECRET).map_err(too_long)?;
        }
        Ok(credentials)
    }

    fn combine(
        authorization: Option<&str>,
        body_client_id: Option<String>,
        body_secret: Option<SecretToken>,
    ) -> Result<Self, Refused> {
        let Some(header) = authorization else {
            return Ok(Self {
                client_id: body_client_id,
                secret: body_secret,
                via_basic: false,
            });
        };
        let (id, secret) = parse_basic(header)?;
        if body_secret.is_some() {
            return Err(Refused::because(Refusal::CredentialsTwice, OAuthError::InvalidRequest(
                "client credentials were sent both in the Authorization header and in the body; use one method".into(),
            )));
        }
        if body_client_id.as_ref().is_some_and(|b| b != &id) {
            return Err(OAuthError::InvalidRequest(
                "client_id in the body differs from the one in the Authorization header".into(),
            )
            .into());
        }
        Ok(Self {
            client_id: Some(id),
            secret: Some(secret),
            via_basic: true,
        })
    }
}

fn parse_basic(header: &str) -> Result<(String, SecretToken), OAuthError> {
    let bad = || OAuthError::InvalidClient("malformed Basic authorization header".into());
    let (scheme, rest) = header.trim().split_once(' ').ok_or_else(bad)?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return Err(OAuthError::InvalidClient(
            "unsupported authorization scheme; use Basic or client_secret_post".into(),
        ));
    }
    let decoded = STANDARD.decode(rest.trim()).map_err(|_| bad())?;
    let decoded = String::from_utf8(decoded).map_err(|_| bad())?;
    let (id, secret) = decoded.split_once(':').ok_or_else(bad)?;
    let decode = |s: &str| -> String {
        url::form_urlencoded::parse(format!("x={s}").as_bytes())
            .next()
            .map(|(_, v)| v.into_owned())
            .unwrap_or_default()
    };
    Ok((decode(id), SecretToken::from_presented(decode(secret))))
}

/// Finds and checks the client; any failure is `invalid_client` (401).
pub async fn authenticate(
    cx: &impl Context,
    credentials: ClientCredentials,
) -> Result<ClientRecord, Refused> {
    let refused = |reason, description: &str| {
        Refused::because(reason, OAuthError::InvalidClient(description.to_owned()))
    };
    let unknown = || refused(Refusal::WrongSecret, "client authentication failed");
    let id = credentials
        .client_id
        .as_deref()
        .ok_or_else(|| refused(Refusal::Other, "client_id is required"))?;
    let client = match ClientId::parse(id) {
        Some(id) => cx.store().client(&id).await?,
        None => None,
    };
    let presented = credentials.secret.as_ref().map(SecretToken::digest);
    let Some(client) = client else {
        // Same comparison work as for a known client.
        let _ = presented.map(|p| p.ct_eq(&Digest::of("")));
        return Err(unknown());
    };
    if !client.enabled {
        return Err(refused(
            Refusal::AppDisabled,
            "this application is disabled",
        ));
    }
    match (&client.secret_digest, presented) {
        (Some(stored), Some(presented)) if stored.ct_eq(&presented) => Ok(client),
        (Some(_), Some(_)) => Err(unknown()),
        (Some(_), None) => Err(refused(
            Refusal::SecretMissing,
            "client_secret is required (Basic header or client_secret in the body)",
        )),
        (None, None) => Ok(client),
        (None, Some(_)) => Err(refused(
            Refusal::SecretFromPublicApp,
            "this is a public application: it has no secret and must not send one",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn basic(id: &str, secret: &str) -> String {
        let enc = |s: &str| url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
        format!(
            "Basic {}",
            STANDARD.encode(format!("{}:{}", enc(id), enc(secret)))
        )
    }

    #[test]
    fn basic_credentials_are_form_decoded() {
        let c =
            ClientCredentials::from_request(Some(&basic("app", "a+b/c:d=")), None, None).unwrap();
        assert_eq!(c.client_id.as_deref(), Some("app"));
        assert_eq!(c.secret.unwrap().expose(), "a+b/c:d=");
    }

    #[test]
    fn two_methods_at_once_are_refused() {
        let err = ClientCredentials::from_request(
            Some(&basic("app", "s")),
            None,
            Some(SecretToken::from_presented("s")),
        )
        .unwrap_err();
        assert_eq!(err.error.code(), "invalid_request");
        assert_eq!(err.reason, Refusal::CredentialsTwice);
    }

    #[test]
    fn a_malformed_header_is_invalid_client() {
        let err = ClientCredentials::from_request(Some("Basic !!!"), None, None).unwrap_err();
        assert_eq!(err.error.code(), "invalid_client");
    }
}
