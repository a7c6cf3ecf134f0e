//! Active Directory, against a real Samba domain controller: sign-in over LDAPS, the
//! `active_directory` flavor's defaults and sign-in names, and a subject that survives renames.

use crate::helpers::*;
use crate::mfa_helpers::{register_direct, register_direct_with};
use crate::support::samba::{Samba, NETBIOS, REALM, USER_PASSWORD};
use reqwest::StatusCode;
use secrecy::SecretString;
use sso_bridge::config::Settings;
use sso_bridge::directory::ldap::LdapDirectory;
use sso_bridge::directory::{Directory, DirectoryError};

/// The subject on the objectGUID, and nothing else: the flavor's lookup filter follows it.
pub const GUID_SUBJECT: [(&str, &str); 1] = [("SSO_BRIDGE__CLAIMS__SUB", "objectGUID")];

/// Settings of an app on Redis and the domain controller, with the `active_directory` flavor
/// and `extra` besides.
fn ad_env(extra: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    let samba = Samba::shared().expect("the test found its domain controller first");
    let mut env = samba.env();
    env.push(("SSO_BRIDGE__DIRECTORY__FLAVOR", "active_directory".into()));
    env.extend(extra.iter().map(|(k, v)| (*k, v.to_string())));
    env
}

pub async fn spawn_ad_app(extra: &[(&'static str, &str)]) -> TestApp {
    spawn_app_with(Backends::Real, &ad_env(extra)).await
}

/// Signs in as `name` with `password` through `app` (PKCE, approving if asked): the token
/// response and userinfo's body.
pub async fn userinfo_after_sign_in(
    app: &TestApp,
    registered: &Registered,
    name: &str,
    password: &str,
) -> (serde_json::Value, serde_json::Value) {
    let pkce = Pkce::new();
    let location = app
        .sign_in_and_approve(
            &app.browser(),
            registered,
            name,
            password,
            &[
                ("code_challenge", &pkce.challenge),
                ("code_challenge_method", "S256"),
            ],
        )
        .await;
    let code = query(&location)["code"].clone();
    let tokens = app.exchange(registered, &code, &pkce.verifier).await;
    let access = tokens["access_token"].as_str().unwrap();
    let info = app.userinfo(access).await.json().await.unwrap();
    (tokens, info)
}

/// Posts a sign-in with `name` and `password` for `registered` in a new browser; answers the
/// status.
pub async fn sign_in_status(
    app: &TestApp,
    registered: &Registered,
    name: &str,
    password: &str,
) -> StatusCode {
    sign_in_response(app, registered, name, password)
        .await
        .status()
}

/// Posts a sign-in with `name` and `password` for `registered` in a new browser.
pub async fn sign_in_response(
    app: &TestApp,
    registered: &Registered,
    name: &str,
    password: &str,
) -> reqwest::Response {
    let browser = app.browser();
    let params = [
        ("client_id", registered.client_id.as_str()),
        ("redirect_uri", registered.redirect_uri.as_str()),
        ("response_type", "code"),
        ("scope", "openid"),
        ("state", "s"),
    ];
    let page = app.authorize(&browser, &params).await.text().await.unwrap();
    app.submit(
        &browser,
        &page,
        &[("username", name), ("password", password)],
    )
    .await
}

#[tokio::test]
async fn a_person_of_the_domain_signs_in_over_ldaps_with_the_service_account_reading() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let sam = Samba::unique("ldaps");
    let person = samba.add_user(&sam, &[("displayName", "Lee Daps")]);
    let mapping = Settings::load_from(None, Vec::new()).unwrap().claims;
    let directory = LdapDirectory::new(&samba.settings(), &mapping).unwrap();

    let found = directory
        .authenticate(&sam, &SecretString::from(USER_PASSWORD))
        .await
        .unwrap();
    let wrong = directory
        .authenticate(&sam, &SecretString::from("Not-The-Passw0rd"))
        .await;

    assert_eq!(found.dn.to_lowercase(), person.dn.to_lowercase());
    assert!(
        matches!(wrong, Err(DirectoryError::InvalidCredentials)),
        "{wrong:?}"
    );
}

#[tokio::test]
async fn the_active_directory_flavor_maps_the_usual_attributes_without_further_settings() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let sam = Samba::unique("claims");
    samba.add_user(
        &sam,
        &[
            ("displayName", "Jo Doe"),
            ("givenName", "Jo"),
            ("sn", "Doe"),
            ("employeeID", "E-4711"),
            ("title", "Controller"),
            ("department", "Finance"),
            ("telephoneNumber", "+1 555 0100"),
            ("mail", "jo.doe@corp.example"),
        ],
    );
    let app = spawn_ad_app(&[]).await;
    let registered = register_direct(&app).await;

    let (_, info) = userinfo_after_sign_in(&app, &registered, &sam, USER_PASSWORD).await;

    assert_eq!(info["sub"], sam.as_str());
    assert_eq!(info["name"], "Jo Doe");
    assert_eq!(info["first_name"], "Jo");
    assert_eq!(info["last_name"], "Doe");
    assert_eq!(info["employee_code"], "E-4711");
    assert_eq!(info["job_title"], "Controller");
    assert_eq!(info["department"], "Finance");
    assert_eq!(info["phone"], "+1 555 0100");
    assert_eq!(info["email"], "jo.doe@corp.example");
}

#[tokio::test]
async fn a_flavor_default_is_still_overridden_by_its_setting() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let sam = Samba::unique("over");
    samba.add_user(&sam, &[("employeeNumber", "N-1"), ("employeeID", "I-1")]);
    let app = spawn_ad_app(&[("SSO_BRIDGE__CLAIMS__EMPLOYEE_CODE", "employeeNumber")]).await;
    let registered = register_direct(&app).await;

    let (_, info) = userinfo_after_sign_in(&app, &registered, &sam, USER_PASSWORD).await;

    assert_eq!(info["employee_code"], "N-1");
}

#[tokio::test]
async fn the_account_name_its_upn_and_the_netbios_form_sign_in_as_one_subject() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let sam = Samba::unique("names");
    samba.add_user(&sam, &[]);
    let app = spawn_ad_app(&[]).await;
    let registered = register_direct(&app).await;

    let mut subjects = Vec::new();
    for name in [
        sam.clone(),
        format!("{sam}@{REALM}"),
        format!("{NETBIOS}\\{sam}"),
        format!("{}\\{}", NETBIOS.to_lowercase(), sam.to_uppercase()),
    ] {
        let (_, info) = userinfo_after_sign_in(&app, &registered, &name, USER_PASSWORD).await;
        subjects.push(info["sub"].as_str().unwrap().to_owned());
    }

    assert_eq!(subjects, vec![sam.clone(); 4]);
    let other_domain = format!("OTHER\\{sam}");
    assert_eq!(
        sign_in_status(&app, &registered, &other_domain, USER_PASSWORD).await,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn wrong_passwords_count_against_the_account_whichever_name_was_typed() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let sam = Samba::unique("count");
    samba.add_user(&sam, &[]);
    let app = spawn_ad_app(&[("SSO_BRIDGE__LIMITS__PASSWORD_PER_ACCOUNT", "2")]).await;
    let registered = register_direct(&app).await;

    let upn = format!("{sam}@{REALM}");
    let netbios = format!("{NETBIOS}\\{sam}");
    for name in [&upn, &netbios] {
        assert_eq!(
            sign_in_status(&app, &registered, name, "Wrong-Passw0rd").await,
            StatusCode::UNAUTHORIZED
        );
    }

    assert_eq!(
        sign_in_status(&app, &registered, &sam, USER_PASSWORD).await,
        StatusCode::TOO_MANY_REQUESTS,
        "two wrong passwords under two other spellings use up the account's two attempts"
    );
}

#[tokio::test]
async fn with_only_the_object_guid_subject_set_the_re_check_still_finds_a_superadmin() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let boss = samba.add_user(&Samba::unique("boss"), &[("employeeType", "superadmin")]);
    let app = spawn_ad_app(&GUID_SUBJECT).await;

    let token: serde_json::Value = app
        .admin_token(&boss.sam, &boss.password)
        .await
        .json()
        .await
        .unwrap();
    let token = token["token"].as_str().expect("an admin token");
    // Each admin call finds its superadmin again by the subject, the objectGUID.
    for _ in 0..2 {
        let apps = app
            .api
            .get(app.url("/admin/api/apps"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert_eq!(apps.status(), StatusCode::OK);
    }
    let registered = register_direct(&app).await;
    let (tokens, info) = userinfo_after_sign_in(&app, &registered, &boss.sam, &boss.password).await;
    assert_eq!(info["sub"], samba.object_guid(&boss.dn).as_str());
    let refreshed = app
        .refresh(&registered, tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(
        refreshed.status(),
        StatusCode::OK,
        "the refresh finds the person"
    );
}

#[tokio::test]
async fn an_app_for_a_domain_group_counts_nested_members_and_releases_their_groups() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let member = samba.add_user(&Samba::unique("payee"), &[]);
    let other = samba.add_user(&Samba::unique("other"), &[]);
    let (inner, outer) = (Samba::unique("payroll"), Samba::unique("finance"));
    let inner_dn = samba.add_group(&inner, &[&member.dn]);
    samba.add_group(&outer, &[&inner_dn]);
    let app = spawn_ad_app(&[]).await;
    let registered =
        register_direct_with(&app, |new| new.allowed_groups = vec![outer.clone()]).await;

    let pkce = Pkce::new();
    let approved = app
        .sign_in_and_approve(
            &app.browser(),
            &registered,
            &member.sam,
            &member.password,
            &[
                ("scope", "openid groups"),
                ("code_challenge", &pkce.challenge),
                ("code_challenge_method", "S256"),
            ],
        )
        .await;
    let tokens = app
        .exchange(&registered, &query(&approved)["code"], &pkce.verifier)
        .await;
    let info: serde_json::Value = app
        .userinfo(tokens["access_token"].as_str().unwrap())
        .await
        .json()
        .await
        .unwrap();
    let mut expected = vec![outer, inner];
    expected.sort();
    assert_eq!(
        info["groups"],
        serde_json::json!(expected),
        "nested, by their cn"
    );

    let browser = app.browser();
    let params = [
        ("client_id", registered.client_id.as_str()),
        ("redirect_uri", registered.redirect_uri.as_str()),
        ("response_type", "code"),
        ("scope", "openid"),
        ("state", "s"),
    ];
    let page = app.authorize(&browser, &params).await.text().await.unwrap();
    let form = [
        ("username", other.sam.as_str()),
        ("password", other.password.as_str()),
    ];
    let mut r = app.submit(&browser, &page, &form).await;
    while r.status().is_redirection() && location(&r).starts_with(&app.base) {
        r = browser.get(location(&r)).send().await.unwrap();
    }
    assert_eq!(r.status(), StatusCode::FORBIDDEN, "not in the group");
}
