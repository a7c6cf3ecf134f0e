//! Attempt windows in Redis: `{p}attempts:<key>`, a sorted set of attempt ids, expiring with
//! its newest attempt; and `{p}lockout:<key>`, a string with an expiry noting a lockout already
//! reported. A failed attempt is scored by the Unix time it failed; one in flight by the time
//! it began plus [`IN_FLIGHT_OFFSET`], far above any failure, so one `ZCOUNT` range counts each
//! kind. Each operation is one round trip whatever the number of windows (an attempt counts
//! against its account and its address groups); adding an attempt runs as a MULTI/EXEC
//! transaction, so every node counts the same windows.

use super::{Keys, RedisStore, Request};
use crate::clock::UnixTime;
use crate::store::namespace::{Namespace, Records};
use crate::store::{AttemptCount, LimitStore, StoreError, IN_FLIGHT_SECS};
use async_trait::async_trait;
use redis;

/// Added to the start of an attempt in flight: failures are scored below `now + OFFSET / 2`,
/// attempts in flight above it.
const IN_FLIGHT_OFFSET: u64 = 10_000_000_000;

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
    ) -> Result<Vec<AttemptCount>, StoreError> {
        if windows.is_empty() {
            return Ok(Vec::new());
        }
        // Failures that left a window are not counted, and are dropped on one attempt in eight
        // (with attempts left in flight by a node that stopped): the window expires with its
        // newest attempt anyway, so what is left over stays a few attempts' worth, and the
        // other attempts send one command less per window.
        let prune = rand::random::<u8>().is_multiple_of(8);
        let failures_below = now + IN_FLIGHT_OFFSET / 2;
        let stale_below = now + IN_FLIGHT_OFFSET - IN_FLIGHT_SECS;
        let mut pipe = redis::pipe();
        pipe.atomic();
        for (key, window) in windows {
            let key = self.keys.attempts(key);
            // Failures exactly `window` seconds old are out of the window too.
            let oldest_out = now.saturating_sub(*window);
            if prune {
                pipe.cmd("ZREMRANGEBYSCORE")
                    .arg(&key)
                    .arg("-inf")
                    .arg(oldest_out)
                    .ignore()
                    .cmd("ZREMRANGEBYSCORE")
                    .arg(&key)
                    .arg(format!("({failures_below}"))
                    .arg(stale_below)
                    .ignore();
            }
            pipe.cmd("ZADD")
                .arg(&key)
                .arg(now + IN_FLIGHT_OFFSET)
                .arg(id)
                .ignore()
                .cmd("EXPIRE")
                .arg(&key)
                .arg(*window + IN_FLIGHT_SECS)
                .ignore()
                .cmd("ZCOUNT")
                .arg(&key)
                .arg(format!("({oldest_out}"))
                .arg(format!("({failures_below}"))
                .cmd("ZCOUNT")
                .arg(&key)
                .arg(format!("({stale_below}"))
                .arg("+inf");
        }
        let counts: Vec<u64> = self.call(Request::Pipe(&pipe)).await?;
        if counts.len() != 2 * windows.len() {
            return Err(StoreError::Corrupt(format!(
                "{} attempt counts for {} windows",
                counts.len(),
                windows.len()
            )));
        }
        Ok(counts
            .chunks(2)
            .map(|pair| AttemptCount {
                failed: pair[0],
                in_flight: pair[1],
            })
            .collect())
    }

    async fn fail_attempt(
        &self,
        keys: &[String],
        id: &str,
        now: UnixTime,
    ) -> Result<(), StoreError> {
        if keys.is_empty() {
            return Ok(());
        }
        let mut pipe = redis::pipe();
        for key in keys {
            // XX: a window that expired meanwhile is not brought back for one member.
            pipe.cmd("ZADD")
                .arg(self.keys.attempts(key))
                .arg("XX")
                .arg(now)
                .arg(id)
                .ignore();
        }
        let () = self.call(Request::Pipe(&pipe)).await?;
        Ok(())
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

    async fn clear_attempts(&self, key: &str) -> Result<(), StoreError> {
        let _: i64 = self
            .cmd(redis::cmd("DEL").arg(self.keys.attempts(key)))
            .await?;
        Ok(())
    }

    async fn note_lockout(&self, key: &str, ttl: u64) -> Result<bool, StoreError> {
        self.put_text_new(Namespace::Lockout, key, "1", ttl).await
    }
}
