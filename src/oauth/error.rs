//! OAuth error responses: RFC 6749 §4.1.2.1 / §5.2 codes, RFC 6750 §3.1 bearer codes.

use crate::directory::DirectoryError;
use crate::store::StoreError;
use serde::Serialize;

/// An OAuth error, as sent to the client. The description is written for app developers: it
/// says what was wrong with the request, never anything about the server's internals.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OAuthError {
    /// RFC 6749 §5.2: a parameter is missing, repeated, malformed or unsupported.
    #[error("invalid_request: {0}")]
    InvalidRequest(String),
    /// RFC 6749 §5.2: client authentication failed (unknown client, wrong secret, disabled).
    #[error("invalid_client: {0}")]
    InvalidClient(String),
    /// RFC 6749 §5.2: the code or refresh token is invalid, expired, revoked, replayed, or was
    /// issued to another client or redirect URI; or the PKCE verifier does not match.
    #[error("invalid_grant: {0}")]
    InvalidGrant(String),
    /// RFC 6749 §5.2: this client may not use this grant type.
    #[error("unauthorized_client: {0}")]
    UnauthorizedClient(String),
    /// RFC 6749 §5.2: the grant type is not supported.
    #[error("unsupported_grant_type: {0}")]
    UnsupportedGrantType(String),
    /// RFC 6749 §5.2 / §4.1.2.1: the scope is unknown, or wider than the grant.
    #[error("invalid_scope: {0}")]
    InvalidScope(String),
    /// RFC 6749 §4.1.2.1: the user or the server refused the request.
    #[error("access_denied: {0}")]
    AccessDenied(String),
    /// RFC 6749 §4.1.2.1: only `response_type=code` is supported.
    #[error("unsupported_response_type: {0}")]
    UnsupportedResponseType(String),
    /// OpenID Connect Core §3.1.2.6: `prompt=none` and the user is not signed in (or the
    /// sign-in is older than `max_age`).
    #[error("login_required: {0}")]
    LoginRequired(String),
    /// OpenID Connect Core §3.1.2.6: `prompt=none` and the user has not approved the app.
    #[error("consent_required: {0}")]
    ConsentRequired(String),
    /// OpenID Connect Core §3.1.2.6: the `request` parameter (a request object) is not supported.
    #[error("request_not_supported: {0}")]
    RequestNotSupported(String),
    /// OpenID Connect Core §3.1.2.6: the `request_uri` parameter is not supported.
    #[error("request_uri_not_supported: {0}")]
    RequestUriNotSupported(String),
    /// OpenID Connect Core §3.1.2.6: the `registration` parameter is not supported.
    #[error("registration_not_supported: {0}")]
    RegistrationNotSupported(String),
    /// RFC 6750 §3.1: the access token is missing, unknown, expired or revoked.
    #[error("invalid_token: {0}")]
    InvalidToken(String),
    /// RFC 6749 §4.1.2.1: an unexpected condition; details are in the server log only.
    #[error("server_error")]
    ServerError,
    /// RFC 6749 §4.1.2.1: the store or directory is unreachable; try again shortly.
    #[error("temporarily_unavailable: {0}")]
    TemporarilyUnavailable(String),
}

/// The JSON body of an error response.
#[derive(Debug, Clone, Serialize, poem_openapi::Object)]
pub struct ErrorBody {
    /// RFC 6749 §5.2 / RFC 6750 §3.1 error code.
    pub error: String,
    /// What was wrong, for the app developer.
    pub error_description: String,
}

impl OAuthError {
    /// The `error` code.
    pub fn code(&self) -> &'static str {
        match self {
            OAuthError::InvalidRequest(_) => "invalid_request",
            OAuthError::InvalidClient(_) => "invalid_client",
            OAuthError::InvalidGrant(_) => "invalid_grant",
            OAuthError::UnauthorizedClient(_) => "unauthorized_client",
            OAuthError::UnsupportedGrantType(_) => "unsupported_grant_type",
            OAuthError::InvalidScope(_) => "invalid_scope",
            OAuthError::AccessDenied(_) => "access_denied",
            OAuthError::UnsupportedResponseType(_) => "unsupported_response_type",
            OAuthError::InvalidToken(_) => "invalid_token",
            OAuthError::LoginRequired(_) => "login_required",
            OAuthError::ConsentRequired(_) => "consent_required",
            OAuthError::RequestNotSupported(_) => "request_not_supported",
            OAuthError::RequestUriNotSupported(_) => "request_uri_not_supported",
            OAuthError::RegistrationNotSupported(_) => "registration_not_supported",
            OAuthError::ServerError => "server_error",
            OAuthError::TemporarilyUnavailable(_) => "temporarily_unavailable",
        }
    }

    /// The `error_description`.
    pub fn description(&self) -> String {
        match self {
            OAuthError::InvalidRequest(d)
            | OAuthError::InvalidClient(d)
            | OAuthError::InvalidGrant(d)
            | OAuthError::UnauthorizedClient(d)
            | OAuthError::UnsupportedGrantType(d)
            | OAuthError::InvalidScope(d)
            | OAuthError::AccessDenied(d)
            | OAuthError::UnsupportedResponseType(d)
            | OAuthError::LoginRequired(d)
            | OAuthError::ConsentRequired(d)
            | OAuthError::RequestNotSupported(d)
            | OAuthError::RequestUriNotSupported(d)
            | OAuthError::RegistrationNotSupported(d)
            | OAuthError::InvalidToken(d)
            | OAuthError::TemporarilyUnavailable(d) => d.clone(),
            OAuthError::ServerError => "the server failed to handle the request".into(),
        }
    }

    /// The HTTP status of this error at the token endpoint (RFC 6749 §5.2) or a protected
    /// resource (RFC 6750 §3.1).
    pub fn status(&self) -> u16 {
        match self {
            OAuthError::InvalidClient(_) | OAuthError::InvalidToken(_) => 401,
            OAuthError::AccessDenied(_) => 403,
            OAuthError::ServerError => 500,
            OAuthError::TemporarilyUnavailable(_) => 503,
            _ => 400,
        }
    }

    /// Whether the fault is the server's (an outage or a bug), not the request's.
    pub fn is_server_side(&self) -> bool {
        matches!(
            self,
            OAuthError::ServerError | OAuthError::TemporarilyUnavailable(_)
        )
    }

    /// The JSON body.
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: self.code().to_owned(),
            error_description: self.description(),
        }
    }
}

impl From<StoreError> for OAuthError {
    fn from(err: StoreError) -> Self {
        tracing::error!(error = %err, "store failure");
        match err {
            StoreError::Unavailable(_) => OAuthError::TemporarilyUnavailable(
                "the token store is unavailable; retry shortly".into(),
            ),
            StoreError::Corrupt(_) | StoreError::Encoding { .. } => OAuthError::ServerError,
        }
    }
}

impl From<crate::oidc::keys::KeyError> for OAuthError {
    fn from(err: crate::oidc::keys::KeyError) -> Self {
        match err {
            crate::oidc::keys::KeyError::Store(e) => e.into(),
            other => {
                tracing::error!(error = %other, "id_token signing key unusable");
                OAuthError::ServerError
            }
        }
    }
}

impl From<DirectoryError> for OAuthError {
    fn from(err: DirectoryError) -> Self {
        match err {
            DirectoryError::InvalidCredentials => {
                OAuthError::InvalidGrant("the user is no longer valid".into())
            }
            DirectoryError::Unavailable(cause) => {
                tracing::error!(%cause, "directory failure");
                OAuthError::TemporarilyUnavailable(
                    "the directory is unavailable; retry shortly".into(),
                )
            }
        }
    }
}
