//! Only superadmins: directory sign-in, role check, then a short-lived admin token.

use crate::directory::DirectoryError;
use crate::domain::{Digest, Role, SecretToken};
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

/// Signs a superadmin in and issues an admin token.
pub async fn sign_in(
    state: &AppState,
    username: &str,
    password: &SecretString,
) -> Result<(SecretToken, u64), GuardError> {
    let user = match state.directory.authenticate(username, password).await {
        Ok(user) => user,
        Err(DirectoryError::InvalidCredentials) => return Err(GuardError::Unauthenticated),
        Err(DirectoryError::Unavailable(cause)) => return Err(GuardError::Directory(cause)),
    };
    let claims = state
        .settings
        .claims
        .claims(&user.attributes)
        .ok_or(GuardError::Forbidden)?;
    if claims.role() != Some(Role::Superadmin) {
        tracing::warn!(
            sub = claims.sub(),
            "admin sign-in refused: not a superadmin"
        );
        return Err(GuardError::Forbidden);
    }
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
    tracing::info!(sub = %record.sub, "admin signed in");
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
