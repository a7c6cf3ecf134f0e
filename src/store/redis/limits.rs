//! Attempt windows in Redis: `{p}attempts:<key>`, a sorted set of attempt ids scored by Unix
//! time, expiring with its newest attempt; and `{p}lockout:<key>`, a string with an expiry
//! noting a lockout already reported. Each operation is one round trip; adding an attempt runs
//! as a MULTI/EXEC transaction, so every node counts the same window.

use super::{Keys, RedisStore, Request};
use crate::clock::UnixTime;
use crate::store::namespace::{Namespace, Records};
use crate::store::{LimitStore, StoreError};
use async_trait::async_trait;
use redis;

impl Keys {
    fn attempts(&self, key: &str) -> String {
        format!("{}attempts:{key}", self.prefix)
    }
}

#[async_trait]
impl LimitStore for RedisStore {
    async fn add_attempt(
        &self,
        key: &str,
        id: &str,
        now: UnixTime,
        window: u64,
    ) -> Result<u64, StoreError> {
        let key = self.keys.attempts(key);
        let oldest_kept = now.saturating_sub(window);
        let mut pipe = redis::pipe();
        // Attempts exactly `window` seconds old are out of the window too: the range is
        // inclusive.
        pipe.atomic()
            .cmd("ZREMRANGEBYSCORE")
            .arg(&key)
            .arg("-inf")
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

    async fn remove_attempt(&self, key: &str, id: &str) -> Result<(), StoreError> {
        let mut cmd = redis::cmd("ZREM");
        cmd.arg(self.keys.attempts(key)).arg(id);
        let _: i64 = self.cmd(&cmd).await?;
        Ok(())
    }

    async fn note_lockout(&self, key: &str, ttl: u64) -> Result<bool, StoreError> {
        self.put_text_new(Namespace::Lockout, key, "1", ttl).await
    }
}
