//! Who is asked for a second factor: by group (memberOf or a group search) and by a per-user
//! attribute, on the LDIF and LDAP directories.

use crate::helpers::*;
use crate::signin::mfa_helpers::{password_step, register_direct};
use reqwest::StatusCode;
use sso_bridge::directory::ldif::DEMO_LDIF;
use std::io::Write;

const OPS: &str = "cn=ops,ou=groups,dc=example,dc=com";

/// Where `user` is sent after the password.
async fn after_password(app: &TestApp, user: &str, backends: Backends) -> String {
    let reg = register_direct(app).await;
    let r = password_step(app, &app.browser(), &reg, user, &password(backends, user)).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    location(&r)
}

fn asked(location: &str) -> bool {
    location.contains("/oauth/second-factor")
}

/// The demo directory with `extra` appended, written to a file the app reads.
fn ldif_file(edit: impl Fn(&str) -> String) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(edit(DEMO_LDIF).as_bytes()).unwrap();
    file
}

#[tokio::test]
async fn members_of_a_required_group_found_by_search_in_ldap_are_asked_and_others_are_not() {
    let settings = [
        (
            "SSO_BRIDGE__MFA__REQUIRED_GROUPS",
            "CN=Ops, ou=groups,dc=example,dc=com".to_owned(),
        ),
        ("SSO_BRIDGE__MFA__GROUP_LOOKUP", "search".to_owned()),
        (
            "SSO_BRIDGE__MFA__GROUP_BASE",
            "ou=groups,dc=example,dc=com".to_owned(),
        ),
    ];
    let app = spawn_app_with(Backends::Real, &settings).await;
    assert!(asked(&after_password(&app, "alan", Backends::Real).await));
    assert!(!asked(&after_password(&app, "linus", Backends::Real).await));
}

#[tokio::test]
async fn a_member_of_attribute_in_the_directory_puts_its_user_under_the_policy() {
    let file =
        ldif_file(|ldif| ldif.replace("uid: alan\n", &format!("uid: alan\nmemberOf: {OPS}\n")));
    let settings = [
        (
            "SSO_BRIDGE__DIRECTORY__LDIF_PATH",
            file.path().display().to_string(),
        ),
        ("SSO_BRIDGE__MFA__REQUIRED_GROUPS", OPS.to_owned()),
    ];
    let app = spawn_app_with(Backends::Embedded, &settings).await;
    assert!(asked(
        &after_password(&app, "alan", Backends::Embedded).await
    ));
    assert!(!asked(
        &after_password(&app, "linus", Backends::Embedded).await
    ));
}

#[tokio::test]
async fn group_entries_of_an_ldif_directory_are_searched_for_members() {
    let file = ldif_file(|ldif| {
        format!("{ldif}\ndn: {OPS}\nobjectClass: groupOfNames\ncn: ops\nmember: uid=linus,ou=people,dc=example,dc=com\n")
    });
    let settings = [
        (
            "SSO_BRIDGE__DIRECTORY__LDIF_PATH",
            file.path().display().to_string(),
        ),
        ("SSO_BRIDGE__MFA__REQUIRED_GROUPS", OPS.to_owned()),
        ("SSO_BRIDGE__MFA__GROUP_LOOKUP", "search".to_owned()),
    ];
    let app = spawn_app_with(Backends::Embedded, &settings).await;
    assert!(asked(
        &after_password(&app, "linus", Backends::Embedded).await
    ));
    assert!(!asked(
        &after_password(&app, "alan", Backends::Embedded).await
    ));
}

#[tokio::test]
async fn a_per_user_attribute_puts_one_person_under_the_policy() {
    let settings = [
        ("SSO_BRIDGE__MFA__USER_ATTRIBUTE", "title".to_owned()),
        (
            "SSO_BRIDGE__MFA__USER_ATTRIBUTE_VALUE",
            "engineering manager".to_owned(),
        ),
    ];
    let app = spawn_app_with(Backends::Real, &settings).await;
    assert!(asked(&after_password(&app, "linus", Backends::Real).await));
    assert!(!asked(&after_password(&app, "alan", Backends::Real).await));
}

#[tokio::test]
async fn an_unknown_role_in_the_policy_stops_start_up_naming_the_key() {
    let env = [(
        "SSO_BRIDGE__MFA__REQUIRED_ROLES".to_owned(),
        "superadmin,wizard".to_owned(),
    )];
    let err = sso_bridge::config::Settings::load_from(None, env)
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("mfa.required_roles") && err.contains("wizard"),
        "{err}"
    );
}
