//! `[directory]`: where staff accounts are looked up, the embedded LDIF file or an LDAP server.

use super::secret::SecretSetting;
use super::{value, ConfigError};
use secrecy::SecretString;
use serde::Deserialize;
use std::path::PathBuf;
use std::time::Duration;

/// Which directory backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DirectoryBackend {
    /// An LDIF file read at start-up (`directory.ldif_path`), or the built-in demo directory.
    Ldif,
    /// An LDAP server (`directory.url`).
    Ldap,
}

impl<'de> Deserialize<'de> for DirectoryBackend {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        value::choice(de, &[("ldif", Self::Ldif), ("ldap", Self::Ldap)])
    }
}

/// What kind of directory server `directory.url` names: it picks the defaults of the filters and
/// claim attributes, and how sign-in names are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DirectoryFlavor {
    /// Any LDAP server (OpenLDAP, 389 Directory Server...): the names are used as typed.
    #[default]
    Generic,
    /// Microsoft Active Directory (or Samba's): `jdoe`, `jdoe@<upn suffix>` and
    /// `<NETBIOS>\jdoe` name one account.
    ActiveDirectory,
}

impl<'de> Deserialize<'de> for DirectoryFlavor {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        value::choice(
            de,
            &[
                ("generic", Self::Generic),
                ("active_directory", Self::ActiveDirectory),
            ],
        )
    }
}

/// How a person's groups are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupLookup {
    /// The user entry's own `memberOf`-style attribute (`directory.member_attribute`).
    Memberof,
    /// A search for groups naming the user's DN (`directory.group_base`,
    /// `directory.group_filter`).
    Search,
}

impl<'de> Deserialize<'de> for GroupLookup {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        value::choice(
            de,
            &[("memberof", Self::Memberof), ("search", Self::Search)],
        )
    }
}

/// The one group lookup: for roles, the second factor, app access and the `groups` claim.
#[derive(Debug, Clone)]
pub struct GroupSettings {
    /// `directory.group_lookup`.
    pub lookup: GroupLookup,
    /// `directory.member_attribute`: the user entry's attribute listing its groups' DNs.
    pub member_attribute: String,
    /// `directory.group_base`: where groups are searched; empty: the user base (Active
    /// Directory: the domain).
    pub base: String,
    /// `directory.group_filter`: the groups an entry (`{dn}`) is a direct member of.
    pub filter: String,
    /// `directory.group_name_attribute`: a group's name as the `groups` claim shows it.
    pub name_attribute: String,
}

/// The account LDAP searches run as: `directory.bind_dn` and its password.
#[derive(Debug, Clone)]
pub struct ServiceAccount {
    /// Its DN.
    pub dn: String,
    /// `directory.bind_password`, or the first line of `directory.bind_password_file`.
    pub password: SecretString,
}

/// `[directory]`, checked. The LDAP keys are checked, and the password read, only with the
/// LDAP backend: nothing else uses them.
#[derive(Debug, Clone)]
pub struct DirectorySettings {
    /// Which backend.
    pub backend: DirectoryBackend,
    /// `directory.flavor`: what kind of LDAP server.
    pub flavor: DirectoryFlavor,
    /// LDIF file of the embedded directory; unset uses the demo directory built into the binary.
    pub ldif_path: Option<PathBuf>,
    /// `directory.url`: the LDAP servers, each `ldap://` or `ldaps://` with a host; the setting
    /// separates them by spaces. Connections try them in order. Empty with the LDIF backend.
    pub url: Vec<url::Url>,
    /// The service account; `None` (an empty `bind_dn`) searches anonymously.
    pub service_account: Option<ServiceAccount>,
    /// Search base of user entries.
    pub user_base: String,
    /// Filter finding the user who signs in; `{username}` is replaced, RFC 4515-escaped.
    pub user_filter: String,
    /// Filter finding a user again by subject on refresh; `{sub}` is replaced, escaped.
    pub lookup_filter: String,
    /// Upgrade `ldap://` connections with StartTLS.
    pub starttls: bool,
    /// PEM file of the CA that signed the directory's certificate (else the system roots).
    pub ca_file: Option<PathBuf>,
    /// `directory.connect_timeout_ms`: timeout of opening a connection to one server, after
    /// which the next one is tried.
    pub connect_timeout: Duration,
    /// `directory.operation_timeout_ms`: timeout of one directory operation (bind or search).
    pub operation_timeout: Duration,
    /// `directory.pool_size`: service connections kept for searches, and as many for users'
    /// binds.
    pub pool_size: usize,
    /// `directory.page_size`: entries asked for per page of a search (Simple Paged Results).
    pub page_size: u32,
    /// `directory.help_url`: the help desk, offered to someone whose account is disabled,
    /// expired or locked.
    pub help_url: Option<url::Url>,
    /// `directory.password_change_url`: where people change their password, offered when it
    /// has expired or must be changed.
    pub password_change_url: Option<url::Url>,
    /// `directory.password_policy_dn`: the OpenLDAP password policy entry (`pwdPolicy`) whose
    /// lockout the attempt limits stay under; `None` when unset.
    pub password_policy_dn: Option<String>,
    /// The group lookup.
    pub groups: GroupSettings,
}

impl DirectorySettings {
    /// The servers of `directory.url` reached in clear text over the network: `ldap://` without
    /// StartTLS, on an address other than this machine's loopback. Passwords of everyone who
    /// signs in cross the network readable there.
    pub fn cleartext_servers(&self) -> Vec<&url::Url> {
        if self.starttls {
            return Vec::new();
        }
        self.url
            .iter()
            .filter(|url| url.scheme() == "ldap" && !url.host().is_some_and(is_loopback))
            .collect()
    }
}

/// `localhost`, 127.0.0.0/8 or ::1: traffic that never leaves the machine.
fn is_loopback(host: url::Host<&str>) -> bool {
    match host {
        // `ldap` is not a scheme the URL standard knows, so an IPv4 address stays a name.
        url::Host::Domain(name) => match name.parse::<std::net::IpAddr>() {
            Ok(addr) => addr.to_canonical().is_loopback(),
            Err(_) => {
                let name = name.trim_end_matches('.').to_ascii_lowercase();
                name == "localhost" || name.ends_with(".localhost")
            }
        },
        url::Host::Ipv4(addr) => addr.is_loopback(),
        url::Host::Ipv6(addr) => addr.to_canonical().is_loopback(),
    }
}

/// `[directory]` as the layers give it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DirectoryKeys {
    backend: DirectoryBackend,
    flavor: DirectoryFlavor,
    ldif_path: Option<PathBuf>,
    url: String,
    bind_dn: String,
    bind_password: Option<SecretString>,
    bind_password_file: Option<PathBuf>,
    user_base: String,
    user_filter: String,
    lookup_filter: String,
    starttls: bool,
    ca_file: Option<PathBuf>,
    #[serde(deserialize_with = "value::timeout_millis")]
    connect_timeout_ms: Duration,
    #[serde(deserialize_with = "value::timeout_millis")]
    operation_timeout_ms: Duration,
    #[serde(deserialize_with = "value::pool_size")]
    pool_size: usize,
    #[serde(deserialize_with = "value::positive")]
    page_size: u32,
    help_url: Option<String>,
    password_change_url: Option<String>,
    password_policy_dn: Option<String>,
    group_lookup: GroupLookup,
    member_attribute: String,
    group_base: String,
    group_filter: String,
    group_name_attribute: String,
}

impl DirectoryKeys {
    /// Checks the LDAP keys and reads the service password, when the LDAP backend uses them.
    pub(super) fn check(self) -> Result<DirectorySettings, ConfigError> {
        let ldap = self.backend == DirectoryBackend::Ldap;
        if ldap {
            check_filter("directory.group_filter", &self.group_filter, "{dn}")?;
        }
        for (key, value) in [
            ("directory.member_attribute", &self.member_attribute),
            ("directory.group_name_attribute", &self.group_name_attribute),
        ] {
            if value.trim().is_empty() {
                return Err(ConfigError::key(key, "must name an attribute"));
            }
        }
        let url = if ldap {
            check_filter("directory.user_filter", &self.user_filter, "{username}")?;
            check_filter("directory.lookup_filter", &self.lookup_filter, "{sub}")?;
            ldap_urls(&self.url)?
        } else {
            Vec::new()
        };
        let password = SecretSetting {
            value: self.bind_password,
            file: self.bind_password_file,
        };
        let service_account = if ldap && !self.bind_dn.is_empty() {
            let Some(password) = password.resolve("directory.bind_password")? else {
                return Err(ConfigError::key(
                    "directory.bind_password",
                    "bind_dn is set; set bind_password or bind_password_file too",
                ));
            };
            Some(ServiceAccount {
                dn: self.bind_dn,
                password,
            })
        } else {
            None
        };
        let help_url = web_link("directory.help_url", self.help_url.as_deref())?;
        let password_change_url = web_link(
            "directory.password_change_url",
            self.password_change_url.as_deref(),
        )?;
        Ok(DirectorySettings {
            backend: self.backend,
            flavor: self.flavor,
            ldif_path: self.ldif_path,
            url,
            service_account,
            user_base: self.user_base,
            user_filter: self.user_filter,
            lookup_filter: self.lookup_filter,
            starttls: self.starttls,
            ca_file: self.ca_file,
            connect_timeout: self.connect_timeout_ms,
            operation_timeout: self.operation_timeout_ms,
            pool_size: self.pool_size,
            page_size: self.page_size,
            help_url,
            password_change_url,
            password_policy_dn: self
                .password_policy_dn
                .map(|dn| dn.trim().to_owned())
                .filter(|dn| !dn.is_empty()),
            groups: GroupSettings {
                lookup: self.group_lookup,
                member_attribute: self.member_attribute.trim().to_owned(),
                base: self.group_base.trim().to_owned(),
                filter: self.group_filter,
                name_attribute: self.group_name_attribute.trim().to_owned(),
            },
        })
    }
}

/// A link shown to people: an absolute `https://` or `http://` address, or unset (empty).
fn web_link(key: &str, raw: Option<&str>) -> Result<Option<url::Url>, ConfigError> {
    let Some(raw) = raw.map(str::trim).filter(|raw| !raw.is_empty()) else {
        return Ok(None);
    };
    match url::Url::parse(raw) {
        Ok(url) if matches!(url.scheme(), "https" | "http") && url.host_str().is_some() => {
            Ok(Some(url))
        }
        _ => Err(ConfigError::key(
            key,
            format!("`{raw}` is not an https:// or http:// address"),
        )),
    }
}

/// The servers of `directory.url`: one or more `ldap://` or `ldaps://` URLs naming a host,
/// separated by whitespace.
fn ldap_urls(raw: &str) -> Result<Vec<url::Url>, ConfigError> {
    let refuse = |what: &str| {
        ConfigError::key(
            "directory.url",
            format!("{what} is not an ldap:// or ldaps:// URL naming a host"),
        )
    };
    let urls = raw
        .split_whitespace()
        .map(|item| match url::Url::parse(item) {
            Ok(url)
                if matches!(url.scheme(), "ldap" | "ldaps")
                    && url.host_str().is_some_and(|host| !host.is_empty()) =>
            {
                Ok(url)
            }
            _ => Err(refuse(&format!("`{item}`"))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if urls.is_empty() {
        return Err(refuse("an empty value"));
    }
    Ok(urls)
}

/// The attributes `filter` compares with `{sub}`, lowercased: `uid` of `(uid={sub})`.
pub(super) fn sub_attributes(filter: &str) -> Vec<String> {
    filter
        .match_indices("={sub}")
        .filter_map(|(i, _)| {
            let before = &filter[..i];
            let start = before.rfind('(')? + 1;
            let attribute = before[start..].split(':').next()?.trim();
            Some(attribute.to_ascii_lowercase())
        })
        .collect()
}

/// `filter` comparing `attribute` with `{sub}` wherever it compared another.
pub(super) fn with_sub_attribute(filter: &str, attribute: &str) -> String {
    let mut out = String::with_capacity(filter.len());
    let mut rest = filter;
    while let Some(i) = rest.find("={sub}") {
        let before = &rest[..i];
        match before.rfind('(') {
            Some(start) => {
                out.push_str(&before[..=start]);
                out.push_str(attribute);
            }
            None => out.push_str(before),
        }
        out.push_str("={sub}");
        rest = &rest[i + "={sub}".len()..];
    }
    out.push_str(rest);
    out
}

/// A filter template must hold its placeholder and parse once it is filled.
fn check_filter(key: &str, template: &str, placeholder: &str) -> Result<(), ConfigError> {
    if !template.contains(placeholder) {
        return Err(ConfigError::key(key, format!("must contain {placeholder}")));
    }
    // "x" needs no RFC 4515 escaping, so the template alone decides whether the filter parses.
    if ldap3::parse_filter(template.replace(placeholder, "x")).is_err() {
        return Err(ConfigError::key(
            key,
            format!("`{template}` is not a valid LDAP filter (RFC 4515)"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
