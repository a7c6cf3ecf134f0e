//! The `sso-bridge` binary: command-line dispatch only.

use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    sso_bridge::cli::run().await
}
