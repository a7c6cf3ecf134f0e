//! The command line: `serve`, `apps …` and `users …` (admin API clients), `openapi`.

mod apps;
mod connection;
mod users;

use crate::config::Settings;
use crate::startup::Application;
use apps::AppsCommand;
use clap::{Parser, Subcommand};
use std::future::Future;
use std::path::PathBuf;
use std::process::ExitCode;

/// sso-bridge: single sign-on for internal apps, fronting the company directory.
#[derive(Debug, Parser)]
#[command(name = "sso-bridge", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the identity provider (with no configuration: the embedded demo setup).
    Serve {
        /// TOML settings file, layered over the built-in defaults.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
    /// Manage connected apps through the running service's admin API (superadmins only).
    Apps {
        #[command(subcommand)]
        command: AppsCommand,
    },
    /// Print the OpenAPI document of the token, userinfo and admin APIs.
    Openapi,
    /// Directory users (second factors, signing out everywhere), through the running service's
    /// admin API.
    Users {
        #[command(subcommand)]
        command: users::UsersCommand,
    },
}

/// Runs the command line; answers the process exit code. `serve` runs on as many worker
/// threads as `server.worker_threads` says, so its settings are read before the runtime starts.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve { config } => {
            // Settings first: they say how to log. A refusal is one plain line either way.
            let settings = match Settings::load(config.as_deref()) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            let workers = settings.server.workers();
            on_runtime(Some(workers), serve(settings))
        }
        Command::Openapi => {
            println!("{}", crate::http::openapi::document());
            ExitCode::SUCCESS
        }
        Command::Apps { command } => on_runtime(None, async { finished(apps::run(command).await) }),
        Command::Users { command } => {
            on_runtime(None, async { finished(users::run(command).await) })
        }
    }
}

/// The exit code of a client command: success, or its error on one line and 1.
fn finished(outcome: Result<(), impl std::fmt::Display>) -> ExitCode {
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// Runs `command` to its end on a new runtime of `workers` threads (a thread for a client
/// command, which sends a request or two).
fn on_runtime(workers: Option<usize>, command: impl Future<Output = ExitCode>) -> ExitCode {
    let mut builder = match workers {
        Some(workers) => {
            let mut builder = tokio::runtime::Builder::new_multi_thread();
            builder.worker_threads(workers);
            // A task woken by another runs next in the LIFO slot: the Redis and LDAP connection
            // drivers, woken by each request's command, then write it alone. Without the slot
            // they run after the requests ready meanwhile and write their commands together:
            // on the bench a refresh cost 9% less CPU here, 12% less in Redis, a quarter less in
            // the directory.
            #[cfg(tokio_unstable)]
            builder.disable_lifo_slot();
            builder
        }
        None => tokio::runtime::Builder::new_current_thread(),
    };
    match builder.enable_all().build() {
        Ok(runtime) => runtime.block_on(command),
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            ExitCode::from(1)
        }
    }
}

async fn serve(settings: Settings) -> ExitCode {
    crate::telemetry::init("info,sso_bridge=info,poem=warn", settings.log.format);
    let issuer = settings.issuer();
    let app = match Application::build(settings).await {
        Ok(app) => app,
        Err(e) => {
            eprintln!("error: {}", crate::web::error_chain(&e));
            return ExitCode::from(2);
        }
    };
    match app.metrics_port() {
        Some(metrics_port) => {
            tracing::info!(port = app.port(), metrics_port, %issuer, "sso-bridge listening")
        }
        None => tracing::info!(port = app.port(), %issuer, "sso-bridge listening"),
    }
    match app.run_until_stopped().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    /// `.cargo/config.toml` sets the flag; a RUSTFLAGS variable without it would build a server
    /// that quietly keeps the LIFO slot.
    #[test]
    fn the_build_turns_on_tokios_unstable_runtime_options() {
        let flagged = std::hint::black_box(cfg!(tokio_unstable));
        assert!(
            flagged,
            "build with `--cfg tokio_unstable` (.cargo/config.toml), or add it to RUSTFLAGS"
        );
    }
}
