//! Checking the directory settings at start-up: the URL and the filter templates.

use super::{fill, LdapConfigError};

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
