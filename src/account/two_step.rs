//! Where a person's second factor stands (an authenticator app set up or not, how many
//! recovery codes are left, whether the policy requires one) and the changes they make to it
//! themselves: removing the authenticator app, taking a new set of recovery codes. Setting one
//! up is the enrolment of `crate::mfa::enrolment`, which the account page shares with the
//! sign-in pages.

use super::{AccountError, Context, Person};
use crate::clock::UnixTime;
use crate::domain::audit::Action;
use crate::domain::Claims;
use crate::mfa::{self, enrolment, passkey, MfaError};
use crate::session::SessionRecord;
use crate::store::PasskeyRecord;

/// A person's second factor, as their account page shows it.
#[derive(Debug, Clone)]
pub struct TwoStep {
    /// When the authenticator app was set up; `None` when there is none.
    pub authenticator_since: Option<UnixTime>,
    /// Recovery codes not yet used.
    pub recovery_codes_left: u64,
    /// Whether the policy requires a second factor of this person.
    pub required: bool,
    /// The person's passkeys, oldest first.
    pub passkeys: Vec<PasskeyRecord>,
}

/// The second factor of the person of `session`.
pub async fn status(
    cx: &(impl Context + mfa::Context),
    session: &SessionRecord,
) -> Result<TwoStep, AccountError> {
    of(cx, session.claims.sub(), &session.claims).await
}

/// The second factor of `sub`, whose claims are `claims`.
pub(super) async fn of(
    cx: &(impl Context + mfa::Context),
    sub: &str,
    claims: &Claims,
) -> Result<TwoStep, AccountError> {
    let enrolment = cx.store().second_factor(sub).await?;
    let recovery_codes_left = match enrolment {
        Some(_) => cx.store().recovery_codes_left(sub).await?,
        None => 0,
    };
    Ok(TwoStep {
        authenticator_since: enrolment.map(|e| e.enrolled_at),
        recovery_codes_left,
        required: required(cx, claims).await?,
        passkeys: passkey::list(cx, sub).await.map_err(MfaError::from)?,
    })
}

/// Whether the policy requires a second factor of the person with `claims`.
async fn required(cx: &impl mfa::Context, claims: &Claims) -> Result<bool, AccountError> {
    mfa::policy::applies(cx, claims, None)
        .await
        .map_err(AccountError::from)
}

/// Removes the person's authenticator app and its recovery codes: refused while the policy
/// requires a second factor of them (they would be made to set one up at their next sign-in
/// anyway, and meanwhile sign in with a password alone).
pub async fn remove_authenticator(
    cx: &(impl Context + mfa::Context),
    person: Person<'_>,
    claims: &Claims,
) -> Result<(), AccountError> {
    if required(cx, claims).await? {
        return Err(AccountError::Required);
    }
    if !enrolment::reset(cx, person.sub).await? {
        return Err(AccountError::NotTheirs("authenticator app"));
    }
    let detail = "authenticator app and its recovery codes removed".to_owned();
    cx.events()
        .publish(person.event(Action::SecondFactorRemoved, None, detail))
        .await;
    Ok(())
}

/// Gives the person a new set of recovery codes, to be shown once; the old set stops working.
pub async fn renew_recovery_codes(
    cx: &(impl Context + mfa::Context),
    person: Person<'_>,
) -> Result<Vec<String>, AccountError> {
    let codes = match enrolment::renew_recovery_codes(cx, person.sub).await {
        Ok(codes) => codes,
        Err(MfaError::NotEnrolled) => return Err(AccountError::NotTheirs("authenticator app")),
        Err(e) => return Err(e.into()),
    };
    let detail = format!(
        "{} new recovery codes; the earlier ones no longer work",
        codes.len()
    );
    cx.events()
        .publish(person.event(Action::RecoveryCodesRenewed, None, detail))
        .await;
    Ok(codes)
}
