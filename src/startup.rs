//! Building the application from settings: backends (timed for the metrics), state,
//! listeners; serving until stopped.

use crate::account::AppUses;
use crate::apps::{Doctor, LastUsed, Origins, OriginsListener};
use crate::audit::AuditTrail;
use crate::backchannel::deliver::Sender;
use crate::clock::{Clock, SystemClock};
use crate::config::{DirectoryBackend, Settings, StoreBackend};
use crate::directory::ldap::LdapDirectory;
use crate::directory::ldif::LdifDirectory;
use crate::directory::Directory;
use crate::events::Events;
use crate::state::AppState;
use crate::store::memory::MemoryStore;
use crate::store::redis::RedisStore;
use crate::store::{Store, WithClock};
use crate::telemetry::directory::MeteredDirectory;
use crate::telemetry::listener::MetricsListener;
use crate::telemetry::store::MeteredStore;
use crate::telemetry::Metrics;
use crate::web::render::Templates;
use poem::listener::{Acceptor, Listener, TcpAcceptor, TcpListener};
use poem::Server;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::watch;

/// Start-up failed; the message names what to fix.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    #[error("directory")]
    Directory(#[source] Box<dyn std::error::Error + Send + Sync>),
    #[error("store")]
    Store(#[source] crate::store::StoreError),
    #[error("store: bringing the stored data to this version's format")]
    Migrate(#[source] crate::store::StoreError),
    #[error("templates")]
    Templates(#[source] crate::web::render::RenderError),
    #[error(transparent)]
    MfaKey(#[from] crate::mfa::key::KeyError),
    #[error(transparent)]
    Keys(#[from] crate::oidc::signing_key::KeyError),
    #[error("cannot listen on {addr}")]
    Listen {
        addr: SocketAddr,
        source: std::io::Error,
    },
}

/// A built application, bound to its port (and the metrics' own, when set), not yet serving.
pub struct Application {
    acceptor: TcpAcceptor,
    port: u16,
    metrics: Option<(TcpAcceptor, u16)>,
    state: AppState,
}

impl Application {
    /// Builds the backends from settings and binds the listener (port 0 picks a free port).
    pub async fn build(settings: Settings) -> Result<Self, StartupError> {
        Self::build_with_clock(settings, Arc::new(SystemClock)).await
    }

    /// Like [`Application::build`], with the clock given (tests move time forward).
    pub async fn build_with_clock(
        settings: Settings,
        clock: Arc<dyn Clock>,
    ) -> Result<Self, StartupError> {
        // Before anything is built or logged: a refusal is then the only line start-up prints.
        settings.check_store_secrets()?;
        let store = build_store(&settings, Arc::clone(&clock)).await?;
        let directory = build_directory(&settings, &clock)?;
        Self::build_with(settings, clock, store, directory).await
    }

    /// Builds around given backends. Refuses the Redis store without its secrets
    /// ([`Settings::check_store_secrets`]) before binding the port.
    pub async fn build_with(
        settings: Settings,
        clock: Arc<dyn Clock>,
        store: Arc<dyn Store>,
        directory: Arc<dyn Directory>,
    ) -> Result<Self, StartupError> {
        settings.check_store_secrets()?;
        for notice in &settings.notices {
            tracing::warn!("{notice}");
        }
        let templates = Templates::new().map_err(StartupError::Templates)?;
        let mfa_key = crate::mfa::MfaKey::from_settings(&settings)?;
        let keys = crate::oidc::key_source::Keys::new(&settings.oidc, settings.store.backend)?;
        let (acceptor, port) = bind(settings.server.listen).await?;
        let metrics_acceptor = match settings.server.metrics_listen {
            Some(addr) => Some(bind(addr).await?),
            None => None,
        };
        let metrics = Arc::new(Metrics::new());
        // Every use of the backends, the listeners' included, goes through the timed ones.
        let store: Arc<dyn Store> = Arc::new(MeteredStore::new(store, Arc::clone(&metrics)));
        let directory: Arc<dyn Directory> =
            Arc::new(MeteredDirectory::new(directory, Arc::clone(&metrics)));
        let origins = Origins::new(Arc::clone(&store));
        let events = Arc::new(listeners(&settings, &store, &clock, &metrics, &origins));
        let state = AppState {
            settings: Arc::new(settings),
            store,
            directory,
            templates: Arc::new(templates),
            clock,
            mfa_key: Arc::new(mfa_key),
            keys: Arc::new(keys),
            events,
            metrics,
            origins,
        };
        announce_passkeys(&state);
        Ok(Self {
            acceptor,
            port,
            metrics: metrics_acceptor,
            state,
        })
    }

    /// The port actually bound.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The port `/metrics` is served on when `server.metrics_listen` is set.
    pub fn metrics_port(&self) -> Option<u16> {
        self.metrics.as_ref().map(|(_, port)| *port)
    }

    /// The shared state (for tests and the CLI).
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until the process gets Ctrl-C / SIGTERM, then stops accepting connections (on
    /// the metrics' address too) and lets the requests in flight finish, for at most
    /// `server.shutdown_grace_secs`. Meanwhile it watches the directory's lockout policy and
    /// delivers the back-channel logouts queued in the store.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let watch_policy = tokio::spawn(watch_lockout_policy(self.state.clone()));
        let logouts = match Sender::new() {
            Ok(sender) => Some(tokio::spawn(sender.run(self.state.clone()))),
            Err(err) => {
                tracing::error!(error = %err, "back-channel logouts cannot be sent by this node; other nodes send what is queued");
                None
            }
        };
        let grace = self.state.settings.server.shutdown_grace;
        let (stop, stopping) = watch::channel(false);
        tokio::spawn(async move {
            shutdown_signal().await;
            tracing::info!(
                grace_secs = grace.as_secs(),
                "stopping: no new connections; finishing the requests in flight"
            );
            let _ = stop.send(true);
        });
        let public = Server::new_with_acceptor(self.acceptor).run_with_graceful_shutdown(
            crate::http::routes(self.state.clone()),
            stopped(stopping.clone()),
            Some(grace),
        );
        let served = match self.metrics {
            None => public.await,
            Some((acceptor, _)) => {
                let metrics = Server::new_with_acceptor(acceptor).run_with_graceful_shutdown(
                    crate::http::metrics_routes(self.state),
                    stopped(stopping),
                    Some(grace),
                );
                let (public, metrics) = tokio::join!(public, metrics);
                public.and(metrics)
            }
        };
        watch_policy.abort();
        // A logout being sent stays claimed; it is sent again when its claim ends.
        if let Some(logouts) = logouts {
            logouts.abort();
        }
        tracing::info!("stopped");
        served
    }
}

/// How often the directory's lockout policy is read again.
const LOCKOUT_POLICY_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

/// Reads the directory's lockout policy at start-up and every hour after, so the log says
/// when it caps `limits.password_per_account`; stops when the directory has none.
async fn watch_lockout_policy(state: AppState) {
    let mut every = tokio::time::interval(LOCKOUT_POLICY_EVERY);
    loop {
        every.tick().await;
        match crate::signin::lockout_guard::announce(&state).await {
            Ok(true) => {}
            Ok(false) => return,
            Err(err) => {
                tracing::warn!(error = %err, "the directory's lockout policy cannot be read now; sign-ins read it when they need it");
            }
        }
    }
}

/// Binds `addr`; answers the acceptor and the port actually bound (port 0 picks a free one).
async fn bind(addr: SocketAddr) -> Result<(TcpAcceptor, u16), StartupError> {
    let acceptor = TcpListener::bind(addr)
        .into_acceptor()
        .await
        .map_err(|source| StartupError::Listen { addr, source })?;
    let port = acceptor
        .local_addr()
        .first()
        .and_then(|a| a.as_socket_addr().map(|s| s.port()))
        .unwrap_or(addr.port());
    Ok((acceptor, port))
}

/// Resolves once the stop was given (or nobody can give it any more).
async fn stopped(mut stopping: watch::Receiver<bool>) {
    let _ = stopping.wait_for(|stop| *stop).await;
}

/// Who hears what the flows publish: the audit log, the app doctor, the last-used marks (the
/// apps', and each person's), the metrics, the copy of the apps' origins.
fn listeners(
    settings: &Settings,
    store: &Arc<dyn Store>,
    clock: &Arc<dyn Clock>,
    metrics: &Arc<Metrics>,
    origins: &Arc<Origins>,
) -> Events {
    let base = WithClock {
        store: Arc::clone(store),
        clock: Arc::clone(clock),
    };
    Events::new(vec![
        Arc::new(AuditTrail::new(base.clone(), settings.audit.clone())),
        Arc::new(Doctor(base.clone())),
        Arc::new(LastUsed::new(base.clone())),
        Arc::new(AppUses::new(base)),
        Arc::new(MetricsListener::new(Arc::clone(metrics))),
        Arc::new(OriginsListener(Arc::clone(origins))),
    ])
}

/// Says once at start-up when passkeys cannot be offered: WebAuthn needs a domain name.
fn announce_passkeys(state: &AppState) {
    if !crate::mfa::passkey::offered(state) {
        tracing::info!(
            base_url = %state.settings.server.base_url(),
            "passkeys are not offered: the host of server.base_url is not a domain name (for trying them locally: server.base_url = \"http://localhost:8080\")"
        );
    }
}

/// The store of `settings`; a Redis store is first brought to the current format (see
/// `store::redis::migrate`), so that the node serves only once every request can read what
/// the store holds.
async fn build_store(
    settings: &Settings,
    clock: Arc<dyn Clock>,
) -> Result<Arc<dyn Store>, StartupError> {
    Ok(match settings.store.backend {
        StoreBackend::Memory => {
            tracing::warn!("DEMO SETUP: memory store — sessions, codes, tokens and registered apps live in this process only and are lost on restart; use store.backend = \"redis\" in production");
            Arc::new(MemoryStore::new(clock))
        }
        StoreBackend::Redis => {
            let store = RedisStore::new(&settings.store).map_err(StartupError::Store)?;
            store.migrate().await.map_err(StartupError::Migrate)?;
            Arc::new(store)
        }
    })
}

fn build_directory(
    settings: &Settings,
    clock: &Arc<dyn Clock>,
) -> Result<Arc<dyn Directory>, StartupError> {
    Ok(match settings.directory.backend {
        DirectoryBackend::Ldif => {
            let path = settings.directory.ldif_path.as_deref();
            let dir = LdifDirectory::load(path, &settings.claims.sub)
                .map_err(|e| StartupError::Directory(Box::new(e)))?;
            match path {
                None => tracing::warn!(users = dir.len(), "DEMO SETUP: built-in demo directory (passwords in the README); use directory.backend = \"ldap\" in production"),
                Some(p) => tracing::warn!(users = dir.len(), path = %p.display(), "LDIF directory loaded; use directory.backend = \"ldap\" in production"),
            }
            Arc::new(dir)
        }
        DirectoryBackend::Ldap => {
            warn_of_cleartext(settings);
            Arc::new(
                LdapDirectory::new(&settings.directory, &settings.claims)
                    .map_err(|e| StartupError::Directory(Box::new(e)))?
                    .with_clock(Arc::clone(clock))
                    .with_attributes(
                        &settings
                            .mfa
                            .user_attribute
                            .iter()
                            .cloned()
                            .collect::<Vec<_>>(),
                    )
                    .with_roles(&settings.roles, &settings.claims.role)
                    .searching_unlisted(!settings.mfa.required_groups.is_empty()),
            )
        }
    })
}

/// Says loudly when passwords would cross the network in clear text to the directory.
fn warn_of_cleartext(settings: &Settings) {
    let servers: Vec<String> = settings
        .directory
        .cleartext_servers()
        .iter()
        // Host and port only: a URL could carry credentials.
        .map(|url| {
            format!(
                "{}:{}",
                url.host_str().unwrap_or("?"),
                url.port().unwrap_or(389)
            )
        })
        .collect();
    if !servers.is_empty() {
        tracing::warn!(
            servers = %servers.join(" "),
            "directory.url is plain ldap:// to another machine without directory.starttls: the password of everyone who signs in crosses the network readable; use ldaps:// or set directory.starttls = true"
        );
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
