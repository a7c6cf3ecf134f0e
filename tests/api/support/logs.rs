//! The service's log lines, captured for a test to read.

use std::sync::{Arc, Mutex};
use tracing::subscriber::DefaultGuard;

/// What the service logged while the guard of [`capture`] was held.
#[derive(Clone, Default)]
pub struct Logs(Arc<Mutex<Vec<u8>>>);

impl Logs {
    /// Everything logged so far, one line per event.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl std::io::Write for Logs {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Captures, at every level, what the service and poem log on this thread: the test's own
/// runtime, where the app it spawns serves its requests.
pub fn capture() -> (Logs, DefaultGuard) {
    // tracing caches, per call site, whether any subscriber wants its events. Tests on other
    // threads run without one, and a call site they reach first could be cached as unwanted
    // while this thread's subscriber is being set. A global subscriber that wants everything
    // and writes nothing keeps every call site asking, so the capture sees every event.
    static WANT_EVERYTHING: std::sync::Once = std::sync::Once::new();
    WANT_EVERYTHING.call_once(|| {
        let _ = tracing::subscriber::set_global_default(tracing_subscriber::registry());
    });
    let logs = Logs::default();
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_env_filter("sso_bridge=trace,audit=trace,poem=trace")
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    (logs, tracing::subscriber::set_default(subscriber))
}
