//! Attempt windows in Redis: `{p}attempts:<key>`, a sorted set of attempt ids scored by Unix
//! time, expiring with its newest attempt; and `{p}lockout:<key>`, a string with an expiry
//! noting a lockout already reported. Each operation is one round trip whatever the number of
//! windows (an attempt counts against its account and its address); adding an attempt runs as a
//! MULTI/EXEC transaction, so every node counts the same windows.

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
        windows: &[(String, u64)],
        id: &str,
        now: UnixTime,
    ) -> Result<Vec<u64>, StoreError> {
        if windows.is_empty() {
            return Ok(Vec::new());
        }
        // Attempts that left a window are not counted, and are dropped on one attempt in
        // eight: the window expires with its newest attempt anyway, so what is left over stays
        // a few attempts' worth, and the other attempts send one command less per window.
        let prune = rand::random::<u8>().is_multiple_of(8);
        let mut pipe = redis::pipe();
        pipe.atomic();
        for (key, window) in windows {
            let key = self.keys.attempts(key);
            // Attempts exactly `window` seconds old are out of the window too.
            let oldest_out = now.saturating_sub(*window);
            if prune {
                pipe.cmd("ZREMRANGEBYSCORE")
                    .arg(&key)
                    .arg("-inf")
                    .arg(oldest_out)
                    .ignore();
            }
            pipe.cmd("ZADD")
                .arg(&key)
                .arg(now)
                .arg(id)
                .ignore()
                .cmd("EXPIRE")
                .arg(&key)
                .arg(*window)
                .ignore()
                .cmd("ZCOUNT")
                .arg(&key)
                .arg(format!("({oldest_out}"))
                .arg("+inf");
        }
        let counts: Vec<u64> = self.call(Request::Pipe(&pipe)).await?;
        if counts.len() != windows.len() {
            return Err(StoreError::Corrupt(format!(
                "{} attempt windows counted for {}",
                counts.len(),
                windows.len()
            )));
        }
        Ok(counts)
    }

    async fn remove_attempt(&self, keys: &[String], id: &str) -> Result<(), StoreError> {
        if keys.is_empty() {
            return Ok(());
        }
        let mut pipe = redis::pipe();
        for key in keys {
            pipe.cmd("ZREM")
                .arg(self.keys.attempts(key))
                .arg(id)
                .ignore();
        }
        let () = self.call(Request::Pipe(&pipe)).await?;
        Ok(())
    }

    async fn note_lockout(&self, key: &str, ttl: u64) -> Result<bool, StoreError> {
        self.put_text_new(Namespace::Lockout, key, "1", ttl).await
    }
}
