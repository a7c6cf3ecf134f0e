//! The real `sso-bridge serve` binary in its own process, on a free loopback port, stopped by
//! pid when dropped: for what only a whole process shows (its memory, its signals).

use super::ports::{free_port, wait_for_port};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `sso-bridge serve`.
pub struct Served {
    child: Child,
    pub port: u16,
}

impl Served {
    /// Starts the binary with `env` on top of a free listen address, and waits until it
    /// accepts connections.
    pub fn start(env: &[(&str, String)]) -> Served {
        // For the test's own reqwest clients, as `spawn_app` does.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let port = free_port();
        let child = Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
            .arg("serve")
            .env("SSO_BRIDGE__SERVER__LISTEN", format!("127.0.0.1:{port}"))
            .envs(env.iter().map(|(k, v)| (k, v)))
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("sso-bridge starts");
        let served = Served { child, port };
        wait_for_port(port, Duration::from_secs(30));
        served
    }

    /// `http://127.0.0.1:<port>` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// `127.0.0.1:<port>`.
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
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
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
