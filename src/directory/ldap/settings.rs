//! Reading and checking the directory settings at start-up: the URL, the filter templates and
//! the service account's password.

use super::pool::ServiceAccount;
use super::{fill, LdapConfigError};
use crate::config::DirectorySettings;
use secrecy::{ExposeSecret, SecretString};
use std::path::Path;

pub(super) fn check_url(raw: &str) -> Result<url::Url, LdapConfigError> {
    match url::Url::parse(raw) {
        Ok(url)
            if matches!(url.scheme(), "ldap" | "ldaps")
                && url.host_str().is_some_and(|host| !host.is_empty()) =>
        {
            Ok(url)
        }
        _ => Err(LdapConfigError::Url(raw.to_owned())),
    }
}

/// A filter template must hold its placeholder and parse once it is filled.
pub(super) fn check_filter(
    key: &'static str,
    template: &str,
    placeholder: &str,
) -> Result<(), LdapConfigError> {
    let reason = if !template.contains(placeholder) {
        format!("must contain {placeholder}")
    } else if ldap3::parse_filter(fill(template, placeholder, "x")).is_err() {
        format!("`{template}` is not a valid LDAP filter (RFC 4515)")
    } else {
        return Ok(());
    };
    Err(LdapConfigError::Filter { key, reason })
}

/// The service account from `bind_dn` and `bind_password` or the first line of
/// `bind_password_file`; an empty `bind_dn` searches anonymously.
pub(super) fn service_account(
    settings: &DirectorySettings,
) -> Result<Option<ServiceAccount>, LdapConfigError> {
    if settings.bind_dn.is_empty() {
        return Ok(None);
    }
    let password = match (&settings.bind_password, &settings.bind_password_file) {
        (Some(_), Some(_)) => {
            return Err(LdapConfigError::Password(
                "set bind_password or bind_password_file, not both".into(),
            ))
        }
        (Some(password), None) => password.clone(),
        (None, Some(path)) => read_password_file(path)?,
        (None, None) => {
            return Err(LdapConfigError::Password(
                "bind_dn is set; set bind_password or bind_password_file too".into(),
            ))
        }
    };
    if password.expose_secret().is_empty() {
        return Err(LdapConfigError::Password("must not be empty".into()));
    }
    Ok(Some(ServiceAccount {
        dn: settings.bind_dn.clone(),
        password,
    }))
}

fn read_password_file(path: &Path) -> Result<SecretString, LdapConfigError> {
    let error = |reason: String| LdapConfigError::PasswordFile {
        path: path.to_path_buf(),
        reason,
    };
    let text = SecretString::from(std::fs::read_to_string(path).map_err(|e| error(e.to_string()))?);
    match text.expose_secret().lines().next() {
        Some(line) if !line.is_empty() => Ok(SecretString::from(line)),
        _ => Err(error("the first line is empty".into())),
    }
}
