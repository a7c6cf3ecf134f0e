//! Redis store for production: shared by every node.
//!
//! Key scheme (every key starts with `store.key_prefix`, written `{p}` here):
//!
//! | key | type | holds |
//! |---|---|---|
//! | `{p}sess:<hex>` | string, EX | SSO session JSON, by the digest of its cookie |
//! | `{p}user-sessions:<sub>` | sorted set, EXPIRE | full keys of the user's sessions, by expiry |
//! | `{p}authreq:<request id>` | string, EX | pending authorize request JSON |
//! | `{p}pendby:<group>` | sorted set, EXPIRE | full keys of a browser's or an address's pending requests, by expiry |
//! | `{p}pendload` | hash, EXPIRE | `n<minute>`, `b<minute>`: pending requests and their bytes, by the minute they were written |
//! | `{p}consent:<sub>\n<client id>` | string, EX | remembered scopes (JSON list) |
//! | `{p}admtok:<hex>` | string, EX | admin API token JSON |
//! | `{p}admscr:<hex>` | string, EX | admin screen sign-in JSON, by the SSO cookie's digest |
//! | `{p}admscr:halfway:<hex>` | string, EX | sign-in waiting for its second factor (JSON) |
//! | `{p}mfa:<sub>`, `{p}mfarc:<sub>` | string, set | enrolment JSON, recovery code digests |
//! | `{p}mfasetup:<sub>\n<holder>` | string, EX | sealed secret of a set-up |
//! | `{p}otpused:<sub>\n<tag>\n<step>` | string, EX | `1`: the TOTP step was accepted |
//! | `{p}passkeys:<sub>`, `{p}pkowner:<credential id>` | hash, string | the person's passkeys (id → JSON), whose passkey an id is |
//! | `{p}pkcer:<key>` | string, EX | the state of a passkey ceremony |
//! | `{p}attempts:<key>` | sorted set, EXPIRE | attempt ids scored by the time they failed (in flight: their start plus 10^10) |
//! | `{p}lockout:<key>` | string, EX | `1`: the lockout was reported |
//! | `{p}clients` | hash | client id → client JSON |
//! | `{p}code:<hex>` | hash, EXPIRE | `data` (code JSON), `consumed_by` (grant id) |
//! | `{p}at:<hex>` | string, EX | access token JSON |
//! | `{p}rt:<hex>` | hash, EXPIRE | `data`, `grant`, `access` (the full key of the access token issued with it), `listed`, `kept`, `pruned` (see `common.lua`), `rotated_at`, `sealed` |
//! | `{p}grant:<id>` | list, EXPIRE | full keys of the grant's refresh tokens (and of an access token that may outlive its refresh token), in the order they were issued |
//! | `{p}client-issued:<client id>` | sorted set, EXPIRE | full keys of the client's codes not yet redeemed and grant indexes, by expiry |
//! | `{p}user-issued:<sub>` | sorted set, EXPIRE | full keys of the user's codes not yet redeemed and grant indexes, by expiry |
//! | `{p}session-issued:<sid>` | hash, EXPIRE | `g<grant id>`, `c<code key>` → client id: the grants begun and codes not yet redeemed in an SSO session |
//! | `{p}bcl-queue` | sorted set | back-channel logouts waiting, by when each is due |
//! | `{p}bcl-job:<id>` | string, EX | a back-channel logout waiting (JSON) |
//! | `{p}audit:seq`, `{p}audit:events`, `{p}audit:filed`, `{p}audit:cursor` | | the audit log (see `audit.rs`) |
//! | `{p}audit:ix:<index>` | list | audit events (`<cursor> <id>`) by actor, app, action, failure |
//! | `{p}failures:<client id>` | list, EXPIRE | the client's recent failed requests (JSON) |
//! | `{p}lastused:<client id>` | string, EX | when the app last obtained tokens (Unix time) |
//! | `{p}oidc:signing-keys` | string | the generated id_token signing keys (JSON list, see `oidc::generated_keys`) |
//! | `{p}format`, `{p}format:lock` | string | the format the store was brought to at start-up, and the node doing it (see `migrate.rs`) |
//!
//! Each capability's file names the keys it uses. `<hex>` is the SHA-256 digest of the secret:
//! raw codes, tokens and cookies never reach Redis. Redeeming
//! a code, rotating a refresh token and revoking a grant are each one Lua script, so they are
//! atomic with respect to every other client of the same Redis.

mod audit;
mod audit_queue;
mod clients;
mod connect;
mod connections;
mod grants;
mod group_commit;
mod issued_here;
mod keys;
mod limits;
mod logout;
mod migrate;
mod passkeys;
mod records;
mod scripts;
mod second_factor;
mod sessions;

use super::{Ping, StoreError};
use crate::config::StoreSettings;
use async_trait::async_trait;
use connect::Target;
use connections::Connections;
pub use migrate::{Migrated, FORMAT, REMOVED_IN};
use redis::{self, Cmd, FromRedisValue, Pipeline};
use scripts::Scripts;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Duration;
use tokio::time::{timeout_at, Instant};

/// The Redis [`super::Store`]: shared connections, the key prefix and the loaded scripts.
///
/// Construction does not connect: connections are opened on first use, and a connection found
/// broken (the server restarted, the network dropped, the master became a replica) is discarded
/// and replaced, so the store recovers from an outage and follows a Sentinel failover by itself.
pub struct RedisStore {
    connections: Connections,
    keys: Keys,
    scripts: Scripts,
    timeout: Duration,
    /// The latest event time at which this process had the audit log forget what retention
    /// no longer keeps: once per second of event time is enough for a retention in days, and
    /// spares every other append reading the oldest event.
    audit_swept: AtomicU64,
    /// Whether the last append stopped forgetting at its bound with more perhaps left: the
    /// next append sweeps too.
    audit_behind: AtomicBool,
    /// Audit events waiting to be written together.
    audit_queue: audit_queue::AuditQueue,
    /// Refresh token rotations waiting to be written together (see `grants.rs`).
    rotations: grants::RotationQueue,
    /// The records of refresh tokens and codes issued lately by this process (see
    /// `issued_here.rs`).
    refresh_here: issued_here::IssuedHere<crate::store::RefreshRecord>,
    codes_here: issued_here::IssuedHere<crate::store::CodeRecord>,
}

impl RedisStore {
    /// Sets up the connections from `settings` (`redis_url` and `password`, or the sentinels;
    /// `key_prefix`, `pool_size`, `timeout_ms`).
    ///
    /// Fails only on a URL the client cannot use; the error never repeats the URL, which may
    /// hold a password.
    pub fn new(settings: &StoreSettings) -> Result<Self, StoreError> {
        let timeout = settings.timeout;
        let target = Target::new(settings).map_err(StoreError::Unavailable)?;
        Ok(Self {
            connections: Connections::new(target, settings.pool_size),
            keys: Keys {
                prefix: settings.key_prefix.clone(),
            },
            scripts: Scripts::new(),
            timeout,
            audit_swept: AtomicU64::new(0),
            audit_behind: AtomicBool::new(false),
            audit_queue: audit_queue::queue(),
            rotations: grants::rotations(),
            refresh_here: issued_here::IssuedHere::new(issued_here::REFRESH_TOKENS),
            codes_here: issued_here::IssuedHere::new(issued_here::CODES),
        })
    }

    /// Runs one request on a shared connection, the whole of it (opening the connection
    /// included) bounded by the store timeout.
    ///
    /// A connection is not checked before each use (that would cost a round trip per
    /// request), so after Redis restarts, the first request finds its connection closed. A
    /// read is then sent once more on a fresh connection; anything that writes is not, as it
    /// may have reached the server before the connection closed.
    async fn call<T: FromRedisValue>(&self, request: Request<'_>) -> Result<T, StoreError> {
        let deadline = Instant::now() + self.timeout;
        let _counted = self.connections.in_flight();
        match self.call_once(&request, deadline).await {
            Err(Failure::Closed(_)) if request.only_reads() => self
                .call_once(&request, deadline)
                .await
                .map_err(Failure::into_error),
            outcome => outcome.map_err(Failure::into_error),
        }
    }

    async fn call_once<T: FromRedisValue>(
        &self,
        request: &Request<'_>,
        deadline: Instant,
    ) -> Result<T, Failure> {
        let mut lease = timeout_at(deadline, self.connections.get())
            .await
            .map_err(|_| Failure::Other(self.timed_out()))?
            .map_err(|e| Failure::Other(redis_error(&e)))?;
        let conn = &mut lease.connection;
        let outcome = timeout_at(deadline, async {
            match request {
                Request::Cmd(cmd) => cmd.query_async(conn).await,
                Request::Pipe(pipe) => pipe.query_async(conn).await,
                Request::Script(script) => script.invoke_async(conn).await,
            }
        })
        .await;
        match outcome {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => {
                // A dropped connection, or a server that stopped being the master (a failover),
                // means the server went away for every connection.
                let gone = e.is_unrecoverable_error()
                    || e.is_io_error()
                    || e.is_connection_dropped()
                    || left_the_master(&e);
                if gone {
                    self.connections.discard_all();
                } else if e.is_timeout() {
                    self.connections.discard(&lease);
                }
                if e.is_connection_dropped() {
                    Err(Failure::Closed(redis_error(&e)))
                } else {
                    Err(Failure::Other(redis_error(&e)))
                }
            }
            Err(_) => {
                // A server that does not answer may be gone without a word (a host down, a
                // network cut): open a new connection rather than wait on this one again.
                self.connections.discard(&lease);
                Err(Failure::Other(self.timed_out()))
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

impl Request<'_> {
    /// Whether the request only reads, so that sending it twice does no harm.
    fn only_reads(&self) -> bool {
        const READS: [&[u8]; 10] = [
            b"GET",
            b"MGET",
            b"HGET",
            b"HMGET",
            b"HVALS",
            b"LRANGE",
            b"PING",
            b"SCARD",
            b"ZREVRANGE",
            b"EXISTS",
        ];
        match self {
            Request::Cmd(cmd) => cmd.args_iter().next().is_some_and(|name| {
                matches!(name, redis::Arg::Simple(name) if READS.iter().any(|r| name.eq_ignore_ascii_case(r)))
            }),
            Request::Pipe(_) | Request::Script(_) => false,
        }
    }
}

/// Why a request failed: its connection turned out closed, or anything else.
enum Failure {
    Closed(StoreError),
    Other(StoreError),
}

impl Failure {
    fn into_error(self) -> StoreError {
        match self {
            Failure::Closed(e) | Failure::Other(e) => e,
        }
    }
}

/// Whether the server stopped being a master the store may write to: a master demoted to a
/// replica in a failover (`READONLY`), or a replica cut off from its master (`MASTERDOWN`). The
/// connections are discarded so that the next one is opened to the master Sentinel names now.
fn left_the_master(e: &redis::RedisError) -> bool {
    use redis::{ErrorKind, ServerErrorKind};
    matches!(
        e.kind(),
        ErrorKind::Server(ServerErrorKind::ReadOnly | ServerErrorKind::MasterDown)
    ) || matches!(e.code(), Some("READONLY" | "MASTERDOWN"))
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

    fn pool(&self) -> Option<crate::domain::PoolUsage> {
        Some(self.connections.usage())
    }
}
