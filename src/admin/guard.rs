//! Only superadmins: directory sign-in, role check, then a short-lived admin token.
//!
//! [`may_administer`] is the one place that decides whether a signed-in user may manage
//! connected apps, for the API and the screen alike.

use crate::audit::{self, Action, AuditEvent};
use crate::directory::DirectoryError;
use crate::domain::{Claims, Digest, Role, SecretToken};
use crate::state::AppState;
use crate::store::{Namespace, StoreError};
use secrecy::SecretString;
use serde::{Deserialize, Serialize};

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
}

/// An admin token's record.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AdminSession {
    /// The superadmin's user id.
    pub sub: String,
    /// When the token stops working.
    pub expires_at: u64,
}

/// Whether a signed-in user may use the admin API and screen: role `superadmin`.
///
/// `amr` lists how the user authenticated (`pwd`, …), so a second-factor requirement for
/// administrators belongs here too.
pub fn may_administer(claims: &Claims, _amr: &[String]) -> Result<(), GuardError> {
    if claims.role() == Some(Role::Superadmin) {
        Ok(())
    } else {
        Err(GuardError::Forbidden)
    }
}

/// Checks a username and password with the directory, then the admin rule; audits the
/// attempt. Answers the user's claims.
pub async fn authenticate_admin(
    state: &AppState,
    username: &str,
    password: &SecretString,
    address: Option<&str>,
) -> Result<Claims, GuardError> {
    let failed = |reason: &str| {
        AuditEvent::new(Action::AdminSignIn, Some(username))
            .from_address(address)
            .failed(reason)
    };
    let user = match state.directory.authenticate(username, password).await {
        Ok(user) => user,
        Err(DirectoryError::InvalidCredentials) => {
            audit::record(state, failed("wrong username or password")).await;
            return Err(GuardError::Unauthenticated);
        }
        Err(DirectoryError::Unavailable(cause)) => return Err(GuardError::Directory(cause)),
    };
    let Some(claims) = state.settings.claims.claims(&user.attributes) else {
        audit::record(
            state,
            failed("the directory entry has no subject attribute"),
        )
        .await;
        return Err(GuardError::Forbidden);
    };
    if let Err(e) = may_administer(&claims, &["pwd".to_owned()]) {
        let event = AuditEvent::new(Action::AdminSignIn, Some(claims.sub()))
            .from_address(address)
            .failed("not a superadmin");
        audit::record(state, event).await;
        return Err(e);
    }
    let event = AuditEvent::new(Action::AdminSignIn, Some(claims.sub())).from_address(address);
    audit::record(state, event).await;
    Ok(claims)
}

/// Signs a superadmin in and issues an admin API token.
pub async fn sign_in(
    state: &AppState,
    username: &str,
    password: &SecretString,
    address: Option<&str>,
) -> Result<(SecretToken, u64), GuardError> {
    let claims = authenticate_admin(state, username, password, address).await?;
    let ttl = state.settings.admin.token_ttl_secs;
    let token = SecretToken::generate();
    let record = AdminSession {
        sub: claims.sub().to_owned(),
        expires_at: state.now() + ttl,
    };
    let json = serde_json::to_string(&record).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    state
        .store
        .put(Namespace::AdminToken, token.digest().as_hex(), &json, ttl)
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
