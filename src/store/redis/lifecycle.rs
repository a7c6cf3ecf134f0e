//! The Redis store's part of the Connected Apps lifecycle: deleting a client, revoking
//! everything issued to it, the audit log (a sorted set) and each app's recent failures (a
//! capped list). One round trip each.

use super::{RedisStore, Request};
use crate::clock::UnixTime;
use crate::domain::ClientId;
use crate::store::StoreError;
use deadpool_redis::redis;

impl RedisStore {
    pub(super) async fn remove_client(&self, id: &ClientId) -> Result<(), StoreError> {
        let mut cmd = redis::cmd("HDEL");
        cmd.arg(self.keys.clients()).arg(id.as_str());
        let _: i64 = self.cmd(&cmd).await?;
        Ok(())
    }

    pub(super) async fn revoke_everything_of(&self, id: &ClientId) -> Result<(), StoreError> {
        let mut call = self.scripts.revoke_client.key(self.keys.issued(id));
        call.arg(self.keys.grant_prefix());
        let _: i64 = self.call(Request::Script(&call)).await?;
        Ok(())
    }

    pub(super) async fn add_audit(
        &self,
        at: UnixTime,
        event: &str,
        retention: u64,
        keep: usize,
    ) -> Result<(), StoreError> {
        let key = self.keys.audit();
        // Ranks count from the oldest: everything below the `keep` newest goes.
        let over = -(i64::try_from(keep).unwrap_or(i64::MAX).saturating_add(1));
        let oldest = at.saturating_sub(retention);
        let mut pipe = redis::pipe();
        pipe.atomic()
            .cmd("ZADD")
            .arg(&key)
            .arg(at)
            .arg(event)
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

    pub(super) async fn read_audit(
        &self,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let mut cmd = redis::cmd("ZREVRANGE");
        cmd.arg(self.keys.audit())
            .arg(offset)
            .arg(offset + limit - 1);
        self.cmd(&cmd).await
    }

    pub(super) async fn add_failure(
        &self,
        id: &ClientId,
        event: &str,
        keep: usize,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let key = self.keys.failures(id);
        let mut pipe = redis::pipe();
        pipe.atomic()
            .cmd("LPUSH")
            .arg(&key)
            .arg(event)
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

    pub(super) async fn read_failures(&self, id: &ClientId) -> Result<Vec<String>, StoreError> {
        let mut cmd = redis::cmd("LRANGE");
        cmd.arg(self.keys.failures(id)).arg(0).arg(-1);
        self.cmd(&cmd).await
    }
}
