//! Logging: `RUST_LOG`-style filters, human-readable lines on stderr.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber once; later calls do nothing (tests call it repeatedly).
pub fn init(default_filter: &str) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_filter));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
