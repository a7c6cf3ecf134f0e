//! Leavers are out at once: a signed-in user is confirmed by the directory again before their
//! session yields anything, whenever the last confirmation is older than
//! `session.directory_recheck_secs`. A user no longer found (deleted, or excluded by
//! `directory.lookup_filter`) is signed out; an unanswered directory signs no one out.

use super::{destroy, load, Context, SessionRecord};
use crate::backchannel;
use crate::clock::UnixTime;
use crate::directory::DirectoryError;
use crate::domain::{Claims, Digest};
use crate::store::StoreError;

/// Why a session could be neither confirmed nor ended.
#[derive(Debug, thiserror::Error)]
pub enum RecheckError {
    /// The store is down.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The directory did not answer: the session is left as it was.
    #[error("directory unavailable: {0}")]
    Directory(String),
}

impl From<DirectoryError> for RecheckError {
    fn from(err: DirectoryError) -> Self {
        match err {
            DirectoryError::Unavailable(cause) => RecheckError::Directory(cause),
            // A lookup never checks a password; a server answering so is a directory fault.
            DirectoryError::InvalidCredentials | DirectoryError::AccountUnusable(_) => {
                RecheckError::Directory("the lookup was refused".into())
            }
        }
    }
}

// The record is the store's; how long its confirmation lasts is this flow's.
impl SessionRecord {
    /// When the directory last confirmed the user: sessions written before confirmations were
    /// recorded count from their sign-in.
    pub fn last_checked(&self) -> UnixTime {
        self.checked_at.unwrap_or(self.auth_time)
    }

    /// When the session was last used, as far as it was noted: its sign-in at least.
    pub fn last_used(&self) -> UnixTime {
        self.last_seen.unwrap_or(self.auth_time).max(self.auth_time)
    }
}

/// Whether a confirmation made at `checked_at` is too old to rely on now.
pub fn due(cx: &impl Context, checked_at: UnixTime) -> bool {
    let bound = cx.session_settings().directory_recheck.as_secs();
    bound == 0 || cx.now().saturating_sub(checked_at) > bound
}

/// The user `sub` as the directory maps them now; `None` when no longer found, or when the
/// entry found maps to another subject.
pub async fn current_claims(
    cx: &impl Context,
    sub: &str,
) -> Result<Option<Claims>, DirectoryError> {
    let user = cx.directory().lookup(sub).await?;
    Ok(user
        .and_then(|u| cx.claim_mapping().claims_of(&u))
        .filter(|claims| claims.sub() == sub))
}

/// The live session behind a cookie value, confirmed by the directory when its confirmation
/// is due ([`due`]); the confirmation renews the claims, so a changed attribute shows. A user
/// the directory no longer finds has every session of theirs ended, and `None` is answered.
pub async fn current(
    cx: &impl Context,
    cookie: Option<&str>,
) -> Result<Option<SessionRecord>, RecheckError> {
    let Some(mut record) = load(cx, cookie).await? else {
        return Ok(None);
    };
    let Some(cookie) = cookie else {
        return Ok(None);
    };
    if !due(cx, record.last_checked()) {
        let now = cx.now();
        // A session written before sessions had a public id gets one before it yields a code,
        // so that the tokens issued in it name it. Its last use is noted a few minutes apart
        // at most, so that a browser busy with many apps costs no write per request.
        let unseen = now.saturating_sub(record.last_used()) >= super::LAST_SEEN_EVERY;
        if record.sid.is_none() || unseen {
            record.sid.get_or_insert_with(super::public_id);
            record.last_seen = Some(now);
            let ttl = record.expires_at.saturating_sub(now).max(1);
            cx.store()
                .put_session(&Digest::of(cookie), &record, ttl)
                .await?;
        }
        return Ok(Some(record));
    }
    let sub = record.claims.sub().to_owned();
    let Some(claims) = current_claims(cx, &sub).await? else {
        // Every session of theirs ends, and the apps that got tokens in them are told.
        let ended = backchannel::end_sessions(cx, &sub).await?;
        // A session written before the per-user index existed is not in it.
        destroy(cx, cookie).await?;
        if let Some(sid) = record.sid.as_deref().filter(|sid| !ended.includes(sid)) {
            backchannel::session_ended(cx, &sub, sid).await?;
        }
        tracing::info!(
            sub,
            "session ended: the user is no longer in the directory, or disabled or expired there"
        );
        return Ok(None);
    };
    let now = cx.now();
    record.claims = claims;
    record.checked_at = Some(now);
    record.last_seen = Some(now);
    record.sid.get_or_insert_with(super::public_id);
    let ttl = record.expires_at.saturating_sub(now).max(1);
    cx.store()
        .put_session(&Digest::of(cookie), &record, ttl)
        .await?;
    Ok(Some(record))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_stored_before_confirmations_were_recorded_counts_from_its_sign_in() {
        let json = r#"{"claims":{"sub":"ada"},"auth_time":1000,"amr":["pwd"],"expires_at":9000}"#;
        let record: SessionRecord = serde_json::from_str(json).unwrap();
        assert_eq!(record.checked_at, None);
        assert_eq!(record.last_checked(), 1000);
    }
}
