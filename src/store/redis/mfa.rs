//! Second-factor enrolments, one-time claims and attempt windows in Redis.
//!
//! | key | type | holds |
//! |---|---|---|
//! | `{p}mfa:<sub>` | string | the enrolment JSON (secret encrypted by the caller) |
//! | `{p}mfarc:<sub>` | set | digests of unspent recovery codes |
//! | `{p}attempts:<key>` | sorted set, EXPIRE | attempt ids scored by Unix time |
//!
//! Each operation is one round trip; the multi-command ones run as a MULTI/EXEC transaction,
//! so every node sees them whole.

use super::{Keys, RedisStore, Request};
use crate::clock::UnixTime;
use crate::domain::Digest;
use crate::store::{Namespace, StoreError};
use deadpool_redis::redis;

impl Keys {
    fn second_factor(&self, sub: &str) -> String {
        format!("{}mfa:{sub}", self.prefix)
    }

    fn recovery(&self, sub: &str) -> String {
        format!("{}mfarc:{sub}", self.prefix)
    }

    fn attempts(&self, key: &str) -> String {
        format!("{}attempts:{key}", self.prefix)
    }
}

impl RedisStore {
    pub(super) async fn put_new_record(
        &self,
        ns: Namespace,
        key: &str,
        value: &str,
        ttl: u64,
    ) -> Result<bool, StoreError> {
        let mut cmd = redis::cmd("SET");
        cmd.arg(self.keys.record(ns, key))
            .arg(value)
            .arg("NX")
            .arg("EX")
            .arg(ttl);
        let reply: Option<String> = self.cmd(&cmd).await?;
        Ok(reply.is_some())
    }

    pub(super) async fn add_attempt_window(
        &self,
        key: &str,
        id: &str,
        now: UnixTime,
        window: u64,
    ) -> Result<u64, StoreError> {
        let key = self.keys.attempts(key);
        let oldest_kept = now.saturating_sub(window);
        let mut pipe = redis::pipe();
        pipe.atomic()
            .cmd("ZREMRANGEBYSCORE")
            .arg(&key)
            .arg("-inf")
            .arg(format!("({oldest_kept}"))
            .ignore();
        // Attempts exactly `window` seconds old are out of the window too.
        pipe.cmd("ZREMRANGEBYSCORE")
            .arg(&key)
            .arg(oldest_kept)
            .arg(oldest_kept)
            .ignore()
            .cmd("ZADD")
            .arg(&key)
            .arg(now)
            .arg(id)
            .ignore()
            .cmd("EXPIRE")
            .arg(&key)
            .arg(window)
            .ignore()
            .cmd("ZCARD")
            .arg(&key);
        let (count,): (u64,) = self.call(Request::Pipe(&pipe)).await?;
        Ok(count)
    }

    pub(super) async fn remove_attempt_window(
        &self,
        key: &str,
        id: &str,
    ) -> Result<(), StoreError> {
        let mut cmd = redis::cmd("ZREM");
        cmd.arg(self.keys.attempts(key)).arg(id);
        let _: i64 = self.cmd(&cmd).await?;
        Ok(())
    }

    pub(super) async fn put_enrolment(
        &self,
        sub: &str,
        record: &str,
        recovery: &[Digest],
    ) -> Result<(), StoreError> {
        let codes = self.keys.recovery(sub);
        let mut pipe = redis::pipe();
        pipe.atomic()
            .cmd("SET")
            .arg(self.keys.second_factor(sub))
            .arg(record)
            .ignore()
            .cmd("DEL")
            .arg(&codes)
            .ignore();
        if !recovery.is_empty() {
            pipe.cmd("SADD").arg(&codes);
            for digest in recovery {
                pipe.arg(digest.as_hex());
            }
            pipe.ignore();
        }
        self.call(Request::Pipe(&pipe)).await
    }

    pub(super) async fn enrolment(&self, sub: &str) -> Result<Option<String>, StoreError> {
        self.cmd(redis::cmd("GET").arg(self.keys.second_factor(sub)))
            .await
    }

    pub(super) async fn spend_recovery_code(
        &self,
        sub: &str,
        code: &Digest,
    ) -> Result<bool, StoreError> {
        let mut cmd = redis::cmd("SREM");
        cmd.arg(self.keys.recovery(sub)).arg(code.as_hex());
        let removed: i64 = self.cmd(&cmd).await?;
        Ok(removed == 1)
    }

    pub(super) async fn recovery_count(&self, sub: &str) -> Result<u64, StoreError> {
        self.cmd(redis::cmd("SCARD").arg(self.keys.recovery(sub)))
            .await
    }

    pub(super) async fn delete_enrolment(&self, sub: &str) -> Result<bool, StoreError> {
        let mut cmd = redis::cmd("DEL");
        cmd.arg(self.keys.second_factor(sub))
            .arg(self.keys.recovery(sub));
        let deleted: i64 = self.cmd(&cmd).await?;
        Ok(deleted > 0)
    }
}
