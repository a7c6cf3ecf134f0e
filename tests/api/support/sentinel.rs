//! Redis under Sentinel on free loopback ports: a master, one replica and three sentinels
//! (quorum 2), all requiring passwords, with timings short enough that a failover takes
//! seconds. Sentinels run as `redis-server <conf> --sentinel`, which is what Debian's
//! `redis-sentinel` runs.

use super::ports::{free_port, wait_for_port};
use super::redis::RedisServer;
use deadpool_redis::redis::{self, Connection, ConnectionLike, Value};
use std::collections::HashMap;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// The name the sentinels monitor the master by.
pub const MASTER_NAME: &str = "sso";
/// The password of the master and the replica.
pub const DATA_PASSWORD: &str = "data-pw";
/// The password of the sentinels.
pub const SENTINEL_PASSWORD: &str = "sentinel-pw";

/// How long setting everything up may take.
const READY_WITHIN: Duration = Duration::from_secs(20);

/// The master, its replica and three sentinels; everything is killed when dropped.
pub struct SentinelSetup {
    pub master: RedisServer,
    pub replica: RedisServer,
    sentinels: Vec<Sentinel>,
}

/// One sentinel process.
struct Sentinel {
    port: u16,
    child: Child,
    _dir: TempDir,
}

impl Drop for Sentinel {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl SentinelSetup {
    /// Starts the master and the replica, waits until the replica is in sync, then starts the
    /// sentinels and waits until each knows the replica and the two other sentinels.
    pub fn start() -> SentinelSetup {
        let auth = [
            "--requirepass",
            DATA_PASSWORD,
            "--masterauth",
            DATA_PASSWORD,
        ];
        let master = RedisServer::start_with(&auth);
        let master_port = master.port().to_string();
        let replica_of = ["--replicaof", "127.0.0.1", &master_port];
        let replica = RedisServer::start_with(&[&auth[..], &replica_of[..]].concat());
        wait_until("the replica is in sync", || {
            info(master.port(), "replication").contains("state=online")
        });
        let sentinels = (0..3).map(|_| Sentinel::start(master.port())).collect();
        let setup = SentinelSetup {
            master,
            replica,
            sentinels,
        };
        for sentinel in &setup.sentinels {
            wait_until("every sentinel knows the others and the replica", || {
                let state = sentinel_state(sentinel.port);
                state.get("num-other-sentinels").map(String::as_str) == Some("2")
                    && state.get("num-slaves").map(String::as_str) == Some("1")
            });
        }
        setup
    }

    /// The settings of an app that reaches Redis through these sentinels.
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        let urls: Vec<String> = self
            .sentinels
            .iter()
            .map(|s| format!("redis://127.0.0.1:{}", s.port))
            .collect();
        vec![
            ("SSO_BRIDGE__STORE__SENTINEL_URLS", urls.join(", ")),
            ("SSO_BRIDGE__STORE__SENTINEL_MASTER", MASTER_NAME.into()),
            (
                "SSO_BRIDGE__STORE__SENTINEL_PASSWORD",
                SENTINEL_PASSWORD.into(),
            ),
            ("SSO_BRIDGE__STORE__PASSWORD", DATA_PASSWORD.into()),
        ]
    }

    /// Waits until the replica has every write the master took (`WAIT 1`), so that nothing
    /// written so far is lost in a failover.
    pub fn wait_for_replication(&self) {
        let acknowledged: i64 = redis::cmd("WAIT")
            .arg(1)
            .arg(5000)
            .query(&mut connect(self.master.port(), DATA_PASSWORD))
            .expect("WAIT answers");
        assert_eq!(
            acknowledged, 1,
            "the replica did not acknowledge the writes"
        );
    }

    /// Asks a sentinel for a failover now (`SENTINEL FAILOVER`), as an operator does before
    /// taking the master down for maintenance.
    pub fn fail_over(&self) {
        let sentinel = self.sentinels.first().expect("three sentinels").port;
        let _: String = redis::cmd("SENTINEL")
            .arg("FAILOVER")
            .arg(MASTER_NAME)
            .query(&mut connect(sentinel, SENTINEL_PASSWORD))
            .expect("the sentinel starts a failover");
    }

    /// Waits until the replica has been promoted and says it is the master; answers when.
    pub async fn promotion(&self, limit: Duration) -> Instant {
        let deadline = Instant::now() + limit;
        let port = self.replica.port();
        loop {
            // Off the async workers: the traffic a test sends meanwhile must not wait for it.
            let role = tokio::task::spawn_blocking(move || role(port))
                .await
                .unwrap();
            if role.as_deref() == Some("master") {
                return Instant::now();
            }
            assert!(
                Instant::now() < deadline,
                "no promotion within {limit:?} (replica role {role:?})"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Sentinel {
    fn start(master_port: u16) -> Sentinel {
        let dir = tempfile::tempdir().expect("a directory for the sentinel");
        let port = free_port();
        let conf = dir.path().join("sentinel.conf");
        // Sentinel rewrites its configuration file as it learns, so it must be its own.
        std::fs::write(
            &conf,
            format!(
                "port {port}\nbind 127.0.0.1\ndir {dir}\n\
                 requirepass {SENTINEL_PASSWORD}\nsentinel sentinel-pass {SENTINEL_PASSWORD}\n\
                 sentinel monitor {MASTER_NAME} 127.0.0.1 {master_port} 2\n\
                 sentinel auth-pass {MASTER_NAME} {DATA_PASSWORD}\n\
                 sentinel down-after-milliseconds {MASTER_NAME} 1000\n\
                 sentinel failover-timeout {MASTER_NAME} 4000\n\
                 sentinel parallel-syncs {MASTER_NAME} 1\n",
                dir = dir.path().display()
            ),
        )
        .expect("sentinel.conf is written");
        let binary = std::env::var("REDIS_SERVER").unwrap_or_else(|_| "redis-server".into());
        let child = Command::new(&binary)
            .arg(&conf)
            .arg("--sentinel")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {binary} --sentinel: {e}"));
        wait_for_port(port, READY_WITHIN);
        Sentinel {
            port,
            child,
            _dir: dir,
        }
    }
}

/// A connection to the server on `port` that requires `password`.
fn connect(port: u16, password: &str) -> Connection {
    let url = format!("redis://:{password}@127.0.0.1:{port}");
    redis::Client::open(url)
        .and_then(|c| c.get_connection_with_timeout(Duration::from_secs(1)))
        .unwrap_or_else(|e| panic!("cannot connect to 127.0.0.1:{port}: {e}"))
}

/// `INFO <section>` of the data server on `port`.
fn info(port: u16, section: &str) -> String {
    redis::cmd("INFO")
        .arg(section)
        .query(&mut connect(port, DATA_PASSWORD))
        .unwrap_or_default()
}

/// What the sentinel on `port` knows of the master (`SENTINEL MASTER`).
fn sentinel_state(port: u16) -> HashMap<String, String> {
    redis::cmd("SENTINEL")
        .arg("MASTER")
        .arg(MASTER_NAME)
        .query(&mut connect(port, SENTINEL_PASSWORD))
        .unwrap_or_default()
}

/// The role the data server on `port` gives itself (`master`, `slave`), if it answers.
fn role(port: u16) -> Option<String> {
    let url = format!("redis://:{DATA_PASSWORD}@127.0.0.1:{port}");
    let mut conn = redis::Client::open(url)
        .ok()?
        .get_connection_with_timeout(Duration::from_millis(500))
        .ok()?;
    match conn.req_command(&redis::cmd("ROLE")).ok()? {
        Value::Array(items) => match items.first()? {
            Value::BulkString(role) => Some(String::from_utf8_lossy(role).into_owned()),
            _ => None,
        },
        _ => None,
    }
}

/// Polls `ready` until it holds, or panics naming `what` after [`READY_WITHIN`].
fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + READY_WITHIN;
    while !ready() {
        assert!(
            Instant::now() < deadline,
            "{what}: not within {READY_WITHIN:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
