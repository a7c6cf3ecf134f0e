//! A person's passkeys: listed, renamed, removed (one, or all with their other factors).

use super::{parse_name, Context, PasskeyError};
use crate::events::Event;
use crate::store::PasskeyRecord;
use webauthn_rs_core::proto::Credential;

/// The library's credential kept in `record`.
pub(super) fn credential_of(record: &PasskeyRecord) -> Result<Credential, PasskeyError> {
    serde_json::from_str(&record.credential).map_err(|e| PasskeyError::Corrupt(e.to_string()))
}

/// `sub`'s passkeys, oldest first.
pub async fn list(cx: &impl Context, sub: &str) -> Result<Vec<PasskeyRecord>, PasskeyError> {
    Ok(cx.store().passkeys(sub).await?)
}

/// How many passkeys `sub` has.
pub async fn count(cx: &impl Context, sub: &str) -> Result<usize, PasskeyError> {
    Ok(cx.store().passkeys(sub).await?.len())
}

/// Gives `sub`'s passkey `id` the name `name`; another person's passkey is
/// [`PasskeyError::NotTheirs`].
pub async fn rename(
    cx: &impl Context,
    sub: &str,
    id: &str,
    name: &str,
) -> Result<(), PasskeyError> {
    let name = parse_name(name)?;
    let mut record = cx
        .store()
        .passkeys(sub)
        .await?
        .into_iter()
        .find(|p| p.id == id)
        .ok_or(PasskeyError::NotTheirs)?;
    record.name = name;
    if !cx.store().update_passkey(sub, &record).await? {
        return Err(PasskeyError::NotTheirs);
    }
    Ok(())
}

/// Removes `sub`'s passkey `id`; another person's passkey is [`PasskeyError::NotTheirs`] and
/// stays.
pub async fn remove(cx: &impl Context, sub: &str, id: &str) -> Result<(), PasskeyError> {
    let name = cx
        .store()
        .passkeys(sub)
        .await?
        .into_iter()
        .find(|p| p.id == id)
        .map(|p| p.name)
        .ok_or(PasskeyError::NotTheirs)?;
    if !cx.store().delete_passkey(sub, id).await? {
        return Err(PasskeyError::NotTheirs);
    }
    let event = Event::PasskeyRemoved {
        sub: sub.to_owned(),
        name,
    };
    cx.events().publish(event).await;
    Ok(())
}

/// Removes every passkey of `sub` (with their other second factors, by a superadmin's reset);
/// answers how many there were.
pub async fn remove_all(cx: &impl Context, sub: &str) -> Result<u64, PasskeyError> {
    Ok(cx.store().delete_passkeys(sub).await?)
}
