//! `[server]`: where the service listens, the public address it is known by, the reverse
//! proxies whose word on the client's address is believed, where metrics are served and how
//! long a stopping node waits for the requests in flight.

use super::{value, ConfigError};
use ipnet::IpNet;
use serde::Deserialize;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// `[server]`
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSettings {
    /// Socket address to listen on; port 0 picks a free port.
    pub listen: SocketAddr,
    /// Public base address: the issuer; endpoints are at `{base_url}/oauth/...`. Unset:
    /// `http://<listen>`, which suits only a service used on the machine it runs on.
    pub base_url: Option<url::Url>,
    /// Peers whose `Forwarded` / `X-Forwarded-For` headers are believed: the reverse proxies in
    /// front of the service. Empty: those headers are ignored and the TCP peer is the client.
    #[serde(deserialize_with = "trusted_proxies")]
    pub trusted_proxies: TrustedProxies,
    /// A socket address of its own for `/metrics`, which the public listener then does not
    /// serve. Unset: `/metrics` is on the public listener.
    pub metrics_listen: Option<SocketAddr>,
    /// `server.shutdown_grace_secs`: how long a stopping node waits for the requests in flight.
    #[serde(rename = "shutdown_grace_secs", deserialize_with = "value::grace_secs")]
    pub shutdown_grace: Duration,
    /// `server.worker_threads`: the threads that serve requests; 0 (the default) picks half
    /// the machine's cores, at least one (see [`ServerSettings::workers`]).
    #[serde(deserialize_with = "value::worker_threads")]
    pub worker_threads: usize,
    /// `server.default_language`: the pages' language when neither the app's `ui_locales`,
    /// the language menu nor the browser's `Accept-Language` names one the pages are in.
    pub default_language: crate::domain::Language,
}

/// `server.trusted_proxies`: the networks of the reverse proxies in front of the service.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// These networks.
    pub fn new(networks: Vec<IpNet>) -> Self {
        Self(networks)
    }

    /// Whether `addr` is one of the proxies. An IPv4 address seen through a dual-stack socket
    /// (`::ffff:a.b.c.d`) counts as that IPv4 address.
    pub fn contains(&self, addr: IpAddr) -> bool {
        let addr = addr.to_canonical();
        self.0.iter().any(|net| net.contains(&addr))
    }

    /// Whether no proxy is trusted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn trusted_proxies<'de, D: serde::Deserializer<'de>>(de: D) -> Result<TrustedProxies, D::Error> {
    value::network_list(de).map(TrustedProxies)
}

impl ServerSettings {
    /// The public base address: `base_url`, else `http://<listen>`.
    #[allow(clippy::expect_used)] // "http://" + a socket address is always a valid URL
    pub fn base_url(&self) -> url::Url {
        match &self.base_url {
            Some(url) => url.clone(),
            None => url::Url::parse(&format!("http://{}", self.listen))
                .expect("a socket address makes a valid URL"),
        }
    }

    /// How many threads serve requests: `server.worker_threads`, or, when 0, half the cores
    /// this process may use, at least one. A request costs the service little CPU next to the
    /// Redis and directory work it waits on, and those (and the TLS proxy) often share the
    /// machine: on two cores, one worker served the side-by-side bench with 10–20% less CPU per
    /// request and more requests a second than two, which spent their time waking each other.
    /// CPU-heavy work (password hashes, RSA signatures) runs on the blocking pool meanwhile.
    pub fn workers(&self) -> usize {
        if self.worker_threads > 0 {
            return self.worker_threads;
        }
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        (cores / 2).max(1)
    }

    /// The issuer and every address built from it need a plain http(s) base.
    pub(super) fn check(&self) -> Result<(), ConfigError> {
        let base = self.base_url();
        if !matches!(base.scheme(), "http" | "https") {
            return Err(ConfigError::key(
                "server.base_url",
                "must be an http:// or https:// URL",
            ));
        }
        if base.query().is_some() || base.fragment().is_some() {
            return Err(ConfigError::key(
                "server.base_url",
                "must not have a query or fragment",
            ));
        }
        // Port 0 picks a free port for each listener, so only a fixed port can clash.
        if self.metrics_listen == Some(self.listen) && self.listen.port() != 0 {
            return Err(ConfigError::key(
                "server.metrics_listen",
                "must differ from server.listen (unset it to serve /metrics there)",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Settings;
    use std::net::IpAddr;

    fn proxies(value: &str) -> Result<super::TrustedProxies, String> {
        let env = [(
            "SSO_BRIDGE__SERVER__TRUSTED_PROXIES".to_owned(),
            value.to_owned(),
        )];
        Settings::load_from(None, env)
            .map(|s| s.server.trusted_proxies)
            .map_err(|e| e.to_string())
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn worker_threads_default_to_half_the_cores_and_follow_the_setting() {
        let defaults = crate::config::defaults();
        assert_eq!(defaults.server.worker_threads, 0);
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        assert_eq!(defaults.server.workers(), (cores / 2).max(1));
        let env = [(
            "SSO_BRIDGE__SERVER__WORKER_THREADS".to_owned(),
            "3".to_owned(),
        )];
        let set = Settings::load_from(None, env).unwrap();
        assert_eq!(set.server.workers(), 3);
    }

    #[test]
    fn no_proxy_is_trusted_by_default() {
        let s = crate::config::defaults();
        assert!(s.server.trusted_proxies.is_empty());
        assert!(!s.server.trusted_proxies.contains(ip("127.0.0.1")));
    }

    #[test]
    fn the_environment_lists_addresses_and_networks_of_both_families_separated_by_commas() {
        let trusted = proxies(" 192.0.2.10, 10.1.0.0/16 ,2001:db8::/32,::1").unwrap();
        for yes in ["192.0.2.10", "10.1.200.3", "2001:db8::7", "::1"] {
            assert!(trusted.contains(ip(yes)), "{yes}");
        }
        for no in ["192.0.2.11", "10.2.0.1", "2001:db9::1", "127.0.0.1"] {
            assert!(!trusted.contains(ip(no)), "{no}");
        }
    }

    #[test]
    fn an_ipv4_peer_seen_through_a_dual_stack_socket_is_still_that_address() {
        let trusted = proxies("10.0.0.5").unwrap();
        assert!(trusted.contains(ip("::ffff:10.0.0.5")));
        let written_mapped = proxies("::ffff:10.0.0.5").unwrap();
        assert!(written_mapped.contains(ip("10.0.0.5")));
    }

    #[test]
    fn a_toml_array_is_read_too() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(
            &mut file,
            b"[server]\ntrusted_proxies = [\"10.0.0.0/8\", \"fd00::1\"]\n",
        )
        .unwrap();
        let s = Settings::load_from(Some(file.path()), Vec::new()).unwrap();
        assert!(s.server.trusted_proxies.contains(ip("10.9.9.9")));
        assert!(s.server.trusted_proxies.contains(ip("fd00::1")));
    }

    #[test]
    fn a_bad_entry_stops_start_up_with_one_line_naming_the_key() {
        for bad in [
            "proxy.internal",
            "10.0.0.0/33",
            "10.0.0.1/8",
            "10.0.0.0/8/8",
        ] {
            let err = proxies(&format!("192.0.2.1,{bad}")).unwrap_err();
            assert!(
                err.contains("server.trusted_proxies") && !err.contains('\n'),
                "{bad}: {err}"
            );
        }
        let err = proxies("10.0.0.1/8").unwrap_err();
        assert!(err.contains("10.0.0.0/8"), "{err}");
    }
}
