//! Only superadmins: the admin sign-in of [`crate::signin::admin`] (the one rule for the API
//! and the screen alike), then a short-lived admin token for the API, confirmed with the
//! directory again as it is used; and the errors both answer with.

use crate::directory::AccountState;
use crate::domain::{Claims, Digest, SecretToken};
use crate::mfa::MfaError;
use crate::session::recheck;
use crate::signin::admin::{self, AdminSignInError};
use crate::signin::{CodeError, PasswordError};
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
    /// The account's only second factor is a passkey, which only a browser can use.
    #[error("the only second factor is a passkey")]
    PasskeyOnly,
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

impl From<AdminSignInError> for GuardError {
    fn from(err: AdminSignInError) -> Self {
        match err {
            AdminSignInError::Password(e) => e.into(),
            AdminSignInError::Forbidden => GuardError::Forbidden,
            AdminSignInError::EnrolmentRequired => GuardError::EnrolmentRequired,
            AdminSignInError::SecondFactorRequired => GuardError::SecondFactorRequired,
            AdminSignInError::PasskeyOnly => GuardError::PasskeyOnly,
            AdminSignInError::Code(CodeError::Locked) => GuardError::Locked,
            AdminSignInError::Code(CodeError::Wrong | CodeError::Replayed) => {
                GuardError::WrongSecondFactor
            }
            AdminSignInError::Code(CodeError::Unchecked(e)) => e.into(),
        }
    }
}

impl From<PasswordError> for GuardError {
    fn from(err: PasswordError) -> Self {
        match err {
            PasswordError::Name(_) | PasswordError::Invalid => GuardError::Unauthenticated,
            PasswordError::Locked => GuardError::Locked,
            PasswordError::Unusable(account) => GuardError::AccountUnusable(account),
            PasswordError::NoSubject(_) => GuardError::Forbidden,
            PasswordError::Unavailable(e) => e.into(),
        }
    }
}

/// Whether a user's role lets them administer (the sign-in flow's one rule).
pub fn may_administer(claims: &Claims) -> Result<(), GuardError> {
    if admin::may_administer(claims) {
        Ok(())
    } else {
        Err(GuardError::Forbidden)
    }
}

/// Signs a superadmin in to the admin API and issues an admin token.
pub async fn sign_in(
    state: &AppState,
    username: &str,
    password: &SecretString,
    otp: Option<&str>,
    address: Option<IpAddr>,
) -> Result<Issued, GuardError> {
    let admin = admin::authenticate(state, username, password, otp, address).await?;
    let (token, ttl) = issue(state, admin.claims.sub(), admin.amr).await?;
    Ok(Issued { token, ttl })
}

/// An admin API token just issued.
pub struct Issued {
    /// The token (shown once).
    pub token: SecretToken,
    /// Seconds until it expires.
    pub ttl: u64,
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
