//! Only superadmins: directory sign-in, role check, then a short-lived admin token.

use crate::directory::{DirectoryError, DirectoryUser};
use crate::domain::{Claims, Digest, Role, SecretToken};
use crate::mfa::enrolment;
use crate::mfa::limits::{self, Kind};
use crate::mfa::{self, Due, MfaError};
use crate::state::AppState;
use crate::store::{Namespace, StoreError};
use secrecy::SecretString;
use serde::{Deserialize, Serialize};
use std::net::IpAddr;

/// Why an admin request was refused.
#[derive(Debug, thiserror::Error)]
pub enum GuardError {
    /// Wrong username or password, or an unknown, expired or revoked admin token.
    #[error("authentication required")]
    Unauthenticated,
    /// Signed in, but not a superadmin.
    #[error("only superadmins may manage connected apps")]
    Forbidden,
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
            MfaError::Directory(cause) => GuardError::Directory(cause),
            MfaError::WrongCode | MfaError::Replayed => GuardError::WrongSecondFactor,
            MfaError::NotEnrolled | MfaError::NoSetup => GuardError::EnrolmentRequired,
            other => GuardError::SecondFactor(other.to_string()),
        }
    }
}

/// An admin token's record.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AdminSession {
    /// The superadmin's user id.
    pub sub: String,
    /// When the token stops working.
    pub expires_at: u64,
    /// Authentication methods used to get the token (RFC 8176: `pwd`, `otp`).
    #[serde(default)]
    pub amr: Vec<String>,
}

/// Signs a superadmin in without a second-factor code (refused when the policy asks for one).
pub async fn sign_in(
    state: &AppState,
    username: &str,
    password: &SecretString,
) -> Result<(SecretToken, u64), GuardError> {
    sign_in_with(state, username, password, None, None).await
}

/// Signs a superadmin in and issues an admin token: password, role, then the second factor
/// when the policy (or the user's own enrolment) asks for it. Attempts are limited per
/// account and per client `address`, as in the browser.
pub async fn sign_in_with(
    state: &AppState,
    username: &str,
    password: &SecretString,
    otp: Option<&str>,
    address: Option<IpAddr>,
) -> Result<(SecretToken, u64), GuardError> {
    let (user, claims) = check_password(state, username, password, address).await?;
    if claims.role() != Some(Role::Superadmin) {
        tracing::warn!(
            sub = claims.sub(),
            "admin sign-in refused: not a superadmin"
        );
        return Err(GuardError::Forbidden);
    }
    let mut amr = vec!["pwd".to_owned()];
    match mfa::due(state, &claims, &amr, Some(&user)).await? {
        Due::Nothing => {}
        Due::Enrol => return Err(GuardError::EnrolmentRequired),
        Due::Verify => {
            let otp = otp.filter(|o| !o.trim().is_empty());
            let otp = otp.ok_or(GuardError::SecondFactorRequired)?;
            check_otp(state, claims.sub(), otp, address).await?;
            amr.push(mfa::AMR_OTP.to_owned());
        }
    }
    issue(state, claims.sub(), amr).await
}

/// Checks a directory password under the attempt limits; answers the entry and its claims.
pub async fn check_password(
    state: &AppState,
    username: &str,
    password: &SecretString,
    address: Option<IpAddr>,
) -> Result<(DirectoryUser, Claims), GuardError> {
    let attempt = limits::begin(state, Kind::Password, username, address)
        .await?
        .map_err(|_| GuardError::Locked)?;
    let user = match state.directory.authenticate(username, password).await {
        Ok(user) => user,
        Err(DirectoryError::InvalidCredentials) => {
            attempt.failed();
            tracing::info!(target: "audit", event = "admin.signin_failed", "admin sign-in refused: invalid credentials");
            return Err(GuardError::Unauthenticated);
        }
        Err(DirectoryError::Unavailable(cause)) => {
            attempt.succeeded(state).await?;
            return Err(GuardError::Directory(cause));
        }
    };
    attempt.succeeded(state).await?;
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
        Err(e @ (MfaError::WrongCode | MfaError::Replayed)) => {
            attempt.failed();
            tracing::info!(target: "audit", event = "mfa.failed", sub, reason = %e, "admin sign-in: second factor refused");
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
    let ttl = state.settings.admin.token_ttl_secs;
    let token = SecretToken::generate();
    let record = AdminSession {
        sub: sub.to_owned(),
        expires_at: state.now() + ttl,
        amr,
    };
    let json = serde_json::to_string(&record).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    state
        .store
        .put(Namespace::AdminToken, token.digest().as_hex(), &json, ttl)
        .await?;
    tracing::info!(sub = %record.sub, amr = ?record.amr, "admin signed in");
    Ok((token, ttl))
}

/// Checks an admin token presented as `Authorization: Bearer`.
pub async fn check(
    state: &AppState,
    authorization: Option<&str>,
) -> Result<AdminSession, GuardError> {
    let token = crate::oauth::userinfo::parse_bearer(authorization)
        .map_err(|_| GuardError::Unauthenticated)?;
    let json = state
        .store
        .get(Namespace::AdminToken, Digest::of(token.expose()).as_hex())
        .await?
        .ok_or(GuardError::Unauthenticated)?;
    let session: AdminSession =
        serde_json::from_str(&json).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    if session.expires_at <= state.now() {
        return Err(GuardError::Unauthenticated);
    }
    Ok(session)
}
