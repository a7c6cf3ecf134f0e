//! `sso-bridge serve` as an operator runs it: the real binary in a process of its own, its
//! stderr collected line by line, stopped with SIGTERM.

use super::ports::{free_port, wait_for_port};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A running `sso-bridge serve`; killed when dropped.
pub struct Served {
    child: Child,
    port: u16,
    stderr: Arc<Mutex<Vec<String>>>,
    reader: Option<JoinHandle<()>>,
}

impl Served {
    /// Starts the embedded setup on a free port with `env` set (`RUST_LOG=info` unless given),
    /// and waits until it accepts connections.
    pub fn start(env: &[(&str, String)]) -> Served {
        let port = free_port();
        let mut command = Command::new(env!("CARGO_BIN_EXE_sso-bridge"));
        command
            .arg("serve")
            .env("SSO_BRIDGE__SERVER__LISTEN", format!("127.0.0.1:{port}"))
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().expect("sso-bridge serve runs");
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let lines = Arc::clone(&stderr);
        let pipe = child.stderr.take().expect("stderr is piped");
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                lines.lock().unwrap().push(line);
            }
        });
        wait_for_port(port, Duration::from_secs(20));
        Served {
            child,
            port,
            stderr,
            reader: Some(reader),
        }
    }

    /// `127.0.0.1:<port>`.
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// `http://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr())
    }

    /// Sends SIGTERM, as systemd or Kubernetes does to stop a service.
    pub fn terminate(&self) {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "SIGTERM could not be sent");
    }

    /// Whether the process is still running.
    pub fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Waits for the process to exit; panics (killing it) after `limit`.
    pub fn wait(&mut self, limit: Duration) -> ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("sso-bridge did not exit within {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Every line written to stderr; all of them once the process has exited.
    pub fn stderr(&mut self) -> Vec<String> {
        if self.child.try_wait().ok().flatten().is_some() {
            if let Some(reader) = self.reader.take() {
                let _ = reader.join();
            }
        }
        self.stderr.lock().unwrap().clone()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
