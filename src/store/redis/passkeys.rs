//! Passkeys in Redis.
//!
//! | key | type | holds |
//! |---|---|---|
//! | `{p}passkeys:<sub>` | hash | credential id → passkey JSON |
//! | `{p}pkowner:<credential id>` | string | whose passkey the credential is |
//!
//! Adding, changing and removing each run as one script (`add_passkey.lua`,
//! `update_passkey.lua`, `delete_passkey.lua`, `delete_passkeys.lua`), so the owner keys and
//! the people's hashes never disagree and two nodes never register one credential twice.

use super::{Keys, RedisStore, Request};
use crate::store::codec::{decode, encode};
use crate::store::{PasskeyAdded, PasskeyRecord, PasskeyStore, StoreError};
use async_trait::async_trait;
use redis;

impl Keys {
    fn passkeys(&self, sub: &str) -> String {
        format!("{}passkeys:{sub}", self.prefix)
    }

    fn passkey_owners(&self) -> String {
        format!("{}pkowner:", self.prefix)
    }

    fn passkey_owner(&self, id: &str) -> String {
        format!("{}{id}", self.passkey_owners())
    }
}

#[async_trait]
impl PasskeyStore for RedisStore {
    async fn add_passkey(
        &self,
        sub: &str,
        record: &PasskeyRecord,
        max: usize,
    ) -> Result<PasskeyAdded, StoreError> {
        let json = encode("passkey", record)?;
        let mut call = self.scripts.add_passkey.key(self.keys.passkeys(sub));
        call.key(self.keys.passkey_owner(&record.id))
            .arg(&record.id)
            .arg(json)
            .arg(sub)
            .arg(max);
        let outcome: i64 = self.call(Request::Script(&call)).await?;
        Ok(match outcome {
            2 => PasskeyAdded::Added,
            1 => PasskeyAdded::Taken,
            _ => PasskeyAdded::Full,
        })
    }

    async fn passkeys(&self, sub: &str) -> Result<Vec<PasskeyRecord>, StoreError> {
        let values: Vec<String> = self
            .cmd(redis::cmd("HVALS").arg(self.keys.passkeys(sub)))
            .await?;
        let mut records = values
            .iter()
            .map(|json| decode::<PasskeyRecord>("passkey", json))
            .collect::<Result<Vec<_>, _>>()?;
        records.sort_by(|a, b| a.created_at.cmp(&b.created_at).then(a.id.cmp(&b.id)));
        Ok(records)
    }

    async fn passkey_owner(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.cmd(redis::cmd("GET").arg(self.keys.passkey_owner(id)))
            .await
    }

    async fn update_passkey(&self, sub: &str, record: &PasskeyRecord) -> Result<bool, StoreError> {
        let json = encode("passkey", record)?;
        let mut call = self.scripts.update_passkey.key(self.keys.passkeys(sub));
        call.arg(&record.id).arg(json);
        let written: i64 = self.call(Request::Script(&call)).await?;
        Ok(written == 1)
    }

    async fn delete_passkey(&self, sub: &str, id: &str) -> Result<bool, StoreError> {
        let mut call = self.scripts.delete_passkey.key(self.keys.passkeys(sub));
        call.key(self.keys.passkey_owner(id)).arg(id).arg(sub);
        let removed: i64 = self.call(Request::Script(&call)).await?;
        Ok(removed == 1)
    }

    async fn delete_passkeys(&self, sub: &str) -> Result<u64, StoreError> {
        let mut call = self.scripts.delete_passkeys.key(self.keys.passkeys(sub));
        call.arg(self.keys.passkey_owners()).arg(sub);
        self.call(Request::Script(&call)).await
    }
}
