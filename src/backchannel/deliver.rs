//! The delivery worker every node runs: it claims the logouts that are due from the store's
//! queue (each goes to one node), posts each app `logout_token=<JWT>` at its back-channel
//! logout URI, and decides by the answer:
//!
//! - any 2xx: delivered;
//! - a 3xx (redirects are not followed) or a 4xx: refused by the app, not tried again;
//! - a 5xx, no answer within [`ATTEMPT_TIMEOUT`], no connection: tried again after 1, 2, 4, 8,
//!   16, then every 30 seconds, until [`RETRY_FOR`] seconds after it was queued.
//!
//! Each outcome is published ([`Event::BackchannelLogout`]): the audit log, the app doctor and
//! the metrics hear it. A node that stops while sending leaves the job claimed for [`LEASE`]
//! seconds; then another node, or this one restarted, claims it again.

use crate::domain::ClientRecord;
use crate::events::{Event, HasEvents, LogoutOutcome};
use crate::oidc::logout_token;
use crate::store::{LogoutJob, StoreError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::JOB_TTL;

/// What the worker needs: OpenID Connect's context (the store, the clock, the signing keys, the
/// issuer) and the event bus; owned, as the worker runs on its own task.
pub trait Context: crate::oidc::Context + HasEvents + Clone + Send + 'static {}

impl<T: crate::oidc::Context + HasEvents + Clone + Send + 'static> Context for T {}

/// How long one attempt may take, connecting included.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long after it was queued a logout is still tried again (about two minutes).
pub const RETRY_FOR: u64 = 120;
/// How long a claimed logout stays hidden from the other nodes' claims: past any attempt.
pub const LEASE: u64 = 60;
/// The most logouts one round claims.
const BATCH: usize = 16;
/// How often the queue is looked at.
const POLL_EVERY: Duration = Duration::from_secs(1);
/// The most of an answer's body read, in bytes; the rest is never read.
const MAX_BODY: usize = 1024;
/// The most of an answer's body kept for the audit log and the app doctor, in characters.
const SAID_LIMIT: usize = 200;

/// The seconds to wait after a failed attempt (`attempts` failed so far): 1, 2, 4, 8, 16, then
/// 30.
pub fn backoff(attempts: u32) -> u64 {
    let doubled = 1u64 << attempts.saturating_sub(1).min(5);
    doubled.min(30)
}

/// How an attempt went, as far as the network goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    /// The app answered.
    Answered {
        /// The HTTP status.
        status: u16,
        /// The start of its body.
        said: String,
    },
    /// No answer: no connection, or none in time.
    Failed(String),
}

/// Posts logout tokens.
#[derive(Clone)]
pub struct Sender {
    http: reqwest::Client,
}

impl Sender {
    /// An HTTP client that follows no redirect and gives each attempt [`ATTEMPT_TIMEOUT`].
    pub fn new() -> Result<Self, String> {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .timeout(ATTEMPT_TIMEOUT)
            .connect_timeout(ATTEMPT_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("sso-bridge/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("cannot build the back-channel logout HTTP client: {e}"))?;
        Ok(Self { http })
    }

    /// Posts `logout_token` to `uri` (Back-Channel Logout 1.0 §2.5).
    pub async fn post(&self, uri: &str, logout_token: &str) -> Attempt {
        let sent = self
            .http
            .post(uri)
            .form(&[("logout_token", logout_token)])
            .send()
            .await;
        let mut response = match sent {
            Ok(response) => response,
            Err(e) => return Attempt::Failed(describe(&e)),
        };
        let status = response.status().as_u16();
        let mut body = Vec::new();
        while body.len() < MAX_BODY {
            match response.chunk().await {
                Ok(Some(chunk)) => {
                    let room = MAX_BODY - body.len();
                    body.extend_from_slice(&chunk[..chunk.len().min(room)]);
                }
                // The status is the answer; a body cut short changes nothing.
                Ok(None) | Err(_) => break,
            }
        }
        let said: String = String::from_utf8_lossy(&body)
            .chars()
            .filter(|c| !c.is_control() || *c == ' ')
            .take(SAID_LIMIT)
            .collect();
        Attempt::Answered {
            status,
            said: said.trim().to_owned(),
        }
    }

    /// Claims the logouts due now and delivers them, at once; answers how many it claimed.
    pub async fn round<C: Context>(&self, cx: &C) -> Result<usize, StoreError> {
        let jobs = cx.store().claim_logouts(cx.now(), LEASE, BATCH).await?;
        let claimed = jobs.len();
        let mut sending = tokio::task::JoinSet::new();
        for job in jobs {
            let (cx, sender) = (cx.clone(), self.clone());
            sending.spawn(async move { sender.deliver(&cx, job).await });
        }
        while sending.join_next().await.is_some() {}
        Ok(claimed)
    }

    /// Delivers what is queued, every [`POLL_EVERY`], until the task is stopped.
    pub async fn run<C: Context>(self, cx: C) {
        let warned: Mutex<Option<Instant>> = Mutex::new(None);
        loop {
            match self.round(&cx).await {
                // More may be due already.
                Ok(BATCH) => continue,
                Ok(_) => {}
                Err(e) => {
                    let mut warned = warned.lock().unwrap_or_else(|e| e.into_inner());
                    if warned.is_none_or(|at| at.elapsed() > Duration::from_secs(60)) {
                        *warned = Some(Instant::now());
                        tracing::warn!(error = %e, "back-channel logouts cannot be read from the store now; they are sent once it answers");
                    }
                }
            }
            tokio::time::sleep(POLL_EVERY).await;
        }
    }

    /// One attempt at a claimed job, and what follows from it.
    async fn deliver<C: Context>(&self, cx: &C, mut job: LogoutJob) {
        let app = match cx.store().client(&job.client_id).await {
            Ok(app) => app.filter(|a| a.backchannel_logout_uri.is_some()),
            Err(e) => {
                // Left claimed: it is due again when the lease ends.
                tracing::warn!(error = %e, client_id = %job.client_id, "back-channel logout postponed: the store did not answer");
                return;
            }
        };
        let Some(app) = app else {
            forget(cx, &job).await;
            publish(cx, &job, LogoutOutcome::Dropped).await;
            return;
        };
        let attempt = match self.attempt(cx, &app, &job).await {
            Ok(attempt) => attempt,
            Err(problem) => Attempt::Failed(problem),
        };
        job.attempts += 1;
        let outcome = match attempt {
            Attempt::Answered { status, .. } if (200..300).contains(&status) => {
                forget(cx, &job).await;
                LogoutOutcome::Delivered { status }
            }
            Attempt::Answered { status, said } if status < 500 => {
                forget(cx, &job).await;
                LogoutOutcome::Refused { status, said }
            }
            Attempt::Answered { status, said } => {
                let problem = match said.is_empty() {
                    true => format!("the app answered HTTP {status}"),
                    false => format!("the app answered HTTP {status}: {said}"),
                };
                retry(cx, &mut job, problem).await
            }
            Attempt::Failed(problem) => retry(cx, &mut job, problem).await,
        };
        publish(cx, &job, outcome).await;
    }

    /// Signs the logout token and posts it; `Err` when it could not be signed.
    async fn attempt<C: Context>(
        &self,
        cx: &C,
        app: &ClientRecord,
        job: &LogoutJob,
    ) -> Result<Attempt, String> {
        let uri = app.backchannel_logout_uri.as_deref().unwrap_or_default();
        let token = logout_token::sign(cx, app, &job.sub, job.sid.as_deref())
            .await
            .map_err(|e| format!("the logout token could not be signed: {e}"))?;
        Ok(self.post(uri, &token).await)
    }
}

/// Puts a failed job back for its next attempt, or gives it up once [`RETRY_FOR`] has passed.
async fn retry<C: Context>(cx: &C, job: &mut LogoutJob, problem: String) -> LogoutOutcome {
    let now = cx.now();
    let last_chance = job.queued_at.saturating_add(RETRY_FOR);
    if now >= last_chance {
        forget(cx, job).await;
        return LogoutOutcome::GaveUp {
            attempts: job.attempts,
            problem,
        };
    }
    let next = now.saturating_add(backoff(job.attempts)).min(last_chance);
    if let Err(e) = cx.store().put_logout(job, next, JOB_TTL).await {
        // Still claimed: it is due again when the lease ends.
        tracing::warn!(error = %e, client_id = %job.client_id, "back-channel logout: the next attempt could not be scheduled; it is tried when its claim ends");
    }
    LogoutOutcome::Retrying {
        attempt: job.attempts,
        problem,
        retry_in: next - now,
    }
}

/// Takes a job out of the queue for good.
async fn forget<C: Context>(cx: &C, job: &LogoutJob) {
    if let Err(e) = cx.store().delete_logout(&job.id).await {
        tracing::warn!(error = %e, client_id = %job.client_id, "back-channel logout: could not be taken out of the queue; it may be sent again when its claim ends");
    }
}

async fn publish<C: Context>(cx: &C, job: &LogoutJob, outcome: LogoutOutcome) {
    let (client_id, attempts) = (&job.client_id, job.attempts);
    match &outcome {
        LogoutOutcome::Delivered { status } => {
            tracing::info!(%client_id, status, attempts, "back-channel logout delivered");
        }
        LogoutOutcome::Retrying { problem, .. } => {
            tracing::info!(%client_id, attempts, problem, "back-channel logout attempt failed; tried again later");
        }
        LogoutOutcome::Refused { status, .. } => {
            tracing::warn!(%client_id, status, "back-channel logout refused by the app; not tried again");
        }
        LogoutOutcome::GaveUp { problem, .. } => {
            tracing::warn!(%client_id, attempts, problem, "back-channel logout given up");
        }
        LogoutOutcome::Queued | LogoutOutcome::Dropped => {}
    }
    let event = Event::BackchannelLogout {
        client_id: job.client_id.clone(),
        sub: job.sub.clone(),
        outcome,
    };
    cx.events().publish(event).await;
}

/// Why a request got no answer, in plain words: the innermost cause (`Connection refused`...),
/// never the request (which holds the logout token).
fn describe(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        return format!("no answer within {} s", ATTEMPT_TIMEOUT.as_secs());
    }
    let mut cause: &dyn std::error::Error = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    let what = if e.is_connect() {
        "no connection"
    } else {
        "the request failed"
    };
    format!("{what}: {cause}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_from_a_second_up_to_half_a_minute() {
        let waits: Vec<u64> = (1..=9).map(backoff).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 30, 30, 30, 30]);
        assert_eq!(backoff(0), 1);
        assert_eq!(backoff(u32::MAX), 30);
    }
}
