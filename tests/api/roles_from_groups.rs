//! Roles from directory groups (`[roles]`), nested groups included: on the Samba domain
//! controller (`LDAP_MATCHING_RULE_IN_CHAIN`), for claims, the admin API's superadmin and the
//! second-factor policy's required groups.

use crate::active_directory::{sign_in_response, spawn_ad_app, userinfo_after_sign_in};
use crate::helpers::*;
use crate::mfa_helpers::register_direct;
use crate::support::samba::{AdUser, Samba, USER_PASSWORD};
use crate::support::slapd::Slapd;
use reqwest::StatusCode;

/// Groups of one test: each role's group, and a group nested two levels under finance's.
struct Groups {
    admin: String,
    finance: String,
    employee: String,
    /// Member of `payroll`, which is a member of `finance`.
    team: String,
}

impl Groups {
    fn add(samba: &Samba) -> Groups {
        let admin = samba.add_group(&Samba::unique("admins"), &[]);
        let finance = samba.add_group(&Samba::unique("finance"), &[]);
        let employee = samba.add_group(&Samba::unique("staff"), &[]);
        let payroll = samba.add_group(&Samba::unique("payroll"), &[]);
        let team = samba.add_group(&Samba::unique("team"), &[]);
        samba.add_members(&finance, &[&payroll]);
        samba.add_members(&payroll, &[&team]);
        Groups {
            admin,
            finance,
            employee,
            team,
        }
    }

    fn settings(&self) -> Vec<(&'static str, String)> {
        vec![
            ("SSO_BRIDGE__ROLES__ADMIN", self.admin.clone()),
            ("SSO_BRIDGE__ROLES__FINANCE", self.finance.clone()),
            ("SSO_BRIDGE__ROLES__EMPLOYEE", self.employee.clone()),
        ]
    }
}

fn person(samba: &Samba, prefix: &str, groups: &[&str]) -> AdUser {
    // employeeType says superadmin: with [roles] set, it must not count.
    let user = samba.add_user(&Samba::unique(prefix), &[("employeeType", "superadmin")]);
    for group in groups {
        samba.add_members(group, &[&user.dn]);
    }
    user
}

async fn app_with(settings: &[(&'static str, String)]) -> TestApp {
    let extra: Vec<(&'static str, &str)> = settings.iter().map(|(k, v)| (*k, v.as_str())).collect();
    spawn_ad_app(&extra).await
}

#[tokio::test]
async fn the_role_is_the_highest_any_group_gives_nested_groups_included() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let groups = Groups::add(samba);
    let nested = person(samba, "nest", &[&groups.team, &groups.employee]);
    let admin = person(
        samba,
        "adm",
        &[&groups.employee, &groups.team, &groups.admin],
    );
    let plain = person(samba, "plain", &[&groups.employee]);
    let outside = person(samba, "out", &[]);
    let app = app_with(&groups.settings()).await;
    let registered = register_direct(&app).await;

    let mut roles = Vec::new();
    for user in [&nested, &admin, &plain, &outside] {
        let (_, info) = userinfo_after_sign_in(&app, &registered, &user.sam, USER_PASSWORD).await;
        roles.push(info["role"].as_str().map(str::to_owned));
    }

    assert_eq!(
        roles,
        [
            Some("finance".to_owned()),
            Some("admin".to_owned()),
            Some("employee".to_owned()),
            None
        ]
    );
}

#[tokio::test]
async fn a_member_of_a_superadmin_group_is_the_superadmin_of_the_admin_api() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let admins = samba.add_group(&Samba::unique("supers"), &[]);
    let inner = samba.add_group(&Samba::unique("inner"), &[]);
    samba.add_members(&admins, &[&inner]);
    let chief = person(samba, "chief", &[&inner]);
    let other = person(samba, "other", &[]);
    let app = app_with(&[("SSO_BRIDGE__ROLES__SUPERADMIN", admins)]).await;

    let chief_token = app.admin_token(&chief.sam, USER_PASSWORD).await;
    let other_token = app.admin_token(&other.sam, USER_PASSWORD).await;

    assert_eq!(chief_token.status(), StatusCode::OK);
    assert_eq!(other_token.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_required_group_of_the_second_factor_policy_counts_its_nested_members() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let required = samba.add_group(&Samba::unique("mfa"), &[]);
    let inner = samba.add_group(&Samba::unique("mfain"), &[]);
    samba.add_members(&required, &[&inner]);
    let member = person(samba, "mfam", &[&inner]);
    let other = person(samba, "mfao", &[]);
    let app = app_with(&[("SSO_BRIDGE__MFA__REQUIRED_GROUPS", required)]).await;
    let registered = register_direct(&app).await;

    let member_next = sign_in_response(&app, &registered, &member.sam, USER_PASSWORD).await;
    let other_next = sign_in_response(&app, &registered, &other.sam, USER_PASSWORD).await;

    assert!(
        location(&member_next).contains("/oauth/second-factor"),
        "{}",
        location(&member_next)
    );
    assert!(
        !location(&other_next).contains("/oauth/second-factor"),
        "{}",
        location(&other_next)
    );
}

#[tokio::test]
async fn on_openldap_nested_groups_are_followed_by_searching_again() {
    // A private slapd: the shared one's groups stay as the fixture has them.
    let slapd = Slapd::start();
    slapd.apply(
        "dn: cn=admins,ou=groups,dc=example,dc=com\nchangetype: add\nobjectClass: groupOfNames\n\
         cn: admins\nmember: cn=ops,ou=groups,dc=example,dc=com\n",
    );
    let app = spawn_app_with(
        Backends::Real,
        &[
            ("SSO_BRIDGE__DIRECTORY__URL", slapd.url()),
            (
                "SSO_BRIDGE__MFA__GROUP_BASE",
                "ou=groups,dc=example,dc=com".into(),
            ),
            (
                "SSO_BRIDGE__ROLES__ADMIN",
                "cn=admins,ou=groups,dc=example,dc=com".into(),
            ),
        ],
    )
    .await;
    let registered = register_direct(&app).await;

    // alan is in ops, ops in admins; his employeeType (employee) no longer counts.
    let (_, alan) = userinfo_after_sign_in(&app, &registered, "alan", "alan-pw").await;
    let (_, ada) = userinfo_after_sign_in(&app, &registered, "ada", "ada-pw").await;

    assert_eq!(alan["role"], "admin");
    assert_eq!(
        ada.get("role"),
        None,
        "ada (superadmin by attribute) is in no group"
    );
}
