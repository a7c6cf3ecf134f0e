//! `sso-bridge users …`: a superadmin's reset of a user's second factor or sign-out of a user
//! everywhere, and setting up one's own second factor from a terminal (how the first superadmin
//! enrols before any app exists).

use super::connection::{client, password, Connection};
use crate::admin::client::{AdminClient, ClientError};
use clap::Subcommand;
use qrcode::render::unicode::Dense1x2;
use qrcode::QrCode;
use std::io::BufRead;

/// Commands about directory users.
#[derive(Debug, Subcommand)]
pub(crate) enum UsersCommand {
    /// Remove a user's second factor (superadmins); they set up a new one at the next sign-in.
    ResetMfa {
        /// The user's username.
        username: String,
        #[command(flatten)]
        conn: Connection,
    },
    /// Sign a user out everywhere (superadmins): end every sign-on session and revoke every
    /// code and token of every app.
    Revoke {
        /// The name the user signs in with, or their subject (`sub`; for a user already deleted
        /// from the directory).
        username: String,
        #[command(flatten)]
        conn: Connection,
    },
    /// Set up a second factor for the `--admin` account itself: shows a QR code and the
    /// secret, then asks for the first code and prints the recovery codes.
    EnrolMfa {
        #[command(flatten)]
        conn: Connection,
    },
}

/// Runs a `users` command.
pub(crate) async fn run(command: UsersCommand) -> Result<(), ClientError> {
    match command {
        UsersCommand::ResetMfa { username, conn } => {
            let done = client(&conn).await?.reset_second_factor(&username).await?;
            let ended = done["admin_sessions_ended"].as_u64().unwrap_or(0);
            if conn.json {
                let answer =
                    serde_json::json!({ "reset": username, "admin_sessions_ended": ended });
                println!("{answer}");
            } else {
                println!("Second factor of {username} removed; they set up a new one at their next sign-in. {ended} admin sign-ins ended.");
            }
            Ok(())
        }
        UsersCommand::Revoke { username, conn } => {
            let done = client(&conn).await?.revoke_user(&username).await?;
            if conn.json {
                println!("{done}");
            } else {
                println!(
                    "{} is signed out everywhere: {} sessions ended, {} grants revoked (every code and token of every app), {} admin sign-ins ended.",
                    done["sub"].as_str().unwrap_or(&username),
                    done["sessions_ended"],
                    done["grants_revoked"],
                    done["admin_sessions_ended"],
                );
            }
            Ok(())
        }
        UsersCommand::EnrolMfa { conn } => enrol(&conn).await,
    }
}

async fn enrol(conn: &Connection) -> Result<(), ClientError> {
    let password = password(conn)?;
    let api = AdminClient::anonymous(&conn.server)?;
    let setup = api.start_enrolment(&conn.admin, &password).await?;
    let url = setup["otpauth_url"].as_str().unwrap_or_default();
    let secret = setup["secret"].as_str().unwrap_or_default();
    if !conn.json {
        if let Ok(code) = QrCode::new(url.as_bytes()) {
            eprintln!("{}", code.render::<Dense1x2>().quiet_zone(true).build());
        }
        eprintln!("Scan the QR code with an authenticator app, or enter this key by hand:");
        eprintln!("  {secret}");
    }
    let otp = match &conn.otp {
        Some(otp) => otp.clone(),
        None => {
            eprint!("Code shown by the app: ");
            let mut line = String::new();
            std::io::stdin()
                .lock()
                .read_line(&mut line)
                .map_err(|e| ClientError::Input(format!("cannot read the code: {e}")))?;
            line.trim().to_owned()
        }
    };
    let setup_id = setup["setup_id"].as_str().unwrap_or_default();
    let codes = api
        .confirm_enrolment(&conn.admin, &password, setup_id, &otp)
        .await?;
    if conn.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&codes).unwrap_or_default()
        );
        return Ok(());
    }
    println!("Second factor set up. Recovery codes (each works once; shown only now):");
    for code in codes["recovery_codes"].as_array().into_iter().flatten() {
        println!("  {}", code.as_str().unwrap_or_default());
    }
    Ok(())
}
