//! The audit log as a listener: sign-in and token outcomes published by the flows, written as
//! audit events.

use super::{record, Action, AuditEvent, Context};
use crate::clock::{Clock, HasClock};
use crate::config::AuditSettings;
use crate::events::{Event, Grant, Listener, LogoutOutcome, Place, Revocation, SignInOutcome};
use crate::store::{HasStore, Store, WithClock};
use async_trait::async_trait;

/// Writes what the flows report to the audit log.
pub struct AuditTrail {
    base: WithClock,
    settings: AuditSettings,
}

impl AuditTrail {
    /// An audit trail kept in the store.
    pub fn new(base: WithClock, settings: AuditSettings) -> Self {
        Self { base, settings }
    }
}

impl HasStore for AuditTrail {
    fn store(&self) -> &dyn Store {
        self.base.store()
    }
}

impl HasClock for AuditTrail {
    fn clock(&self) -> &dyn Clock {
        self.base.clock()
    }
}

impl Context for AuditTrail {
    fn audit_settings(&self) -> &AuditSettings {
        &self.settings
    }
}

#[async_trait]
impl Listener for AuditTrail {
    async fn on(&self, event: &Event) {
        if let Some(entry) = entry_for(event) {
            record(self, entry).await;
        }
    }
}

/// The audit entry an event makes, if it is one the audit log keeps.
fn entry_for(event: &Event) -> Option<AuditEvent> {
    Some(match event {
        Event::TokensIssued {
            client_id,
            sub,
            grant,
            scope,
            address,
        } => {
            let (action, detail) = match grant {
                Grant::AuthorizationCode => (
                    Action::TokenIssued,
                    format!("authorization code exchanged; scope `{scope}`"),
                ),
                Grant::RefreshToken => (Action::TokenRefreshed, format!("scope `{scope}`")),
            };
            AuditEvent::new(action, Some(sub))
                .app(client_id)
                .from_address(address.as_deref())
                .detail(detail)
        }
        Event::GrantRevoked {
            client_id,
            sub,
            reason,
            address,
        } => AuditEvent::new(Action::TokenRevoked, Some(sub))
            .app(client_id)
            .from_address(address.as_deref())
            .detail(revocation_detail(*reason)),
        Event::SignIn {
            place,
            who,
            client_id,
            address,
            outcome,
        } => {
            let (action, at) = match place {
                Place::App => (Action::SignIn, ""),
                Place::Admin => (Action::AdminSignIn, ""),
                // Any account may enrol there: not an admin sign-in, and no app's either.
                Place::SecondFactorSetup => (Action::SignIn, " (second-factor set-up)"),
            };
            let mut entry = AuditEvent::new(action, Some(who)).from_address(address.as_deref());
            if let Some(client_id) = client_id {
                entry = entry.app(client_id);
            }
            match outcome {
                SignInOutcome::Succeeded => entry,
                SignInOutcome::Failed(reason) => entry.failed(format!("{reason}{at}")),
            }
        }
        Event::SecondFactorRefused {
            sub,
            client_id,
            address,
            reason,
        } => {
            let mut entry = AuditEvent::new(Action::SecondFactorFailed, Some(sub))
                .from_address(address.as_deref());
            if let Some(client_id) = client_id {
                entry = entry.app(client_id);
            }
            entry.failed(reason.clone())
        }
        Event::AccessDenied {
            sub,
            client_id,
            address,
            at,
        } => AuditEvent::new(Action::AccessDenied, Some(sub))
            .app(client_id)
            .from_address(address.as_deref())
            .failed(format!("not among the roles and groups the app is for ({at})")),
        Event::SignedOut {
            sub,
            place,
            client_id,
            address,
        } => {
            let action = match place {
                Place::Admin => Action::AdminSignOut,
                Place::App | Place::SecondFactorSetup => Action::SignOut,
            };
            let entry = AuditEvent::new(action, Some(sub)).from_address(address.as_deref());
            match client_id {
                Some(client_id) => entry.app(client_id),
                None => entry,
            }
        }
        Event::SignedOutEverywhere {
            by,
            address,
            sub,
            sessions,
            grants,
            admin_sessions,
        } => AuditEvent::new(Action::UserRevoked, Some(by))
            .from_address(address.as_deref())
            .detail(format!(
                "{sub} signed out everywhere: {sessions} sessions ended, {grants} grants revoked, {admin_sessions} admin sign-ins ended"
            )),
        Event::SecondFactorReset {
            by,
            address,
            sub,
            admin_sessions,
        } => AuditEvent::new(Action::SecondFactorReset, Some(by))
            .from_address(address.as_deref())
            .detail(format!(
                "second factor of {sub} removed; {admin_sessions} admin sign-ins ended"
            )),
        Event::AppChanged {
            action,
            by,
            address,
            client_id,
            detail,
        } => AuditEvent::new(*action, Some(by))
            .app(client_id)
            .from_address(address.as_deref())
            .detail(detail.clone()),
        Event::AccountChanged {
            action,
            sub,
            address,
            client_id,
            detail,
        } => {
            let entry = AuditEvent::new(*action, Some(sub))
                .from_address(address.as_deref())
                .detail(detail.clone());
            match client_id {
                Some(client_id) => entry.app(client_id),
                None => entry,
            }
        }
        Event::SecondFactorEnrolled { sub, replaced } => {
            let entry = AuditEvent::new(Action::SecondFactorEnrolled, Some(sub));
            if *replaced {
                entry.detail("authenticator app replaced; the earlier one no longer works")
            } else {
                entry
            }
        }
        Event::PasskeyAdded { sub, name } => AuditEvent::new(Action::PasskeyAdded, Some(sub))
            .detail(format!("passkey {:?} added", name)),
        Event::PasskeyRemoved { sub, name } => {
            AuditEvent::new(Action::PasskeyRemoved, Some(sub))
                .detail(format!("passkey {:?} removed", name))
        }
        Event::RecoveryCodeUsed { sub, left } => {
            AuditEvent::new(Action::RecoveryCodeUsed, Some(sub))
                .detail(format!("{left} recovery codes left"))
        }
        Event::Lockout {
            account,
            address,
            counter,
            ..
        } => AuditEvent::new(Action::Lockout, Some(account.trim()))
            .from_address(address.as_deref())
            .failed(format!("too many failed attempts ({counter})")),
        Event::BackchannelLogout {
            client_id,
            sub,
            outcome,
        } => {
            let entry = AuditEvent::new(Action::BackchannelLogout, Some(sub)).app(client_id);
            match outcome {
                // Counted by the metrics; what becomes of it is what the log keeps.
                LogoutOutcome::Queued => return None,
                LogoutOutcome::Delivered { status } => {
                    entry.detail(format!("back-channel logout delivered (HTTP {status})"))
                }
                LogoutOutcome::Retrying {
                    attempt,
                    problem,
                    retry_in,
                } => entry.failed(format!(
                    "back-channel logout attempt {attempt} failed: {problem}; tried again in {retry_in} s"
                )),
                LogoutOutcome::Refused { status, said } => entry.failed(format!(
                    "back-channel logout refused by the app with HTTP {status}, not tried again; it said {said:?}"
                )),
                LogoutOutcome::GaveUp { attempts, problem } => entry.failed(format!(
                    "back-channel logout given up after {attempts} attempts over about two minutes: {problem}"
                )),
                LogoutOutcome::Dropped => entry.detail(
                    "back-channel logout not sent: the app was deleted or no longer has a back-channel logout URI",
                ),
            }
        }
        // Refusals and second-factor failures are audited where their context is known
        // (`SecondFactorRefused`, the admin sign-in); the metrics count these.
        Event::TokenRefused { .. }
        | Event::AuthorizeRefused { .. }
        | Event::SecondFactorChecked { .. }
        | Event::AttemptFailed { .. }
        | Event::PendingLoad { .. } => return None,
    })
}

fn revocation_detail(reason: Revocation) -> String {
    match reason {
        Revocation::CodeReplayed => {
            "authorization code used twice: the tokens issued with it were revoked".into()
        }
        Revocation::RefreshReused => {
            "a rotated refresh token was used again: every token of the grant was revoked".into()
        }
        Revocation::UserGone => {
            "refresh refused: the user is no longer in the directory, or disabled or expired there; the grant was revoked".into()
        }
        Revocation::AccessRemoved => {
            "refresh refused: the user may no longer use the app (role, groups or the app's list changed); the grant was revoked".into()
        }
        Revocation::ByApp { refresh } => {
            let kind = if refresh {
                "refresh_token"
            } else {
                "access_token"
            };
            format!("the app revoked its {kind} and the grant behind it")
        }
    }
}
