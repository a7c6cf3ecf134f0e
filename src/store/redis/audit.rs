//! What the event listeners keep in Redis, one round trip each.
//!
//! | key | type | holds |
//! |---|---|---|
//! | `{p}audit` | sorted set | audit events (JSON) scored by time |
//! | `{p}failures:<client id>` | list, EXPIRE | the client's recent failed requests (JSON) |
//! | `{p}lastused:<client id>` | string, EX | when the client last obtained tokens (Unix time) |

use super::{Keys, RedisStore, Request};
use crate::clock::UnixTime;
use crate::domain::ClientId;
use crate::store::codec::{decode, encode};
use crate::store::namespace::{Namespace, Records};
use crate::store::{AuditRecord, AuditStore, DoctorEntry, StoreError};
use async_trait::async_trait;
use deadpool_redis::redis;

impl Keys {
    fn audit(&self) -> String {
        format!("{}audit", self.prefix)
    }

    fn failures(&self, client: &ClientId) -> String {
        format!("{}failures:{}", self.prefix, client.as_str())
    }
}

#[async_trait]
impl AuditStore for RedisStore {
    async fn append_audit(
        &self,
        record: &AuditRecord,
        retention: u64,
        keep: usize,
    ) -> Result<(), StoreError> {
        let event = encode("audit event", record)?;
        let at = record.at;
        let key = self.keys.audit();
        // Ranks count from the oldest: everything below the `keep` newest goes.
        let over = -(i64::try_from(keep).unwrap_or(i64::MAX).saturating_add(1));
        let oldest = at.saturating_sub(retention);
        let mut pipe = redis::pipe();
        pipe.atomic()
            .cmd("ZADD")
            .arg(&key)
            .arg(at)
            .arg(&event)
            .ignore()
            .cmd("ZREMRANGEBYSCORE")
            .arg(&key)
            .arg("-inf")
            .arg(format!("({oldest}"))
            .ignore()
            .cmd("ZREMRANGEBYRANK")
            .arg(&key)
            .arg(0)
            .arg(over)
            .ignore();
        self.call(Request::Pipe(&pipe)).await
    }

    async fn audit_events(
        &self,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<AuditRecord>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let mut cmd = redis::cmd("ZREVRANGE");
        cmd.arg(self.keys.audit())
            .arg(offset)
            .arg(offset + limit - 1);
        let events: Vec<String> = self.cmd(&cmd).await?;
        events.iter().map(|e| decode("audit event", e)).collect()
    }

    async fn push_failure(
        &self,
        id: &ClientId,
        entry: &DoctorEntry,
        keep: usize,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let event = encode("app doctor entry", entry)?;
        let key = self.keys.failures(id);
        let mut pipe = redis::pipe();
        pipe.atomic()
            .cmd("LPUSH")
            .arg(&key)
            .arg(&event)
            .ignore()
            .cmd("LTRIM")
            .arg(&key)
            .arg(0)
            .arg(keep.saturating_sub(1))
            .ignore()
            .cmd("EXPIRE")
            .arg(&key)
            .arg(ttl)
            .ignore();
        self.call(Request::Pipe(&pipe)).await
    }

    async fn failures(&self, id: &ClientId) -> Result<Vec<DoctorEntry>, StoreError> {
        let mut cmd = redis::cmd("LRANGE");
        cmd.arg(self.keys.failures(id)).arg(0).arg(-1);
        let entries: Vec<String> = self.cmd(&cmd).await?;
        Ok(entries
            .iter()
            .filter_map(|e| decode("app doctor entry", e).ok())
            .collect())
    }

    async fn mark_used(&self, id: &ClientId, at: UnixTime, ttl: u64) -> Result<(), StoreError> {
        self.put_text(Namespace::AppLastUsed, id.as_str(), at.to_string(), ttl)
            .await
    }

    async fn last_used(&self, id: &ClientId) -> Result<Option<UnixTime>, StoreError> {
        let mark = self.text(Namespace::AppLastUsed, id.as_str()).await?;
        Ok(mark.and_then(|t| t.parse().ok()))
    }
}
