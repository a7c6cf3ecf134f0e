//! How `apps …` and `users …` reach the running service: its address, a superadmin's
//! credentials, and the output format.

use crate::admin::client::{AdminClient, ClientError};
use clap::Args;

/// The service and the superadmin a command acts as.
#[derive(Debug, Args)]
pub(crate) struct Connection {
    /// Base address of the running service.
    #[arg(
        long,
        env = "SSO_BRIDGE_SERVER",
        default_value = "http://127.0.0.1:8080"
    )]
    pub(crate) server: String,
    /// Directory username of a superadmin; the password comes from SSO_BRIDGE_ADMIN_PASSWORD or a prompt.
    #[arg(long, env = "SSO_BRIDGE_ADMIN")]
    pub(crate) admin: String,
    /// Second-factor code, for accounts whose policy requires one.
    #[arg(long)]
    pub(crate) otp: Option<String>,
    /// Print JSON for scripts instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
}

/// The password of `conn.admin`: `SSO_BRIDGE_ADMIN_PASSWORD`, else a no-echo prompt.
pub(crate) fn password(conn: &Connection) -> Result<String, ClientError> {
    match std::env::var("SSO_BRIDGE_ADMIN_PASSWORD") {
        Ok(p) if !p.is_empty() => Ok(p),
        _ => rpassword::prompt_password(format!("Password for {}: ", conn.admin))
            .map_err(|e| ClientError::Input(format!("cannot read the password: {e}"))),
    }
}

/// Signs in to the admin API as `conn.admin`.
pub(crate) async fn client(conn: &Connection) -> Result<AdminClient, ClientError> {
    let password = password(conn)?;
    AdminClient::sign_in(&conn.server, &conn.admin, &password, conn.otp.as_deref()).await
}
