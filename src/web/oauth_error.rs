//! OAuth errors as HTTP answers: the one place their statuses and JSON bodies are decided, and
//! where the cause of a server-side error is logged (it is never sent).

use crate::oauth::OAuthError;
use poem::http::StatusCode;
use serde::Serialize;

/// The JSON body of an error response.
#[derive(Debug, Clone, Serialize, poem_openapi::Object)]
pub struct ErrorBody {
    /// RFC 6749 §5.2 / RFC 6750 §3.1 error code.
    pub error: String,
    /// What was wrong, for the app developer.
    pub error_description: String,
}

impl ErrorBody {
    /// A body with this code and description.
    pub fn new(error: &str, description: impl Into<String>) -> Self {
        Self {
            error: error.to_owned(),
            error_description: description.into(),
        }
    }
}

/// The HTTP status of `err` at the token endpoint (RFC 6749 §5.2) or a protected resource
/// (RFC 6750 §3.1).
pub fn status(err: &OAuthError) -> StatusCode {
    match err {
        OAuthError::InvalidClient(_) | OAuthError::InvalidToken(_) => StatusCode::UNAUTHORIZED,
        OAuthError::AccessDenied(_) => StatusCode::FORBIDDEN,
        OAuthError::ServerError(_) => StatusCode::INTERNAL_SERVER_ERROR,
        OAuthError::TemporarilyUnavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::BAD_REQUEST,
    }
}

/// The JSON body of `err`; logs the cause of a server-side error with its whole chain.
pub fn body(err: &OAuthError) -> ErrorBody {
    if let Some(cause) = err.cause() {
        tracing::error!(error = err.code(), cause = %super::error_chain(cause), "request failed on the server side");
    }
    ErrorBody::new(err.code(), err.description())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oauth::error::Cause;

    #[test]
    fn client_errors_and_server_errors_get_their_statuses() {
        assert_eq!(status(&OAuthError::InvalidClient("x".into())), 401);
        assert_eq!(status(&OAuthError::InvalidGrant("x".into())), 400);
        assert_eq!(status(&OAuthError::AccessDenied("x".into())), 403);
        assert_eq!(status(&OAuthError::ServerError(Cause::says("x"))), 500);
    }

    #[test]
    fn a_server_error_body_never_holds_its_cause() {
        let err = OAuthError::ServerError(Cause::says("redis said: secret-ish detail"));
        let body = body(&err);
        assert_eq!(body.error, "server_error");
        assert!(!body.error_description.contains("detail"));
    }
}
