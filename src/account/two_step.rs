//! Where a person's second factor stands: an authenticator app set up or not, how many
//! recovery codes are left, and whether the policy requires one of them.

use super::{AccountError, Context};
use crate::clock::UnixTime;
use crate::mfa;
use crate::session::SessionRecord;

/// A person's second factor, as their account page shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TwoStep {
    /// When the authenticator app was set up; `None` when there is none.
    pub authenticator_since: Option<UnixTime>,
    /// Recovery codes not yet used.
    pub recovery_codes_left: u64,
    /// Whether the policy requires a second factor of this person.
    pub required: bool,
}

/// The second factor of the person of `session`.
pub async fn status(
    cx: &(impl Context + mfa::Context),
    session: &SessionRecord,
) -> Result<TwoStep, AccountError> {
    let sub = session.claims.sub();
    let enrolment = cx.store().second_factor(sub).await?;
    let recovery_codes_left = match enrolment {
        Some(_) => cx.store().recovery_codes_left(sub).await?,
        None => 0,
    };
    let required = mfa::policy::applies(cx, &session.claims, None)
        .await
        .map_err(|e| match e {
            mfa::MfaError::Store(e) => AccountError::Store(e),
            other => AccountError::Directory(other.to_string()),
        })?;
    Ok(TwoStep {
        authenticator_since: enrolment.map(|e| e.enrolled_at),
        recovery_codes_left,
        required,
    })
}
