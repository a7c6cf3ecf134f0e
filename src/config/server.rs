//! `[server]`: where the service listens and the public address it is known by.

use super::ConfigError;
use serde::Deserialize;
use std::net::SocketAddr;

/// `[server]`
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSettings {
    /// Socket address to listen on; port 0 picks a free port.
    pub listen: SocketAddr,
    /// Public base address: the issuer; endpoints are at `{base_url}/oauth/...`. Unset:
    /// `http://<listen>`, which suits only a service used on the machine it runs on.
    pub base_url: Option<url::Url>,
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
        Ok(())
    }
}
