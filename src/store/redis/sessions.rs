//! SSO sessions, pending authorize requests and remembered consents in Redis: strings with an
//! expiry under `{p}sess:<session digest>`, `{p}authreq:<request id>` and
//! `{p}consent:<sub>\n<client id>`; `{p}user-sessions:<sub>`, a sorted set (EXPIRE) of the full
//! keys of a user's sessions by expiry, written by a script together with each session; and
//! `{p}pendby:<group>`, a sorted set (EXPIRE) of the full keys of a group's pending requests
//! scored by their expiry in microseconds, written by a script together with each request; and
//! `{p}pendload`, a hash (EXPIRE) of the requests (`n<minute>`) and bytes (`b<minute>`) written
//! in each minute and not yet finished, which bounds what all pending requests keep.

use super::{Keys, RedisStore, Request};
use crate::domain::Digest;
use crate::store::codec::{decode, encode};
use crate::store::namespace::Namespace;
use crate::store::sessions::SessionBackend;
use crate::store::{
    EndedSessions, PendingBound, PendingLimits, PendingLoad, PendingPut, PendingRequest,
    SessionRecord, StoreError,
};
use async_trait::async_trait;

/// The keys and the argument that ending a pending request names (see `finish.lua`).
pub(super) struct Ending {
    /// The request.
    pub(super) request: String,
    /// Its groups.
    pub(super) groups: Vec<String>,
    /// The load of every pending request.
    pub(super) load: String,
    /// The minute the request is filed under in the load, or empty for a request written
    /// before the load was kept.
    pub(super) minute: String,
}

impl Keys {
    /// What ending pending request `id` names.
    pub(super) fn ending(&self, id: &str, pending: &PendingRequest) -> Ending {
        Ending {
            request: self.record(Namespace::AuthRequest, id),
            groups: pending
                .groups
                .iter()
                .map(|group| self.pending_group(group))
                .collect(),
            load: self.pending_load(),
            minute: pending
                .admitted_at
                .map(|at| (at / 60).to_string())
                .unwrap_or_default(),
        }
    }

    /// Index of a user's sessions.
    fn user_sessions(&self, sub: &str) -> String {
        format!("{}user-sessions:{sub}", self.prefix)
    }

    /// A bounded group of pending requests.
    fn pending_group(&self, group: &str) -> String {
        format!("{}pendby:{group}", self.prefix)
    }

    /// The load of every pending request, by the minute each was written.
    fn pending_load(&self) -> String {
        format!("{}pendload", self.prefix)
    }
}

#[async_trait]
impl SessionBackend for RedisStore {
    async fn put_session(
        &self,
        id: &Digest,
        session: &SessionRecord,
        ttl: u64,
    ) -> Result<(), StoreError> {
        // One script, so no session is ever live outside its user's index.
        let key = self.keys.record(Namespace::Session, id.as_hex());
        let mut call = self.scripts.put_session.key(key);
        call.key(self.keys.user_sessions(session.claims.sub()))
            .arg(encode("session", session)?)
            .arg(ttl);
        let _: i64 = self.call(Request::Script(&call)).await?;
        Ok(())
    }

    async fn end_sessions(&self, sub: &str) -> Result<EndedSessions, StoreError> {
        let mut call = self.scripts.end_sessions.key(self.keys.user_sessions(sub));
        call.arg(sub);
        let (count, sids): (u64, Vec<String>) = self.call(Request::Script(&call)).await?;
        Ok(EndedSessions { count, sids })
    }

    async fn user_sessions(&self, sub: &str) -> Result<Vec<(Digest, SessionRecord)>, StoreError> {
        let call = self.scripts.user_sessions.key(self.keys.user_sessions(sub));
        let found: Vec<(String, String)> = self.call(Request::Script(&call)).await?;
        let prefix = self.keys.record(Namespace::Session, "");
        Ok(found
            .into_iter()
            .filter_map(|(key, json)| {
                let session = decode::<SessionRecord>("session", &json).ok()?;
                let id = key.strip_prefix(&prefix)?;
                // A session id is written again only for its own user; should one name
                // someone else now, it is not theirs to see.
                (session.claims.sub() == sub).then(|| (Digest::from_hex(id), session))
            })
            .collect())
    }

    async fn put_pending(
        &self,
        id: &str,
        pending: &PendingRequest,
        ttl: u64,
        bounds: &[PendingBound],
        limits: PendingLimits,
    ) -> Result<PendingPut, StoreError> {
        let mut call = self
            .scripts
            .put_pending
            .key(self.keys.record(Namespace::AuthRequest, id));
        for bound in bounds {
            call.key(self.keys.pending_group(&bound.group));
        }
        call.key(self.keys.pending_load());
        let minute = pending.admitted_at.unwrap_or(0) / 60;
        call.arg(encode("pending request", pending)?)
            .arg(ttl)
            .arg(minute)
            .arg(limits.requests)
            .arg(limits.bytes)
            .arg(self.keys.pending_group(""));
        for bound in bounds {
            call.arg(bound.max)
                .arg(if bound.evicts { "e" } else { "r" });
        }
        let (outcome, requests, bytes, group): (i64, u64, u64, String) =
            self.call(Request::Script(&call)).await?;
        let load = PendingLoad { requests, bytes };
        Ok(match outcome {
            2 => PendingPut::Stored(load),
            1 => PendingPut::GroupFull(
                group
                    .strip_prefix(&self.keys.pending_group(""))
                    .unwrap_or(&group)
                    .to_owned(),
            ),
            _ => PendingPut::StoreFull(load),
        })
    }

    async fn finish_pending(&self, id: &str, pending: &PendingRequest) -> Result<bool, StoreError> {
        let ending = self.keys.ending(id, pending);
        let mut call = self.scripts.finish_pending.key(&ending.request);
        for group in &ending.groups {
            call.key(group);
        }
        call.key(&ending.load).arg(&ending.minute);
        let deleted: i64 = self.call(Request::Script(&call)).await?;
        Ok(deleted > 0)
    }
}
