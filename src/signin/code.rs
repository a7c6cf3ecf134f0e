//! A second-factor code under the attempt limits: the code of the enrolled authenticator (or a
//! recovery code) at a sign-in, and the first code of one being set up.

use super::limits::{self, Attempt, Kind};
use super::{Context, Where};
use crate::events::{Event, Place};
use crate::mfa::enrolment::{self, Holder, Proof};
use crate::mfa::passkey::{self, Verified};
use crate::mfa::MfaError;

/// Why a code did not pass.
#[derive(Debug, thiserror::Error)]
pub enum CodeError {
    /// Too many wrong codes for the account or the address: nothing was checked.
    #[error("too many attempts")]
    Locked,
    /// Neither a current code nor an unspent recovery code; counted.
    #[error("wrong code")]
    Wrong,
    /// A code whose time step was already accepted; counted.
    #[error("code already used")]
    Replayed,
    /// Nothing could be checked (no enrolment or set-up, an undecryptable secret, an outage);
    /// not counted.
    #[error(transparent)]
    Unchecked(#[from] MfaError),
}

/// Checks a code of `sub`'s second factor at `at`, under the attempt limits.
pub async fn check_code(
    cx: &impl Context,
    at: Where<'_>,
    sub: &str,
    code: &str,
) -> Result<Proof, CodeError> {
    let attempt = begin(cx, sub, at).await?;
    let result = enrolment::verify(cx, sub, code).await;
    // At the admin screen and API the refusal is published as the failed admin sign-in it is.
    let refusal = (at.place == Place::App).then_some(at);
    settle(cx, refusal, sub, attempt, result).await
}

/// Checks `answer` to `sub`'s passkey ceremony under `key` at `at`, under the same attempt
/// limits as a code: a refused passkey counts as a wrong code.
pub async fn check_passkey(
    cx: &impl Context,
    at: Where<'_>,
    sub: &str,
    key: &str,
    answer: &str,
) -> Result<Verified, CodeError> {
    let attempt = begin(cx, sub, at).await?;
    let result = passkey::finish_second_factor(cx, sub, key, answer)
        .await
        .map_err(MfaError::from);
    let refusal = (at.place == Place::App).then_some(at);
    settle(cx, refusal, sub, attempt, result).await
}

/// Confirms the authenticator `holder` is setting up for `sub` with its first code, under the
/// attempt limits; answers the recovery codes, to be shown once.
pub async fn confirm_enrolment(
    cx: &impl Context,
    at: Where<'_>,
    sub: &str,
    holder: Holder<'_>,
    code: &str,
) -> Result<Vec<String>, CodeError> {
    let attempt = begin(cx, sub, at).await?;
    let result = enrolment::confirm(cx, sub, holder, code).await;
    // A first code typed wrong while setting up is no refused sign-in: counted, not published.
    settle(cx, None, sub, attempt, result).await
}

async fn begin(cx: &impl Context, sub: &str, at: Where<'_>) -> Result<Attempt, CodeError> {
    limits::begin(cx, Kind::Otp, sub, at.address)
        .await
        .map_err(MfaError::from)?
        .map_err(|_| CodeError::Locked)
}

/// Whether a failure is the person's wrong answer, counted against the limits: a wrong or
/// replayed code, a refused passkey.
fn counted(err: &MfaError) -> bool {
    match err {
        MfaError::WrongCode | MfaError::Replayed => true,
        MfaError::Passkey(e) => e.is_refusal(),
        _ => false,
    }
}

/// Counts the attempt by `result`: a wrong or replayed code stays counted (and is published as
/// refused at `refusal`, when given), any other outcome is taken back.
async fn settle<T>(
    cx: &impl Context,
    refusal: Option<Where<'_>>,
    sub: &str,
    attempt: Attempt,
    result: Result<T, MfaError>,
) -> Result<T, CodeError> {
    match result {
        Ok(passed) => {
            attempt.succeeded(cx).await.map_err(MfaError::from)?;
            Ok(passed)
        }
        Err(e) if counted(&e) => {
            attempt.failed(cx).await.map_err(MfaError::from)?;
            if let Some(at) = refusal {
                let event = Event::SecondFactorRefused {
                    sub: sub.to_owned(),
                    client_id: at.client_id.cloned(),
                    address: at.address.map(|a| a.to_string()),
                    reason: e.to_string(),
                };
                cx.events().publish(event).await;
            }
            Err(match e {
                MfaError::Replayed => CodeError::Replayed,
                _ => CodeError::Wrong,
            })
        }
        Err(e) => {
            attempt.succeeded(cx).await.map_err(MfaError::from)?;
            Err(CodeError::Unchecked(e))
        }
    }
}
