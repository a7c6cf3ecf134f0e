//! Registered apps in Redis: one hash, `{p}clients`, client id → client JSON. A change is
//! written by a script that compares the stored revision first (`replace_client.lua`).

use super::connect::cached;
use super::{Keys, RedisStore, Request};
use crate::domain::{ClientId, ClientRecord};
use crate::store::codec::{decode, encode};
use crate::store::{ClientStore, Replaced, StoreError};
use async_trait::async_trait;
use redis;

impl Keys {
    pub(super) fn clients(&self) -> String {
        format!("{}clients", self.prefix)
    }
}

#[async_trait]
impl ClientStore for RedisStore {
    async fn put_client(&self, client: &ClientRecord) -> Result<(), StoreError> {
        let json = encode("client", client)?;
        let mut cmd = redis::cmd("HSET");
        cmd.arg(self.keys.clients())
            .arg(client.client_id.as_str())
            .arg(json);
        self.cmd(&cmd).await
    }

    async fn replace_client(&self, client: &ClientRecord) -> Result<Replaced, StoreError> {
        let mut call = self.scripts.replace_client.key(self.keys.clients());
        call.arg(client.client_id.as_str())
            .arg(client.revision)
            .arg(encode("client", client)?);
        let (outcome, current): (i64, Option<String>) = self.call(Request::Script(&call)).await?;
        Ok(match (outcome, current) {
            (2, _) => Replaced::Done,
            (1, Some(json)) => Replaced::Stale(Box::new(decode("client", &json)?)),
            _ => Replaced::Gone,
        })
    }

    async fn client(&self, id: &ClientId) -> Result<Option<ClientRecord>, StoreError> {
        // Read by every token and authorize request, changed by an admin now and then: kept by
        // each connection until Redis says the apps changed (see `connect::caching`). The
        // issuing scripts check the app again in their atomic step, so a token is never issued
        // to an app disabled a moment before, whatever a copy says.
        let mut cmd = redis::cmd("HGET");
        cmd.arg(self.keys.clients())
            .arg(id.as_str())
            .set_cache_config(cached());
        let json: Option<String> = self.cmd(&cmd).await?;
        json.map(|j| decode("client", &j)).transpose()
    }

    async fn clients(&self) -> Result<Vec<ClientRecord>, StoreError> {
        let all: Vec<String> = self
            .cmd(redis::cmd("HVALS").arg(self.keys.clients()))
            .await?;
        all.iter().map(|j| decode("client", j)).collect()
    }

    async fn delete_client(&self, id: &ClientId) -> Result<(), StoreError> {
        let mut cmd = redis::cmd("HDEL");
        cmd.arg(self.keys.clients()).arg(id.as_str());
        let _: i64 = self.cmd(&cmd).await?;
        Ok(())
    }
}
