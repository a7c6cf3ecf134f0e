//! The command line: `serve`, `apps …` and `users …` (admin API clients), `openapi`.

mod apps;
mod connection;
mod users;

use crate::config::Settings;
use crate::startup::Application;
use apps::AppsCommand;
use clap::{Parser, Subcommand};
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

/// Runs the command line; answers the process exit code.
pub async fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve { config } => serve(config).await,
        Command::Openapi => {
            println!("{}", crate::http::openapi::document());
            ExitCode::SUCCESS
        }
        Command::Apps { command } => match apps::run(command).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(1)
            }
        },
        Command::Users { command } => match users::run(command).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(1)
            }
        },
    }
}

async fn serve(config: Option<PathBuf>) -> ExitCode {
    // Settings first: they say how to log. A refusal is one plain line either way.
    let settings = match Settings::load(config.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
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
