//! Remembered approvals: per user, app and scopes.

use super::Context;
use crate::domain::{ClientId, ScopeSet};
use crate::store::StoreError;

/// Whether the user already approved at least `scopes` for the app.
pub async fn covers(
    cx: &impl Context,
    sub: &str,
    client: &ClientId,
    scopes: &ScopeSet,
) -> Result<bool, StoreError> {
    let granted = cx.store().consent(sub, client).await?;
    Ok(granted.is_some_and(|granted| scopes.is_subset(&granted)))
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
    let approved = match cx.store().consent(sub, client).await {
        Ok(Some(before)) => scopes.union(&before),
        // An approval that no longer reads back is replaced by this one.
        Ok(None) | Err(StoreError::Corrupt(_)) => scopes.clone(),
        Err(e) => return Err(e),
    };
    cx.store().put_consent(sub, client, &approved, ttl).await
}
