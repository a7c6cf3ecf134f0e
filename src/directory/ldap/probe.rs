//! The readiness check: the user base read on a pooled service connection, the cheapest
//! operation that proves the server answers, the service account is accepted and
//! `directory.user_base` exists.

use super::pool::{describe, is_disconnect, text_suffix};
use super::{pool_unavailable, DirectoryError, LdapDirectory};
use deadpool::managed::Object;
use ldap3::Scope;

impl LdapDirectory {
    /// Reads the user base entry itself (base scope, no attributes). A reused connection that
    /// turns out to be disconnected is retried once on a new one, as searches are.
    pub(super) async fn probe(&self) -> Result<(), DirectoryError> {
        let mut retried = false;
        loop {
            let mut conn = self
                .pool
                .get()
                .await
                .map_err(|err| pool_unavailable("service", err))?;
            let reused = Object::metrics(&conn).recycle_count > 0;
            let outcome = conn
                .ldap
                .with_timeout(self.operation_timeout)
                .search(&self.user_base, Scope::Base, "(objectClass=*)", ["1.1"])
                .await;
            let failure = match outcome {
                Ok(ldap3::SearchResult(_, result)) if result.rc == 0 => return Ok(()),
                Ok(ldap3::SearchResult(_, result)) => format!(
                    "reading {} answered result code {}{}",
                    self.user_base,
                    result.rc,
                    text_suffix(&result.text)
                ),
                Err(err) if reused && !retried && is_disconnect(&err) => {
                    drop(Object::take(conn));
                    retried = true;
                    continue;
                }
                Err(err) => format!("reading {}: {}", self.user_base, describe(&err)),
            };
            drop(Object::take(conn));
            return Err(DirectoryError::Unavailable(failure));
        }
    }
}
