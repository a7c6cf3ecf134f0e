//! What the service tells its operators: log lines (`RUST_LOG`-style filters, as text or JSON on
//! stderr) and Prometheus metrics ([`metrics`]), fed by the events the flows publish, the HTTP
//! middleware and the timed store and directory.

pub mod directory;
pub mod http;
pub mod listener;
pub mod metrics;
pub mod store;

use crate::config::LogFormat;
use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

pub use metrics::Metrics;

/// Installs the global subscriber once; later calls do nothing (tests call it repeatedly).
///
/// `Json` writes one JSON object a line, every target (the audit log's included) alike, so a
/// log shipper needs no parser of its own.
pub fn init(default_filter: &str, format: LogFormat) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_filter));
    // Colours only for a person at a terminal, not in a file or a journal.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}
