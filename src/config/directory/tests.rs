//! `[directory]` settings: what is accepted, refused and defaulted.

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

#[test]
fn help_links_are_web_addresses_or_unset() {
    let s = ldap(&[]).unwrap();
    assert!(s.directory.help_url.is_none() && s.directory.password_change_url.is_none());
    let s = ldap(&[
        (
            "SSO_BRIDGE__DIRECTORY__HELP_URL",
            "https://help.corp.example/it",
        ),
        (
            "SSO_BRIDGE__DIRECTORY__PASSWORD_CHANGE_URL",
            "https://passwords.corp.example/",
        ),
    ])
    .unwrap();
    let shown = |url: Option<url::Url>| url.map(|u| u.to_string());
    assert_eq!(
        shown(s.directory.help_url),
        Some("https://help.corp.example/it".into())
    );
    assert_eq!(
        shown(s.directory.password_change_url),
        Some("https://passwords.corp.example/".into())
    );
    for bad in ["javascript:alert(1)", "/relative", "ftp://files.example"] {
        let err = ldap(&[("SSO_BRIDGE__DIRECTORY__HELP_URL", bad)])
            .unwrap_err()
            .to_string();
        assert!(err.contains("directory.help_url"), "{bad}: {err}");
    }
}

#[test]
fn the_default_lookup_filter_follows_the_subject_attribute() {
    let s = ldap(&[
        ("SSO_BRIDGE__DIRECTORY__FLAVOR", "active_directory"),
        ("SSO_BRIDGE__CLAIMS__SUB", "objectGUID"),
    ])
    .unwrap();
    assert_eq!(
        s.directory.lookup_filter,
        "(&(objectCategory=person)(objectClass=user)(objectGUID={sub}))"
    );
    let generic = ldap(&[("SSO_BRIDGE__CLAIMS__SUB", "entryUUID")]).unwrap();
    assert_eq!(
        generic.directory.lookup_filter,
        "(&(objectClass=inetOrgPerson)(entryUUID={sub}))"
    );
}

#[test]
fn a_lookup_filter_set_by_hand_that_cannot_find_the_subject_is_refused_with_the_one_to_use() {
    let err = ldap(&[
        ("SSO_BRIDGE__CLAIMS__SUB", "entryUUID"),
        (
            "SSO_BRIDGE__DIRECTORY__LOOKUP_FILTER",
            "(&(objectClass=person)(uid={sub}))",
        ),
    ])
    .unwrap_err()
    .to_string();
    assert!(err.contains("directory.lookup_filter"), "{err}");
    assert!(
        err.contains("(&(objectClass=person)(entryUUID={sub}))"),
        "{err}"
    );
    assert!(ldap(&[
        ("SSO_BRIDGE__CLAIMS__SUB", "entryUUID"),
        ("SSO_BRIDGE__DIRECTORY__LOOKUP_FILTER", "(entryUUID={sub})"),
    ])
    .is_ok());
}

#[test]
fn an_earlier_name_of_a_group_key_is_read_unless_the_key_is_set_too() {
    let s = ldap(&[("SSO_BRIDGE__MFA__GROUP_BASE", "ou=teams,dc=example,dc=com")]).unwrap();
    assert_eq!(s.directory.groups.base, "ou=teams,dc=example,dc=com");
    assert!(s.notices[0].contains("mfa.group_base"), "{:?}", s.notices);
    let both = ldap(&[
        ("SSO_BRIDGE__MFA__GROUP_BASE", "ou=old,dc=example,dc=com"),
        (
            "SSO_BRIDGE__DIRECTORY__GROUP_BASE",
            "ou=new,dc=example,dc=com",
        ),
    ])
    .unwrap();
    assert_eq!(both.directory.groups.base, "ou=new,dc=example,dc=com");
    assert!(both.notices[0].contains("set too"), "{:?}", both.notices);
    assert!(ldap(&[]).unwrap().notices.is_empty());
}
