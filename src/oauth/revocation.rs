//! Token revocation (RFC 7009): an app revokes one of its tokens and the grant behind it.

use super::presented_token::{find, required, Found};
use super::{Context, OAuthError};
use crate::domain::{ClientRecord, SecretToken};
use crate::events::{Event, Revocation};

/// Revokes an access or refresh token of `client` and every token of its grant.
///
/// Unknown, expired and already revoked tokens answer success (RFC 7009 §2.2), and so do
/// tokens of another app, which are left alone: the answer tells nothing about them.
pub async fn revoke(
    cx: &impl Context,
    client: &ClientRecord,
    token: Option<SecretToken>,
    hint: Option<&str>,
) -> Result<(), OAuthError> {
    let token = required(token)?;
    let (grant_id, owner, sub, refresh) = match find(cx, &token, hint).await? {
        None => return Ok(()),
        Some(Found::Access(a)) => (a.grant_id, a.client_id, a.claims.sub().to_owned(), false),
        Some(Found::Refresh(r)) => {
            let r = r.record;
            (r.grant_id, r.client_id, r.sub, true)
        }
    };
    if owner != client.client_id {
        tracing::warn!(client_id = %client.client_id, "revocation of another app's token ignored");
        return Ok(());
    }
    cx.store().revoke_grant(&grant_id).await?;
    let event = Event::GrantRevoked {
        client_id: owner,
        sub,
        reason: Revocation::ByApp { refresh },
        address: None,
    };
    cx.events().publish(event).await;
    Ok(())
}
