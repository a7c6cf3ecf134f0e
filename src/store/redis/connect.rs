//! Where the store's connections go: the one server of `store.redis_url`, or the master that
//! Redis Sentinel names (`store.sentinel_urls`), asked again for every new connection, so the
//! store follows a failover by itself.
//!
//! The sentinels are asked here rather than through the client's own Sentinel support: that
//! one opens the master connection with fixed timeouts instead of `store.timeout_ms`, and
//! serialises every new connection behind one lock. Asking is two commands (Redis's "Sentinel
//! client" guidelines): `SENTINEL get-master-addr-by-name` on the sentinels, then `ROLE` on
//! the server they name, which must answer that it is the master.

use crate::config::{SentinelSettings, StoreSettings};
use redis::aio::{AsyncPushSender, MultiplexedConnection};
use redis::caching::{CacheConfig, CacheMode};
use redis::{
    self, AsyncConnectionConfig, Client, CommandCacheConfig, ConnectionAddr, ConnectionInfo,
    ErrorKind, IntoConnectionInfo, ProtocolVersion, RedisError, RedisResult, Role,
};
use secrecy::{ExposeSecret, SecretString};
use std::collections::HashSet;
use std::num::NonZeroUsize;
use std::sync::Arc;
use std::time::Duration;
use tokio::task::JoinSet;

/// The port of a sentinel URL that names none.
const SENTINEL_PORT: u16 = 26379;

/// How long a read the store marks cacheable is answered from the copy a connection keeps, at
/// most (see [`caching`]).
pub(super) const CACHED_FOR: Duration = Duration::from_secs(1);

/// Opts a read into the connections' caching (see [`caching`]).
pub(super) fn cached() -> CommandCacheConfig {
    CommandCacheConfig::new().set_enable_cache(true)
}

/// How many such copies a connection keeps, the least recently used going first.
const CACHED_READS: usize = 1024;

/// `connection` with Redis's server-assisted client-side caching, for the reads the store opts
/// in with [`cached`] (an access token read by userinfo and introspection, an app's record):
/// Redis tells the connection that read a key when the key changes or goes (a revocation, an
/// expiry), and the copy goes at once. [`CACHED_FOR`] bounds what a late invalidation could leave, as when one crosses the
/// read it invalidates. A connection that closes takes its copies with it.
fn caching(connection: AsyncConnectionConfig) -> AsyncConnectionConfig {
    let size = NonZeroUsize::new(CACHED_READS).unwrap_or(NonZeroUsize::MIN);
    let cache = CacheConfig::new()
        .set_mode(CacheMode::OptIn)
        .set_size(size)
        .set_default_client_ttl(CACHED_FOR);
    connection.set_cache_config(cache)
}

/// Where new connections go.
pub(super) enum Target {
    /// `store.redis_url` (with `store.password`).
    Server(Client, AsyncConnectionConfig),
    /// The master that the sentinels name.
    Sentinel(Sentinels),
}

impl Target {
    /// The target `settings` describe; fails only on settings the client cannot use, with a
    /// message that never repeats a URL (it may hold a password).
    pub(super) fn new(settings: &StoreSettings) -> Result<Self, String> {
        let connection = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(settings.timeout))
            .set_response_timeout(Some(settings.timeout));
        match &settings.sentinel {
            None => Self::server(settings, connection),
            Some(sentinel) => {
                Sentinels::new(sentinel, settings.password.clone(), connection).map(Self::Sentinel)
            }
        }
    }

    /// The server of `store.redis_url`, with `store.password` when set.
    fn server(settings: &StoreSettings, connection: AsyncConnectionConfig) -> Result<Self, String> {
        let mut info = settings
            .redis_url
            .expose_secret()
            .into_connection_info()
            .map_err(|e| format!("store.redis_url is not usable: {e}"))?;
        if let Some(password) = &settings.password {
            let redis = info.redis_settings().clone();
            info = info.set_redis_settings(redis.set_password(password.expose_secret()));
        }
        let redis = info.redis_settings().clone();
        info = info.set_redis_settings(redis.set_protocol(ProtocolVersion::RESP3));
        Client::open(info)
            .map(|client| Self::Server(client, connection))
            .map_err(|e| format!("store.redis_url is not usable: {e}"))
    }

    /// A new connection (RESP3, so that `watch` hears when it closes): to the server, or to
    /// the master the sentinels name now.
    pub(super) async fn connect(
        &self,
        watch: impl AsyncPushSender,
    ) -> RedisResult<MultiplexedConnection> {
        match self {
            Self::Server(client, connection) => {
                let connection = caching(connection.clone()).set_push_sender(watch);
                client
                    .get_multiplexed_async_connection_with_config(&connection)
                    .await
            }
            Self::Sentinel(sentinels) => sentinels.connect(watch).await,
        }
    }
}

/// The sentinels of `store.sentinel_urls` and how to reach the master they name.
pub(super) struct Sentinels {
    /// One client per sentinel; a client opens no connection until asked.
    sentinels: Vec<Client>,
    /// `store.sentinel_master`.
    master: Arc<str>,
    /// Whether the master is reached over TLS, as the sentinels are.
    tls: bool,
    /// `store.password`: the master's.
    password: Option<SecretString>,
    /// Timeouts of every connection, to a sentinel or to the master.
    connection: AsyncConnectionConfig,
}

impl Sentinels {
    /// One client per sentinel, opening nothing yet; the master is reached with `password`.
    fn new(
        settings: &SentinelSettings,
        password: Option<SecretString>,
        connection: AsyncConnectionConfig,
    ) -> Result<Self, String> {
        let sentinel_password = settings.password.as_ref().map(|p| p.expose_secret());
        let sentinels = settings
            .urls
            .iter()
            .map(|url| {
                let host = url.host_str().unwrap_or_default();
                let port = url.port().unwrap_or(SENTINEL_PORT);
                let info = connection_info(host, port, settings.tls(), sentinel_password)?;
                Client::open(info).map_err(|e| format!("store.sentinel_urls: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            sentinels,
            master: Arc::from(settings.master.as_str()),
            tls: settings.tls(),
            password,
            connection,
        })
    }

    /// A connection to the current master. Every sentinel is asked at once, and the first
    /// answer whose server confirms that it is the master wins: during a failover sentinels
    /// may still name the old master, which then does not connect or no longer says it is
    /// the master, and the next answer is tried.
    async fn connect(&self, watch: impl AsyncPushSender) -> RedisResult<MultiplexedConnection> {
        let connection = caching(self.connection.clone()).set_push_sender(watch);
        let mut answers = JoinSet::new();
        for sentinel in self.sentinels.iter() {
            let sentinel = sentinel.clone();
            let (master, connection) = (Arc::clone(&self.master), self.connection.clone());
            answers.spawn(async move { ask(&sentinel, &master, &connection).await });
        }
        let mut tried = HashSet::new();
        let mut last = None;
        while let Some(answer) = answers.join_next().await {
            let (host, port) = match answer {
                Ok(Ok(Some(address))) => address,
                Ok(Ok(None)) => continue,
                Ok(Err(e)) => {
                    last = Some(e);
                    continue;
                }
                Err(e) => {
                    last = Some(failure("a sentinel query ended", e.to_string()));
                    continue;
                }
            };
            if !tried.insert((host.clone(), port)) {
                continue;
            }
            match self.open_master(&host, port, &connection).await {
                Ok(conn) => return Ok(conn),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| {
            failure(
                "no sentinel knows the master",
                format!("no sentinel monitors a master named `{}`", self.master),
            )
        }))
    }

    /// A connection to the server at `host:port`, once it says it is the master.
    async fn open_master(
        &self,
        host: &str,
        port: u16,
        connection: &AsyncConnectionConfig,
    ) -> RedisResult<MultiplexedConnection> {
        let password = self.password.as_ref().map(|p| p.expose_secret());
        let info = connection_info(host, port, self.tls, password)
            .map_err(|e| failure("the master's address is not usable", e))?;
        let redis = info.redis_settings().clone();
        let info = info.set_redis_settings(redis.set_protocol(ProtocolVersion::RESP3));
        let mut conn = Client::open(info)?
            .get_multiplexed_async_connection_with_config(connection)
            .await?;
        match redis::cmd("ROLE").query_async(&mut conn).await? {
            Role::Primary { .. } => Ok(conn),
            _ => Err(failure(
                "not the master",
                format!("{host}:{port}, named by a sentinel, is not the master (yet)"),
            )),
        }
    }
}

/// The address the sentinel reached by `sentinel` gives for the master named `master`, or
/// `None` when it monitors no master of that name.
async fn ask(
    sentinel: &Client,
    master: &str,
    connection: &AsyncConnectionConfig,
) -> RedisResult<Option<(String, u16)>> {
    let mut conn = sentinel
        .get_multiplexed_async_connection_with_config(connection)
        .await?;
    let address: Option<(String, u16)> = redis::cmd("SENTINEL")
        .arg("get-master-addr-by-name")
        .arg(master)
        .query_async(&mut conn)
        .await?;
    Ok(address)
}

/// How to reach `host:port`: plain or TLS, with the default user's `password` when set.
fn connection_info(
    host: &str,
    port: u16,
    tls: bool,
    password: Option<&str>,
) -> Result<ConnectionInfo, String> {
    let addr = if tls {
        ConnectionAddr::TcpTls {
            host: host.to_owned(),
            port,
            insecure: false,
            tls_params: None,
        }
    } else {
        ConnectionAddr::Tcp(host.to_owned(), port)
    };
    let mut info = addr.into_connection_info().map_err(|e| e.to_string())?;
    if let Some(password) = password {
        let redis = info.redis_settings().clone().set_password(password);
        info = info.set_redis_settings(redis);
    }
    Ok(info)
}

/// An error of the Sentinel lookup, in the client's error type so the pool reports it like any
/// other: as the store being unavailable.
fn failure(what: &'static str, detail: String) -> RedisError {
    RedisError::from((ErrorKind::MasterNameNotFoundBySentinel, what, detail))
}
