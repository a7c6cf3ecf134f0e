//! Registering connected apps: ids, secrets shown once, digests kept.

use crate::domain::redirect_uri::RedirectUriError;
use crate::domain::{ClientId, ClientRecord, RedirectUri, SecretToken};
use crate::state::AppState;
use crate::store::StoreError;

/// What a superadmin asks for when registering an app.
#[derive(Debug, Clone)]
pub struct NewApp {
    /// Display name (shown on the consent page).
    pub name: String,
    /// Callback URLs.
    pub redirect_uris: Vec<String>,
    /// A native or mobile app without a secret (PKCE required).
    pub public: bool,
    /// Whether a confidential app must use PKCE.
    pub require_pkce: bool,
    /// Where OpenID Connect logout may send the browser back to (validated like redirect URIs).
    pub post_logout_redirect_uris: Vec<String>,
}

/// Why an app cannot be registered.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("name must be 1 to 100 characters")]
    BadName,
    #[error("at least one redirect URI is required")]
    NoRedirectUri,
    #[error(transparent)]
    BadRedirectUri(#[from] RedirectUriError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Registers an app; answers its record and, for a confidential app, the secret (shown once).
pub async fn create(
    state: &AppState,
    admin: &str,
    new: NewApp,
) -> Result<(ClientRecord, Option<SecretToken>), AppError> {
    let name = new.name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(AppError::BadName);
    }
    if new.redirect_uris.is_empty() {
        return Err(AppError::NoRedirectUri);
    }
    let mut redirect_uris = Vec::new();
    for raw in &new.redirect_uris {
        let uri = RedirectUri::parse(raw.trim())?;
        if !redirect_uris.contains(&uri) {
            redirect_uris.push(uri);
        }
    }
    let post_logout_redirect_uris = parse_uris(&new.post_logout_redirect_uris)?;
    let secret = (!new.public).then(SecretToken::generate);
    let record = ClientRecord {
        client_id: ClientId::generate(),
        name: name.to_owned(),
        secret_digest: secret.as_ref().map(SecretToken::digest),
        redirect_uris,
        require_pkce: new.public || new.require_pkce,
        enabled: true,
        created_by: admin.to_owned(),
        created_at: state.now(),
        post_logout_redirect_uris,
    };
    state.store.put_client(&record).await?;
    tracing::info!(target: "audit", admin, client_id = %record.client_id, name = %record.name, "app registered");
    Ok((record, secret))
}

/// Parses URIs with the redirect URI rules, dropping repeats.
fn parse_uris(raw: &[String]) -> Result<Vec<RedirectUri>, RedirectUriError> {
    let mut uris = Vec::new();
    for raw in raw {
        let uri = RedirectUri::parse(raw.trim())?;
        if !uris.contains(&uri) {
            uris.push(uri);
        }
    }
    Ok(uris)
}

/// Every app, by name.
pub async fn list(state: &AppState) -> Result<Vec<ClientRecord>, StoreError> {
    let mut apps = state.store.clients().await?;
    apps.sort_by_key(|a| a.name.to_lowercase());
    Ok(apps)
}
