//! OAuth errors: RFC 6749 §4.1.2.1 / §5.2 codes, RFC 6750 §3.1 bearer codes. Their HTTP
//! statuses and JSON bodies are the web layer's (`crate::web::oauth_error`).

use crate::directory::DirectoryError;
use crate::events::Refusal;
use crate::oidc::signing_key::KeyError;
use crate::store::StoreError;
use std::sync::Arc;

/// An OAuth error. The description is written for app developers: it says what was wrong with
/// the request, never anything about the server's internals. A server-side error also carries
/// its [`Cause`], which is logged where the error becomes a response and never sent.
#[derive(Debug, Clone, thiserror::Error)]
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
    ServerError(#[source] Cause),
    /// RFC 6749 §4.1.2.1: the store or directory is unreachable; try again shortly.
    #[error("temporarily_unavailable: {description}")]
    TemporarilyUnavailable {
        /// What the client is told.
        description: String,
        /// What went wrong, for the log.
        #[source]
        cause: Cause,
    },
}

/// The internal reason behind a server-side error: kept for the log, never sent to a client.
#[derive(Debug, Clone)]
pub struct Cause(Arc<dyn std::error::Error + Send + Sync>);

impl Cause {
    /// Keeps `error` (and its chain of sources) as the cause.
    pub fn new(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self(Arc::new(error))
    }

    /// A cause told in words, for failures that have no error value of their own.
    pub fn says(what: &'static str) -> Self {
        Self::new(Internal(what))
    }
}

impl std::fmt::Display for Cause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Cause {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Internal(&'static str);

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
            OAuthError::ServerError(_) => "server_error",
            OAuthError::TemporarilyUnavailable { .. } => "temporarily_unavailable",
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
            | OAuthError::TemporarilyUnavailable { description: d, .. } => d.clone(),
            OAuthError::ServerError(_) => "the server failed to handle the request".into(),
        }
    }

    /// The internal cause of a server-side error, for the log.
    pub fn cause(&self) -> Option<&Cause> {
        match self {
            OAuthError::ServerError(cause) | OAuthError::TemporarilyUnavailable { cause, .. } => {
                Some(cause)
            }
            _ => None,
        }
    }

    /// Whether the fault is the server's (an outage or a bug), not the request's.
    pub fn is_server_side(&self) -> bool {
        self.cause().is_some()
    }

    /// The store or directory did not answer: the client may retry shortly.
    fn unavailable(what: &str, cause: impl std::error::Error + Send + Sync + 'static) -> Self {
        OAuthError::TemporarilyUnavailable {
            description: format!("the {what} is unavailable; retry shortly"),
            cause: Cause::new(cause),
        }
    }
}

/// A refused request: the error sent back, and why, for the app doctor (see [`Refusal`]).
#[derive(Debug, Clone)]
pub struct Refused {
    /// What the client is told.
    pub error: OAuthError,
    /// Why, named where the request was refused.
    pub reason: Refusal,
}

impl Refused {
    /// `error`, for `reason`.
    pub fn because(reason: Refusal, error: OAuthError) -> Self {
        Self { error, reason }
    }
}

impl From<OAuthError> for Refused {
    fn from(error: OAuthError) -> Self {
        Self::because(Refusal::Other, error)
    }
}

impl From<StoreError> for Refused {
    fn from(err: StoreError) -> Self {
        OAuthError::from(err).into()
    }
}

impl From<DirectoryError> for Refused {
    fn from(err: DirectoryError) -> Self {
        OAuthError::from(err).into()
    }
}

impl From<Refused> for OAuthError {
    fn from(refused: Refused) -> Self {
        refused.error
    }
}

impl From<StoreError> for OAuthError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Unavailable(_) => OAuthError::unavailable("token store", err),
            other => OAuthError::ServerError(Cause::new(other)),
        }
    }
}

impl From<KeyError> for OAuthError {
    fn from(err: KeyError) -> Self {
        match err {
            KeyError::Store(e) => e.into(),
            other => OAuthError::ServerError(Cause::new(other)),
        }
    }
}

impl From<DirectoryError> for OAuthError {
    fn from(err: DirectoryError) -> Self {
        match err {
            DirectoryError::InvalidCredentials | DirectoryError::AccountUnusable(_) => {
                OAuthError::InvalidGrant("the user is no longer valid".into())
            }
            unavailable @ DirectoryError::Unavailable(_) => {
                OAuthError::unavailable("directory", unavailable)
            }
        }
    }
}
