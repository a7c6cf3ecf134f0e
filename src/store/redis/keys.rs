//! The generated OpenID Connect signing key set in Redis: one string, `{p}oidc:signing-keys`,
//! the JSON list `oidc::generated_keys` writes.

use super::{Keys, RedisStore, Request};
use crate::store::{KeyStore, StoreError};
use async_trait::async_trait;
use redis::{self, Script};

impl Keys {
    fn signing_keys(&self) -> String {
        format!("{}oidc:signing-keys", self.prefix)
    }
}

#[async_trait]
impl KeyStore for RedisStore {
    async fn signing_keys(&self) -> Result<Option<String>, StoreError> {
        self.cmd(redis::cmd("GET").arg(self.keys.signing_keys()))
            .await
    }

    async fn signing_keys_or_insert(&self, keys: &str) -> Result<String, StoreError> {
        // SET NX then GET in one MULTI: the GET sees whichever SET won.
        let key = self.keys.signing_keys();
        let mut pipe = redis::pipe();
        pipe.atomic()
            .cmd("SET")
            .arg(&key)
            .arg(keys)
            .arg("NX")
            .ignore()
            .cmd("GET")
            .arg(&key);
        let (stored,): (Option<String>,) = self.call(Request::Pipe(&pipe)).await?;
        stored.ok_or_else(|| StoreError::Corrupt("signing keys vanished after SET NX".into()))
    }

    async fn replace_signing_keys(&self, expected: &str, keys: &str) -> Result<bool, StoreError> {
        let script = Script::new(
            "if redis.call('GET', KEYS[1]) == ARGV[1] then \
               redis.call('SET', KEYS[1], ARGV[2]) return 1 end return 0",
        );
        let mut call = script.key(self.keys.signing_keys());
        call.arg(expected).arg(keys);
        let replaced: i64 = self.call(Request::Script(&call)).await?;
        Ok(replaced == 1)
    }
}
