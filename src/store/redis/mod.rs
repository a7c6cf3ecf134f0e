//! Redis store for production: shared by every node.
//!
//! Key scheme (every key starts with `store.key_prefix`, written `{p}` here):
//!
//! | key | type | holds |
//! |---|---|---|
//! | `{p}sess:<hex>` | string, EX | SSO session JSON, by the digest of its cookie |
//! | `{p}usersess:<sub>` | set, EXPIRE | full keys of the user's sessions |
//! | `{p}authreq:<request id>` | string, EX | pending authorize request JSON |
//! | `{p}pendby:<group>` | sorted set, EXPIRE | full keys of a browser's or an address's pending requests, by expiry |
//! | `{p}consent:<sub>\n<client id>` | string, EX | remembered scopes (JSON list) |
//! | `{p}admtok:<hex>` | string, EX | admin API token JSON |
//! | `{p}admscr:<hex>` | string, EX | admin screen sign-in JSON, by the SSO cookie's digest |
//! | `{p}admscr:halfway:<hex>` | string, EX | sign-in waiting for its second factor (JSON) |
//! | `{p}mfa:<sub>`, `{p}mfarc:<sub>` | string, set | enrolment JSON, recovery code digests |
//! | `{p}mfasetup:<sub>\n<holder>` | string, EX | sealed secret of a set-up |
//! | `{p}otpused:<sub>\n<tag>\n<step>` | string, EX | `1`: the TOTP step was accepted |
//! | `{p}attempts:<key>` | sorted set, EXPIRE | attempt ids scored by time |
//! | `{p}lockout:<key>` | string, EX | `1`: the lockout was reported |
//! | `{p}clients` | hash | client id → client JSON |
//! | `{p}code:<hex>` | hash, EXPIRE | `data` (code JSON), `consumed_by` (grant id) |
//! | `{p}at:<hex>` | string, EX | access token JSON |
//! | `{p}rt:<hex>` | hash, EXPIRE | `data`, `grant`, `rotated_at`, `sealed` |
//! | `{p}grant:<id>` | set, EXPIRE | full keys of the grant's access and refresh tokens |
//! | `{p}issued:<client id>` | set, EXPIRE | full keys of the client's codes and grant indexes |
//! | `{p}userissued:<sub>` | set, EXPIRE | full keys of the user's codes and grant indexes |
//! | `{p}audit:log`, `{p}audit:events`, `{p}audit:filed`, `{p}audit:cursor` | | the audit log (see `audit.rs`) |
//! | `{p}audit:by:<index>` | sorted set | audit event ids by actor, app, action, failure |
//! | `{p}failures:<client id>` | list, EXPIRE | the client's recent failed requests (JSON) |
//! | `{p}lastused:<client id>` | string, EX | when the app last obtained tokens (Unix time) |
//! | `{p}oidc:signing-keys` | string | the generated id_token signing keys (JSON list, see `oidc::generated_keys`) |
//!
//! Each capability's file names the keys it uses. `<hex>` is the SHA-256 digest of the secret:
//! raw codes, tokens and cookies never reach Redis. Redeeming
//! a code, rotating a refresh token and revoking a grant are each one Lua script, so they are
//! atomic with respect to every other client of the same Redis.

mod audit;
mod clients;
mod connect;
mod grants;
mod keys;
mod limits;
mod records;
mod scripts;
mod second_factor;
mod sessions;

use super::{Ping, StoreError};
use crate::config::StoreSettings;
use async_trait::async_trait;
use connect::Target;
use deadpool::managed::{Object, Pool, PoolError};
use deadpool::Runtime;
use deadpool_redis::redis::{self, Cmd, FromRedisValue, Pipeline};
use scripts::Scripts;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tokio::time::{timeout_at, Instant};

/// The Redis [`super::Store`]: a connection pool, the key prefix and the loaded scripts.
///
/// Construction does not connect: connections are opened on first use, and a connection found
/// broken (the server restarted, the network dropped, the master became a replica) is discarded
/// and replaced, so the store recovers from an outage and follows a Sentinel failover by itself.
pub struct RedisStore {
    pool: Pool<Target>,
    keys: Keys,
    scripts: Scripts,
    timeout: Duration,
    /// Whether the audit log of an earlier version may still hold events to move (see
    /// `audit.rs`); checked on the first append of each process.
    earlier_audit: AtomicBool,
}

impl RedisStore {
    /// Builds the pool from `settings` (`redis_url` and `password`, or the sentinels;
    /// `key_prefix`, `pool_size`, `timeout_ms`).
    ///
    /// Fails only on a URL the client cannot use; the error never repeats the URL, which may
    /// hold a password.
    pub fn new(settings: &StoreSettings) -> Result<Self, StoreError> {
        let timeout = settings.timeout;
        let target = Target::new(settings).map_err(StoreError::Unavailable)?;
        let pool = Pool::builder(target)
            .max_size(settings.pool_size)
            .wait_timeout(Some(timeout))
            .create_timeout(Some(timeout))
            .recycle_timeout(Some(timeout))
            .runtime(Runtime::Tokio1)
            .build()
            .map_err(|e| StoreError::Unavailable(format!("store pool: {e}")))?;
        Ok(Self {
            pool,
            keys: Keys {
                prefix: settings.key_prefix.clone(),
            },
            scripts: Scripts::new(),
            timeout,
            earlier_audit: AtomicBool::new(true),
        })
    }

    /// Runs one request on a pooled connection, the whole of it (waiting for the connection
    /// included) bounded by the store timeout.
    async fn call<T: FromRedisValue>(&self, request: Request<'_>) -> Result<T, StoreError> {
        let deadline = Instant::now() + self.timeout;
        let mut conn = timeout_at(deadline, self.pool.get())
            .await
            .map_err(|_| self.timed_out())?
            .map_err(pool_error)?;
        let outcome = timeout_at(deadline, async {
            match request {
                Request::Cmd(cmd) => cmd.query_async(&mut *conn).await,
                Request::Pipe(pipe) => pipe.query_async(&mut *conn).await,
                Request::Script(script) => script.invoke_async(&mut *conn).await,
            }
        })
        .await;
        match outcome {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => {
                if e.is_unrecoverable_error()
                    || e.is_io_error()
                    || e.is_timeout()
                    || left_the_master(&e)
                {
                    discard(conn);
                }
                Err(redis_error(&e))
            }
            Err(_) => {
                // The connection may still deliver the late reply to nobody; do not reuse it.
                discard(conn);
                Err(self.timed_out())
            }
        }
    }

    async fn cmd<T: FromRedisValue>(&self, cmd: &Cmd) -> Result<T, StoreError> {
        self.call(Request::Cmd(cmd)).await
    }

    fn timed_out(&self) -> StoreError {
        StoreError::Unavailable(format!("no answer within {} ms", self.timeout.as_millis()))
    }
}

/// One round trip.
enum Request<'a> {
    Cmd(&'a Cmd),
    Pipe(&'a Pipeline),
    Script(&'a redis::ScriptInvocation<'a>),
}

/// Takes a connection out of the pool for good, so that the next request opens a fresh one.
fn discard(conn: Object<Target>) {
    drop(Object::take(conn));
}

/// Whether the server stopped being a master the store may write to: a master demoted to a
/// replica in a failover (`READONLY`), or a replica cut off from its master (`MASTERDOWN`). The
/// connection is discarded so that the next one is opened to the master Sentinel names now.
fn left_the_master(e: &redis::RedisError) -> bool {
    use redis::{ErrorKind, ServerErrorKind};
    matches!(
        e.kind(),
        ErrorKind::Server(ServerErrorKind::ReadOnly | ServerErrorKind::MasterDown)
    ) || matches!(e.code(), Some("READONLY" | "MASTERDOWN"))
}

fn pool_error(e: PoolError<redis::RedisError>) -> StoreError {
    match e {
        PoolError::Backend(e) => redis_error(&e),
        other => StoreError::Unavailable(format!("store pool: {other}")),
    }
}

/// Maps a client error; the messages name the failure, never the server address or password.
fn redis_error(e: &redis::RedisError) -> StoreError {
    use redis::ErrorKind;
    let unreadable = matches!(e.kind(), ErrorKind::Parse | ErrorKind::UnexpectedReturnType)
        || e.code() == Some("WRONGTYPE");
    if unreadable {
        StoreError::Corrupt(e.to_string())
    } else {
        StoreError::Unavailable(e.to_string())
    }
}

/// Builds every key from the store-wide prefix; each capability's file adds the keys it uses.
struct Keys {
    prefix: String,
}

#[async_trait]
impl Ping for RedisStore {
    async fn ping(&self) -> Result<(), StoreError> {
        self.cmd::<String>(&redis::cmd("PING")).await.map(|_| ())
    }
}
