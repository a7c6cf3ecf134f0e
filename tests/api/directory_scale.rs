//! Directory scale: a person's groups are read page by page, so a server that answers a few
//! entries at a time (Active Directory: 1,000) still gives every one; referrals in the
//! directory are dropped, never followed.
//!
//! On slapd the service account `paged-reader` is answered at most 3 entries per search, or
//! per page; Samba's domain controller has no such limit (it ignores `MaxPageSize`), so there
//! the test shows only that its paging, with small pages, hands over every group.

use crate::active_directory::{spawn_ad_app, userinfo_after_sign_in};
use crate::helpers::*;
use crate::mfa_helpers::register_direct;
use crate::support::ports::free_port;
use crate::support::samba::{Samba, USER_PASSWORD};
use crate::support::slapd::{Slapd, PAGED_LIMIT, PAGED_READER_DN, PAGED_READER_PASSWORD, PEOPLE};
use secrecy::SecretString;
use sso_bridge::config::{GroupLookup, ServiceAccount, Settings};
use sso_bridge::directory::ldap::LdapDirectory;
use sso_bridge::directory::Directory;
use std::time::{Duration, Instant};

const GROUPS: &str = "ou=groups,dc=example,dc=com";
const GROUP_FILTER: &str = "(&(objectClass=groupOfNames)(member={dn}))";
/// More groups than the paged reader is answered at once, over several pages.
const MANY: u32 = 3 * PAGED_LIMIT + 1;

/// A person `uid` (password `uid-pw`) on `slapd`, in `MANY` groups of their own; answers their
/// DN and the groups' DNs, in the order they were added.
fn person_in_many_groups(slapd: &Slapd, uid: &str) -> (String, Vec<String>) {
    let dn = format!("uid={uid},{PEOPLE}");
    let mut ldif = format!(
        "dn: {dn}\nchangetype: add\nobjectClass: inetOrgPerson\nuid: {uid}\ncn: {uid}\n\
         sn: {uid}\nuserPassword: {uid}-pw\n\n"
    );
    let groups: Vec<String> = (0..MANY)
        .map(|n| format!("cn={uid}-{n},{GROUPS}"))
        .collect();
    for (n, group) in groups.iter().enumerate() {
        ldif.push_str(&format!(
            "dn: {group}\nchangetype: add\nobjectClass: groupOfNames\ncn: {uid}-{n}\n\
             member: {dn}\n\n"
        ));
    }
    slapd.apply(&ldif);
    (dn, groups)
}

fn paged_reader(slapd: &Slapd, page_size: u32) -> LdapDirectory {
    let mut settings = slapd.settings();
    settings.service_account = Some(ServiceAccount {
        dn: PAGED_READER_DN.into(),
        password: SecretString::from(PAGED_READER_PASSWORD),
    });
    settings.page_size = page_size;
    settings.groups.lookup = GroupLookup::Search;
    settings.groups.base = GROUPS.into();
    settings.groups.filter = GROUP_FILTER.into();
    let mapping = Settings::load_from(None, Vec::new()).unwrap().claims;
    LdapDirectory::new(&settings, &mapping).unwrap()
}

/// The DNs of the groups `directory` finds for `uid`, lowercased and sorted.
async fn groups_found(directory: &LdapDirectory, uid: &str) -> Vec<String> {
    let person = directory.find(uid).await.unwrap().unwrap();
    let mut found: Vec<String> = person.groups.iter().map(|g| g.dn.to_lowercase()).collect();
    found.sort();
    found
}

#[tokio::test]
async fn every_group_comes_page_by_page_from_a_server_answering_a_few_at_a_time() {
    let slapd = Slapd::shared();
    let uid = Samba::unique("paged");
    let (_, groups) = person_in_many_groups(slapd, &uid);

    let found = groups_found(&paged_reader(slapd, PAGED_LIMIT), &uid).await;

    let mut expected: Vec<String> = groups.iter().map(|g| g.to_lowercase()).collect();
    expected.sort();
    assert_eq!(found, expected);
}

#[tokio::test]
async fn a_role_given_by_a_group_on_the_last_page_is_found_at_sign_in() {
    let slapd = Slapd::shared();
    let uid = Samba::unique("pagedrole");
    let (_, groups) = person_in_many_groups(slapd, &uid);
    let last = groups.last().unwrap().clone();
    let app = spawn_app_with(
        Backends::Real,
        &[
            ("SSO_BRIDGE__DIRECTORY__BIND_DN", PAGED_READER_DN.into()),
            (
                "SSO_BRIDGE__DIRECTORY__BIND_PASSWORD",
                PAGED_READER_PASSWORD.into(),
            ),
            ("SSO_BRIDGE__DIRECTORY__PAGE_SIZE", PAGED_LIMIT.to_string()),
            ("SSO_BRIDGE__MFA__GROUP_BASE", GROUPS.into()),
            ("SSO_BRIDGE__ROLES__FINANCE", last),
        ],
    )
    .await;
    let reg = register_direct(&app).await;

    let (_, info) = userinfo_after_sign_in(&app, &reg, &uid, &format!("{uid}-pw")).await;

    assert_eq!(info["role"], "finance");
}

#[tokio::test]
async fn referrals_among_the_people_and_groups_are_dropped_and_never_followed() {
    // A private slapd: the shared one's searches stay free of referrals.
    let slapd = Slapd::start();
    let (dn, groups) = person_in_many_groups(&slapd, "referred");
    // Both point at a port nobody listens on: following either would fail or hang.
    let nowhere = format!("ldap://127.0.0.1:{}", free_port());
    slapd.add_referral(
        &format!("cn=elsewhere,{GROUPS}"),
        &format!("{nowhere}/ou=groups,dc=elsewhere"),
    );
    slapd.add_referral(
        &format!("cn=abroad,{PEOPLE}"),
        &format!("{nowhere}/ou=people,dc=elsewhere"),
    );
    let directory = paged_reader(&slapd, PAGED_LIMIT);

    let started = Instant::now();
    let person = directory
        .authenticate("referred", &SecretString::from("referred-pw"))
        .await
        .unwrap();
    let found = groups_found(&directory, "referred").await;

    assert_eq!(person.dn.to_lowercase(), dn.to_lowercase());
    assert_eq!(person.groups.len(), groups.len(), "{:?}", person.groups);
    assert_eq!(found.len(), groups.len(), "{found:?}");
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn on_the_domain_controller_nested_groups_come_page_by_page() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let person = samba.add_user(&Samba::unique("pages"), &[]);
    let mut groups = Vec::new();
    for _ in 0..5 {
        groups.push(samba.add_group(&Samba::unique("pg"), &[&person.dn]));
    }
    // Nested under the others, so only the in-chain search finds it.
    let top = samba.add_group(&Samba::unique("pgtop"), &[&groups[4]]);
    let app = spawn_ad_app(&[
        ("SSO_BRIDGE__DIRECTORY__PAGE_SIZE", "2"),
        ("SSO_BRIDGE__ROLES__MANAGER", &top),
    ])
    .await;
    let reg = register_direct(&app).await;

    let (_, info) = userinfo_after_sign_in(&app, &reg, &person.sam, USER_PASSWORD).await;

    assert_eq!(info["role"], "manager");
}
