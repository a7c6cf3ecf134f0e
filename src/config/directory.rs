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
    /// Service connections kept for searches.
    pub pool_size: usize,
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
    #[serde(deserialize_with = "value::positive_millis")]
    connect_timeout_ms: Duration,
    #[serde(deserialize_with = "value::positive_millis")]
    operation_timeout_ms: Duration,
    #[serde(deserialize_with = "value::positive")]
    pool_size: usize,
}

impl DirectoryKeys {
    /// Checks the LDAP keys and reads the service password, when the LDAP backend uses them.
    pub(super) fn check(self) -> Result<DirectorySettings, ConfigError> {
        let ldap = self.backend == DirectoryBackend::Ldap;
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
        })
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
mod tests {
    use crate::config::{ConfigError, Settings};
    use secrecy::ExposeSecret;
    use std::io::Write;

    const DN: &str = "cn=sso-bridge,ou=services,dc=example,dc=com";

    fn ldap(pairs: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        let mut env = vec![
            (
                "SSO_BRIDGE__DIRECTORY__BACKEND".to_owned(),
                "ldap".to_owned(),
            ),
            ("SSO_BRIDGE__DIRECTORY__BIND_DN".to_owned(), DN.to_owned()),
            (
                "SSO_BRIDGE__DIRECTORY__BIND_PASSWORD".to_owned(),
                "pw".to_owned(),
            ),
        ];
        env.extend(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        Settings::load_from(None, env)
    }

    /// Unsets the password the other tests use.
    const NO_PASSWORD: (&str, &str) = ("SSO_BRIDGE__DIRECTORY__BIND_PASSWORD", "");

    #[test]
    fn the_service_password_comes_from_the_first_line_of_its_file() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        write!(file, "from-file\nsecond line\n").unwrap();
        let path = file.path().to_str().unwrap();
        let s = ldap(&[
            NO_PASSWORD,
            ("SSO_BRIDGE__DIRECTORY__BIND_PASSWORD_FILE", path),
        ])
        .unwrap();
        let account = s.directory.service_account.unwrap();
        assert_eq!(account.dn, DN);
        assert_eq!(account.password.expose_secret(), "from-file");
    }

    #[test]
    fn a_service_account_needs_exactly_one_password_setting() {
        let err = ldap(&[NO_PASSWORD]).unwrap_err().to_string();
        assert!(err.contains("directory.bind_password"), "{err}");
        let file = (
            "SSO_BRIDGE__DIRECTORY__BIND_PASSWORD_FILE",
            "/nonexistent/pw",
        );
        let err = ldap(&[NO_PASSWORD, file]).unwrap_err().to_string();
        assert!(err.contains("/nonexistent/pw"), "{err}");
        let err = ldap(&[file]).unwrap_err().to_string();
        assert!(err.contains("not both"), "{err}");
    }

    #[test]
    fn a_filter_setting_without_its_placeholder_or_unbalanced_is_refused() {
        let err = ldap(&[("SSO_BRIDGE__DIRECTORY__USER_FILTER", "(uid=ada)")])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("directory.user_filter") && err.contains("{username}"),
            "{err}"
        );
        let err = ldap(&[("SSO_BRIDGE__DIRECTORY__LOOKUP_FILTER", "(uid={sub}")])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("directory.lookup_filter") && err.contains("RFC 4515"),
            "{err}"
        );
    }

    #[test]
    fn only_ldap_and_ldaps_urls_with_a_host_are_accepted() {
        for bad in [
            "http://example.com",
            "ldap://",
            "ldapi:///run/slapd.sock",
            "nonsense",
            "",
            "ldap://a.example.com nonsense",
        ] {
            let err = ldap(&[("SSO_BRIDGE__DIRECTORY__URL", bad)])
                .unwrap_err()
                .to_string();
            assert!(err.contains("`directory.url`"), "{bad}: {err}");
        }
    }

    #[test]
    fn several_urls_are_separated_by_spaces() {
        let urls = "ldaps://a.example.com:636  ldap://b.example.com";
        let s = ldap(&[("SSO_BRIDGE__DIRECTORY__URL", urls)]).unwrap();
        let hosts: Vec<_> = s.directory.url.iter().map(|u| u.host_str()).collect();
        assert_eq!(hosts, [Some("a.example.com"), Some("b.example.com")]);
    }

    #[test]
    fn plain_ldap_to_another_machine_without_starttls_is_cleartext() {
        let cleartext = |url: &str, starttls: &str| -> Vec<String> {
            let s = ldap(&[
                ("SSO_BRIDGE__DIRECTORY__URL", url),
                ("SSO_BRIDGE__DIRECTORY__STARTTLS", starttls),
            ])
            .unwrap();
            let found = s.directory.cleartext_servers();
            found.iter().map(|u| u.to_string()).collect()
        };
        assert_eq!(
            cleartext("ldap://ldap.example.com", "false"),
            ["ldap://ldap.example.com"]
        );
        assert_eq!(
            cleartext("ldaps://a.example.com ldap://10.0.0.7:389", "false"),
            ["ldap://10.0.0.7:389"]
        );
        assert_eq!(cleartext("ldap://[2001:db8::1]", "false").len(), 1);
        for quiet in [
            "ldaps://ldap.example.com",
            "ldap://127.0.0.1:3389",
            "ldap://127.8.9.10",
            "ldap://[::1]:389",
            "ldap://localhost",
            "ldap://LOCALHOST.:389",
        ] {
            assert!(cleartext(quiet, "false").is_empty(), "{quiet}");
        }
        assert!(cleartext("ldap://ldap.example.com", "true").is_empty());
    }

    const AD: (&str, &str) = ("SSO_BRIDGE__DIRECTORY__FLAVOR", "active_directory");

    #[test]
    fn the_active_directory_flavor_brings_its_filters_and_attributes() {
        let s = ldap(&[AD]).unwrap();
        assert_eq!(s.directory.flavor, super::DirectoryFlavor::ActiveDirectory);
        assert!(
            s.directory
                .user_filter
                .contains("(sAMAccountName={username})")
                && s.directory
                    .user_filter
                    .contains("(userPrincipalName={username})"),
            "{}",
            s.directory.user_filter
        );
        assert!(s.directory.lookup_filter.contains("(sAMAccountName={sub})"));
        let c = &s.claims;
        assert_eq!(
            [&c.sub, &c.name, &c.employee_code, &c.department],
            ["sAMAccountName", "displayName", "employeeID", "department"]
        );
    }

    #[test]
    fn a_setting_of_a_file_or_the_environment_beats_the_flavor_default() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        write!(
            file,
            "[directory]\nflavor = \"active_directory\"\n[claims]\nname = \"cn\"\n"
        )
        .unwrap();
        let env = [(
            "SSO_BRIDGE__CLAIMS__SUB".to_owned(),
            "objectGUID".to_owned(),
        )];
        let s = Settings::load_from(Some(file.path()), env).unwrap();
        assert_eq!(s.claims.name, "cn");
        assert_eq!(s.claims.sub, "objectGUID");
        assert_eq!(s.claims.first_name, "givenName");
        assert_eq!(s.claims.employee_code, "employeeID");
    }

    #[test]
    fn the_generic_flavor_keeps_the_generic_defaults_and_others_are_refused() {
        let s = ldap(&[]).unwrap();
        assert_eq!(s.directory.flavor, super::DirectoryFlavor::Generic);
        assert_eq!(s.claims.sub, "uid");
        let err = ldap(&[("SSO_BRIDGE__DIRECTORY__FLAVOR", "windows")])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("directory.flavor") && err.contains("`active_directory`"),
            "{err}"
        );
    }

    #[test]
    fn an_empty_bind_dn_searches_anonymously() {
        let s = ldap(&[("SSO_BRIDGE__DIRECTORY__BIND_DN", "")]).unwrap();
        assert!(s.directory.service_account.is_none());
    }

    #[test]
    fn the_ldif_backend_reads_no_ldap_secret() {
        let env = [("SSO_BRIDGE__DIRECTORY__BIND_DN".to_owned(), DN.to_owned())];
        let s = Settings::load_from(None, env).unwrap();
        assert!(s.directory.service_account.is_none());
    }
}
