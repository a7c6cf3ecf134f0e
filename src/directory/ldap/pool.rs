//! Connections to the directory: opening one (plain, StartTLS or LDAPS) to the first server of
//! `directory.url` that connects within the connect timeout, and the deadpool managers of the two
//! kinds of pooled connection: service connections for searches, and bind connections on which
//! users' passwords are checked.

use super::servers::Servers;
use crate::config::ServiceAccount;
use deadpool::managed::{Manager, Metrics, RecycleError, RecycleResult};
use ldap3::{Ldap, LdapConnAsync, LdapConnSettings, LdapError};
use rustls::ClientConfig;
use secrecy::ExposeSecret;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::task::JoinHandle;

/// Why opening or preparing a connection failed, worded for the operator.
#[derive(Debug)]
pub(super) struct Cause(pub(super) String);

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// How to open a connection to the directory.
#[derive(Clone)]
pub(super) struct Connector {
    servers: Arc<Servers>,
    starttls: bool,
    tls: Option<Arc<ClientConfig>>,
    connect_timeout: Duration,
}

impl Connector {
    pub(super) fn new(
        servers: Arc<Servers>,
        starttls: bool,
        tls: Option<Arc<ClientConfig>>,
        connect_timeout: Duration,
    ) -> Self {
        Self {
            servers,
            starttls,
            tls,
            connect_timeout,
        }
    }

    /// Opens a connection to the first server that connects, trying them in the order
    /// [`Servers::in_order`] gives; a server that does not connect within the connect timeout
    /// is passed over for the next. Fails naming why each one did not connect.
    pub(super) async fn connect(&self) -> Result<Conn, Cause> {
        let mut causes = Vec::new();
        for (index, url) in self.servers.in_order(Instant::now()) {
            match self.connect_to(url).await {
                Ok(conn) => {
                    self.servers.connected(index);
                    if !causes.is_empty() {
                        tracing::warn!(server = url, passed_over = %causes.join("; "), "directory server passed over");
                    }
                    return Ok(conn);
                }
                Err(Cause(cause)) => {
                    self.servers.failed(index, Instant::now());
                    causes.push(cause);
                }
            }
        }
        Err(Cause(causes.join("; ")))
    }

    /// Opens a connection to `url`; the connect timeout covers TCP, StartTLS and the TLS
    /// handshake.
    async fn connect_to(&self, url: &str) -> Result<Conn, Cause> {
        let mut settings = LdapConnSettings::new()
            .set_conn_timeout(self.connect_timeout)
            .set_starttls(self.starttls);
        if let Some(config) = &self.tls {
            settings = settings.set_config(Arc::clone(config));
        }
        let (conn, ldap) = LdapConnAsync::with_settings(settings, url)
            .await
            .map_err(|err| Cause(format!("cannot connect to {url}: {}", describe(&err))))?;
        let driver = tokio::spawn(async move {
            if let Err(err) = conn.drive().await {
                tracing::debug!(error = %err, "directory connection ended");
            }
        });
        Ok(Conn {
            ldap,
            driver,
            url: url.into(),
            failed: Arc::default(),
        })
    }
}

/// An open connection: the operation handle, the task driving its socket, and the server.
pub(super) struct Conn {
    pub(super) ldap: Ldap,
    driver: JoinHandle<()>,
    /// The URL of the server it is connected to, for messages.
    pub(super) url: Arc<str>,
    /// Set when an operation on a handle lent out of it failed on the way (no answer in time,
    /// or the socket broke): the pool drops it at its next checkout.
    failed: Arc<AtomicBool>,
}

impl Conn {
    /// Whether the socket is gone (the server closed it, or an I/O error ended the driver),
    /// or an operation lent out of it failed on the way.
    fn is_closed(&mut self) -> bool {
        self.driver.is_finished() || self.ldap.is_closed() || self.failed.load(Ordering::Relaxed)
    }

    /// A handle for one operation that runs beside others on this connection: LDAP tells
    /// concurrent operations apart by message id, and the server answers each on its own.
    pub(super) fn lend(&self) -> Lent {
        Lent {
            ldap: self.ldap.clone(),
            url: Arc::clone(&self.url),
            failed: Arc::clone(&self.failed),
        }
    }
}

/// A handle lent out of a pooled connection (see [`Conn::lend`]).
pub(super) struct Lent {
    pub(super) ldap: Ldap,
    pub(super) url: Arc<str>,
    failed: Arc<AtomicBool>,
}

impl Lent {
    /// Marks the connection failed, so that no later operation is lent out of it.
    pub(super) fn fail(&self) {
        self.failed.store(true, Ordering::Relaxed);
    }
}

impl Drop for Conn {
    /// Ends the driver with the handle: a connection dropped after a timeout must not keep a
    /// task waiting on a server that never answers.
    fn drop(&mut self) {
        self.driver.abort();
    }
}

/// Creates service connections (connected, then bound as the service account) for the pool.
pub(super) struct ServiceManager {
    connector: Connector,
    account: Option<ServiceAccount>,
    operation_timeout: Duration,
}

impl ServiceManager {
    pub(super) fn new(
        connector: Connector,
        account: Option<ServiceAccount>,
        operation_timeout: Duration,
    ) -> Self {
        Self {
            connector,
            account,
            operation_timeout,
        }
    }
}

impl Manager for ServiceManager {
    type Type = Conn;
    type Error = Cause;

    async fn create(&self) -> Result<Conn, Cause> {
        // Boxed, here and below: every checkout's future holds room for this one's state, and
        // unboxed it would be kilobytes that each search moves, for a connection made rarely.
        let mut conn = Box::pin(self.connector.connect()).await?;
        if let Some(account) = &self.account {
            let bind = conn
                .ldap
                .with_timeout(self.operation_timeout)
                .simple_bind(&account.dn, account.password.expose_secret());
            let result = Box::pin(bind).await.map_err(|err| {
                Cause(format!(
                    "bind as the service account {}: {}",
                    account.dn,
                    describe(&err)
                ))
            })?;
            if result.rc != 0 {
                return Err(Cause(format!(
                    "the directory refused the service account {} (result code {}{})",
                    account.dn,
                    result.rc,
                    text_suffix(&result.text)
                )));
            }
        }
        Ok(conn)
    }

    async fn recycle(&self, conn: &mut Conn, _: &Metrics) -> RecycleResult<Cause> {
        if conn.is_closed() {
            return Err(RecycleError::message("the directory closed the connection"));
        }
        Ok(())
    }
}

/// Creates the connections users' passwords are checked on: connected, never bound as the
/// service account. Each keeps the identity of the last bind made on it, which nothing reads:
/// searches run only on service connections, so a bind connection is only ever bound again.
pub(super) struct BindManager {
    connector: Connector,
}

impl BindManager {
    pub(super) fn new(connector: Connector) -> Self {
        Self { connector }
    }
}

impl Manager for BindManager {
    type Type = Conn;
    type Error = Cause;

    async fn create(&self) -> Result<Conn, Cause> {
        // Boxed for the reason given in `ServiceManager::create`.
        Box::pin(self.connector.connect()).await
    }

    async fn recycle(&self, conn: &mut Conn, _: &Metrics) -> RecycleResult<Cause> {
        if conn.is_closed() {
            return Err(RecycleError::message("the directory closed the connection"));
        }
        Ok(())
    }
}

/// Whether an error means the connection itself is gone, as opposed to a timeout or a result.
pub(super) fn is_disconnect(err: &LdapError) -> bool {
    matches!(
        err,
        LdapError::Io { .. }
            | LdapError::OpSend { .. }
            | LdapError::ResultRecv { .. }
            | LdapError::EndOfStream
    )
}

/// One line for an ldap3 error; certificate problems are named as such.
pub(super) fn describe(err: &LdapError) -> String {
    if let Some(tls) = tls_cause(err) {
        return match tls {
            rustls::Error::InvalidCertificate(_) => format!(
                "TLS: the directory's certificate is not trusted ({tls}); check directory.ca_file"
            ),
            _ => format!("TLS: {tls}"),
        };
    }
    match err {
        LdapError::Timeout { .. } => "no answer within the timeout".into(),
        other => other.to_string(),
    }
}

/// The rustls error behind an ldap3 error, which may be wrapped in an `io::Error`.
fn tls_cause(err: &LdapError) -> Option<&rustls::Error> {
    let mut current: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(err) = current {
        if let Some(tls) = err.downcast_ref::<rustls::Error>() {
            return Some(tls);
        }
        // `io::Error::source` skips the wrapped error itself, so look inside explicitly.
        if let Some(tls) = err
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
            .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        {
            return Some(tls);
        }
        current = err.source();
    }
    None
}

/// `": text"` when the server sent a diagnostic message, else nothing.
pub(super) fn text_suffix(text: &str) -> String {
    if text.is_empty() {
        String::new()
    } else {
        format!(": {text}")
    }
}
