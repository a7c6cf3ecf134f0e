//! Error responses of the admin API: the one place admin failures become HTTP.

use crate::admin::guard::GuardError;
use crate::apps::AppError;
use crate::store::StoreError;
use crate::web::oauth_error::ErrorBody;
use poem_openapi::payload::Json;
use poem_openapi::ApiResponse;

/// Error responses of the admin API.
#[derive(ApiResponse)]
#[oai(bad_request_handler = "admin_bad_request")]
pub enum AdminError {
    /// invalid_request: the body is malformed or a field is invalid (the description says which).
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// unauthorized: wrong credentials, or a missing, expired or unknown admin token;
    /// mfa_required: the account must send its second-factor code as `otp`; invalid_otp: that
    /// code is wrong or spent; mfa_enrolment_required: the account's policy asks for a second
    /// factor it has not set up yet, and until it does only the enrolment operations accept
    /// its password; mfa_passkey_only: the account's only second factor is a passkey, which
    /// needs a browser (the admin screen): the API needs an authenticator app's code or a
    /// recovery code.
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>),
    /// forbidden: the account is not a superadmin; account_unusable: the password is right but
    /// the directory will not let the account in now (disabled, expired, locked, or its password
    /// expired or must be changed; the description says which).
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// not_found: no such app.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// temporarily_unavailable: the store or directory is unreachable.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
    /// too_many_attempts: too many failed password or second-factor attempts for the account
    /// or the client address; wait and retry.
    #[oai(status = 429)]
    TooManyRequests(Json<ErrorBody>),
    /// server_error: the second factor cannot be checked (details in the server log).
    #[oai(status = 500)]
    ServerError(Json<ErrorBody>),
}

pub(crate) fn body(error: &str, description: impl Into<String>) -> Json<ErrorBody> {
    Json(ErrorBody::new(error, description))
}

impl AdminError {
    /// invalid_request with `description`.
    pub fn bad_request(description: String) -> Self {
        AdminError::BadRequest(body("invalid_request", description))
    }
}

fn admin_bad_request(err: poem::Error) -> AdminError {
    AdminError::BadRequest(body("invalid_request", format!("malformed request: {err}")))
}

impl From<GuardError> for AdminError {
    fn from(err: GuardError) -> Self {
        match err {
            GuardError::Unauthenticated => AdminError::Unauthorized(body(
                "unauthorized",
                "wrong username or password, or the admin token is missing or expired",
            )),
            GuardError::Forbidden => AdminError::Forbidden(body(
                "forbidden",
                "only superadmins may manage connected apps",
            )),
            GuardError::AccountUnusable(account) => AdminError::Forbidden(body(
                "account_unusable",
                crate::web::messages::account_state_english(account),
            )),
            GuardError::Directory(cause) => {
                tracing::error!(%cause, "admin sign-in: directory unavailable");
                AdminError::Unavailable(body(
                    "temporarily_unavailable",
                    "the directory is unavailable",
                ))
            }
            GuardError::Store(e) => e.into(),
            GuardError::Locked => AdminError::TooManyRequests(body(
                "too_many_attempts",
                "too many failed attempts; try again later",
            )),
            GuardError::SecondFactorRequired => AdminError::Unauthorized(body(
                "mfa_required",
                "this account must pass a second factor: send the current code of its authenticator app (or a recovery code) as `otp`",
            )),
            GuardError::EnrolmentRequired => AdminError::Unauthorized(body(
                "mfa_enrolment_required",
                "set up a second factor first: sso-bridge users enrol-mfa --admin USER (or sign in to any app in the browser); until then this account may use the admin API only to set one up",
            )),
            GuardError::PasskeyOnly => AdminError::Unauthorized(body(
                "mfa_passkey_only",
                "this account's only second factor is a passkey, and a passkey works only in a browser: sign in to the admin screen (/admin) with it; for the admin API and the CLI, add an authenticator app on the account page (/account) and send its code (or one of its recovery codes) as `otp`",
            )),
            GuardError::WrongSecondFactor => AdminError::Unauthorized(body(
                "invalid_otp",
                "the second-factor code is wrong or was already used",
            )),
            GuardError::SecondFactor(cause) => {
                tracing::error!(%cause, "admin sign-in: second factor unusable");
                AdminError::ServerError(body("server_error", "the second factor cannot be checked"))
            }
        }
    }
}

impl From<StoreError> for AdminError {
    fn from(err: StoreError) -> Self {
        tracing::error!(error = %err, "admin API: store failure");
        AdminError::Unavailable(body("temporarily_unavailable", "the store is unavailable"))
    }
}

impl From<crate::admin::users::RevokeError> for AdminError {
    fn from(err: crate::admin::users::RevokeError) -> Self {
        use crate::admin::users::RevokeError;
        match err {
            RevokeError::Store(e) => e.into(),
            RevokeError::Directory(e) => GuardError::Directory(e.to_string()).into(),
        }
    }
}

impl From<AppError> for AdminError {
    fn from(err: AppError) -> Self {
        match err {
            AppError::Store(e) => e.into(),
            AppError::NotFound(_) => AdminError::NotFound(body("not_found", err.to_string())),
            AppError::Busy => {
                AdminError::Unavailable(body("temporarily_unavailable", err.to_string()))
            }
            other => AdminError::BadRequest(body("invalid_request", other.to_string())),
        }
    }
}
