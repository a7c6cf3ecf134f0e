//! `sso-bridge apps …`: the Connected Apps lifecycle from the command line, through the running
//! service's admin API. A table for people, `--json` for scripts.

use super::connection::{client, Connection};
use crate::admin::client::{ClientError, CreateRequest, UpdateRequest};
use clap::Subcommand;
use serde_json::Value;

#[derive(Debug, Subcommand)]
pub(super) enum AppsCommand {
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
        /// Require PKCE from a confidential app too: on unless `--require-pkce false` (RFC 9700
        /// recommends PKCE for every client; public apps always use it).
        #[arg(
            long,
            value_name = "true|false",
            num_args = 0..=1,
            default_value_t = true,
            default_missing_value = "true",
            action = clap::ArgAction::Set
        )]
        require_pkce: bool,
        /// Where OpenID Connect logout may send the browser back to (repeat for several).
        #[arg(long = "post-logout-redirect-uri")]
        post_logout_redirect_uris: Vec<String>,
        /// A resource server: may introspect the tokens of other apps (without it, only its own).
        #[arg(long)]
        introspect: bool,
        /// Sign the app's id_tokens with this algorithm (its `id_token_signed_response_alg`);
        /// ES256 costs the service far less per token. Without it: the service's default.
        #[arg(long, value_name = "RS256|ES256", value_parser = ["RS256", "ES256"])]
        id_token_alg: Option<String>,
        #[command(flatten)]
        access: AccessArgs,
        #[command(flatten)]
        conn: Connection,
    },
    /// List registered apps.
    List {
        #[command(flatten)]
        conn: Connection,
    },
    /// Show one app, with its recent failed requests.
    Show {
        /// The app's client id.
        client_id: String,
        #[command(flatten)]
        conn: Connection,
    },
    /// Change an app's name, redirect URIs or post-logout redirect URIs (each replacing all of
    /// them), PKCE rule, whether it may introspect other apps' tokens, or its id_token algorithm.
    Update {
        /// The app's client id.
        client_id: String,
        /// New display name.
        #[arg(long)]
        name: Option<String>,
        /// New callback URL (repeat for several; replaces the registered ones).
        #[arg(long = "redirect-uri")]
        redirect_uris: Vec<String>,
        /// Require PKCE (`true`) or let a confidential app go without it (`false`).
        #[arg(long, value_name = "true|false")]
        require_pkce: Option<bool>,
        /// New post-logout redirect URI (repeat for several; replaces the registered ones).
        #[arg(long = "post-logout-redirect-uri")]
        post_logout_redirect_uris: Vec<String>,
        /// Let the app introspect other apps' tokens (`true`) or only its own (`false`).
        #[arg(long, value_name = "true|false")]
        introspect: Option<bool>,
        /// Sign the app's id_tokens with this algorithm from its next token on; `default`: the
        /// service's default.
        #[arg(long, value_name = "RS256|ES256|default", value_parser = ["RS256", "ES256", "default"])]
        id_token_alg: Option<String>,
        #[command(flatten)]
        access: AccessArgs,
        /// Let everyone use the app again: clears its allowed roles and groups.
        #[arg(long, conflicts_with_all = ["allowed_roles", "allowed_groups"])]
        everyone: bool,
        /// Stop telling the app of sign-outs: clears its back-channel logout URI.
        #[arg(long, conflicts_with = "backchannel_logout_uri")]
        no_backchannel_logout: bool,
        #[command(flatten)]
        conn: Connection,
    },
    /// Issue a new secret (shown once); the old one stops working at once.
    RotateSecret {
        /// The app's client id.
        client_id: String,
        #[command(flatten)]
        conn: Connection,
    },
    /// Disable an app: its token requests are refused and its tokens revoked.
    Disable {
        /// The app's client id.
        client_id: String,
        #[command(flatten)]
        conn: Connection,
    },
    /// Enable a disabled app again.
    Enable {
        /// The app's client id.
        client_id: String,
        #[command(flatten)]
        conn: Connection,
    },
    /// Delete an app and revoke every code and token it holds.
    Delete {
        /// The app's client id.
        client_id: String,
        /// Confirm the deletion (required: it cannot be undone).
        #[arg(long)]
        yes: bool,
        #[command(flatten)]
        conn: Connection,
    },
}

/// Who may use an app, its browser origins and its back-channel logout URI.
#[derive(Debug, clap::Args)]
pub(super) struct AccessArgs {
    /// A role whose holders may use the app (repeat for several); on update, replaces the
    /// roles. With no role and no group, everyone may.
    #[arg(long = "allowed-role", value_name = "ROLE")]
    allowed_roles: Vec<String>,
    /// A group whose members may use the app, nested membership counted: its name as the
    /// `groups` claim shows it, or its DN (repeat for several); on update, replaces the groups.
    #[arg(long = "allowed-group", value_name = "NAME")]
    allowed_groups: Vec<String>,
    /// A browser origin (scheme://host[:port]) whose scripts may call the app's endpoints,
    /// besides those of its redirect URIs (repeat for several); on update, replaces them.
    #[arg(long = "web-origin", value_name = "ORIGIN")]
    web_origins: Vec<String>,
    /// Where the app hears that someone signed out (OpenID Connect Back-Channel Logout).
    #[arg(long, value_name = "URI")]
    backchannel_logout_uri: Option<String>,
}

/// Runs one `apps` command.
pub(super) async fn run(command: AppsCommand) -> Result<(), ClientError> {
    match command {
        AppsCommand::Create {
            name,
            redirect_uris,
            public,
            require_pkce,
            post_logout_redirect_uris,
            introspect,
            id_token_alg,
            access,
            conn,
        } => {
            let request = CreateRequest {
                name,
                redirect_uris,
                public,
                require_pkce,
                post_logout_redirect_uris,
                may_introspect: introspect,
                id_token_signed_response_alg: id_token_alg,
                allowed_roles: access.allowed_roles,
                allowed_groups: access.allowed_groups,
                web_origins: access.web_origins,
                backchannel_logout_uri: access.backchannel_logout_uri,
            };
            let created = client(&conn).await?.create(&request).await?;
            print_credentials(&conn, "Registered", &created);
        }
        AppsCommand::List { conn } => {
            let list = client(&conn).await?.list().await?;
            let apps = list["apps"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default();
            print(&conn, &list, || print_table(apps));
        }
        AppsCommand::Show { client_id, conn } => {
            let admin = client(&conn).await?;
            let mut app = admin.show(&client_id).await?;
            app["recent_failures"] = admin.failures(&client_id).await?["failures"].take();
            print(&conn, &app, || print_app(&app));
        }
        AppsCommand::Update {
            client_id,
            name,
            redirect_uris,
            require_pkce,
            post_logout_redirect_uris,
            introspect,
            id_token_alg,
            access,
            everyone,
            no_backchannel_logout,
            conn,
        } => {
            let some = |uris: Vec<String>| (!uris.is_empty()).then_some(uris);
            let cleared = |list: Vec<String>| {
                if everyone {
                    Some(Vec::new())
                } else {
                    some(list)
                }
            };
            let request = UpdateRequest {
                name,
                redirect_uris: some(redirect_uris),
                require_pkce,
                post_logout_redirect_uris: some(post_logout_redirect_uris),
                may_introspect: introspect,
                id_token_signed_response_alg: id_token_alg
                    .map(|alg| (alg != "default").then_some(alg)),
                allowed_roles: cleared(access.allowed_roles),
                allowed_groups: cleared(access.allowed_groups),
                web_origins: some(access.web_origins),
                backchannel_logout_uri: match (access.backchannel_logout_uri, no_backchannel_logout)
                {
                    (_, true) => Some(None),
                    (Some(uri), false) => Some(Some(uri)),
                    (None, false) => None,
                },
            };
            update(client_id, request, conn).await?
        }
        AppsCommand::RotateSecret { client_id, conn } => {
            let rotated = client(&conn).await?.rotate_secret(&client_id).await?;
            print_credentials(&conn, "New secret for", &rotated);
        }
        AppsCommand::Disable { client_id, conn } => {
            let app = client(&conn).await?.set_enabled(&client_id, false).await?;
            print(&conn, &app, || {
                println!(
                    "Disabled {}: its codes and tokens were revoked.",
                    s(&app, "name")
                )
            });
        }
        AppsCommand::Enable { client_id, conn } => {
            let app = client(&conn).await?.set_enabled(&client_id, true).await?;
            print(&conn, &app, || println!("Enabled {}.", s(&app, "name")));
        }
        AppsCommand::Delete {
            client_id,
            yes,
            conn,
        } => delete(client_id, yes, conn).await?,
    }
    Ok(())
}

async fn update(
    client_id: String,
    request: UpdateRequest,
    conn: Connection,
) -> Result<(), ClientError> {
    let nothing = request.name.is_none()
        && request.redirect_uris.is_none()
        && request.require_pkce.is_none()
        && request.post_logout_redirect_uris.is_none()
        && request.may_introspect.is_none()
        && request.id_token_signed_response_alg.is_none()
        && request.allowed_roles.is_none()
        && request.allowed_groups.is_none()
        && request.web_origins.is_none()
        && request.backchannel_logout_uri.is_none();
    if nothing {
        return Err(ClientError::Input(
            "nothing to change: give --name, --redirect-uri, --post-logout-redirect-uri, --require-pkce, --introspect, --id-token-alg, --allowed-role, --allowed-group, --everyone, --web-origin, --backchannel-logout-uri or --no-backchannel-logout".into(),
        ));
    }
    let app = client(&conn).await?.update(&client_id, &request).await?;
    print(&conn, &app, || print_app(&app));
    Ok(())
}

async fn delete(client_id: String, yes: bool, conn: Connection) -> Result<(), ClientError> {
    if !yes {
        return Err(ClientError::Input(format!(
            "deleting {client_id} cannot be undone and revokes every token of the app; add --yes to confirm"
        )));
    }
    client(&conn).await?.delete(&client_id).await?;
    let done = serde_json::json!({ "client_id": client_id, "deleted": true });
    print(&conn, &done, || {
        println!("Deleted {client_id}: every code and token of the app was revoked.")
    });
    Ok(())
}

fn s(v: &Value, key: &str) -> String {
    v[key].as_str().unwrap_or_default().to_owned()
}

/// `--json`: the value, pretty; else what `human` prints.
fn print(conn: &Connection, value: &Value, human: impl FnOnce()) {
    if conn.json {
        println!(
            "{}",
            serde_json::to_string_pretty(value).unwrap_or_default()
        );
    } else {
        human();
    }
}

fn print_credentials(conn: &Connection, what: &str, app: &Value) {
    print(conn, app, || {
        println!("{what} {}", s(app, "name"));
        println!("  client_id:     {}", s(app, "client_id"));
        match app["client_secret"].as_str() {
            Some(secret) => {
                println!("  client_secret: {secret}");
                println!("  (shown once: hand it to the app's developers now)");
            }
            None => println!("  public app: no secret, PKCE required"),
        }
        for uri in strings(&app["redirect_uris"]) {
            println!("  redirect_uri:  {uri}");
        }
        for uri in strings(&app["post_logout_redirect_uris"]) {
            println!("  post_logout:   {uri}");
        }
        if app["may_introspect"].as_bool().unwrap_or(false) {
            println!("  resource server: may introspect other apps' tokens");
        }
        println!("  id_tokens:     {}", id_token_alg(app));
    });
}

/// How the app's id_tokens are signed, in words.
fn id_token_alg(app: &Value) -> String {
    match app["id_token_signed_response_alg"].as_str() {
        Some(alg) => format!("signed {alg}"),
        None => "signed with the service's default algorithm".to_owned(),
    }
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

fn print_app(app: &Value) {
    print_table(std::slice::from_ref(app));
    if app["may_introspect"].as_bool().unwrap_or(false) {
        println!("Resource server: may introspect other apps' tokens.");
    }
    println!("id_tokens: {}.", id_token_alg(app));
    let list = |key: &str| -> Vec<String> {
        app[key]
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (roles, groups) = (list("allowed_roles"), list("allowed_groups"));
    if roles.is_empty() && groups.is_empty() {
        println!("Who may use it: everyone.");
    } else {
        println!(
            "Who may use it: roles [{}], groups [{}].",
            roles.join(", "),
            groups.join(", ")
        );
    }
    let origins = list("web_origins");
    if !origins.is_empty() {
        println!("Web origins: {}.", origins.join(" "));
    }
    if let Some(uri) = app["backchannel_logout_uri"].as_str() {
        println!("Back-channel logout: {uri}.");
    }
    let failures = app["recent_failures"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if failures.is_empty() {
        return;
    }
    println!("\nRecent failed requests (newest first; unverified ones may come from anyone):");
    for f in failures {
        let source = if f["verified"].as_bool().unwrap_or(false) {
            "from the app"
        } else {
            "unverified"
        };
        println!("  [{}, {source}] {}", s(f, "endpoint"), s(f, "problem"));
        if let Some(fix) = f["fix"].as_str() {
            println!("      fix: {fix}");
        }
    }
}

fn print_table(apps: &[Value]) {
    if apps.is_empty() {
        println!("No apps registered yet. Register one with: sso-bridge apps create --name NAME --redirect-uri URI --admin USER");
        return;
    }
    println!(
        "{:<24} {:<24} {:<13} {:<8} REDIRECT URIS",
        "NAME", "CLIENT ID", "TYPE", "STATUS"
    );
    for app in apps {
        let status = if app["enabled"].as_bool().unwrap_or(false) {
            "enabled"
        } else {
            "disabled"
        };
        println!(
            "{:<24} {:<24} {:<13} {:<8} {}",
            s(app, "name"),
            s(app, "client_id"),
            s(app, "type"),
            status,
            strings(&app["redirect_uris"]).join(" ")
        );
    }
}
