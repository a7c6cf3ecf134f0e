//! The command line: `serve`, `apps …` (admin API client), `openapi`.

use crate::admin::client::{AdminClient, ClientError, CreateRequest};
use crate::config::Settings;
use crate::startup::Application;
use clap::{Args, Parser, Subcommand};
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
}

#[derive(Debug, Args)]
struct Connection {
    /// Base address of the running service.
    #[arg(
        long,
        env = "SSO_BRIDGE_SERVER",
        default_value = "http://127.0.0.1:8080"
    )]
    server: String,
    /// Directory username of a superadmin; the password comes from SSO_BRIDGE_ADMIN_PASSWORD or a prompt.
    #[arg(long, env = "SSO_BRIDGE_ADMIN")]
    admin: String,
    /// Second-factor code, for accounts whose policy requires one.
    #[arg(long)]
    otp: Option<String>,
    /// Print JSON for scripts instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Subcommand)]
enum AppsCommand {
    /// Register an app and print its credentials (the secret is shown once).
    Create {
        /// Display name shown on the consent page.
        #[arg(long)]
        name: String,
        /// Callback URL (repeat for several).
        #[arg(long = "redirect-uri", required = true)]
        redirect_uris: Vec<String>,
        /// Native or mobile app: no secret, PKCE required.
        #[arg(long)]
        public: bool,
        /// Require PKCE from a confidential app too.
        #[arg(long)]
        require_pkce: bool,
        /// Where OpenID Connect logout may send the browser back to (repeat for several).
        #[arg(long = "post-logout-redirect-uri")]
        post_logout_redirect_uris: Vec<String>,
        #[command(flatten)]
        conn: Connection,
    },
    /// List registered apps.
    List {
        #[command(flatten)]
        conn: Connection,
    },
    /// Show one app.
    Show {
        /// The app's client id.
        client_id: String,
        #[command(flatten)]
        conn: Connection,
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
        Command::Apps { command } => match apps(command).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(1)
            }
        },
    }
}

async fn serve(config: Option<PathBuf>) -> ExitCode {
    crate::telemetry::init("info,sso_bridge=info,poem=warn");
    let settings = match Settings::load(config.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let issuer = settings.issuer();
    let app = match Application::build(settings).await {
        Ok(app) => app,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    tracing::info!(port = app.port(), %issuer, "sso-bridge listening");
    match app.run_until_stopped().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

async fn client(conn: &Connection) -> Result<AdminClient, ClientError> {
    let password = match std::env::var("SSO_BRIDGE_ADMIN_PASSWORD") {
        Ok(p) if !p.is_empty() => p,
        _ => rpassword::prompt_password(format!("Password for {}: ", conn.admin))
            .map_err(|e| ClientError::Input(format!("cannot read the password: {e}")))?,
    };
    AdminClient::sign_in(&conn.server, &conn.admin, &password, conn.otp.as_deref()).await
}

async fn apps(command: AppsCommand) -> Result<(), ClientError> {
    match command {
        AppsCommand::Create {
            name,
            redirect_uris,
            public,
            require_pkce,
            post_logout_redirect_uris,
            conn,
        } => {
            let created = client(&conn)
                .await?
                .create(&CreateRequest {
                    name,
                    redirect_uris,
                    public,
                    require_pkce,
                    post_logout_redirect_uris,
                })
                .await?;
            if conn.json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&created).unwrap_or_default()
                );
            } else {
                println!(
                    "Registered {}",
                    created["name"].as_str().unwrap_or_default()
                );
                println!(
                    "  client_id:     {}",
                    created["client_id"].as_str().unwrap_or_default()
                );
                match created["client_secret"].as_str() {
                    Some(secret) => {
                        println!("  client_secret: {secret}");
                        println!("  (shown once: hand it to the app's developers now)");
                    }
                    None => println!("  public app: no secret, PKCE required"),
                }
                for uri in created["redirect_uris"].as_array().into_iter().flatten() {
                    println!("  redirect_uri:  {}", uri.as_str().unwrap_or_default());
                }
                let logout_uris = created["post_logout_redirect_uris"].as_array();
                for uri in logout_uris.into_iter().flatten() {
                    println!("  post_logout:   {}", uri.as_str().unwrap_or_default());
                }
            }
        }
        AppsCommand::List { conn } => {
            let list = client(&conn).await?.list().await?;
            if conn.json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&list).unwrap_or_default()
                );
            } else {
                print_table(
                    list["apps"]
                        .as_array()
                        .map(Vec::as_slice)
                        .unwrap_or_default(),
                );
            }
        }
        AppsCommand::Show { client_id, conn } => {
            let app = client(&conn).await?.show(&client_id).await?;
            if conn.json {
                println!("{}", serde_json::to_string_pretty(&app).unwrap_or_default());
            } else {
                print_table(std::slice::from_ref(&app));
            }
        }
    }
    Ok(())
}

fn print_table(apps: &[serde_json::Value]) {
    if apps.is_empty() {
        println!("No apps registered yet. Register one with: sso-bridge apps create --name NAME --redirect-uri URI --admin USER");
        return;
    }
    println!(
        "{:<24} {:<24} {:<13} {:<8} REDIRECT URIS",
        "NAME", "CLIENT ID", "TYPE", "STATUS"
    );
    for app in apps {
        let s = |k: &str| app[k].as_str().unwrap_or_default().to_owned();
        let status = if app["enabled"].as_bool().unwrap_or(false) {
            "enabled"
        } else {
            "disabled"
        };
        let uris: Vec<&str> = app["redirect_uris"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|u| u.as_str())
            .collect();
        println!(
            "{:<24} {:<24} {:<13} {:<8} {}",
            s("name"),
            s("client_id"),
            s("type"),
            status,
            uris.join(" ")
        );
    }
}
