//! Second-factor operations of the admin API: a superadmin's reset of a user's second factor,
//! and enrolment without a browser (how the first superadmin sets one up before any app
//! exists to sign in to).

use super::api::{body, AdminAuth, AdminError, SecondFactorRemoved};
use super::guard::GuardError;
use crate::domain::secret::random_id;
use crate::events::Place;
use crate::mfa;
use crate::mfa::enrolment::{self, Holder};
use crate::signin::admin::AdminSignInError;
use crate::signin::{self, Where};
use crate::state::AppState;
use crate::web::address::ClientAddr;
use poem::web::Data;
use poem::Request;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};
use secrecy::SecretString;

#[derive(Tags)]
enum MfaTags {
    /// Second factor (TOTP) administration and enrolment.
    #[oai(rename = "Second factor")]
    SecondFactor,
}

/// Directory credentials of the account setting up its own second factor.
#[derive(Object)]
pub struct EnrolmentStart {
    /// Directory username.
    pub username: String,
    /// Directory password.
    #[oai(write_only)]
    pub password: String,
}

/// An authenticator to add to an app; confirm it with its first code and `setup_id`.
#[derive(Object)]
pub struct EnrolmentSetup {
    /// Names this set-up at `confirm_enrolment`: a set-up is shown to no one else.
    pub setup_id: String,
    /// The secret in base32, for typing into the app.
    pub secret: String,
    /// `otpauth://totp/...` URL (what the QR code of the browser page holds).
    pub otpauth_url: String,
}

/// Credentials plus the first code of the new authenticator.
#[derive(Object)]
pub struct EnrolmentConfirm {
    /// Directory username.
    pub username: String,
    /// Directory password.
    #[oai(write_only)]
    pub password: String,
    /// The 6-digit code the authenticator app shows now.
    #[oai(write_only)]
    pub otp: String,
    /// The `setup_id` that `start_enrolment` answered.
    pub setup_id: String,
}

/// Recovery codes of a confirmed enrolment: each works once; shown only here.
#[derive(Object)]
pub struct RecoveryCodes {
    /// Ten single-use codes.
    pub recovery_codes: Vec<String>,
}

/// Responses of the reset.
#[derive(ApiResponse)]
enum ResetResponse {
    /// The user's second factor was removed (they set up a new one at their next sign-in), and
    /// their admin sign-ins ended.
    #[oai(status = 200)]
    Reset(Json<SecondFactorRemoved>),
}

/// The second-factor admin API.
pub struct AdminMfaApi;

/// Signs `username` in with a password for self-service enrolment: only accounts without a
/// second factor yet (replacing one needs the old one, in the browser).
async fn not_yet_enrolled(
    req: &Request,
    state: &AppState,
    username: &str,
    password: String,
) -> Result<String, AdminError> {
    let at = Where {
        place: Place::SecondFactorSetup,
        client_id: None,
        address: ClientAddr::of(req).ip(),
    };
    let password = SecretString::from(password);
    let passed = signin::check_password(state, at, username.trim(), &password)
        .await
        .map_err(GuardError::from)?;
    let sub = passed.claims.sub().to_owned();
    // A passkey is a second factor too: a password alone must not add an app beside it.
    if mfa::has_second_factor(state, &sub)
        .await
        .map_err(GuardError::from)?
    {
        return Err(AdminError::Forbidden(body(
            "forbidden",
            "this account already has a second factor; replace it in the browser after passing it, or ask a superadmin to reset it",
        )));
    }
    Ok(sub)
}

#[OpenApi(prefix_path = "/admin/api", tag = "MfaTags::SecondFactor")]
impl AdminMfaApi {
    /// Reset a user's second factor
    ///
    /// Superadmins only. Removes the user's authenticator and recovery codes, and ends their
    /// admin API tokens and admin sign-ins; a user under the policy sets up a new one at the
    /// next sign-in. Audited.
    #[oai(
        path = "/users/:username/second-factor",
        method = "delete",
        operation_id = "reset_second_factor"
    )]
    async fn reset(
        &self,
        Data(state): Data<&AppState>,
        username: Path<String>,
        AdminAuth(caller): AdminAuth,
    ) -> Result<ResetResponse, AdminError> {
        let sub = username.0.trim();
        let removed = super::users::reset_second_factor(state, caller.actor(), sub)
            .await
            .map_err(GuardError::from)?;
        let Some(done) = removed else {
            return Err(AdminError::NotFound(body(
                "not_found",
                format!("`{sub}` has no second factor"),
            )));
        };
        Ok(ResetResponse::Reset(Json(SecondFactorRemoved {
            sub: sub.to_owned(),
            admin_sessions_ended: done.admin_sessions,
        })))
    }

    /// Start setting up a second factor
    ///
    /// For an account without one: answers a new TOTP secret (kept encrypted, pending until
    /// confirmed within `session.request_ttl_secs`) and the `setup_id` that confirms it. An
    /// account has one API set-up at a time: each call starts a new one in place of the last,
    /// and none is ever shown to another caller.
    #[oai(
        path = "/second-factor/setup",
        method = "post",
        operation_id = "start_enrolment"
    )]
    async fn setup(
        &self,
        req: &Request,
        Data(state): Data<&AppState>,
        body: Json<EnrolmentStart>,
    ) -> Result<Json<EnrolmentSetup>, AdminError> {
        let sub = not_yet_enrolled(req, state, &body.0.username, body.0.password).await?;
        let setup_id = random_id(24);
        let setup = enrolment::setup(state, &sub, Holder::api(&setup_id))
            .await
            .map_err(GuardError::from)?;
        Ok(Json(EnrolmentSetup {
            setup_id,
            secret: setup.secret.replace(' ', ""),
            otpauth_url: setup.url,
        }))
    }

    /// Confirm a second factor
    ///
    /// Checks the first code of the authenticator set up by `start_enrolment`, stores the
    /// enrolment and answers ten recovery codes, shown only here.
    #[oai(
        path = "/second-factor/confirm",
        method = "post",
        operation_id = "confirm_enrolment"
    )]
    async fn confirm(
        &self,
        req: &Request,
        Data(state): Data<&AppState>,
        body: Json<EnrolmentConfirm>,
    ) -> Result<Json<RecoveryCodes>, AdminError> {
        let EnrolmentConfirm {
            username,
            password,
            otp,
            setup_id,
        } = body.0;
        let sub = not_yet_enrolled(req, state, &username, password).await?;
        let at = Where {
            place: Place::SecondFactorSetup,
            client_id: None,
            address: ClientAddr::of(req).ip(),
        };
        let holder = Holder::api(setup_id.trim());
        let codes = signin::confirm_enrolment(state, at, &sub, holder, &otp)
            .await
            .map_err(|e| GuardError::from(AdminSignInError::Code(e)))?;
        Ok(Json(RecoveryCodes {
            recovery_codes: codes,
        }))
    }
}
