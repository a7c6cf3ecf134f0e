//! Who may use which app: an app restricted to roles or groups (nested membership counted) is
//! refused to everyone else with a 403 page whose link returns `access_denied`, at once under
//! `prompt=none`, again at every refresh and single sign-on after a directory re-check; and the
//! `groups` claim. Real slapd (nested `groupOfNames`) and Redis.

use crate::helpers::*;
use crate::support::samba::Samba;
use crate::support::slapd::{Slapd, PEOPLE};
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

const CB: &str = "https://payroll.example.com/cb";
const GROUPS: &str = "ou=groups,dc=example,dc=com";

/// Groups of the test's own on the shared slapd, and a person of its own in them: `finance`
/// (ken, and the members of `payroll`, nested) and `payroll` (the person, and a DN no entry
/// has, so the person can leave it). Answers the groups' names and the person's uid (password
/// `uid-pw`).
fn finance_groups(slapd: &Slapd) -> (String, String, String) {
    let (finance, payroll) = (Samba::unique("finance-team"), Samba::unique("payroll"));
    let payee = Samba::unique("payee");
    slapd.apply(&format!(
        "dn: uid={payee},{PEOPLE}\nchangetype: add\nobjectClass: inetOrgPerson\nuid: {payee}\n\
         cn: {payee}\nsn: {payee}\nuserPassword: {payee}-pw\n\n\
         dn: cn={payroll},{GROUPS}\nchangetype: add\nobjectClass: groupOfNames\ncn: {payroll}\n\
         member: uid={payee},{PEOPLE}\nmember: cn=nobody,{GROUPS}\n\n\
         dn: cn={finance},{GROUPS}\nchangetype: add\nobjectClass: groupOfNames\ncn: {finance}\n\
         member: uid=ken,{PEOPLE}\nmember: cn={payroll},{GROUPS}\n\n"
    ));
    (finance, payroll, payee)
}

/// An app on the shared slapd, finding groups by search, with `extra` settings.
async fn app_with_groups(extra: &[(&'static str, String)]) -> TestApp {
    let mut settings = vec![
        ("SSO_BRIDGE__DIRECTORY__GROUP_LOOKUP", "search".to_owned()),
        ("SSO_BRIDGE__DIRECTORY__GROUP_BASE", GROUPS.to_owned()),
    ];
    settings.extend_from_slice(extra);
    spawn_app_with(Backends::Real, &settings).await
}

/// The authorize parameters of `reg` with PKCE off, plus `extra`.
fn params<'a>(reg: &'a Registered, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut p = vec![
        ("client_id", reg.client_id.as_str()),
        ("redirect_uri", reg.redirect_uri.as_str()),
        ("response_type", "code"),
        ("scope", "openid groups"),
        ("state", "st-7"),
    ];
    p.extend_from_slice(extra);
    p
}

/// Signs `user` in to `reg` in `browser`; answers the response to the password form.
async fn sign_in(
    app: &TestApp,
    browser: &Client,
    reg: &Registered,
    user: &str,
) -> reqwest::Response {
    let page = app.authorize(browser, &params(reg, &[])).await;
    let page = page.text().await.unwrap();
    let password = app.password(user);
    app.submit(
        browser,
        &page,
        &[("username", user), ("password", &password)],
    )
    .await
}

/// Follows redirects within the service until an answer that is not one, or one to the app.
async fn settle(app: &TestApp, browser: &Client, mut r: reqwest::Response) -> reqwest::Response {
    while r.status().is_redirection() {
        let to = location(&r);
        if !to.starts_with(&app.base) {
            return r;
        }
        r = browser.get(&to).send().await.unwrap();
    }
    r
}

#[tokio::test]
async fn an_app_for_a_group_lets_its_members_in_nested_ones_too_and_refuses_the_others() {
    let slapd = Slapd::shared();
    let (finance, _, payee) = finance_groups(slapd);
    let app = app_with_groups(&[]).await;
    let reg = app
        .register_with(CB, json!({ "allowed_groups": [finance.to_uppercase()] }))
        .await;

    for member in ["ken", payee.as_str()] {
        let browser = app.browser();
        let r = settle(&app, &browser, sign_in(&app, &browser, &reg, member).await).await;
        // The consent page: approve, and a code comes back.
        assert_eq!(r.status(), StatusCode::OK, "{member}");
        let page = r.text().await.unwrap();
        let done = app
            .submit(&browser, &page, &[("decision", "approve")])
            .await;
        assert!(
            location(&done).starts_with(&format!("{CB}?code=")),
            "{member}"
        );
    }

    let browser = app.browser();
    let refused = settle(&app, &browser, sign_in(&app, &browser, &reg, "alan").await).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let page = refused.text().await.unwrap();
    assert!(page.contains("No access to Test App"), "{page}");
    assert!(!page.contains("decision"), "no consent form");
    let back = crate::mfa_helpers::between(&page, "button-secondary\" href=\"", "\"");
    let back = unescape(&back);
    let q = query(&back);
    assert!(back.starts_with(CB), "{back}");
    assert_eq!(q["error"], "access_denied");
    assert_eq!(
        (q["state"].as_str(), q["iss"].as_str()),
        ("st-7", app.base.as_str())
    );
    // Still signed in: an app for everyone gives a code at once after consent.
    let open = app.register("https://wiki.example.com/cb", false).await;
    let r = app.authorize(&browser, &params(&open, &[])).await;
    assert_eq!(
        r.status(),
        StatusCode::OK,
        "the consent page of the open app"
    );
    // prompt=none: the refusal goes back to the app at once.
    let r = app
        .authorize(&browser, &params(&reg, &[("prompt", "none")]))
        .await;
    let q = query(&location(&r));
    assert_eq!(q["error"], "access_denied");
    assert_eq!(q["state"], "st-7");

    let token = app.superadmin_token().await;
    let audit: Value = app
        .api
        .get(app.url("/admin/api/audit?action=access_denied"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let events = audit["events"].as_array().unwrap();
    assert_eq!(events.len(), 2, "{audit}");
    assert!(events
        .iter()
        .all(|e| e["actor"] == "alan" && e["client_id"] == reg.client_id.as_str()));
}

#[tokio::test]
async fn an_app_for_a_role_or_a_group_by_dn_lets_either_in() {
    let slapd = Slapd::shared();
    let (finance, _, _) = finance_groups(slapd);
    let app = app_with_groups(&[]).await;
    let reg = app
        .register_with(
            CB,
            json!({
                "allowed_roles": ["hr"],
                "allowed_groups": [format!("CN={finance}, OU=Groups,dc=example,dc=com")],
            }),
        )
        .await;
    let status = |user: &'static str| {
        let (app, reg) = (&app, &reg);
        async move {
            let browser = app.browser();
            let r = sign_in(app, &browser, reg, user).await;
            settle(app, &browser, r).await.status()
        }
    };
    assert_eq!(status("hedy").await, StatusCode::OK, "hr by role");
    assert_eq!(status("ken").await, StatusCode::OK, "by the group's DN");
    assert_eq!(status("linus").await, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_refresh_after_the_person_left_the_group_or_the_app_changed_is_refused_and_revoked() {
    let slapd = Slapd::shared();
    let (finance, payroll, payee) = finance_groups(slapd);
    let app = app_with_groups(&[]).await;
    let reg = app
        .register_with(CB, json!({ "allowed_groups": [finance] }))
        .await;
    let ken = app.tokens_for(&reg, "ken").await;
    let leaver = app.tokens_for(&reg, &payee).await;

    // The person leaves the nested group.
    slapd.apply(&format!(
        "dn: cn={payroll},{GROUPS}\nchangetype: modify\ndelete: member\nmember: uid={payee},{PEOPLE}\n-\n"
    ));
    let refused = app
        .refresh(&reg, leaver["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"], "invalid_grant");
    let access = leaver["access_token"].as_str().unwrap();
    let gone = within_a_cached_copy(StatusCode::UNAUTHORIZED, || app.userinfo(access)).await;
    assert_eq!(
        gone.status(),
        StatusCode::UNAUTHORIZED,
        "the grant was revoked"
    );

    // Ken is still in, until the app is only for the CEO.
    let ken_refresh = ken["refresh_token"].as_str().unwrap();
    let renewed: Value = app.refresh(&reg, ken_refresh).await.json().await.unwrap();
    let token = app.superadmin_token().await;
    let changed = app
        .api
        .patch(app.url(&format!("/admin/api/apps/{}", reg.client_id)))
        .bearer_auth(token)
        .json(&json!({ "allowed_roles": ["ceo"], "allowed_groups": [] }))
        .send()
        .await
        .unwrap();
    assert_eq!(changed.status(), StatusCode::OK);
    let next = renewed["refresh_token"].as_str().unwrap();
    let refused = within_a_cached_copy(StatusCode::BAD_REQUEST, || app.refresh(&reg, next)).await;
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn single_sign_on_after_the_re_check_refuses_someone_who_left_the_group() {
    let slapd = Slapd::shared();
    let (finance, _, _) = finance_groups(slapd);
    let app = app_with_groups(&[("SSO_BRIDGE__SESSION__DIRECTORY_RECHECK_SECS", "0".into())]).await;
    let reg = app
        .register_with(CB, json!({ "allowed_groups": [finance.clone()] }))
        .await;
    let browser = app.browser();
    let password = app.password("ken");
    app.sign_in_and_approve(
        &browser,
        &reg,
        "ken",
        &password,
        &[("scope", "openid groups")],
    )
    .await;
    let r = app.authorize(&browser, &params(&reg, &[])).await;
    assert!(location(&r).starts_with(&format!("{CB}?code=")));

    slapd.apply(&format!(
        "dn: cn={finance},{GROUPS}\nchangetype: modify\ndelete: member\nmember: uid=ken,{PEOPLE}\n-\n"
    ));
    let r = app.authorize(&browser, &params(&reg, &[])).await;

    assert_eq!(r.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_groups_scope_releases_every_group_nested_ones_included_in_userinfo_and_the_id_token() {
    let slapd = Slapd::shared();
    let (finance, payroll, payee) = finance_groups(slapd);
    let app = app_with_groups(&[]).await;
    let reg = app.register(CB, false).await;

    let (code, verifier) = {
        let browser = app.browser();
        let pkce = Pkce::new();
        let password = app.password(&payee);
        let extra = [
            ("scope", "openid groups"),
            ("nonce", "n-1"),
            ("code_challenge", pkce.challenge.as_str()),
            ("code_challenge_method", "S256"),
        ];
        let location = app
            .sign_in_and_approve(&browser, &reg, &payee, &password, &extra)
            .await;
        (query(&location)["code"].clone(), pkce.verifier)
    };
    let tokens = app.exchange(&reg, &code, &verifier).await;
    let info: Value = app
        .userinfo(tokens["access_token"].as_str().unwrap())
        .await
        .json()
        .await
        .unwrap();

    let mut expected = vec![finance, payroll];
    expected.sort();
    assert_eq!(info["groups"], json!(expected));
    let claims =
        crate::oidc::verify_id_token(&app, tokens["id_token"].as_str().unwrap(), &reg.client_id)
            .await;
    assert_eq!(claims["groups"], json!(expected));
    // Without the scope, or for someone in no group, no claim at all.
    let plain = app.tokens_for(&reg, &payee).await;
    let info: Value = app
        .userinfo(plain["access_token"].as_str().unwrap())
        .await
        .json()
        .await
        .unwrap();
    assert!(info.get("groups").is_none(), "{info}");
    let discovery = app.get_json("/.well-known/openid-configuration").await;
    assert!(discovery["scopes_supported"]
        .as_array()
        .unwrap()
        .contains(&json!("groups")));
    assert!(discovery["claims_supported"]
        .as_array()
        .unwrap()
        .contains(&json!("groups")));
}

#[tokio::test]
async fn the_cli_restricts_an_app_and_lets_everyone_in_again() {
    let app = spawn_app(Backends::Embedded).await;
    let base = app.base.clone();
    let made = tokio::task::spawn_blocking(move || {
        let created = crate::audit::cli(
            &base,
            &[
                "apps",
                "create",
                "--name",
                "Payroll",
                "--redirect-uri",
                CB,
                "--allowed-role",
                "finance",
                "--allowed-role",
                "ceo",
                "--allowed-group",
                "finance-team",
            ],
        );
        let created = crate::audit::ok_json(&created);
        let id = created["client_id"].as_str().unwrap().to_owned();
        let groups_only = crate::audit::cli(
            &base,
            &["apps", "update", &id, "--allowed-group", "payroll-admins"],
        );
        let everyone = crate::audit::cli(&base, &["apps", "update", &id, "--everyone"]);
        (
            created,
            crate::audit::ok_json(&groups_only),
            crate::audit::ok_json(&everyone),
        )
    })
    .await
    .unwrap();

    assert_eq!(made.0["allowed_roles"], json!(["finance", "ceo"]));
    assert_eq!(made.0["allowed_groups"], json!(["finance-team"]));
    assert_eq!(made.1["allowed_roles"], json!(["finance", "ceo"]), "kept");
    assert_eq!(
        made.1["allowed_groups"],
        json!(["payroll-admins"]),
        "replaced"
    );
    assert_eq!(made.2["allowed_roles"], json!([]));
    assert_eq!(made.2["allowed_groups"], json!([]));
}

#[tokio::test]
async fn the_demo_directory_gives_its_groups_to_a_restricted_app() {
    let app = spawn_app(Backends::Embedded).await;
    let reg = app
        .register_with(CB, json!({ "allowed_groups": ["finance-team"] }))
        .await;
    // barbara is in payroll-admins, which is in finance-team.
    let tokens = app.tokens_for(&reg, "barbara").await;
    assert!(tokens["access_token"].is_string());
    let browser = app.browser();
    let refused = settle(&app, &browser, sign_in(&app, &browser, &reg, "hedy").await).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
}
