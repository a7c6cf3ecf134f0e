//! Short-lived records in Redis: one string per record, `{p}<namespace prefix><key>`, with an
//! expiry; and `{p}owned:<owner>`, a set (EXPIRE) of the full keys of the records filed under
//! an owner, which outlives the longest-lived of them.

use super::{Keys, RedisStore, Request};
use crate::store::namespace::{Namespace, Records};
use crate::store::StoreError;
use async_trait::async_trait;
use redis;

impl Keys {
    /// The full key of a short-lived record.
    pub(super) fn record(&self, ns: Namespace, key: &str) -> String {
        format!("{}{}{key}", self.prefix, ns.prefix())
    }

    /// The index of the records filed under an owner.
    fn owned(&self, owner: &str) -> String {
        format!("{}owned:{owner}", self.prefix)
    }
}

#[async_trait]
impl Records for RedisStore {
    async fn put_text(
        &self,
        ns: Namespace,
        key: &str,
        value: String,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let mut cmd = redis::cmd("SET");
        cmd.arg(self.keys.record(ns, key))
            .arg(value)
            .arg("EX")
            .arg(ttl);
        self.cmd(&cmd).await
    }

    async fn put_text_new(
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

    async fn text(&self, ns: Namespace, key: &str) -> Result<Option<String>, StoreError> {
        self.cmd(redis::cmd("GET").arg(self.keys.record(ns, key)))
            .await
    }

    async fn put_owned_text(
        &self,
        ns: Namespace,
        key: &str,
        owner: &str,
        value: String,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let (key, index) = (self.keys.record(ns, key), self.keys.owned(owner));
        // The index outlives its longest-lived record: NX sets its first expiry, GT lengthens
        // it.
        let mut pipe = redis::pipe();
        pipe.atomic()
            .cmd("SET")
            .arg(&key)
            .arg(value)
            .arg("EX")
            .arg(ttl)
            .ignore()
            .cmd("SADD")
            .arg(&index)
            .arg(&key)
            .ignore()
            .cmd("EXPIRE")
            .arg(&index)
            .arg(ttl)
            .arg("NX")
            .ignore()
            .cmd("EXPIRE")
            .arg(&index)
            .arg(ttl)
            .arg("GT")
            .ignore();
        let () = self.call(Request::Pipe(&pipe)).await?;
        Ok(())
    }

    async fn remove_owned(&self, owner: &str) -> Result<u64, StoreError> {
        let call = self.scripts.remove_owned.key(self.keys.owned(owner));
        self.call(Request::Script(&call)).await
    }

    async fn texts(
        &self,
        ns: Namespace,
        keys: &[String],
    ) -> Result<Vec<Option<String>>, StoreError> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let mut cmd = redis::cmd("MGET");
        for key in keys {
            cmd.arg(self.keys.record(ns, key));
        }
        self.cmd(&cmd).await
    }

    async fn remove(&self, ns: Namespace, key: &str) -> Result<bool, StoreError> {
        // DEL answers how many keys it deleted: of concurrent calls, one sees 1.
        let deleted: i64 = self
            .cmd(redis::cmd("DEL").arg(self.keys.record(ns, key)))
            .await?;
        Ok(deleted > 0)
    }

    async fn take_text(&self, ns: Namespace, key: &str) -> Result<Option<String>, StoreError> {
        self.cmd(redis::cmd("GETDEL").arg(self.keys.record(ns, key)))
            .await
    }
}
