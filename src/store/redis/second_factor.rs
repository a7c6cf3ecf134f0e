//! The second factor in Redis.
//!
//! | key | type | holds |
//! |---|---|---|
//! | `{p}mfa:<sub>` | string | the enrolment JSON (secret encrypted by the caller) |
//! | `{p}mfarc:<sub>` | set | digests of unspent recovery codes |
//! | `{p}mfasetup:<sub>\n<holder>` | string, EX | the sealed secret of a set-up |
//! | `{p}otpused:<sub>\n<authenticator>\n<step>` | string, EX | `1`: the step was accepted |
//!
//! Each operation is one round trip; writing an enrolment runs as a MULTI/EXEC transaction, so
//! every node sees the enrolment and its codes together. Set-ups and used time steps are
//! short-lived records, written once for both backends in `store/second_factor.rs`.

use super::{Keys, RedisStore, Request};
use crate::domain::Digest;
use crate::store::codec::{decode, encode};
use crate::store::second_factor::EnrolmentBackend;
use crate::store::{EnrolmentRecord, StoreError};
use async_trait::async_trait;
use redis;

impl Keys {
    fn second_factor(&self, sub: &str) -> String {
        format!("{}mfa:{sub}", self.prefix)
    }

    fn recovery(&self, sub: &str) -> String {
        format!("{}mfarc:{sub}", self.prefix)
    }
}

#[async_trait]
impl EnrolmentBackend for RedisStore {
    async fn put_second_factor(
        &self,
        sub: &str,
        record: &EnrolmentRecord,
        recovery: &[Digest],
    ) -> Result<(), StoreError> {
        let record = encode("enrolment", record)?;
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

    async fn second_factor(&self, sub: &str) -> Result<Option<EnrolmentRecord>, StoreError> {
        let json: Option<String> = self
            .cmd(redis::cmd("GET").arg(self.keys.second_factor(sub)))
            .await?;
        json.map(|j| decode("enrolment", &j)).transpose()
    }

    async fn use_recovery_code(&self, sub: &str, code: &Digest) -> Result<bool, StoreError> {
        let mut cmd = redis::cmd("SREM");
        cmd.arg(self.keys.recovery(sub)).arg(code.as_hex());
        let removed: i64 = self.cmd(&cmd).await?;
        Ok(removed == 1)
    }

    async fn recovery_codes_left(&self, sub: &str) -> Result<u64, StoreError> {
        self.cmd(redis::cmd("SCARD").arg(self.keys.recovery(sub)))
            .await
    }

    async fn delete_second_factor(&self, sub: &str) -> Result<bool, StoreError> {
        let mut cmd = redis::cmd("DEL");
        cmd.arg(self.keys.second_factor(sub))
            .arg(self.keys.recovery(sub));
        let deleted: i64 = self.cmd(&cmd).await?;
        Ok(deleted > 0)
    }
}
