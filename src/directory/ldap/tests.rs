//! Unit tests of the LDAP directory that need no server: filters, construction, entry mapping.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::*;
use crate::config::{DirectoryBackend, ServiceAccount};
use ldap3::SearchEntry;
use std::collections::HashMap;

fn settings() -> DirectorySettings {
    DirectorySettings {
        backend: DirectoryBackend::Ldap,
        flavor: DirectoryFlavor::Generic,
        ldif_path: None,
        url: vec!["ldap://127.0.0.1:1".parse().unwrap()],
        service_account: Some(ServiceAccount {
            dn: "cn=sso-bridge,ou=services,dc=example,dc=com".into(),
            password: SecretString::from("service-pw"),
        }),
        user_base: "ou=people,dc=example,dc=com".into(),
        user_filter: "(&(objectClass=inetOrgPerson)(uid={username}))".into(),
        lookup_filter: "(&(objectClass=inetOrgPerson)(uid={sub}))".into(),
        starttls: false,
        ca_file: None,
        connect_timeout: Duration::from_millis(1000),
        operation_timeout: Duration::from_millis(1000),
        pool_size: 2,
        page_size: 500,
        help_url: None,
        password_change_url: None,
        password_policy_dn: None,
        groups: crate::config::defaults().directory.groups,
    }
}

fn build(settings: &DirectorySettings) -> Result<LdapDirectory, LdapConfigError> {
    LdapDirectory::new(settings, &crate::config::defaults().claims)
}

#[test]
fn filter_metacharacters_in_a_value_are_escaped() {
    assert_eq!(
        fill("(uid={username})", "{username}", "ada)(uid=*"),
        r"(uid=ada\29\28uid=\2a)"
    );
    assert_eq!(fill("(uid={u})", "{u}", r"a\b"), r"(uid=a\5cb)");
    assert_eq!(fill("(uid={u})", "{u}", "a\0b"), r"(uid=a\00b)");
}

#[test]
fn every_placeholder_is_filled_and_placeholders_in_the_value_stay_literal() {
    assert_eq!(
        fill("(|(uid={u})(mail={u}))", "{u}", "{u}*"),
        r"(|(uid={u}\2a)(mail={u}\2a))"
    );
}

#[test]
fn plain_and_non_ascii_values_are_unchanged() {
    assert_eq!(fill("(uid={u})", "{u}", "ada"), "(uid=ada)");
    assert_eq!(fill("(cn={u})", "{u}", "Zoë Ærø"), "(cn=Zoë Ærø)");
}

#[test]
fn a_filled_filter_with_an_injection_attempt_still_parses_as_one_equality() {
    for hostile in ["*", "ada)(uid=*", "*)(|(uid=*", "ada*", ")", "\\"] {
        let filter = fill("(uid={u})", "{u}", hostile);
        assert!(ldap3::parse_filter(&filter).is_ok(), "{filter}");
        assert!(
            !filter[5..filter.len() - 1].contains(['*', '(', ')']),
            "{filter}"
        );
    }
}

#[test]
fn without_a_url_there_is_nothing_to_connect_to() {
    let mut s = settings();
    s.url.clear();
    assert!(matches!(build(&s), Err(LdapConfigError::NoUrl)));
}

#[test]
fn building_does_not_connect() {
    // Port 1 on loopback has no listener; construction must succeed regardless.
    assert!(build(&settings()).is_ok());
}

#[test]
fn attribute_names_are_lowercased() {
    let entry = SearchEntry {
        dn: "uid=ada,ou=people,dc=example,dc=com".into(),
        attrs: HashMap::from([
            ("givenName".to_owned(), vec!["Ada".to_owned()]),
            ("employeeType".to_owned(), vec!["superadmin".to_owned()]),
        ]),
        bin_attrs: HashMap::new(),
    };
    let user = to_user(entry);
    assert_eq!(user.dn, "uid=ada,ou=people,dc=example,dc=com");
    assert_eq!(user.attributes["givenname"], ["Ada"]);
    assert_eq!(user.attributes["employeetype"], ["superadmin"]);
}

#[tokio::test]
async fn an_empty_password_or_username_is_refused_without_a_server() {
    let directory = build(&settings()).unwrap();
    let empty = SecretString::from("");
    let some = SecretString::from("ada-pw");
    for (username, password) in [("ada", &empty), ("", &some)] {
        assert!(matches!(
            directory.authenticate(username, password).await,
            Err(DirectoryError::InvalidCredentials)
        ));
    }
}

#[test]
fn a_checkout_and_a_lookup_are_small_futures() {
    // A checkout's future holds room for making a connection; unboxed, that made each lookup a
    // 15 KB future, copied a few times over on every search.
    let directory = build(&settings()).unwrap();
    let checkout = directory.pool.get();
    assert!(std::mem::size_of_val(&checkout) < 4096);
    let lookup = directory.find_by_subject("ada");
    assert!(std::mem::size_of_val(&lookup) < 8192);
}
