//! What a person did lately, as the audit log keeps it: sign-ins (with the app, the address and
//! the outcome), changes to their second factor, apps and sessions they ended. Token issues and
//! refreshes, which an app makes many times a day, are left out.

use super::{AccountError, Context};
use crate::domain::audit::Action;
use crate::store::{AuditFrom, AuditIndex, AuditRecord};

/// How many events the page shows.
pub const SHOWN: usize = 20;

/// Events read per store step, and steps at most: a person whose apps refresh all day still
/// costs a bounded amount of work, and the page then shows fewer.
const STEP: usize = 200;
const MAX_STEPS: usize = 5;

/// The actions the person's activity shows.
const SHOWN_ACTIONS: [Action; 15] = [
    Action::SignIn,
    Action::AdminSignIn,
    Action::SignOut,
    Action::SecondFactorEnrolled,
    Action::SecondFactorFailed,
    Action::RecoveryCodeUsed,
    Action::Lockout,
    Action::AccessDenied,
    Action::AppRemoved,
    Action::SessionEnded,
    Action::SecondFactorRemoved,
    Action::RecoveryCodesRenewed,
    Action::PasskeyAdded,
    Action::PasskeyRemoved,
    Action::PasskeyRenamed,
];

/// The person's last [`SHOWN`] events of the kinds above, newest first.
pub async fn recent(cx: &impl Context, sub: &str) -> Result<Vec<AuditRecord>, AccountError> {
    let under = [AuditIndex::actor(sub)];
    let mut from = AuditFrom::Newest;
    let mut found = Vec::new();
    for _ in 0..MAX_STEPS {
        let page = cx.store().audit_events(&under, from, STEP).await?;
        found.extend(
            page.events
                .into_iter()
                .map(|e| e.record)
                .filter(|r| SHOWN_ACTIONS.contains(&r.action)),
        );
        match page.next {
            Some(next) if found.len() < SHOWN => from = from.on_from(next),
            _ => break,
        }
    }
    found.truncate(SHOWN);
    Ok(found)
}
