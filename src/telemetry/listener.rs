//! Counts what the flows publish: sign-ins, second-factor checks, tokens issued and revoked,
//! replays, refusals and lockouts. Only the kind of each event becomes a label; who, which app
//! and from where are left to the audit log.

use super::metrics::{
    AttemptLabels, CounterLabel, ErrorLabel, GrantLabel, KindLabel, Outcome, ReasonLabel,
    SignInLabels,
};
use super::Metrics;
use crate::events::{
    Event, Grant, Listener, Place, Revocation, SecondFactorOutcome, SignInOutcome,
};
use async_trait::async_trait;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The events listener that keeps the flow counters of [`Metrics`], and warns in the log when
/// unfinished sign-ins near their bound.
pub struct MetricsListener {
    metrics: Arc<Metrics>,
    /// When the last warning about unfinished sign-ins was logged (Unix seconds).
    warned_at: AtomicU64,
}

impl MetricsListener {
    /// Counts into `metrics`.
    pub fn new(metrics: Arc<Metrics>) -> Self {
        Self {
            metrics,
            warned_at: AtomicU64::new(0),
        }
    }

    /// Warns, at most once a minute, when unfinished sign-ins keep 80% of what they may.
    fn near_bound(&self, requests: u64, bytes: u64, max_requests: u64, max_bytes: u64) {
        let near = |n: u64, max: u64| n.saturating_mul(5) >= max.saturating_mul(4);
        if !(near(requests, max_requests) || near(bytes, max_bytes)) {
            return;
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let last = self.warned_at.load(Ordering::Relaxed);
        if now < last + 60
            || self
                .warned_at
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        tracing::warn!(
            requests,
            max_requests,
            bytes,
            max_bytes,
            "unfinished sign-ins near their bound (session.requests_total, session.request_bytes_total): past it new sign-ins are refused with 503"
        );
    }
}

#[async_trait]
impl Listener for MetricsListener {
    async fn on(&self, event: &Event) {
        if let Event::PendingLoad {
            requests,
            bytes,
            max_requests,
            max_bytes,
        } = event
        {
            self.metrics.pending_load(*requests, *bytes);
            self.near_bound(*requests, *bytes, *max_requests, *max_bytes);
        }
        count(&self.metrics, event);
    }
}

fn count(metrics: &Metrics, event: &Event) {
    match event {
        Event::SignIn { place, outcome, .. } => {
            let labels = SignInLabels {
                place: place_name(*place),
                outcome: match outcome {
                    SignInOutcome::Succeeded => "succeeded",
                    SignInOutcome::Failed(_) => "failed",
                },
            };
            metrics.sign_ins.get_or_create(&labels).inc();
        }
        Event::SecondFactorChecked { outcome, .. } => {
            let outcome = match outcome {
                SecondFactorOutcome::Code => "code",
                SecondFactorOutcome::RecoveryCode => "recovery_code",
                SecondFactorOutcome::Passkey => "passkey",
                SecondFactorOutcome::Wrong => "wrong",
                SecondFactorOutcome::Replayed => "replayed",
            };
            metrics
                .second_factor_checks
                .get_or_create(&Outcome { outcome })
                .inc();
        }
        Event::TokensIssued { grant, .. } => {
            metrics
                .tokens_issued
                .get_or_create(&GrantLabel {
                    grant: grant_name(*grant),
                })
                .inc();
        }
        Event::GrantRevoked { reason, .. } => revoked(metrics, *reason),
        Event::TokenRefused { error, .. } => {
            metrics
                .token_refusals
                .get_or_create(&ErrorLabel { error })
                .inc();
        }
        Event::Lockout { group, .. } => {
            metrics
                .lockouts
                .get_or_create(&CounterLabel { counter: group })
                .inc();
        }
        Event::AttemptFailed { guess, counters } => {
            for counter in counters {
                let labels = AttemptLabels {
                    guess: guess.as_str(),
                    counter,
                };
                metrics.failed_attempts.get_or_create(&labels).inc();
            }
        }
        Event::BackchannelLogout { outcome, .. } => {
            metrics
                .backchannel_logouts
                .get_or_create(&Outcome {
                    outcome: outcome.as_str(),
                })
                .inc();
        }
        Event::AuthorizeRefused { .. }
        | Event::PendingLoad { .. }
        | Event::SignedOut { .. }
        | Event::SignedOutEverywhere { .. }
        | Event::SecondFactorReset { .. }
        | Event::AppChanged { .. }
        | Event::AccountChanged { .. }
        | Event::SecondFactorRefused { .. }
        | Event::SecondFactorEnrolled { .. }
        | Event::PasskeyAdded { .. }
        | Event::PasskeyRemoved { .. }
        | Event::AccessDenied { .. }
        | Event::RecoveryCodeUsed { .. } => {}
    }
}

fn revoked(metrics: &Metrics, reason: Revocation) {
    let (reason, replayed) = match reason {
        Revocation::ByApp { .. } => ("by_app", None),
        Revocation::UserGone => ("user_gone", None),
        Revocation::AccessRemoved => ("access_removed", None),
        Revocation::CodeReplayed => ("code_replayed", Some("authorization_code")),
        Revocation::RefreshReused => ("refresh_reused", Some("refresh_token")),
    };
    metrics
        .grants_revoked
        .get_or_create(&ReasonLabel { reason })
        .inc();
    if let Some(kind) = replayed {
        metrics.replays.get_or_create(&KindLabel { kind }).inc();
    }
}

fn place_name(place: Place) -> &'static str {
    match place {
        Place::App => "app",
        Place::Admin => "admin",
        Place::SecondFactorSetup => "second_factor_setup",
    }
}

fn grant_name(grant: Grant) -> &'static str {
    match grant {
        Grant::AuthorizationCode => "authorization_code",
        Grant::RefreshToken => "refresh_token",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ClientId;

    fn sample(metrics: &Metrics, name: &str) -> Vec<String> {
        let text = metrics.scrape(None, None).unwrap();
        text.lines()
            .filter(|l| l.starts_with(name))
            .map(str::to_owned)
            .collect()
    }

    #[tokio::test]
    async fn outcomes_are_counted_by_kind_and_nothing_about_the_person_is_a_label() {
        let metrics = Arc::new(Metrics::new());
        let listener = MetricsListener::new(Arc::clone(&metrics));
        let events = [
            Event::SignIn {
                place: Place::App,
                who: "mallory-typed-this".into(),
                client_id: None,
                address: Some("203.0.113.9".into()),
                outcome: SignInOutcome::Failed("wrong password for mallory".into()),
            },
            Event::GrantRevoked {
                client_id: ClientId::generate(),
                sub: "ada".into(),
                reason: Revocation::RefreshReused,
                address: None,
            },
            Event::SecondFactorChecked {
                sub: "ada".into(),
                outcome: SecondFactorOutcome::Replayed,
            },
        ];
        for event in &events {
            listener.on(event).await;
        }
        let text = metrics.scrape(None, None).unwrap();
        assert!(
            sample(&metrics, "sso_bridge_sign_ins_total")
                .contains(&r#"sso_bridge_sign_ins_total{place="app",outcome="failed"} 1"#.into()),
            "{text}"
        );
        assert!(sample(&metrics, "sso_bridge_replays_detected_total")
            .contains(&r#"sso_bridge_replays_detected_total{kind="refresh_token"} 1"#.into()));
        assert!(sample(&metrics, "sso_bridge_second_factor_checks_total")
            .contains(&r#"sso_bridge_second_factor_checks_total{outcome="replayed"} 1"#.into()));
        for private in ["mallory", "203.0.113.9", "ada", "wrong password"] {
            assert!(!text.contains(private), "{private} in {text}");
        }
    }
}
