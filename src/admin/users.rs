//! What a superadmin does to a user's account: remove their second factor (a lost phone), so
//! they set up a new one at their next sign-in. Shared by the admin API and the screen.

use crate::apps::Actor;
use crate::audit::{self, Action, AuditEvent};
use crate::mfa::{enrolment, MfaError};
use crate::state::AppState;

/// Removes the second factor (authenticator and recovery codes) of the user `sub`; answers
/// whether they had one. Audited when they did.
pub async fn reset_second_factor(
    state: &AppState,
    actor: Actor<'_>,
    sub: &str,
) -> Result<bool, MfaError> {
    let sub = sub.trim();
    let removed = !sub.is_empty() && enrolment::reset(state, sub).await?;
    if removed {
        let event = AuditEvent::new(Action::SecondFactorReset, Some(actor.sub))
            .from_address(actor.address)
            .detail(format!("second factor of {sub} removed"));
        audit::record(state, event).await;
    }
    Ok(removed)
}
