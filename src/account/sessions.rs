//! The browsers a person is signed in with (their SSO sessions), and ending them. A session is
//! named by its public id (the `sid` of its id_tokens), never by its cookie.

use super::{AccountError, Context, Person};
use crate::backchannel;
use crate::clock::UnixTime;
use crate::domain::audit::Action;
use crate::domain::Digest;
use crate::store::{Device, SessionRecord};

/// One session on the person's account page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionEntry {
    /// Its public id.
    pub sid: String,
    /// Where it was signed in from.
    pub device: Device,
    /// When the password was checked.
    pub signed_in: UnixTime,
    /// When it was last used, to within a few minutes.
    pub last_seen: UnixTime,
    /// Whether it is the session of the browser asking.
    pub this_browser: bool,
}

/// The live sessions of `sub` that have a public id, the one behind `cookie` (the browser
/// asking) first, then the most recently used first.
pub async fn list(
    cx: &impl Context,
    sub: &str,
    cookie: &str,
) -> Result<Vec<SessionEntry>, AccountError> {
    let this = Digest::of(cookie);
    let now = cx.now();
    let mut entries: Vec<SessionEntry> = live(cx, sub, now)
        .await?
        .into_iter()
        .filter_map(|(id, record)| {
            let last_seen = record.last_used();
            Some(SessionEntry {
                sid: record.sid?,
                device: record.device.unwrap_or_default(),
                signed_in: record.auth_time,
                last_seen,
                this_browser: id.ct_eq(&this),
            })
        })
        .collect();
    entries.sort_by(|a, b| {
        (b.this_browser, b.last_seen, &b.sid).cmp(&(a.this_browser, a.last_seen, &a.sid))
    });
    Ok(entries)
}

/// The sessions of `sub` not yet expired.
async fn live(
    cx: &impl Context,
    sub: &str,
    now: UnixTime,
) -> Result<Vec<(Digest, SessionRecord)>, AccountError> {
    let mut sessions = cx.store().user_sessions(sub).await?;
    sessions.retain(|(_, record)| record.expires_at > now);
    Ok(sessions)
}

/// Ends the person's session `sid` (this browser's too: the caller then signs it out): the
/// grants begun in it are revoked and the apps told, as at sign-out. A `sid` that is not one
/// of the person's live sessions is [`AccountError::NotTheirs`], and nothing changes.
/// Answers whether it was the session behind `cookie`. Audited.
pub async fn end(
    cx: &impl Context,
    person: Person<'_>,
    cookie: &str,
    sid: &str,
) -> Result<bool, AccountError> {
    let sessions = live(cx, person.sub, cx.now()).await?;
    let (id, _) = sessions
        .into_iter()
        .find(|(_, record)| record.sid.as_deref() == Some(sid))
        .ok_or(AccountError::NotTheirs("session"))?;
    end_one(cx, person.sub, &id, sid).await?;
    let detail = "one session ended by the person".to_owned();
    cx.events()
        .publish(person.event(Action::SessionEnded, None, detail))
        .await;
    Ok(id.ct_eq(&Digest::of(cookie)))
}

/// Ends every session of the person but the one behind `cookie`; answers how many ended.
/// Audited.
pub async fn end_others(
    cx: &impl Context,
    person: Person<'_>,
    cookie: &str,
) -> Result<u64, AccountError> {
    let this = Digest::of(cookie);
    let mut ended = 0;
    for (id, record) in live(cx, person.sub, cx.now()).await? {
        if id.ct_eq(&this) {
            continue;
        }
        match &record.sid {
            Some(sid) => end_one(cx, person.sub, &id, sid).await?,
            None => cx.store().delete_session(&id).await?,
        }
        ended += 1;
    }
    let detail = format!("every other session ended by the person: {ended}");
    cx.events()
        .publish(person.event(Action::SessionEnded, None, detail))
        .await;
    Ok(ended)
}

/// Deletes the session kept under `id` and does what its end does to apps.
async fn end_one(cx: &impl Context, sub: &str, id: &Digest, sid: &str) -> Result<(), AccountError> {
    cx.store().delete_session(id).await?;
    backchannel::session_ended(cx, sub, sid).await?;
    Ok(())
}
