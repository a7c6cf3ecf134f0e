//! The servers of `directory.url` and the order to try them in: as listed (as OpenLDAP's `URI`
//! in `ldap.conf`), except that a server that lately failed to connect goes after the others
//! for a while. A first server that is down then costs one connect timeout, not one on every
//! sign-in; it is still tried when every other one fails too, and first again once the while
//! has passed, so the directory goes back to it when it comes back.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a server that failed to connect is tried after the others.
pub(super) const SET_ASIDE: Duration = Duration::from_secs(30);

/// The servers, each with when it last failed to connect.
pub(super) struct Servers {
    servers: Vec<Server>,
}

struct Server {
    url: String,
    failed_at: Mutex<Option<Instant>>,
}

impl Servers {
    pub(super) fn new(urls: impl IntoIterator<Item = String>) -> Self {
        Self {
            servers: urls
                .into_iter()
                .map(|url| Server {
                    url,
                    failed_at: Mutex::new(None),
                })
                .collect(),
        }
    }

    /// How many there are.
    pub(super) fn len(&self) -> usize {
        self.servers.len()
    }

    /// Every URL, separated by spaces, as the setting lists them.
    pub(super) fn describe(&self) -> String {
        let urls: Vec<&str> = self.servers.iter().map(|s| s.url.as_str()).collect();
        urls.join(" ")
    }

    /// Each server's index and URL, in the order to try them at `now`: those that have not
    /// failed within [`SET_ASIDE`] as listed, then the others as listed.
    pub(super) fn in_order(&self, now: Instant) -> Vec<(usize, &str)> {
        let (mut fine, mut set_aside): (Vec<_>, Vec<_>) = self
            .servers
            .iter()
            .enumerate()
            .map(|(i, server)| (i, server.url.as_str(), server.failed_lately(now)))
            .partition(|(_, _, failed)| !failed);
        fine.append(&mut set_aside);
        fine.into_iter().map(|(i, url, _)| (i, url)).collect()
    }

    /// Server `index` did not connect at `now`.
    pub(super) fn failed(&self, index: usize, now: Instant) {
        if let Some(server) = self.servers.get(index) {
            *server.lock() = Some(now);
        }
    }

    /// Server `index` connected: it takes its place in the list again.
    pub(super) fn connected(&self, index: usize) {
        if let Some(server) = self.servers.get(index) {
            *server.lock() = None;
        }
    }
}

impl Server {
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Instant>> {
        // The value is a plain timestamp: one left by a panicking thread is still usable.
        self.failed_at.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn failed_lately(&self, now: Instant) -> bool {
        self.lock()
            .is_some_and(|at| now.saturating_duration_since(at) < SET_ASIDE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn servers() -> Servers {
        Servers::new(["ldap://a", "ldap://b", "ldap://c"].map(String::from))
    }

    fn order(servers: &Servers, now: Instant) -> Vec<&str> {
        servers.in_order(now).into_iter().map(|(_, u)| u).collect()
    }

    #[test]
    fn servers_are_tried_as_listed() {
        let s = servers();
        assert_eq!(
            order(&s, Instant::now()),
            ["ldap://a", "ldap://b", "ldap://c"]
        );
        assert_eq!(s.describe(), "ldap://a ldap://b ldap://c");
        assert_eq!(s.len(), 3);
    }

    #[test]
    fn a_server_that_failed_goes_last_for_a_while_then_first_again() {
        let s = servers();
        let t0 = Instant::now();
        s.failed(0, t0);
        s.failed(1, t0);
        assert_eq!(order(&s, t0), ["ldap://c", "ldap://a", "ldap://b"]);
        let later = t0 + SET_ASIDE;
        assert_eq!(order(&s, later), ["ldap://a", "ldap://b", "ldap://c"]);
    }

    #[test]
    fn a_server_that_connects_again_takes_its_place_at_once() {
        let s = servers();
        let t0 = Instant::now();
        s.failed(0, t0);
        s.connected(0);
        assert_eq!(order(&s, t0), ["ldap://a", "ldap://b", "ldap://c"]);
    }
}
