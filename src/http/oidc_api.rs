//! OpenID Connect and token lifecycle endpoints: discovery, JWKS, revocation, introspection.
//! Thin handlers over `crate::oidc`, `crate::oauth::revocation` and `crate::oauth::introspection`.

use super::cors::ConcernedApp;
use crate::domain::{ClientRecord, SecretToken};
use crate::oauth::client_auth::{self, ClientCredentials};
use crate::oauth::introspection::{self, Introspection};
use crate::oauth::revocation;
use crate::oauth::OAuthError;
use crate::oidc::discovery::{self, ProviderMetadata};
use crate::oidc::signing_key::Jwk;
use crate::state::AppState;
use crate::web::oauth_error::{self, ErrorBody};
use poem::web::Data;
use poem::Request;
use poem_openapi::payload::{Form, Json};
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};
use serde::Deserialize;

#[derive(Tags)]
enum ApiTags {
    /// OpenID Connect discovery and keys; token revocation and introspection.
    #[oai(rename = "OpenID Connect")]
    Oidc,
}

/// A revocation (RFC 7009) or introspection (RFC 7662) request, form-encoded.
#[derive(Object, Deserialize)]
#[oai(rename = "TokenLifecycleRequest")]
pub struct LifecycleForm {
    /// The access or refresh token.
    token: Option<String>,
    /// `access_token` or `refresh_token`: where to look first (optional).
    token_type_hint: Option<String>,
    /// The app's client id (or send it in the Basic header).
    client_id: Option<String>,
    /// The app's client secret (`client_secret_post`), or use `client_secret_basic`.
    client_secret: Option<String>,
}

/// The published public keys (RFC 7517 §5).
#[derive(Object)]
pub struct JwkSet {
    /// The signing key first, then earlier keys whose tokens may still be in use.
    keys: Vec<Jwk>,
}

/// Responses of the discovery documents and JWKS.
#[derive(ApiResponse)]
pub enum MetadataResponse {
    /// Provider metadata.
    #[oai(status = 200)]
    Metadata(Json<Box<ProviderMetadata>>),
    /// The public keys.
    #[oai(status = 200)]
    Keys(Json<JwkSet>),
    /// server_error: the signing key is unusable; details are in the server log.
    #[oai(status = 500)]
    ServerError(Json<ErrorBody>),
    /// temporarily_unavailable: the store holding the key is unreachable; retry shortly.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

/// Responses of the revocation endpoint.
#[derive(ApiResponse)]
#[oai(bad_request_handler = "revoke_bad_request")]
pub enum RevokeResponse {
    /// Revoked, or nothing to revoke (RFC 7009 §2.2: unknown tokens answer 200 too).
    #[oai(status = 200)]
    Ok,
    /// invalid_request (no token).
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// invalid_client.
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>, #[oai(header = "WWW-Authenticate")] String),
    /// server_error.
    #[oai(status = 500)]
    ServerError(Json<ErrorBody>),
    /// temporarily_unavailable: retry shortly.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

/// Responses of the introspection endpoint.
#[derive(ApiResponse)]
#[oai(bad_request_handler = "introspect_bad_request")]
pub enum IntrospectResponse {
    /// The token's state: `{"active": false}` for unknown, expired, revoked or spent tokens, and
    /// for another app's tokens unless the caller may introspect them.
    #[oai(status = 200)]
    Ok(Json<Introspection>),
    /// invalid_request (no token).
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// invalid_client: unknown app, wrong secret, or a public app.
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>, #[oai(header = "WWW-Authenticate")] String),
    /// server_error.
    #[oai(status = 500)]
    ServerError(Json<ErrorBody>),
    /// temporarily_unavailable: retry shortly.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

const BASIC_CHALLENGE: &str = r#"Basic realm="sso-bridge""#;

fn malformed(err: poem::Error) -> OAuthError {
    OAuthError::InvalidRequest(format!("malformed request: {err}"))
}

fn revoke_bad_request(err: poem::Error) -> RevokeResponse {
    malformed(err).into()
}

fn introspect_bad_request(err: poem::Error) -> IntrospectResponse {
    malformed(err).into()
}

impl From<OAuthError> for MetadataResponse {
    fn from(err: OAuthError) -> Self {
        match oauth_error::status(&err).as_u16() {
            503 => MetadataResponse::Unavailable(Json(oauth_error::body(&err))),
            _ => MetadataResponse::ServerError(Json(oauth_error::body(&err))),
        }
    }
}

impl From<OAuthError> for RevokeResponse {
    fn from(err: OAuthError) -> Self {
        let body = Json(oauth_error::body(&err));
        match oauth_error::status(&err).as_u16() {
            401 => RevokeResponse::Unauthorized(body, BASIC_CHALLENGE.into()),
            500 => RevokeResponse::ServerError(body),
            503 => RevokeResponse::Unavailable(body),
            _ => RevokeResponse::BadRequest(body),
        }
    }
}

impl From<OAuthError> for IntrospectResponse {
    fn from(err: OAuthError) -> Self {
        let body = Json(oauth_error::body(&err));
        match oauth_error::status(&err).as_u16() {
            401 => IntrospectResponse::Unauthorized(body, BASIC_CHALLENGE.into()),
            500 => IntrospectResponse::ServerError(body),
            503 => IntrospectResponse::Unavailable(body),
            _ => IntrospectResponse::BadRequest(body),
        }
    }
}

/// Authenticates the calling app exactly as the token endpoint does.
async fn caller(
    req: &Request,
    state: &AppState,
    form: &mut LifecycleForm,
) -> Result<ClientRecord, OAuthError> {
    let authorization = req
        .headers()
        .get(poem::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    let credentials = ClientCredentials::from_request(
        authorization,
        form.client_id.take(),
        form.client_secret.take().map(SecretToken::from_presented),
    )?;
    Ok(client_auth::authenticate(state, credentials).await?)
}

async fn metadata(state: &AppState) -> MetadataResponse {
    match state.keys.get(state.store.as_ref(), state.now()).await {
        Ok(keys) => {
            let metadata = discovery::metadata(&state.settings.issuer(), &keys.algorithms());
            MetadataResponse::Metadata(Json(Box::new(metadata)))
        }
        Err(e) => OAuthError::from(e).into(),
    }
}

/// The OpenID Connect and token lifecycle API.
pub struct OidcApi;

#[OpenApi(tag = "ApiTags::Oidc")]
impl OidcApi {
    /// OpenID Connect discovery
    ///
    /// Provider metadata (OpenID Connect Discovery 1.0): the issuer, every endpoint, supported
    /// scopes, claims, grant types, client authentication methods and signing algorithms.
    #[oai(
        path = "/.well-known/openid-configuration",
        method = "get",
        operation_id = "openid_configuration"
    )]
    async fn openid_configuration(&self, Data(state): Data<&AppState>) -> MetadataResponse {
        metadata(state).await
    }

    /// OAuth 2.0 authorization server metadata
    ///
    /// The same metadata under the RFC 8414 name.
    #[oai(
        path = "/.well-known/oauth-authorization-server",
        method = "get",
        operation_id = "oauth_authorization_server"
    )]
    async fn authorization_server(&self, Data(state): Data<&AppState>) -> MetadataResponse {
        metadata(state).await
    }

    /// JSON Web Key Set
    ///
    /// The public keys that verify id_token signatures, each with the `kid` found in the
    /// id_token header. After a key rotation the earlier key stays listed while tokens it
    /// signed may still be presented.
    #[oai(path = "/oauth/jwks", method = "get", operation_id = "jwks")]
    async fn jwks(&self, Data(state): Data<&AppState>) -> MetadataResponse {
        match state.keys.get(state.store.as_ref(), state.now()).await {
            Ok(keys) => MetadataResponse::Keys(Json(JwkSet {
                keys: keys.published().to_vec(),
            })),
            Err(e) => OAuthError::from(e).into(),
        }
    }

    /// Token revocation
    ///
    /// RFC 7009. The app that received a token revokes it, authenticated as at the token
    /// endpoint. Revoking an access or a refresh token revokes every token of the same grant.
    /// Unknown tokens and tokens of other apps answer 200 and are left alone.
    #[oai(path = "/oauth/revoke", method = "post", operation_id = "revoke")]
    async fn revoke(
        &self,
        req: &Request,
        Data(state): Data<&AppState>,
        form: Form<LifecycleForm>,
    ) -> RevokeResponse {
        let mut form = form.0;
        let client = match caller(req, state, &mut form).await {
            Ok(c) => c,
            Err(e) => return e.into(),
        };
        ConcernedApp::tell(req, &client.client_id);
        let token = form.token.map(SecretToken::from_presented);
        match revocation::revoke(state, &client, token, form.token_type_hint.as_deref()).await {
            Ok(()) => RevokeResponse::Ok,
            Err(e) => e.into(),
        }
    }

    /// Token introspection
    ///
    /// RFC 7662, for confidential apps (client_secret_basic or client_secret_post). Answers
    /// whether an access or refresh token is active, with its scope, client, user and expiry.
    /// An app learns only about its own tokens; a token of another app is `{"active": false}`
    /// unless the caller is registered as a resource server (`may_introspect`).
    #[oai(
        path = "/oauth/introspect",
        method = "post",
        operation_id = "introspect"
    )]
    async fn introspect(
        &self,
        req: &Request,
        Data(state): Data<&AppState>,
        form: Form<LifecycleForm>,
    ) -> IntrospectResponse {
        let mut form = form.0;
        let client = match caller(req, state, &mut form).await {
            Ok(c) => c,
            Err(e) => return e.into(),
        };
        let token = form.token.map(SecretToken::from_presented);
        match introspection::introspect(state, &client, token, form.token_type_hint.as_deref())
            .await
        {
            Ok(answer) => IntrospectResponse::Ok(Json(answer)),
            Err(e) => e.into(),
        }
    }
}
