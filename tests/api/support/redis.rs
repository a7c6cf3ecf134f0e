//! A private redis-server on a free loopback port, started and stopped by the tests themselves.
//!
//! Nothing is persisted (`--save "" --appendonly no`) unless a test asks for it with options of
//! its own, and the working directory is a temporary one, so a stopped server leaves nothing
//! behind and a restarted one starts empty (or from its own append-only file).

use super::ports::{free_port, wait_for_port};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// How long a server may take to answer PING after being started.
const READY_WITHIN: Duration = Duration::from_secs(10);

/// The server shared by tests that only need *a* Redis; see [`RedisServer::shared`].
static SHARED: Mutex<Weak<RedisServer>> = Mutex::new(Weak::new());

/// A running redis-server child process; killed when dropped.
pub struct RedisServer {
    port: u16,
    child: Option<Child>,
    dir: TempDir,
    /// Options after the defaults (later ones win), kept for restarts.
    options: Vec<String>,
}

impl RedisServer {
    /// Starts a server on a free port and waits until it answers.
    pub fn start() -> RedisServer {
        Self::start_with(&[])
    }

    /// Starts a server with `options` (`["--appendonly", "yes"]`, ...) after the defaults, on a
    /// free port, and waits until it answers PING.
    pub fn start_with(options: &[&str]) -> RedisServer {
        let dir = tempfile::tempdir().expect("a temporary directory for redis-server");
        let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
        // Another process may take the port between `free_port` and the bind: try a few.
        for _ in 0..5 {
            let port = free_port();
            if let Some(child) = spawn(port, &dir, &options) {
                return RedisServer {
                    port,
                    child: Some(child),
                    dir,
                    options,
                };
            }
        }
        panic!("redis-server did not start on any of five free ports");
    }

    /// A server shared by every test holding it, started when none is running. It stops when
    /// the last holder drops it, so no server outlives the test binary.
    pub fn shared() -> Arc<RedisServer> {
        let mut slot = SHARED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(server) = slot.upgrade() {
            return server;
        }
        let server = Arc::new(RedisServer::start());
        *slot = Arc::downgrade(&server);
        server
    }

    /// `redis://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// The loopback port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Kills the server and waits for it to exit. Stopping a stopped server does nothing.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same port, in the same directory, with the same options
    /// (empty unless they persist something).
    pub fn restart(&mut self) {
        self.stop();
        let child = spawn(self.port, &self.dir, &self.options)
            .unwrap_or_else(|| panic!("redis-server did not restart on port {}", self.port));
        self.child = Some(child);
        // Answering PING implies listening; this also holds the port helper to its contract.
        wait_for_port(self.port, READY_WITHIN);
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Starts redis-server on `port` with `options` after the defaults; `None` when it exits
/// before answering (port taken).
fn spawn(port: u16, dir: &TempDir, options: &[String]) -> Option<Child> {
    let binary = std::env::var("REDIS_SERVER").unwrap_or_else(|_| "redis-server".into());
    let mut child = Command::new(&binary)
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no"])
        .arg("--dir")
        .arg(dir.path())
        .args(options)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {binary} (install redis-server): {e}"));
    let deadline = Instant::now() + READY_WITHIN;
    while Instant::now() < deadline {
        if child.try_wait().ok().flatten().is_some() {
            return None;
        }
        if answers_ping(port) {
            return Some(child);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("redis-server on port {port} did not answer PING within {READY_WITHIN:?}");
}

/// Whether a Redis server on `port` answers `PING` with `+PONG`; a server that requires a
/// password answers `-NOAUTH`, which tells as well that it is up.
fn answers_ping(port: u16) -> bool {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let Ok(mut stream) = TcpStream::connect_timeout(&addr, Duration::from_millis(200)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let mut reply = [0u8; 7];
    stream.write_all(b"PING\r\n").is_ok()
        && stream.read_exact(&mut reply).is_ok()
        && (&reply == b"+PONG\r\n" || reply.starts_with(b"-NOAUTH"))
}
