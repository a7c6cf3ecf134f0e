//! Short-lived records in Redis: one string per record, `{p}<namespace prefix><key>`, with an
//! expiry.

use super::{Keys, RedisStore};
use crate::store::namespace::{Namespace, Records};
use crate::store::StoreError;
use async_trait::async_trait;
use redis;

impl Keys {
    /// The full key of a short-lived record.
    pub(super) fn record(&self, ns: Namespace, key: &str) -> String {
        format!("{}{}{key}", self.prefix, ns.prefix())
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

    async fn remove(&self, ns: Namespace, key: &str) -> Result<bool, StoreError> {
        // DEL answers how many keys it deleted: of concurrent calls, one sees 1.
        let deleted: i64 = self
            .cmd(redis::cmd("DEL").arg(self.keys.record(ns, key)))
            .await?;
        Ok(deleted > 0)
    }
}
