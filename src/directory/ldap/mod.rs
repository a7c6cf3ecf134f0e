//! LDAP directory: search-then-bind against the corporate directory (ldap3).
//!
//! A pool of connections bound as the service account finds the user's entry; the password is
//! then checked by a simple bind as that entry on a connection of a second pool, which is only
//! ever used for such binds, so the service connections keep the service identity and a
//! sign-in opens no connection of its own. Every step has a timeout and each call a
//! backstop, so a hung server answers [`DirectoryError::Unavailable`] instead of hanging sign-in.
//! With several servers in `directory.url`, each new connection goes to the first that connects
//! (`servers`).

mod account_state;
mod active_directory;
mod ber;
mod bind_times;
mod entry;
mod groups;
mod guid;
mod lockout;
mod paging;
mod pool;
mod probe;
mod servers;
mod tls;
mod together;

use self::entry::{to_user, with_states};
use self::pool::{describe, is_disconnect, text_suffix, Cause, Connector};
use self::pool::{BindManager, ServiceManager};
use self::servers::Servers;
use super::{Directory, DirectoryError, DirectoryUser, LockoutPolicy};
use crate::clock::{Clock, SystemClock};
use crate::config::ClaimMapping;
use crate::config::{DirectoryFlavor, DirectorySettings};
use crate::domain::pool::InFlight;
use crate::domain::{Escaped, PoolUsage};
use async_trait::async_trait;
use deadpool::managed::{Manager, Object, Pool, PoolError, TimeoutType};
use deadpool::Runtime;
use ldap3::{ldap_escape, LdapError, Scope};
use secrecy::{ExposeSecret, SecretString};
use std::fmt;
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// LDAP result code of a bind with a wrong password or an unknown DN (RFC 4511 §4.1.9).
const INVALID_CREDENTIALS: u32 = 49;

/// The production directory: search-then-bind over LDAP, LDAPS or StartTLS.
pub struct LdapDirectory {
    /// Service connections, shared by the searches on them (see `search_wanted`).
    pool: Pool<ServiceManager>,
    /// Searches under way on the service connections: what the pool has in use.
    searching: InFlight,
    /// Connections for users' binds (see [`BindManager`]), as many as `pool`.
    binds: Pool<BindManager>,
    /// Every server of `directory.url`, for messages about the directory as a whole.
    servers: String,
    user_base: String,
    user_filter: String,
    lookup_filter: String,
    attributes: Vec<String>,
    operation_timeout: Duration,
    authenticate_budget: Duration,
    lookup_budget: Duration,
    /// What kind of server: Active Directory reads sign-in names its own way.
    flavor: DirectoryFlavor,
    /// The Active Directory domain's NetBIOS name and naming context, read on first need.
    domain: tokio::sync::OnceCell<active_directory::Domain>,
    /// What of a person's (nested) group membership to read, and where to put it.
    membership: groups::Membership,
    /// Whether the subject is a binary `objectGUID`, written as a GUID string.
    guid_subject: bool,
    /// Entries asked for per page of a search.
    page_size: u32,
    /// The time an account's end date (`accountExpires`) is compared with.
    clock: Arc<dyn Clock>,
    /// The directory's lockout policy, last read.
    lockout: lockout::PolicyCache,
    /// How long recent binds as real entries took.
    bind_times: bind_times::BindTimes,
    /// `directory.password_policy_dn`: OpenLDAP's password policy entry.
    password_policy_dn: Option<String>,
    /// Lookups by subject that arrive together, searched for at once; `None` when the lookup
    /// filter does not allow it (see `together.rs`) and each lookup searches alone.
    gathering: Option<together::Gathering>,
}

/// The directory settings cannot be used; found at start-up, before any connection.
#[derive(Debug, thiserror::Error)]
pub enum LdapConfigError {
    /// `directory.url` names no server (settings checked at load always name one).
    #[error("directory.url names no LDAP server")]
    NoUrl,
    /// `ca_file` cannot be read or holds no usable certificate.
    #[error("directory.ca_file {}: {reason}", path.display())]
    CaFile { path: PathBuf, reason: String },
    /// TLS is on, no `ca_file` is set and the system has no trusted roots.
    #[error("no system CA certificates to verify the directory with; set directory.ca_file")]
    NoSystemRoots,
    /// The TLS client could not be configured.
    #[error("directory TLS: {0}")]
    Tls(String),
    /// The connection pool could not be built.
    #[error("directory connection pool: {0}")]
    Pool(String),
}

/// A pool of `manager`'s connections: waiting for one, opening one (which may pass over every
/// server but the last, `connecting`) and checking one out each have their timeout.
fn pooled<M: Manager>(
    manager: M,
    size: usize,
    connecting: Duration,
    operation_timeout: Duration,
) -> Result<Pool<M>, LdapConfigError> {
    Pool::builder(manager)
        .max_size(size)
        .runtime(Runtime::Tokio1)
        .wait_timeout(Some(operation_timeout))
        .create_timeout(Some(connecting + operation_timeout))
        .recycle_timeout(Some(operation_timeout))
        .build()
        .map_err(|err| LdapConfigError::Pool(err.to_string()))
}

impl LdapDirectory {
    /// Prepares the directory from its settings without connecting, so the service starts (and
    /// answers `Unavailable`) while the directory is down; connections open on first use.
    ///
    /// Reads `ca_file` now, so a bad path stops start-up.
    pub fn new(
        settings: &DirectorySettings,
        mapping: &ClaimMapping,
    ) -> Result<Self, LdapConfigError> {
        if settings.url.is_empty() {
            return Err(LdapConfigError::NoUrl);
        }
        let ldaps = settings.url.iter().any(|url| url.scheme() == "ldaps");
        let tls = if ldaps || settings.starttls {
            Some(tls::client_config(settings.ca_file.as_deref())?)
        } else {
            None
        };
        let servers = Servers::new(settings.url.iter().map(|url| url.as_str().to_owned()));
        let (count, description) = (servers.len() as u32, servers.describe());
        let (connect_timeout, operation_timeout) =
            (settings.connect_timeout, settings.operation_timeout);
        // Opening a connection may pass over every server but the last.
        let connecting = connect_timeout * count;
        let connector = Connector::new(Arc::new(servers), settings.starttls, tls, connect_timeout);
        let manager = ServiceManager::new(
            connector.clone(),
            settings.service_account.clone(),
            operation_timeout,
        );
        let guid_subject = mapping.sub.eq_ignore_ascii_case(guid::OBJECT_GUID);
        let gathering = if guid_subject {
            None
        } else {
            together::Gathering::new(&settings.lookup_filter, &mapping.sub)
        };
        let size = settings.pool_size.max(1);
        let pool = pooled(manager, size, connecting, operation_timeout)?;
        let binds = pooled(
            BindManager::new(connector),
            size,
            connecting,
            operation_timeout,
        )?;
        Ok(Self {
            pool,
            searching: InFlight::default(),
            binds,
            servers: description,
            user_base: settings.user_base.clone(),
            user_filter: settings.user_filter.clone(),
            lookup_filter: settings.lookup_filter.clone(),
            attributes: with_states(mapping.attributes())
                .into_iter()
                .chain(groups::Membership::new(&settings.groups).entry_attributes())
                .collect(),
            operation_timeout,
            // Each backstop sits below the sum of its steps' timeouts (pool wait, connect,
            // bind, search...): it bounds the whole call, not any one step.
            authenticate_budget: 2 * connecting + 3 * operation_timeout,
            lookup_budget: connecting + 2 * operation_timeout,
            flavor: settings.flavor,
            domain: tokio::sync::OnceCell::new(),
            membership: groups::Membership::new(&settings.groups),
            guid_subject,
            page_size: settings.page_size,
            clock: Arc::new(SystemClock),
            lockout: lockout::PolicyCache::default(),
            bind_times: bind_times::BindTimes::default(),
            password_policy_dn: settings.password_policy_dn.clone(),
            gathering,
        })
    }

    /// Compares accounts' end dates with `clock` (the service's) rather than the wall clock.
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    /// Runs `call` under the backstop `budget`.
    async fn within<T>(
        &self,
        budget: Duration,
        call: impl Future<Output = Result<T, DirectoryError>>,
    ) -> Result<T, DirectoryError> {
        tokio::time::timeout(budget, call)
            .await
            .unwrap_or_else(|_| {
                Err(DirectoryError::Unavailable(format!(
                    "{} did not answer within {} ms",
                    self.servers,
                    budget.as_millis()
                )))
            })
    }

    /// Searches the subtree of `base` on a pooled service connection, every page of it.
    ///
    /// A connection on which it fails on the way is dropped at its next checkout (see
    /// `search_wanted`). A search on a reused one that turns out to be disconnected (the
    /// server restarted while it sat idle) is retried once on a new one.
    async fn search(
        &self,
        base: &str,
        filter: &str,
        attributes: &[String],
    ) -> Result<Vec<DirectoryUser>, DirectoryError> {
        self.search_in(Scope::Subtree, base, filter, attributes)
            .await
    }

    /// Searches for the one person `filter` names: two entries at most are asked for, in one
    /// search without paging, which is all it takes to tell one match from several.
    async fn search_person(
        &self,
        filter: &str,
        attributes: &[String],
    ) -> Result<Vec<DirectoryUser>, DirectoryError> {
        let wanted = Wanted::AtMost(2);
        self.search_wanted(Scope::Subtree, &self.user_base, filter, attributes, wanted)
            .await
    }

    /// Like [`LdapDirectory::search`], in `scope`.
    async fn search_in(
        &self,
        scope: Scope,
        base: &str,
        filter: &str,
        attributes: &[String],
    ) -> Result<Vec<DirectoryUser>, DirectoryError> {
        self.search_wanted(scope, base, filter, attributes, Wanted::Every)
            .await
    }

    /// Service connections are shared: a search borrows a handle and gives the connection
    /// back at once, so that concurrent searches go out together on one connection, as LDAP
    /// allows, instead of each holding one of its own. A connection on which a search failed
    /// on the way is dropped at its next checkout; one that answered with a result code is
    /// kept, as it works.
    async fn search_wanted(
        &self,
        scope: Scope,
        base: &str,
        filter: &str,
        attributes: &[String],
        wanted: Wanted,
    ) -> Result<Vec<DirectoryUser>, DirectoryError> {
        let mut retried = false;
        loop {
            let conn = self
                .pool
                .get()
                .await
                .map_err(|err| pool_unavailable("service", err))?;
            let reused = Object::metrics(&conn).recycle_count > 0;
            let mut lent = conn.lend();
            drop(conn);
            let _counted = self.searching.enter();
            match self
                .search_on(&mut lent.ldap, (scope, base, filter), attributes, wanted)
                .await
            {
                Ok(users) => return Ok(users),
                Err(err) => {
                    if let SearchFailure::Ldap(ldap) = &err {
                        lent.fail();
                        if reused && !retried && is_disconnect(ldap) {
                            tracing::debug!(error = %ldap, "stale directory connection, retrying");
                            retried = true;
                            continue;
                        }
                    }
                    return Err(DirectoryError::Unavailable(format!(
                        "search of {base} on {}: {err}",
                        lent.url
                    )));
                }
            }
        }
    }

    /// Checks `password` by a simple bind as `dn` on a pooled bind connection. The bind asks
    /// for the password policy state, so an account the directory will not let in is told apart
    /// from a wrong password when the directory says so.
    ///
    /// A connection that fails, or answers anything but success or a refusal of the password,
    /// is dropped rather than returned. A reused one found disconnected (the server closed it
    /// while it sat idle, so the bind never reached it) is retried once on a new one.
    async fn bind_as(&self, dn: &str, password: &SecretString) -> Result<(), DirectoryError> {
        let mut retried = false;
        loop {
            let mut conn = self
                .binds
                .get()
                .await
                .map_err(|err| pool_unavailable("bind", err))?;
            let reused = Object::metrics(&conn).recycle_count > 0;
            let result = conn
                .ldap
                .with_timeout(self.operation_timeout)
                .with_controls(account_state::policy_request())
                .simple_bind(dn, password.expose_secret())
                .await;
            let url = Arc::clone(&conn.url);
            let result = match result {
                Ok(result) => result,
                Err(err) => {
                    drop(Object::take(conn));
                    if reused && !retried && is_disconnect(&err) {
                        tracing::debug!(error = %err, "stale directory bind connection, retrying");
                        retried = true;
                        continue;
                    }
                    return Err(DirectoryError::Unavailable(format!(
                        "bind as the user's entry on {url}: {}",
                        describe(&err)
                    )));
                }
            };
            return match (result.rc, account_state::reported(&result)) {
                (0, None) => Ok(()),
                (0 | INVALID_CREDENTIALS, Some(state)) => {
                    Err(DirectoryError::AccountUnusable(state))
                }
                (INVALID_CREDENTIALS, None) => Err(DirectoryError::InvalidCredentials),
                (rc, _) => {
                    drop(Object::take(conn));
                    Err(DirectoryError::Unavailable(format!(
                        "bind as the user's entry on {url} answered result code {rc}{}",
                        text_suffix(&result.text)
                    )))
                }
            };
        }
    }

    async fn find_and_bind(
        &self,
        username: &str,
        password: &SecretString,
    ) -> Result<DirectoryUser, DirectoryError> {
        let started = Instant::now();
        let username = self.filter_name(username).await?;
        let filter = fill(&self.user_filter, "{username}", username);
        let mut users = self.search_person(&filter, &self.attributes).await?;
        let count = users.len();
        let (1, Some(user)) = (count, users.pop()) else {
            if count > 1 {
                tracing::warn!(
                    count,
                    "the user filter matched several entries; refusing the sign-in"
                );
            }
            self.as_long_as_a_bind(started, password).await;
            return Err(DirectoryError::InvalidCredentials);
        };
        let bound = self.bind_as(&user.dn, password).await;
        if matches!(bound, Ok(()) | Err(DirectoryError::InvalidCredentials)) {
            self.bind_times.note(started.elapsed());
        }
        bound?;
        let mut user = user;
        self.annotate(&mut user).await?;
        Ok(user)
    }

    /// Takes as long as checking a password of a real entry does, for a name that finds no one,
    /// so the answer's timing does not tell whether the name exists: a directory refuses a bind
    /// as an entry that does not exist at once, while a real entry's password hash (Argon2,
    /// say) takes milliseconds. The sign-in (begun at `started`) ends as long after its start
    /// as a recent one of a real entry did, search and bind together, so what slowed its own
    /// search is not paid twice; before there is any, a bind as an entry that does not exist
    /// stands in.
    async fn as_long_as_a_bind(&self, started: Instant, password: &SecretString) {
        match self.bind_times.sample() {
            Some(took) => tokio::time::sleep_until((started + took).into()).await,
            None => {
                let decoy = format!("cn=sso-bridge-no-such-user,{}", self.user_base);
                let _ = self.bind_as(&decoy, password).await;
            }
        }
    }

    async fn find_by_subject(&self, sub: &str) -> Result<Option<DirectoryUser>, DirectoryError> {
        match &self.gathering {
            Some(gathering) => self.find_gathered(gathering, sub).await,
            None => self.find_alone(sub).await,
        }
    }

    /// Looks `sub` up in the gathering under way (see `together.rs`), leading it if it is the
    /// first.
    async fn find_gathered(
        &self,
        gathering: &together::Gathering,
        sub: &str,
    ) -> Result<Option<DirectoryUser>, DirectoryError> {
        let joined = gathering.join(sub);
        if let Some(lead) = joined.lead {
            // The requests ready now run first, and their lookups join.
            tokio::task::yield_now().await;
            self.search_gathered(gathering, lead.take()).await;
        }
        match joined.answer.await {
            Ok(Ok(together::Gathered::Entries(users))) => self.settle(users).await,
            Ok(Ok(together::Gathered::Alone)) => self.find_alone(sub).await,
            Ok(Err(err)) => Err(err),
            // The lookup that led the gathering went away before it answered.
            Err(_) => self.find_alone(sub).await,
        }
    }

    /// Searches for every subject of a gathering at once, `together::MOST` at a time, and
    /// hands each of its lookups its entries.
    async fn search_gathered(
        &self,
        gathering: &together::Gathering,
        waiters: Vec<(String, tokio::sync::oneshot::Sender<together::Found>)>,
    ) {
        let subjects = together::by_subject(waiters);
        let names: Vec<String> = subjects.iter().map(|(sub, _)| sub.clone()).collect();
        let alike = together::alike(&names);
        let mut gathered = Vec::with_capacity(subjects.len());
        for ((sub, answers), alike) in subjects.into_iter().zip(alike) {
            if alike {
                together::tell(answers, Ok(together::Gathered::Alone));
            } else {
                gathered.push((sub, answers));
            }
        }
        let mut rest = gathered.into_iter().peekable();
        while rest.peek().is_some() {
            let part: Vec<_> = rest.by_ref().take(together::MOST).collect();
            self.search_part(gathering, part).await;
        }
    }

    /// One search for `part`'s subjects (none for just one, which searches alone as without a
    /// gathering).
    async fn search_part(
        &self,
        gathering: &together::Gathering,
        part: Vec<(String, Vec<tokio::sync::oneshot::Sender<together::Found>>)>,
    ) {
        if part.len() == 1 {
            for (_, answers) in part {
                together::tell(answers, Ok(together::Gathered::Alone));
            }
            return;
        }
        let subs: Vec<&str> = part.iter().map(|(sub, _)| sub.as_str()).collect();
        // Two entries a subject, as a search of its own asks for: all it takes to tell one
        // match from several.
        let limit = 2 * subs.len();
        let wanted = Wanted::AtMost(i32::try_from(limit).unwrap_or(i32::MAX));
        let filter = gathering.filter(&subs);
        let entries = self
            .search_wanted(
                Scope::Subtree,
                &self.user_base,
                &filter,
                &self.attributes,
                wanted,
            )
            .await;
        let sorted = match entries {
            Ok(entries) if entries.len() < limit => gathering.sort(&subs, entries),
            // The size limit may have cut some subject's entries short.
            Ok(_) => vec![None; subs.len()],
            Err(err) => {
                let failed = Err(err);
                for (_, answers) in part {
                    together::tell(answers, together::again(&failed));
                }
                return;
            }
        };
        for ((_, answers), entries) in part.into_iter().zip(sorted) {
            let found = match entries {
                Some(entries) => together::Gathered::Entries(entries),
                None => together::Gathered::Alone,
            };
            together::tell(answers, Ok(found));
        }
    }

    /// Looks `sub` up with a search of its own.
    async fn find_alone(&self, sub: &str) -> Result<Option<DirectoryUser>, DirectoryError> {
        let filter = if self.guid_subject {
            // A subject that is no GUID names no one.
            let Some(value) = guid::filter_value(sub) else {
                return Ok(None);
            };
            self.lookup_filter.replace("{sub}", &value)
        } else {
            fill(&self.lookup_filter, "{sub}", sub)
        };
        let users = self.search_person(&filter, &self.attributes).await?;
        self.settle(users).await
    }

    /// The one person a lookup found in `users`: `None` for none, several, or an account the
    /// directory has switched off.
    async fn settle(
        &self,
        mut users: Vec<DirectoryUser>,
    ) -> Result<Option<DirectoryUser>, DirectoryError> {
        if users.len() > 1 {
            tracing::warn!(
                count = users.len(),
                "the lookup filter matched several entries; treating the subject as gone"
            );
            return Ok(None);
        }
        let Some(mut user) = users.pop() else {
            return Ok(None);
        };
        // What signed in earlier ends with the account: disabled or past its end date, the
        // person counts as gone for refreshes and single sign-on.
        if !account_state::usable(&user.attributes, self.clock.now()) {
            tracing::info!(dn = ?Escaped(&user.dn), "the directory entry is disabled or expired");
            return Ok(None);
        }
        self.annotate(&mut user).await?;
        Ok(Some(user))
    }

    async fn find_by_username(
        &self,
        username: &str,
    ) -> Result<Option<DirectoryUser>, DirectoryError> {
        let username = self.filter_name(username).await?;
        let filter = fill(&self.user_filter, "{username}", username);
        let mut users = self.search_person(&filter, &self.attributes).await?;
        // Several matches name no one, as at sign-in.
        let Some(mut user) = users.pop().filter(|_| users.is_empty()) else {
            return Ok(None);
        };
        self.annotate(&mut user).await?;
        Ok(Some(user))
    }
}

#[async_trait]
impl Directory for LdapDirectory {
    #[tracing::instrument(name = "ldap_authenticate", skip_all, fields(username = ?Escaped(username)))]
    async fn authenticate(
        &self,
        username: &str,
        password: &SecretString,
    ) -> Result<DirectoryUser, DirectoryError> {
        // An empty simple bind is an anonymous bind, which succeeds: refuse it here.
        if username.is_empty() || password.expose_secret().is_empty() {
            return Err(DirectoryError::InvalidCredentials);
        }
        self.within(
            self.authenticate_budget,
            self.find_and_bind(username, password),
        )
        .await
    }

    #[tracing::instrument(name = "ldap_lookup", skip_all, fields(sub = ?Escaped(sub)))]
    async fn lookup(&self, sub: &str) -> Result<Option<DirectoryUser>, DirectoryError> {
        if sub.is_empty() {
            return Ok(None);
        }
        self.within(self.lookup_budget, self.find_by_subject(sub))
            .await
    }

    #[tracing::instrument(name = "ldap_find", skip_all, fields(username = %username))]
    async fn find(&self, username: &str) -> Result<Option<DirectoryUser>, DirectoryError> {
        if username.is_empty() {
            return Ok(None);
        }
        self.within(self.lookup_budget, self.find_by_username(username))
            .await
    }

    #[tracing::instrument(name = "ldap_account", skip_all, fields(username = ?Escaped(username)))]
    async fn account_name(&self, username: &str) -> Result<String, DirectoryError> {
        self.within(self.lookup_budget, self.canonical_account(username))
            .await
    }

    #[tracing::instrument(name = "ldap_lockout_policy", skip_all)]
    async fn lockout_policy(&self) -> Result<Option<LockoutPolicy>, DirectoryError> {
        self.read_lockout_policy().await
    }

    #[tracing::instrument(name = "ldap_check", skip_all)]
    async fn check(&self) -> Result<(), DirectoryError> {
        self.within(self.lookup_budget, self.probe()).await
    }

    fn locked_out(&self, user: &DirectoryUser) -> bool {
        account_state::locked(&user.attributes)
    }

    fn pool(&self) -> Option<PoolUsage> {
        let status = self.pool.status();
        Some(PoolUsage {
            in_use: self.searching.now(),
            ..PoolUsage::of(status)
        })
    }
}

impl fmt::Debug for LdapDirectory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LdapDirectory")
            .field("url", &self.servers)
            .field("user_base", &self.user_base)
            .field("pool", &self.pool.status())
            .finish_non_exhaustive()
    }
}

/// How many entries a search is after.
#[derive(Clone, Copy)]
enum Wanted {
    /// Every one, page by page.
    Every,
    /// The first `n` (a size limit, no paging).
    AtMost(i32),
}

/// Why a pooled search failed.
#[derive(Debug, thiserror::Error)]
enum SearchFailure {
    #[error("{}", describe(.0))]
    Ldap(LdapError),
    #[error("result code {rc}{}", text_suffix(.text))]
    Result { rc: u32, text: String },
}

/// The filter `template` with `placeholder` replaced by `value`, RFC 4515-escaped.
///
/// Escaping `*`, `(`, `)`, `\` and NUL keeps a username from adding wildcards or clauses; the
/// replacement is one pass, so placeholders inside `value` stay literal.
fn fill(template: &str, placeholder: &str, value: &str) -> String {
    template.replace(placeholder, &ldap_escape(value))
}

/// Why no `kind` (service or bind) connection could be had from its pool.
fn pool_unavailable(kind: &str, err: PoolError<Cause>) -> DirectoryError {
    DirectoryError::Unavailable(match err {
        PoolError::Backend(Cause(cause)) => cause,
        PoolError::Timeout(TimeoutType::Wait) => {
            format!("every {kind} connection stayed busy past the operation timeout")
        }
        PoolError::Timeout(TimeoutType::Create) => {
            format!("opening a {kind} connection took longer than its timeout")
        }
        other => format!("{kind} connection pool: {other}"),
    })
}

#[cfg(test)]
mod tests;
