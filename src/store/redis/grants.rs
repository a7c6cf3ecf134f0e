//! Codes, access and refresh tokens in Redis, one round trip each; redeeming, rotating and
//! revoking run as Lua scripts (see `scripts.rs`).
//!
//! | key | type | holds |
//! |---|---|---|
//! | `{p}code:<hex>` | hash, EXPIRE | `data` (code JSON), `consumed_by` (grant id) |
//! | `{p}at:<hex>` | string, EX | access token JSON |
//! | `{p}rt:<hex>` | hash, EXPIRE | `data`, `grant`, `access` (the full key of the access token issued with it), `listed`, `kept`, `pruned` (see `common.lua`), `rotated_at`, `sealed` |
//! | `{p}grant:<id>` | list, EXPIRE | full keys of the grant's refresh tokens (and of an access token that may outlive its refresh token), in the order they were issued |
//! | `{p}client-issued:<client id>` | sorted set, EXPIRE | full keys of the client's codes not yet redeemed and grant indexes, by expiry |
//! | `{p}user-issued:<sub>` | sorted set, EXPIRE | full keys of the user's codes not yet redeemed and grant indexes, by expiry |
//! | `{p}session-issued:<sid>` | hash, EXPIRE | `g<grant id>` and `c<full code key>` → client id: the grants begun and codes not yet redeemed in an SSO session |

use super::connect::cached;
use super::group_commit::{self, Batch, GroupCommit};
use super::{Keys, RedisStore, Request};
use crate::clock::UnixTime;
use crate::domain::{ClientId, Digest};
use crate::store::codec::{decode, encode};
use crate::store::{
    AccessRecord, CodeRecord, GrantStore, Issuance, PendingRequest, Redemption, RefreshRecord,
    Rotation, StoreError, StoredCode, StoredRefresh, UserGrant,
};
use async_trait::async_trait;
use redis;
use std::sync::Arc;
use tokio::sync::oneshot::error::TryRecvError;
use tokio::time::Instant;

impl Keys {
    fn code(&self, code: &Digest) -> String {
        format!("{}{}", self.code_prefix(), code.as_hex())
    }

    /// What a code's digest is appended to, to name its key (also passed to the scripts).
    fn code_prefix(&self) -> String {
        format!("{}code:", self.prefix)
    }

    fn access(&self, token: &Digest) -> String {
        format!("{}at:{}", self.prefix, token.as_hex())
    }

    fn refresh(&self, token: &Digest) -> String {
        format!("{}rt:{}", self.prefix, token.as_hex())
    }

    /// What a grant id is appended to, to name its index (also passed to the scripts).
    fn grant_prefix(&self) -> String {
        format!("{}grant:", self.prefix)
    }

    fn grant(&self, grant_id: &str) -> String {
        format!("{}{grant_id}", self.grant_prefix())
    }

    /// Index of everything issued to a client (codes, grant indexes).
    fn issued(&self, client: &ClientId) -> String {
        format!("{}client-issued:{}", self.prefix, client.as_str())
    }

    /// Index of everything issued to a user (codes, grant indexes), for every app.
    fn user_issued(&self, sub: &str) -> String {
        format!("{}user-issued:{sub}", self.prefix)
    }

    /// Index of the grants begun and codes not yet redeemed in the SSO session `sid`.
    fn session_issued(&self, sid: &str) -> String {
        format!("{}session-issued:{sid}", self.prefix)
    }
}

impl RedisStore {
    /// The keys and arguments of an issuance in the layout `common.lua` documents: `spent` is
    /// the code or refresh token key being consumed.
    fn issuance(
        &self,
        spent: String,
        issue: &Issuance,
    ) -> Result<(Vec<String>, Vec<String>), StoreError> {
        let mut keys = vec![
            spent,
            self.keys.access(&issue.access_digest),
            self.keys.refresh(&issue.refresh_digest),
            self.keys.grant(&issue.grant_id),
            self.keys.issued(&issue.access.client_id),
            self.keys.user_issued(&issue.refresh.sub),
            self.keys.clients(),
        ];
        if let Some(sid) = &issue.refresh.sid {
            keys.push(self.keys.session_issued(sid));
        }
        let args = vec![
            issue.grant_id.clone(),
            encode("access token", &issue.access)?,
            issue.access_ttl.to_string(),
            encode("refresh token", &issue.refresh)?,
            issue.refresh_ttl.to_string(),
            self.keys.grant_prefix(),
        ];
        Ok((keys, args))
    }

    /// Queues `rotation` and answers its reply: written by another request's call, or by
    /// this request's when it gets the writer's turn first.
    ///
    /// Waiting is bounded by the store timeout, and the call this request writes is bounded
    /// by it too, so a request waits at most twice that whatever Redis does. A request that
    /// stops waiting leaves its rotation out of every later call (`take_awaited`), as an
    /// unanswered rotation must not be written. A rotation whose writer went away before
    /// answering (its request was dropped) is queued again: if that call had written it,
    /// the same rotation, stamped with the same `now`, finds itself within grace and answers
    /// the successor it wrote, so nobody else's lost request fails this one.
    async fn rotation_reply(&self, rotation: Arc<QueuedRotation>) -> RotateReply {
        let deadline = Instant::now() + self.timeout;
        'queued: loop {
            let mut outcome = self.rotations.push(Arc::clone(&rotation));
            loop {
                tokio::select! {
                    biased;
                    done = &mut outcome => match done {
                        Ok(reply) => return reply,
                        Err(_) => continue 'queued,
                    },
                    // Before the turn: past its deadline, a request writes no other call.
                    () = tokio::time::sleep_until(deadline) => return Err(self.timed_out()),
                    turn = self.rotations.turn() => {
                        match outcome.try_recv() {
                            Ok(reply) => return reply,
                            Err(TryRecvError::Closed) => continue 'queued,
                            Err(TryRecvError::Empty) => {}
                        }
                        // The rotations of requests ready now join this call.
                        tokio::task::yield_now().await;
                        let batch = self.rotations.take_awaited();
                        self.write_rotations(batch).await;
                        drop(turn);
                    }
                }
            }
        }
    }

    /// Writes the rotations of `batch` in one call of the rotation script, and answers each
    /// its reply.
    async fn write_rotations(&self, batch: Batch<Arc<QueuedRotation>, RotateReply>) {
        let mut call = self.scripts.rotate.prepare_invoke();
        for rotation in batch.items() {
            for key in &rotation.keys {
                call.key(key);
            }
            for arg in &rotation.args {
                call.arg(arg);
            }
        }
        let count = batch.len();
        if count == 0 {
            return;
        }
        if count == 1 {
            // One rotation answers its reply alone, as it always did.
            let reply = self.call(Request::Script(&call)).await;
            batch.answer([reply]);
            return;
        }
        match self.call::<Vec<Vec<String>>>(Request::Script(&call)).await {
            Ok(replies) if replies.len() == count => batch.answer(replies.into_iter().map(Ok)),
            Ok(replies) => {
                let answered = replies.len();
                batch.answer_all(|| {
                    Err(StoreError::Corrupt(format!(
                        "rotate script answered {answered} replies to {count} rotations"
                    )))
                })
            }
            Err(err) => batch.answer_all(|| Err(group_commit::shared(&err))),
        }
    }
}

/// How many rotations one call of the rotation script carries at most: the script runs them
/// one after another, holding Redis meanwhile (about a millisecond for this many).
pub(super) const MOST_ROTATIONS: usize = 32;

/// A rotation waiting for its call: its keys and arguments in the layout `rotate.lua` reads.
/// Shared, so that a rotation whose writer went away can be queued again.
pub(super) struct QueuedRotation {
    keys: Vec<String>,
    args: Vec<String>,
}

/// The rotation script's reply for one rotation.
type RotateReply = Result<Vec<String>, StoreError>;

/// Refresh token rotations waiting for the writer (see `group_commit.rs`).
pub(super) type RotationQueue = GroupCommit<Arc<QueuedRotation>, RotateReply>;

/// A new queue.
pub(super) fn rotations() -> RotationQueue {
    GroupCommit::new(MOST_ROTATIONS)
}

/// A command of one rotation that Redis refused, with the others of its call written: a key
/// of the wrong type is damaged data, anything else an unavailable store.
fn refused(error: &str) -> StoreError {
    if error.starts_with("WRONGTYPE") {
        StoreError::Corrupt(error.to_owned())
    } else {
        StoreError::Unavailable(error.to_owned())
    }
}

/// A script's reply whose first element was not one the script returns.
fn unexpected(script: &str, reply: &[String]) -> StoreError {
    let status = reply.first().map(String::as_str).unwrap_or("");
    StoreError::Corrupt(format!("{script} script answered `{status}`"))
}

#[async_trait]
impl GrantStore for RedisStore {
    async fn put_code(
        &self,
        code: &Digest,
        record: &CodeRecord,
        ttl: u64,
    ) -> Result<(), StoreError> {
        // One script, so no reader ever sees the code without its TTL or outside the index.
        let mut call = self.scripts.put_code.key(self.keys.code(code));
        call.key(self.keys.issued(&record.client_id))
            .key(self.keys.user_issued(record.claims.sub()));
        if let Some(sid) = &record.sid {
            call.key(self.keys.session_issued(sid));
        }
        call.arg(encode("code", record)?)
            .arg(ttl)
            .arg(record.client_id.as_str());
        let _: i64 = self.call(Request::Script(&call)).await?;
        self.codes_here.keep(code, record);
        Ok(())
    }

    async fn put_code_finishing(
        &self,
        code: &Digest,
        record: &CodeRecord,
        ttl: u64,
        id: &str,
        pending: &PendingRequest,
    ) -> Result<bool, StoreError> {
        let ending = self.keys.ending(id, pending);
        let mut call = self.scripts.put_code_finishing.key(&ending.request);
        call.key(&ending.load)
            .key(self.keys.code(code))
            .key(self.keys.issued(&record.client_id))
            .key(self.keys.user_issued(record.claims.sub()));
        if let Some(sid) = &record.sid {
            call.key(self.keys.session_issued(sid));
        }
        for group in &ending.groups {
            call.key(group);
        }
        call.arg(encode("code", record)?)
            .arg(ttl)
            .arg(record.client_id.as_str())
            .arg(&ending.minute)
            .arg(if record.sid.is_some() { "1" } else { "0" });
        let stored: i64 = self.call(Request::Script(&call)).await?;
        if stored == 0 {
            return Ok(false);
        }
        self.codes_here.keep(code, record);
        Ok(true)
    }

    async fn code(&self, code: &Digest) -> Result<Option<StoredCode>, StoreError> {
        let mut cmd = redis::cmd("HMGET");
        cmd.arg(self.keys.code(code)).arg("data").arg("consumed_by");
        let (data, consumed_by): (Option<String>, Option<String>) = self.cmd(&cmd).await?;
        let Some(data) = data else {
            return Ok(None);
        };
        Ok(Some(StoredCode {
            record: decode("code", &data)?,
            consumed_by,
        }))
    }

    async fn code_to_redeem(&self, code: &Digest) -> Result<Option<StoredCode>, StoreError> {
        // A copy is of a code not consumed when it was issued; if it has been since, the
        // redemption says so.
        if let Some(record) = self.codes_here.take(code) {
            return Ok(Some(StoredCode {
                record,
                consumed_by: None,
            }));
        }
        self.code(code).await
    }

    async fn redeem_code(&self, code: &Digest, issue: &Issuance) -> Result<Redemption, StoreError> {
        let (keys, args) = self.issuance(self.keys.code(code), issue)?;
        let mut call = self.scripts.redeem.prepare_invoke();
        for key in &keys {
            call.key(key);
        }
        for arg in &args {
            call.arg(arg);
        }
        call.arg(issue.access.client_id.as_str());
        let reply: Vec<String> = self.call(Request::Script(&call)).await?;
        match reply.first().map(String::as_str) {
            Some("issued") => {
                self.refresh_here
                    .keep(&issue.refresh_digest, &issue.refresh);
                Ok(Redemption::Issued)
            }
            Some("app_disabled") => Ok(Redemption::AppDisabled),
            Some("replayed") => Ok(Redemption::Replayed),
            Some("not_found") => Ok(Redemption::NotFound),
            _ => Err(unexpected("redeem", &reply)),
        }
    }

    async fn access_token(&self, token: &Digest) -> Result<Option<AccessRecord>, StoreError> {
        // Answered from the connection's copy while Redis has not said the key changed (see
        // `connect::caching`): an app asking userinfo again and again costs no round trip, and
        // a revocation, which deletes the key, still counts at once.
        let mut cmd = redis::cmd("GET");
        cmd.arg(self.keys.access(token)).set_cache_config(cached());
        let json: Option<String> = self.cmd(&cmd).await?;
        json.map(|j| decode("access token", &j)).transpose()
    }

    async fn refresh_token(&self, token: &Digest) -> Result<Option<StoredRefresh>, StoreError> {
        let mut cmd = redis::cmd("HMGET");
        cmd.arg(self.keys.refresh(token))
            .arg("data")
            .arg("rotated_at");
        let (data, rotated_at): (Option<String>, Option<String>) = self.cmd(&cmd).await?;
        let Some(data) = data else {
            return Ok(None);
        };
        let rotated_at = rotated_at
            .map(|t| t.parse::<UnixTime>())
            .transpose()
            .map_err(|e| StoreError::Corrupt(format!("refresh token rotated_at: {e}")))?;
        Ok(Some(StoredRefresh {
            record: decode("refresh token", &data)?,
            rotated_at,
        }))
    }

    async fn refresh_record(&self, token: &Digest) -> Result<Option<RefreshRecord>, StoreError> {
        if let Some(record) = self.refresh_here.take(token) {
            return Ok(Some(record));
        }
        let mut cmd = redis::cmd("HGET");
        cmd.arg(self.keys.refresh(token)).arg("data");
        let data: Option<String> = self.cmd(&cmd).await?;
        data.map(|d| decode("refresh token", &d)).transpose()
    }

    async fn rotate_refresh(
        &self,
        old: &Digest,
        issue: &Issuance,
        sealed_successor: &str,
        now: UnixTime,
        grace: u64,
    ) -> Result<Rotation, StoreError> {
        let (keys, mut args) = self.issuance(self.keys.refresh(old), issue)?;
        args.extend([
            now.to_string(),
            grace.to_string(),
            sealed_successor.to_owned(),
            issue.access.client_id.as_str().to_owned(),
            // rotate.lua finds the next rotation of a call after this many keys.
            keys.len().to_string(),
        ]);
        // Rotations of refreshes that arrive together go out in one call (group commit).
        let mut reply = self
            .rotation_reply(Arc::new(QueuedRotation { keys, args }))
            .await?;
        match reply.first().map(String::as_str) {
            Some("rotated") => {
                self.refresh_here
                    .keep(&issue.refresh_digest, &issue.refresh);
                Ok(Rotation::Rotated)
            }
            Some("app_disabled") => Ok(Rotation::AppDisabled),
            // This very rotation, queued again after its writer went away, had been written
            // by that writer's call: the successor is the one this request made.
            Some("grace") if reply.len() == 2 && reply[1] == sealed_successor => {
                self.refresh_here
                    .keep(&issue.refresh_digest, &issue.refresh);
                Ok(Rotation::Rotated)
            }
            Some("grace") if reply.len() == 2 => Ok(Rotation::Grace(reply.swap_remove(1))),
            Some("reused") => Ok(Rotation::Reused),
            Some("not_found") => Ok(Rotation::NotFound),
            Some("failed") => Err(refused(reply.get(1).map(String::as_str).unwrap_or(""))),
            _ => Err(unexpected("rotate", &reply)),
        }
    }

    async fn revoke_grant(&self, grant_id: &str) -> Result<(), StoreError> {
        let call = self.scripts.revoke.key(self.keys.grant(grant_id));
        let _: i64 = self.call(Request::Script(&call)).await?;
        Ok(())
    }

    async fn revoke_client(&self, id: &ClientId) -> Result<(), StoreError> {
        let mut call = self.scripts.revoke_client.key(self.keys.issued(id));
        call.arg(self.keys.grant_prefix());
        let _: i64 = self.call(Request::Script(&call)).await?;
        Ok(())
    }

    async fn revoke_user(&self, sub: &str) -> Result<u64, StoreError> {
        let mut call = self.scripts.revoke_user.key(self.keys.user_issued(sub));
        call.arg(self.keys.grant_prefix());
        self.call(Request::Script(&call)).await
    }

    async fn revoke_user_codes(&self, sub: &str, client: &ClientId) -> Result<u64, StoreError> {
        let mut call = self
            .scripts
            .revoke_user_codes
            .key(self.keys.user_issued(sub));
        call.key(self.keys.issued(client))
            .arg(self.keys.code_prefix());
        self.call(Request::Script(&call)).await
    }

    async fn revoke_session(&self, sid: &str) -> Result<Vec<ClientId>, StoreError> {
        let mut call = self
            .scripts
            .revoke_session
            .key(self.keys.session_issued(sid));
        call.arg(self.keys.grant_prefix());
        let apps: Vec<String> = self.call(Request::Script(&call)).await?;
        // An id the store wrote is always one; anything else is skipped rather than trusted.
        Ok(apps.iter().filter_map(|id| ClientId::parse(id)).collect())
    }

    async fn user_grants(&self, sub: &str) -> Result<Vec<UserGrant>, StoreError> {
        let mut call = self.scripts.user_grants.key(self.keys.user_issued(sub));
        call.arg(self.keys.grant_prefix())
            .arg(self.keys.refresh(&Digest::from_hex("")));
        let found: Vec<(String, String)> = self.call(Request::Script(&call)).await?;
        found
            .into_iter()
            .map(|(grant_id, data)| {
                Ok(UserGrant {
                    grant_id,
                    refresh: decode("refresh token", &data)?,
                })
            })
            .collect()
    }
}
