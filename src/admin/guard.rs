//! Only superadmins: directory sign-in under the attempt limits, the role check, the second
//! factor when the policy asks for one, then a short-lived admin token (API) or an admin screen
//! session.
//!
//! [`authenticate`] is the one place that decides whether someone may administer, for the API
//! and the screen alike; every attempt is audited.

use crate::directory::{AccountState, DirectoryUser};
use crate::domain::{Claims, Digest, Role, SecretToken, Username};
use crate::events::{Event, Place, SignInOutcome};
use crate::mfa::enrolment;
use crate::mfa::limits::{self, Kind, PasswordCheck};
use crate::mfa::{self, Due, MfaError};
use crate::session::recheck;
use crate::state::AppState;
use crate::store::StoreError;
use secrecy::SecretString;
use std::net::IpAddr;

pub use crate::store::AdminSession;

/// Why an admin request was refused.
#[derive(Debug, thiserror::Error)]
pub enum GuardError {
    /// Wrong username or password, or an unknown, expired or revoked admin token.
    #[error("authentication required")]
    Unauthenticated,
    /// Signed in, but not a superadmin.
    #[error("only superadmins may manage connected apps")]
    Forbidden,
    /// The directory will not let the account in now (disabled, expired, locked, password out
    /// of date), and says why.
    #[error("{0}")]
    AccountUnusable(AccountState),
    /// The directory is down.
    #[error("directory unavailable")]
    Directory(String),
    /// The store is down.
    #[error(transparent)]
    Store(#[from] StoreError),
    // --- second factor ---
    /// Too many failed attempts for the account or the address.
    #[error("too many attempts")]
    Locked,
    /// The account's policy asks for a second factor and no `otp` was sent.
    #[error("a second-factor code is required")]
    SecondFactorRequired,
    /// The account's policy asks for a second factor and none is set up yet.
    #[error("a second factor must be set up first")]
    EnrolmentRequired,
    /// The second-factor code was wrong or already used.
    #[error("wrong second-factor code")]
    WrongSecondFactor,
    /// The second factor cannot be checked (see the log).
    #[error("second factor unusable: {0}")]
    SecondFactor(String),
}

impl From<MfaError> for GuardError {
    fn from(err: MfaError) -> Self {
        match err {
            MfaError::Store(e) => GuardError::Store(e),
            MfaError::Directory(cause) => GuardError::Directory(cause.to_string()),
            MfaError::WrongCode | MfaError::Replayed => GuardError::WrongSecondFactor,
            MfaError::NotEnrolled | MfaError::NoSetup => GuardError::EnrolmentRequired,
            other => GuardError::SecondFactor(other.to_string()),
        }
    }
}

/// Whether a user's role lets them administer: `superadmin`. The second factor is checked by
/// [`authenticate`], the only way into the admin API and screen.
pub fn may_administer(claims: &Claims) -> Result<(), GuardError> {
    if claims.role() == Some(Role::Superadmin) {
        Ok(())
    } else {
        Err(GuardError::Forbidden)
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

/// What the audit log says of a superadmin refused because the second factor their policy asks
/// for is not set up yet.
pub const NOT_ENROLLED: &str = "the second factor the policy asks for is not set up yet";

/// Checks the password (under the attempt limits) and the role; answers the claims and what
/// the second-factor policy still asks of the user. Failures are audited.
pub async fn first_factor(
    state: &AppState,
    username: &str,
    password: &SecretString,
    address: Option<IpAddr>,
) -> Result<(Claims, Due), GuardError> {
    let (user, claims) = check_password(state, Place::Admin, username, password, address).await?;
    if let Err(e) = may_administer(&claims) {
        audit_sign_in(state, claims.sub(), address, Some("not a superadmin")).await;
        return Err(e);
    }
    let due = mfa::due(state, &claims, &["pwd".to_owned()], Some(&user)).await?;
    if due == Due::Enrol {
        audit_sign_in(state, claims.sub(), address, Some(NOT_ENROLLED)).await;
    }
    Ok((claims, due))
}

/// Checks the second factor of a user who passed [`first_factor`]; a refusal is audited.
pub async fn second_factor(
    state: &AppState,
    sub: &str,
    otp: &str,
    address: Option<IpAddr>,
) -> Result<(), GuardError> {
    let result = check_otp(state, sub, otp.trim(), address).await;
    if result.is_err() {
        audit_sign_in(state, sub, address, Some("second factor refused")).await;
    }
    result
}

/// Records an admin sign-in attempt: `failure` is the reason it was refused, if it was.
pub async fn audit_sign_in(
    state: &AppState,
    who: &str,
    address: Option<IpAddr>,
    failure: Option<&str>,
) {
    let outcome = match failure {
        Some(reason) => SignInOutcome::Failed(reason.to_owned()),
        None => SignInOutcome::Succeeded,
    };
    publish_sign_in(state, Place::Admin, who, address, outcome).await;
}

async fn publish_sign_in(
    state: &AppState,
    place: Place,
    who: &str,
    address: Option<IpAddr>,
    outcome: SignInOutcome,
) {
    let event = Event::SignIn {
        place,
        who: who.to_owned(),
        client_id: None,
        address: address.map(|a| a.to_string()),
        outcome,
    };
    state.events.publish(event).await;
}

/// Password, role, then the second factor when the policy (or the user's own enrolment) asks
/// for it, all in one request (the admin API). Audits the attempt and its outcome.
///
/// An account under the policy that has not set up a second factor yet is refused
/// ([`GuardError::EnrolmentRequired`]), as the admin screen refuses it: its password opens only
/// the enrolment endpoints (`crate::admin::mfa_api`), never the rest of the admin API.
pub async fn authenticate(
    state: &AppState,
    username: &str,
    password: &SecretString,
    otp: Option<&str>,
    address: Option<IpAddr>,
) -> Result<Admin, GuardError> {
    let (claims, due) = first_factor(state, username, password, address).await?;
    let mut amr = vec!["pwd".to_owned()];
    match due {
        Due::Nothing => {}
        // Audited by `first_factor`.
        Due::Enrol => return Err(GuardError::EnrolmentRequired),
        Due::Verify => {
            let otp = otp.filter(|o| !o.trim().is_empty());
            let otp = otp.ok_or(GuardError::SecondFactorRequired)?;
            second_factor(state, claims.sub(), otp, address).await?;
            amr.push(mfa::AMR_OTP.to_owned());
        }
    }
    audit_sign_in(state, claims.sub(), address, None).await;
    Ok(Admin { claims, amr })
}

/// An admin API token just issued.
pub struct Issued {
    /// The token (shown once).
    pub token: SecretToken,
    /// Seconds until it expires.
    pub ttl: u64,
}

/// Signs a superadmin in to the admin API and issues an admin token.
pub async fn sign_in(
    state: &AppState,
    username: &str,
    password: &SecretString,
    otp: Option<&str>,
    address: Option<IpAddr>,
) -> Result<Issued, GuardError> {
    let admin = authenticate(state, username, password, otp, address).await?;
    let (token, ttl) = issue(state, admin.claims.sub(), admin.amr).await?;
    Ok(Issued { token, ttl })
}

/// Checks a directory password under the attempt limits; answers the entry and its claims.
///
/// A refusal is audited here, once, as a failed sign-in at `place`, so that no caller can
/// check a password unaudited. A lockout is audited where it starts (`limits`), once, not on
/// every attempt it refuses; a directory or store outage is not a failed sign-in.
pub async fn check_password(
    state: &AppState,
    place: Place,
    username: &str,
    password: &SecretString,
    address: Option<IpAddr>,
) -> Result<(DirectoryUser, Claims), GuardError> {
    let result = password_and_claims(state, username, password, address).await;
    let reason = match &result {
        Err(GuardError::Unauthenticated) => "wrong username or password",
        Err(GuardError::Forbidden) => "the directory entry has no subject attribute",
        Err(GuardError::AccountUnusable(account)) => account.as_str(),
        _ => return result,
    };
    let outcome = SignInOutcome::Failed(reason.to_owned());
    publish_sign_in(state, place, username, address, outcome).await;
    result
}

async fn password_and_claims(
    state: &AppState,
    username: &str,
    password: &SecretString,
    address: Option<IpAddr>,
) -> Result<(DirectoryUser, Claims), GuardError> {
    // A name no directory holds is refused before anything is counted or checked.
    let username = Username::parse(username).map_err(|_| GuardError::Unauthenticated)?;
    let user = match limits::check_password(state, &username, password, address).await? {
        PasswordCheck::Passed(user) => user,
        PasswordCheck::Invalid => return Err(GuardError::Unauthenticated),
        PasswordCheck::Locked => return Err(GuardError::Locked),
        PasswordCheck::Unusable(account) => return Err(GuardError::AccountUnusable(account)),
    };
    let claims = state
        .settings
        .claims
        .claims(&user.attributes)
        .ok_or(GuardError::Forbidden)?;
    Ok((user, claims))
}

/// Checks a second-factor code (TOTP or recovery code) under the attempt limits.
pub async fn check_otp(
    state: &AppState,
    sub: &str,
    otp: &str,
    address: Option<IpAddr>,
) -> Result<(), GuardError> {
    let attempt = limits::begin(state, Kind::Otp, sub, address)
        .await?
        .map_err(|_| GuardError::Locked)?;
    match enrolment::verify(state, sub, otp).await {
        Ok(_) => Ok(attempt.succeeded(state).await?),
        Err(MfaError::WrongCode | MfaError::Replayed) => {
            attempt.failed(state).await?;
            Err(GuardError::WrongSecondFactor)
        }
        Err(e) => {
            attempt.succeeded(state).await?;
            Err(e.into())
        }
    }
}

async fn issue(
    state: &AppState,
    sub: &str,
    amr: Vec<String>,
) -> Result<(SecretToken, u64), GuardError> {
    let ttl = state.settings.admin.token_ttl.as_secs();
    let token = SecretToken::generate();
    let now = state.now();
    let record = AdminSession {
        sub: sub.to_owned(),
        expires_at: now + ttl,
        amr,
        // The password sign-in just read the user from the directory.
        checked_at: Some(now),
    };
    state
        .store
        .put_admin_token(&token.digest(), &record, ttl)
        .await?;
    Ok((token, ttl))
}

/// Checks an admin token presented as `Authorization: Bearer`.
pub async fn check(
    state: &AppState,
    authorization: Option<&str>,
) -> Result<AdminSession, GuardError> {
    let token = crate::oauth::userinfo::parse_bearer(authorization)
        .map_err(|_| GuardError::Unauthenticated)?;
    let digest = Digest::of(token.expose());
    let session = state
        .store
        .admin_token(&digest)
        .await?
        .ok_or(GuardError::Unauthenticated)?;
    if session.expires_at <= state.now() {
        return Err(GuardError::Unauthenticated);
    }
    confirm(state, &digest, session).await
}

/// Confirms the holder of an admin token with the directory when the last confirmation is
/// older than `session.directory_recheck_secs`: a superadmin the directory no longer finds, or
/// no longer as a superadmin, loses the token.
async fn confirm(
    state: &AppState,
    digest: &Digest,
    mut session: AdminSession,
) -> Result<AdminSession, GuardError> {
    // Tokens issued before confirmations were recorded are confirmed at their next use.
    if !recheck::due(state, session.checked_at.unwrap_or(0)) {
        return Ok(session);
    }
    let claims = recheck::current_claims(state, &session.sub)
        .await
        .map_err(|e| GuardError::Directory(e.to_string()))?;
    let refusal = match &claims {
        None => Some(GuardError::Unauthenticated),
        Some(claims) => may_administer(claims).err(),
    };
    if let Some(refusal) = refusal {
        state.store.delete_admin_token(digest).await?;
        tracing::info!(sub = %session.sub, "admin token ended: no longer a superadmin in the directory");
        return Err(refusal);
    }
    let now = state.now();
    session.checked_at = Some(now);
    let ttl = session.expires_at.saturating_sub(now).max(1);
    state.store.put_admin_token(digest, &session, ttl).await?;
    Ok(session)
}
