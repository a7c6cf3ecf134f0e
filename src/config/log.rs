//! `[log]`: how log lines are written.

use super::value;
use serde::Deserialize;

/// How each log line is written to stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object a line, for log shippers.
    Json,
}

impl<'de> Deserialize<'de> for LogFormat {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        value::choice(de, &[("text", Self::Text), ("json", Self::Json)])
    }
}

/// `[log]`
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogSettings {
    /// `log.format`: `text` or `json`.
    pub format: LogFormat,
}
