//! The person's own passkeys changed on their account page: renamed, removed (refused where it
//! would leave no second factor the policy requires). Adding one is the registration ceremony
//! of `crate::mfa::passkey`, which publishes its own event. Every id is looked up among the
//! person's own passkeys first: another person's id finds nothing, and nothing changes.

use super::{two_step, AccountError, Context, Person};
use crate::domain::audit::Action;
use crate::domain::Claims;
use crate::mfa::passkey::{self, PasskeyError};
use crate::mfa::{self, MfaError};
use crate::store::PasskeyRecord;

impl From<PasskeyError> for AccountError {
    fn from(err: PasskeyError) -> Self {
        match err {
            PasskeyError::NotTheirs => AccountError::NotTheirs("passkey"),
            PasskeyError::BadName => AccountError::BadName,
            other => MfaError::from(other).into(),
        }
    }
}

/// The person's passkey `id`, or [`AccountError::NotTheirs`].
pub async fn own(
    cx: &(impl Context + mfa::Context),
    sub: &str,
    id: &str,
) -> Result<PasskeyRecord, AccountError> {
    passkey::list(cx, sub)
        .await?
        .into_iter()
        .find(|p| p.id == id)
        .ok_or(AccountError::NotTheirs("passkey"))
}

/// Gives the person's passkey `id` the name `name`.
pub async fn rename(
    cx: &(impl Context + mfa::Context),
    person: Person<'_>,
    id: &str,
    name: &str,
) -> Result<(), AccountError> {
    let before = own(cx, person.sub, id).await?.name;
    let name = passkey::parse_name(name)?;
    passkey::rename(cx, person.sub, id, &name).await?;
    let detail = format!("passkey {before:?} renamed {name:?}");
    cx.events()
        .publish(person.event(Action::PasskeyRenamed, None, detail))
        .await;
    Ok(())
}

/// Removes the person's passkey `id`: refused when the policy requires a second factor of them
/// and it is their last one (no authenticator app, no other passkey), as the authenticator
/// app's removal is.
pub async fn remove(
    cx: &(impl Context + mfa::Context),
    person: Person<'_>,
    claims: &Claims,
    id: &str,
) -> Result<(), AccountError> {
    own(cx, person.sub, id).await?;
    let status = two_step::of(cx, person.sub, claims).await?;
    let others = status.passkeys.iter().filter(|p| p.id != id).count();
    if status.required && status.authenticator_since.is_none() && others == 0 {
        return Err(AccountError::Required);
    }
    passkey::remove(cx, person.sub, id).await?;
    Ok(())
}
