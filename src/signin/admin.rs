//! Who may administer, and how they sign in: a superadmin's password (under the attempt limits),
//! then the second factor when the policy (or their own enrolment) asks for one. The admin
//! screen and the admin API both sign in here, so one rule decides for both; every attempt is
//! published, and so audited.

use super::password::failed;
use super::AMR_PWD;
use super::{
    check_code, check_passkey, check_password, succeeded, CodeError, Context, PasswordError, Where,
};
use crate::domain::{Claims, Role};
use crate::events::Place;
use crate::mfa::enrolment;
use crate::mfa::passkey::{self, Verified};
use crate::mfa::{self, Due, MfaError, AMR_OTP};
use secrecy::SecretString;
use std::net::IpAddr;

/// What the audit log says of a superadmin refused because the second factor their policy asks
/// for is not set up yet.
pub const NOT_ENROLLED: &str = "the second factor the policy asks for is not set up yet";

/// Why an admin sign-in did not pass.
#[derive(Debug, thiserror::Error)]
pub enum AdminSignInError {
    /// The password step refused (see [`PasswordError`]).
    #[error(transparent)]
    Password(#[from] PasswordError),
    /// Signed in, but not a superadmin.
    #[error("only superadmins may administer")]
    Forbidden,
    /// The policy asks for a second factor and none is set up yet.
    #[error("a second factor must be set up first")]
    EnrolmentRequired,
    /// The policy asks for a second factor and no code was given.
    #[error("a second-factor code is required")]
    SecondFactorRequired,
    /// The account's only second factor is a passkey, which needs a browser: the admin API
    /// (and so the CLI) can check only an authenticator app's code or a recovery code.
    #[error("the only second factor is a passkey, which the admin API cannot check")]
    PasskeyOnly,
    /// The code step refused (see [`CodeError`]).
    #[error(transparent)]
    Code(#[from] CodeError),
}

impl From<MfaError> for AdminSignInError {
    fn from(err: MfaError) -> Self {
        AdminSignInError::Password(PasswordError::Unavailable(err))
    }
}

/// A superadmin who passed every check.
#[derive(Debug, Clone)]
pub struct Admin {
    /// Their claims.
    pub claims: Claims,
    /// How they authenticated (RFC 8176): `pwd`, and `otp` when the second factor was due.
    pub amr: Vec<String>,
}

/// Whether a person may administer: their role is `superadmin`. The second factor is the
/// sign-in's to ask ([`authenticate`], [`first_factor`] and [`second_factor`]).
pub fn may_administer(claims: &Claims) -> bool {
    claims.role() == Some(Role::Superadmin)
}

fn admin_side(address: Option<IpAddr>) -> Where<'static> {
    Where {
        place: Place::Admin,
        client_id: None,
        address,
    }
}

/// Checks the password (under the attempt limits) and the role; answers the claims and what
/// the second-factor policy still asks. Refusals are published.
pub async fn first_factor(
    cx: &impl Context,
    username: &str,
    password: &SecretString,
    address: Option<IpAddr>,
) -> Result<(Claims, Due), AdminSignInError> {
    let at = admin_side(address);
    let passed = check_password(cx, at, username, password).await?;
    if !may_administer(&passed.claims) {
        failed(cx, at, passed.claims.sub(), "not a superadmin").await;
        return Err(AdminSignInError::Forbidden);
    }
    let pwd = [AMR_PWD.to_owned()];
    let due = mfa::due(cx, &passed.claims, &pwd, Some(&passed.user)).await?;
    if due == Due::Enrol {
        failed(cx, at, passed.claims.sub(), NOT_ENROLLED).await;
    }
    Ok((passed.claims, due))
}

/// Checks the second factor of a superadmin who passed [`first_factor`]; a refusal is
/// published as a failed admin sign-in.
pub async fn second_factor(
    cx: &impl Context,
    sub: &str,
    otp: &str,
    address: Option<IpAddr>,
) -> Result<(), AdminSignInError> {
    let at = admin_side(address);
    let result = check_code(cx, at, sub, otp.trim()).await;
    if result.is_err() {
        failed(cx, at, sub, "second factor refused").await;
    }
    result.map(drop).map_err(|e| match e {
        CodeError::Unchecked(MfaError::NotEnrolled | MfaError::NoSetup) => {
            AdminSignInError::EnrolmentRequired
        }
        other => other.into(),
    })
}

/// Checks `answer` to the passkey ceremony under `key` of a superadmin who passed
/// [`first_factor`] (the admin screen's second step); a refusal is published as a failed admin
/// sign-in. Answers what the passkey proved.
pub async fn second_factor_passkey(
    cx: &impl Context,
    sub: &str,
    key: &str,
    answer: &str,
    address: Option<IpAddr>,
) -> Result<Verified, AdminSignInError> {
    let at = admin_side(address);
    let result = check_passkey(cx, at, sub, key, answer).await;
    if result.is_err() {
        failed(cx, at, sub, "second factor refused").await;
    }
    Ok(result?)
}

/// Whether `sub`'s second factor is only passkeys: no authenticator app, so no code and no
/// recovery code the admin API could check.
async fn passkey_only(cx: &impl Context, sub: &str) -> Result<bool, MfaError> {
    Ok(!enrolment::is_enrolled(cx, sub).await?
        && passkey::offered(cx)
        && passkey::count(cx, sub).await? > 0)
}

/// Publishes a completed admin sign-in of `sub`.
pub async fn signed_in(cx: &impl Context, sub: &str, address: Option<IpAddr>) {
    succeeded(cx, admin_side(address), sub).await;
}

/// Password, role, then the second factor when the policy (or the user's own enrolment) asks
/// for it, all at once (the admin API). An account under the policy that has not set up a
/// second factor yet is refused ([`AdminSignInError::EnrolmentRequired`]), as the admin screen
/// refuses it: its password opens only the enrolment endpoints, never the rest of the admin
/// API.
pub async fn authenticate(
    cx: &impl Context,
    username: &str,
    password: &SecretString,
    otp: Option<&str>,
    address: Option<IpAddr>,
) -> Result<Admin, AdminSignInError> {
    let (claims, due) = first_factor(cx, username, password, address).await?;
    let mut amr = vec![AMR_PWD.to_owned()];
    match due {
        Due::Nothing => {}
        // Published by `first_factor`.
        Due::Enrol => return Err(AdminSignInError::EnrolmentRequired),
        Due::Verify => {
            // Said before any code is asked for: none could ever pass.
            if passkey_only(cx, claims.sub()).await? {
                let at = admin_side(address);
                failed(
                    cx,
                    at,
                    claims.sub(),
                    "only a passkey, which needs a browser",
                )
                .await;
                return Err(AdminSignInError::PasskeyOnly);
            }
            let otp = otp.filter(|o| !o.trim().is_empty());
            let otp = otp.ok_or(AdminSignInError::SecondFactorRequired)?;
            second_factor(cx, claims.sub(), otp, address).await?;
            amr.push(AMR_OTP.to_owned());
        }
    }
    signed_in(cx, claims.sub(), address).await;
    Ok(Admin { claims, amr })
}
