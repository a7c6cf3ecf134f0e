//! The [`Store`] operations of [`RedisStore`], one round trip each.

use super::{RedisStore, Request};
use crate::clock::UnixTime;
use crate::domain::{ClientId, ClientRecord, Digest};
use crate::store::codec::{decode, encode};
use crate::store::{
    AccessRecord, CodeRecord, Issuance, Namespace, Redemption, Rotation, Store, StoreError,
    StoredCode, StoredRefresh,
};
use async_trait::async_trait;
use deadpool_redis::redis::{self, Script, ScriptInvocation};

impl RedisStore {
    /// Starts an invocation of one of the two issuing scripts with the layout `common.lua`
    /// documents: `spent` is the code or refresh token key being consumed.
    fn issuing<'s>(
        &self,
        script: &'s Script,
        spent: String,
        issue: &Issuance,
    ) -> Result<ScriptInvocation<'s>, StoreError> {
        let mut call = script.key(spent);
        call.key(self.keys.access(&issue.access_digest))
            .key(self.keys.refresh(&issue.refresh_digest))
            .key(self.keys.grant(&issue.grant_id))
            .key(self.keys.issued(&issue.access.client_id))
            .arg(&issue.grant_id)
            .arg(encode("access token", &issue.access)?)
            .arg(issue.access_ttl)
            .arg(encode("refresh token", &issue.refresh)?)
            .arg(issue.refresh_ttl)
            .arg(self.keys.grant_prefix());
        Ok(call)
    }
}

/// A script's reply whose first element was not one the script returns.
fn unexpected(script: &str, reply: &[String]) -> StoreError {
    let status = reply.first().map(String::as_str).unwrap_or("");
    StoreError::Corrupt(format!("{script} script answered `{status}`"))
}

#[async_trait]
impl Store for RedisStore {
    async fn ping(&self) -> Result<(), StoreError> {
        self.cmd::<String>(&redis::cmd("PING")).await.map(|_| ())
    }

    async fn put(&self, ns: Namespace, key: &str, value: &str, ttl: u64) -> Result<(), StoreError> {
        let mut cmd = redis::cmd("SET");
        cmd.arg(self.keys.record(ns, key))
            .arg(value)
            .arg("EX")
            .arg(ttl);
        self.cmd(&cmd).await
    }

    async fn get(&self, ns: Namespace, key: &str) -> Result<Option<String>, StoreError> {
        self.cmd(redis::cmd("GET").arg(self.keys.record(ns, key)))
            .await
    }

    async fn take(&self, ns: Namespace, key: &str) -> Result<Option<String>, StoreError> {
        // GETDEL (Redis 6.2+) reads and deletes in one step: at most one caller sees the value.
        self.cmd(redis::cmd("GETDEL").arg(self.keys.record(ns, key)))
            .await
    }

    async fn delete(&self, ns: Namespace, key: &str) -> Result<(), StoreError> {
        self.cmd(redis::cmd("DEL").arg(self.keys.record(ns, key)))
            .await
    }

    async fn put_client(&self, client: &ClientRecord) -> Result<(), StoreError> {
        let json = encode("client", client)?;
        let mut cmd = redis::cmd("HSET");
        cmd.arg(self.keys.clients())
            .arg(client.client_id.as_str())
            .arg(json);
        self.cmd(&cmd).await
    }

    async fn client(&self, id: &ClientId) -> Result<Option<ClientRecord>, StoreError> {
        let mut cmd = redis::cmd("HGET");
        cmd.arg(self.keys.clients()).arg(id.as_str());
        let json: Option<String> = self.cmd(&cmd).await?;
        json.map(|j| decode("client", &j)).transpose()
    }

    async fn clients(&self) -> Result<Vec<ClientRecord>, StoreError> {
        let all: Vec<String> = self
            .cmd(redis::cmd("HVALS").arg(self.keys.clients()))
            .await?;
        all.iter().map(|j| decode("client", j)).collect()
    }

    async fn put_code(
        &self,
        code: &Digest,
        record: &CodeRecord,
        ttl: u64,
    ) -> Result<(), StoreError> {
        // One script, so no reader ever sees the code without its TTL or outside the index.
        let mut call = self.scripts.put_code.key(self.keys.code(code));
        call.key(self.keys.issued(&record.client_id))
            .arg(encode("code", record)?)
            .arg(ttl);
        let _: i64 = self.call(Request::Script(&call)).await?;
        Ok(())
    }

    async fn code(&self, code: &Digest) -> Result<Option<StoredCode>, StoreError> {
        let mut cmd = redis::cmd("HMGET");
        cmd.arg(self.keys.code(code)).arg("data").arg("consumed_by");
        let (data, consumed_by): (Option<String>, Option<String>) = self.cmd(&cmd).await?;
        let Some(data) = data else {
            return Ok(None);
        };
        Ok(Some(StoredCode {
            record: decode("code", &data)?,
            consumed_by,
        }))
    }

    async fn redeem_code(&self, code: &Digest, issue: &Issuance) -> Result<Redemption, StoreError> {
        let call = self.issuing(&self.scripts.redeem, self.keys.code(code), issue)?;
        let reply: Vec<String> = self.call(Request::Script(&call)).await?;
        match reply.first().map(String::as_str) {
            Some("issued") => Ok(Redemption::Issued),
            Some("replayed") => Ok(Redemption::Replayed),
            Some("not_found") => Ok(Redemption::NotFound),
            _ => Err(unexpected("redeem", &reply)),
        }
    }

    async fn access_token(&self, token: &Digest) -> Result<Option<AccessRecord>, StoreError> {
        let json: Option<String> = self
            .cmd(redis::cmd("GET").arg(self.keys.access(token)))
            .await?;
        json.map(|j| decode("access token", &j)).transpose()
    }

    async fn refresh_token(&self, token: &Digest) -> Result<Option<StoredRefresh>, StoreError> {
        let mut cmd = redis::cmd("HMGET");
        cmd.arg(self.keys.refresh(token))
            .arg("data")
            .arg("rotated_at");
        let (data, rotated_at): (Option<String>, Option<String>) = self.cmd(&cmd).await?;
        let Some(data) = data else {
            return Ok(None);
        };
        let rotated_at = rotated_at
            .map(|t| t.parse::<UnixTime>())
            .transpose()
            .map_err(|e| StoreError::Corrupt(format!("refresh token rotated_at: {e}")))?;
        Ok(Some(StoredRefresh {
            record: decode("refresh token", &data)?,
            rotated_at,
        }))
    }

    async fn rotate_refresh(
        &self,
        old: &Digest,
        issue: &Issuance,
        sealed_successor: &str,
        now: UnixTime,
        grace: u64,
    ) -> Result<Rotation, StoreError> {
        let mut call = self.issuing(&self.scripts.rotate, self.keys.refresh(old), issue)?;
        call.arg(now).arg(grace).arg(sealed_successor);
        let mut reply: Vec<String> = self.call(Request::Script(&call)).await?;
        match reply.first().map(String::as_str) {
            Some("rotated") => Ok(Rotation::Rotated),
            Some("grace") if reply.len() == 2 => Ok(Rotation::Grace(reply.swap_remove(1))),
            Some("reused") => Ok(Rotation::Reused),
            Some("not_found") => Ok(Rotation::NotFound),
            _ => Err(unexpected("rotate", &reply)),
        }
    }

    async fn revoke_grant(&self, grant_id: &str) -> Result<(), StoreError> {
        let call = self.scripts.revoke.key(self.keys.grant(grant_id));
        let _: i64 = self.call(Request::Script(&call)).await?;
        Ok(())
    }

    // --- second factor and attempt limits (bodies in `redis/mfa.rs`) -----------------------

    async fn put_new(
        &self,
        ns: Namespace,
        key: &str,
        value: &str,
        ttl: u64,
    ) -> Result<bool, StoreError> {
        self.put_new_record(ns, key, value, ttl).await
    }

    async fn add_attempt(
        &self,
        key: &str,
        id: &str,
        now: UnixTime,
        window: u64,
    ) -> Result<u64, StoreError> {
        self.add_attempt_window(key, id, now, window).await
    }

    async fn remove_attempt(&self, key: &str, id: &str) -> Result<(), StoreError> {
        self.remove_attempt_window(key, id).await
    }

    async fn put_second_factor(
        &self,
        sub: &str,
        record: &str,
        recovery: &[Digest],
    ) -> Result<(), StoreError> {
        self.put_enrolment(sub, record, recovery).await
    }

    async fn second_factor(&self, sub: &str) -> Result<Option<String>, StoreError> {
        self.enrolment(sub).await
    }

    async fn use_recovery_code(&self, sub: &str, code: &Digest) -> Result<bool, StoreError> {
        self.spend_recovery_code(sub, code).await
    }

    async fn recovery_codes_left(&self, sub: &str) -> Result<u64, StoreError> {
        self.recovery_count(sub).await
    }

    async fn delete_second_factor(&self, sub: &str) -> Result<bool, StoreError> {
        self.delete_enrolment(sub).await
    }

    // --- Connected Apps lifecycle, audit log, app doctor (see `lifecycle.rs`) -----------------

    async fn delete_client(&self, id: &ClientId) -> Result<(), StoreError> {
        self.remove_client(id).await
    }

    async fn revoke_client(&self, id: &ClientId) -> Result<(), StoreError> {
        self.revoke_everything_of(id).await
    }

    async fn append_audit(
        &self,
        at: UnixTime,
        event: &str,
        retention: u64,
        keep: usize,
    ) -> Result<(), StoreError> {
        self.add_audit(at, event, retention, keep).await
    }

    async fn audit_events(&self, offset: usize, limit: usize) -> Result<Vec<String>, StoreError> {
        self.read_audit(offset, limit).await
    }

    async fn push_failure(
        &self,
        id: &ClientId,
        event: &str,
        keep: usize,
        ttl: u64,
    ) -> Result<(), StoreError> {
        self.add_failure(id, event, keep, ttl).await
    }

    async fn failures(&self, id: &ClientId) -> Result<Vec<String>, StoreError> {
        self.read_failures(id).await
    }

    // --- OpenID Connect signing keys ---------------------------------------------------------

    async fn signing_keys(&self) -> Result<Option<String>, StoreError> {
        self.cmd(redis::cmd("GET").arg(self.keys.signing_keys()))
            .await
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
}
