//! `sso-bridge serve` in a process of its own, the real binary, as one node of a deployment.

use super::ports::free_port;
use super::redis::RedisServer;
use crate::helpers::{random_key, settings_env, Backends, Service};
use base64::Engine;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// How long a node may take to listen after being started.
const READY_WITHIN: Duration = Duration::from_secs(30);

/// The settings every node of one deployment shares beyond Redis: the key prefix and the
/// second-factor encryption key (the id_token key secret is the same for every test app).
pub fn deployment() -> Vec<(&'static str, String)> {
    let prefix = sso_bridge::domain::secret::random_id(8).to_lowercase();
    let key = base64::engine::general_purpose::STANDARD.encode(random_key());
    vec![
        ("SSO_BRIDGE__STORE__KEY_PREFIX", format!("n{prefix}:")),
        ("SSO_BRIDGE__MFA__ENCRYPTION_KEY", key),
    ]
}

/// A running node: its process, and the service at its own address. Killed when dropped.
pub struct Node {
    service: Service,
    child: Child,
    dir: TempDir,
}

impl std::ops::Deref for Node {
    type Target = Service;

    fn deref(&self) -> &Service {
        &self.service
    }
}

impl Node {
    /// Starts a node on Redis `redis` and the shared slapd with the test settings, then `extra`
    /// (as environment variables, as an operator sets them), on a free port; waits until it
    /// says it listens and answers `/healthz`.
    pub async fn start(redis: &RedisServer, extra: &[(&str, String)]) -> Node {
        Node::start_on(Backends::Real, Some(redis), extra).await
    }

    /// Starts the embedded default (memory store, demo directory) with the test settings, then
    /// `extra`: one process that keeps everything in its own memory.
    pub async fn embedded(extra: &[(&str, String)]) -> Node {
        Node::start_on(Backends::Embedded, None, extra).await
    }

    async fn start_on(
        backends: Backends,
        redis: Option<&RedisServer>,
        extra: &[(&str, String)],
    ) -> Node {
        // Another process may take the port between `free_port` and the node's bind: try a few.
        for _ in 0..3 {
            let port = free_port();
            let env = settings_env(backends, port, redis, extra);
            let mut node = Node::spawn(backends, port, env);
            match node.listening().await {
                Listening::Yes => {
                    node.wait_until_healthy().await;
                    return node;
                }
                Listening::PortTaken => continue,
            }
        }
        panic!("no node started on any of three free ports");
    }

    fn spawn(backends: Backends, port: u16, env: Vec<(String, String)>) -> Node {
        let dir = tempfile::tempdir().expect("a directory for the node's log");
        let log = std::fs::File::create(dir.path().join("node.log")).expect("the log file");
        let mut command = Command::new(env!("CARGO_BIN_EXE_sso-bridge"));
        // Only the settings given here: none of the test process's own.
        for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("SSO_BRIDGE")) {
            command.env_remove(key);
        }
        let child = command
            .arg("serve")
            .envs(env)
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("sso-bridge serve starts");
        Node {
            service: Service::at(backends, format!("http://127.0.0.1:{port}")),
            child,
            dir,
        }
    }

    /// `127.0.0.1:<port>`.
    pub fn addr(&self) -> &str {
        self.base.trim_start_matches("http://")
    }

    /// A line of `/proc/<pid>/status` in KiB: `VmRSS` (resident now) or `VmHWM` (the peak).
    pub fn memory_kib(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the process is running");
        status
            .lines()
            .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("no {field} in {status}"))
    }

    /// What the node has logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.log_path()).unwrap_or_default()
    }

    fn log_path(&self) -> PathBuf {
        self.dir.path().join("node.log")
    }

    /// Waits until the node logs that it listens (its own port, not another process's), or
    /// exits because the port was taken; panics on any other exit.
    async fn listening(&mut self) -> Listening {
        let deadline = Instant::now() + READY_WITHIN;
        loop {
            if self.log().contains("sso-bridge listening") {
                return Listening::Yes;
            }
            if let Some(status) = self.child.try_wait().expect("the node's status") {
                let log = self.log();
                if log.contains("cannot listen") {
                    return Listening::PortTaken;
                }
                panic!("the node exited ({status}):\n{log}");
            }
            assert!(
                Instant::now() < deadline,
                "the node did not listen within {READY_WITHIN:?}:\n{}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    async fn wait_until_healthy(&self) {
        let deadline = Instant::now() + READY_WITHIN;
        loop {
            let health = self.api.get(self.url("/healthz")).send().await;
            if health.is_ok_and(|r| r.status().is_success()) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the node did not answer within {READY_WITHIN:?}:\n{}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// How a start ended.
enum Listening {
    Yes,
    PortTaken,
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
