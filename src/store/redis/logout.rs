//! The back-channel logout queue in Redis: `{p}bcl-queue`, a sorted set of job ids by when each
//! is due (a claimed job is due again when its lease ends), and `{p}bcl-job:<id>`, each job's
//! JSON with an expiry. Claiming is one Lua script (`claim_logouts.lua`), so that of several
//! nodes polling the queue each job goes to one.

use super::{Keys, RedisStore, Request};
use crate::clock::UnixTime;
use crate::store::codec::{decode, encode};
use crate::store::{LogoutJob, LogoutQueue, StoreError};
use async_trait::async_trait;
use redis;

impl Keys {
    fn logout_queue(&self) -> String {
        format!("{}bcl-queue", self.prefix)
    }

    /// What a job id is appended to, to name its record (also passed to the claim script).
    fn logout_prefix(&self) -> String {
        format!("{}bcl-job:", self.prefix)
    }
}

#[async_trait]
impl LogoutQueue for RedisStore {
    async fn put_logout(&self, job: &LogoutJob, due: UnixTime, ttl: u64) -> Result<(), StoreError> {
        let json = encode("logout job", job)?;
        let mut pipe = redis::pipe();
        pipe.atomic()
            .cmd("SET")
            .arg(format!("{}{}", self.keys.logout_prefix(), job.id))
            .arg(json)
            .arg("EX")
            .arg(ttl.max(1))
            .ignore()
            .cmd("ZADD")
            .arg(self.keys.logout_queue())
            .arg(due)
            .arg(&job.id)
            .ignore();
        let () = self.call(Request::Pipe(&pipe)).await?;
        Ok(())
    }

    async fn claim_logouts(
        &self,
        now: UnixTime,
        lease: u64,
        max: usize,
    ) -> Result<Vec<LogoutJob>, StoreError> {
        let mut call = self.scripts.claim_logouts.key(self.keys.logout_queue());
        call.arg(now)
            .arg(lease)
            .arg(max)
            .arg(self.keys.logout_prefix());
        let jobs: Vec<String> = self.call(Request::Script(&call)).await?;
        jobs.iter().map(|json| decode("logout job", json)).collect()
    }

    async fn delete_logout(&self, id: &str) -> Result<(), StoreError> {
        let mut pipe = redis::pipe();
        pipe.atomic()
            .cmd("ZREM")
            .arg(self.keys.logout_queue())
            .arg(id)
            .ignore()
            .cmd("DEL")
            .arg(format!("{}{id}", self.keys.logout_prefix()))
            .ignore();
        let () = self.call(Request::Pipe(&pipe)).await?;
        Ok(())
    }
}
