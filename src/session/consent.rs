//! Remembered approvals: per user, app and scopes.

use super::Context;
use crate::domain::{ClientId, ScopeSet};
use crate::store::{Namespace, StoreError};

fn key(sub: &str, client: &ClientId) -> String {
    format!("{}\n{}", sub, client.as_str())
}

/// Whether the user already approved at least `scopes` for the app.
pub async fn covers(
    cx: &impl Context,
    sub: &str,
    client: &ClientId,
    scopes: &ScopeSet,
) -> Result<bool, StoreError> {
    let Some(json) = cx
        .store()
        .get(Namespace::Consent, &key(sub, client))
        .await?
    else {
        return Ok(false);
    };
    let granted: ScopeSet =
        serde_json::from_str(&json).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    Ok(scopes.is_subset(&granted))
}

/// Remembers an approval, adding to what the user approved before (unless remembering is
/// switched off).
pub async fn remember(
    cx: &impl Context,
    sub: &str,
    client: &ClientId,
    scopes: &ScopeSet,
) -> Result<(), StoreError> {
    let ttl = cx.session_settings().consent_ttl.as_secs();
    if ttl == 0 {
        return Ok(());
    }
    let key = key(sub, client);
    let mut approved = scopes.clone();
    if let Some(json) = cx.store().get(Namespace::Consent, &key).await? {
        if let Ok(before) = serde_json::from_str::<ScopeSet>(&json) {
            approved = approved.union(&before);
        }
    }
    let json = serde_json::to_string(&approved).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    cx.store().put(Namespace::Consent, &key, &json, ttl).await
}
