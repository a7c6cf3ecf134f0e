//! Leavers are out at once: a single sign-on, the admin screen and an admin token are confirmed
//! by the directory again once `session.directory_recheck_secs` have passed since the last
//! confirmation (at every use with 0). Real slapd and Redis; each test changes its own slapd.

use crate::helpers::*;
use crate::screen;
use crate::support::slapd::Slapd;
use reqwest::{Client, Response, StatusCode};

const CB: &str = "https://app.example.com/callback";
const KEN: &str = "uid=ken,ou=people,dc=example,dc=com";
const ALAN: &str = "uid=alan,ou=people,dc=example,dc=com";
const ADA: &str = "uid=ada,ou=people,dc=example,dc=com";

/// An app on `slapd` whose directory confirmations last `recheck` seconds.
async fn app_on(slapd: &Slapd, recheck: &str) -> TestApp {
    spawn_app_with(
        Backends::Real,
        &[
            ("SSO_BRIDGE__DIRECTORY__URL", slapd.url()),
            (
                "SSO_BRIDGE__SESSION__DIRECTORY_RECHECK_SECS",
                recheck.into(),
            ),
        ],
    )
    .await
}

/// A browser signed in to single sign-on as `user`, who approved `reg` already.
async fn signed_in(app: &TestApp, reg: &Registered, user: &str) -> Client {
    let browser = app.browser();
    app.sign_in_and_approve(&browser, reg, user, &password(Backends::Real, user), &[])
        .await;
    browser
}

/// The authorize request `sign_in_and_approve` made, plus `extra`.
async fn authorize(
    app: &TestApp,
    browser: &Client,
    reg: &Registered,
    extra: &[(&str, &str)],
) -> Response {
    let mut params = vec![
        ("client_id", reg.client_id.as_str()),
        ("redirect_uri", CB),
        ("response_type", "code"),
        ("scope", "openid profile email role"),
        ("state", "xyz"),
    ];
    params.extend_from_slice(extra);
    app.authorize(browser, &params).await
}

fn assert_code(r: &Response) {
    assert_eq!(r.status(), StatusCode::FOUND);
    assert!(
        location(r).starts_with(&format!("{CB}?code=")),
        "{}",
        location(r)
    );
}

async fn assert_sign_in_page(r: Response) {
    assert_eq!(r.status(), StatusCode::OK);
    let page = r.text().await.unwrap();
    assert!(page.contains("name=\"password\""), "{page}");
}

#[tokio::test]
async fn a_deleted_users_session_gets_the_sign_in_page_instead_of_a_code() {
    let slapd = Slapd::start();
    let app = app_on(&slapd, "0").await;
    let reg = app.register(CB, false).await;
    let browser = signed_in(&app, &reg, "ken").await;
    assert_code(&authorize(&app, &browser, &reg, &[]).await);

    slapd.delete(KEN);

    assert_sign_in_page(authorize(&app, &browser, &reg, &[]).await).await;
}

#[tokio::test]
async fn within_the_recheck_bound_the_session_is_trusted_and_after_it_the_leaver_is_signed_out() {
    let slapd = Slapd::start();
    let app = app_on(&slapd, "60").await;
    let reg = app.register(CB, false).await;
    let browser = signed_in(&app, &reg, "ken").await;

    slapd.delete(KEN);
    app.clock.advance(50);
    assert_code(&authorize(&app, &browser, &reg, &[]).await);
    app.clock.advance(11);

    assert_sign_in_page(authorize(&app, &browser, &reg, &[]).await).await;
    assert_sign_in_page(authorize(&app, &browser, &reg, &[]).await).await;
}

#[tokio::test]
async fn a_changed_attribute_shows_in_the_tokens_of_the_next_single_sign_on() {
    let slapd = Slapd::start();
    let app = app_on(&slapd, "0").await;
    let reg = app.register(CB, false).await;
    let browser = signed_in(&app, &reg, "alan").await;

    slapd.replace(ALAN, "title", "Head of Codebreaking");
    let pkce = Pkce::new();
    let r = authorize(
        &app,
        &browser,
        &reg,
        &[
            ("code_challenge", &pkce.challenge),
            ("code_challenge_method", "S256"),
        ],
    )
    .await;
    assert_code(&r);

    let code = query(&location(&r))["code"].clone();
    let tokens = app.exchange(&reg, &code, &pkce.verifier).await;
    let claims: serde_json::Value = app
        .userinfo(tokens["access_token"].as_str().unwrap())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(claims["job_title"], "Head of Codebreaking");
}

#[tokio::test]
async fn a_directory_outage_during_the_recheck_gives_the_unavailable_page_and_signs_no_one_out() {
    let mut slapd = Slapd::start();
    let app = app_on(&slapd, "0").await;
    let reg = app.register(CB, false).await;
    let browser = signed_in(&app, &reg, "ken").await;

    slapd.stop();
    let r = authorize(&app, &browser, &reg, &[]).await;
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(r.text().await.unwrap().contains("Directory unavailable"));
    slapd.restart();

    assert_code(&authorize(&app, &browser, &reg, &[]).await);
}

#[tokio::test]
async fn a_user_deleted_while_on_the_consent_page_gets_the_sign_in_page_instead_of_a_code() {
    let slapd = Slapd::start();
    let app = app_on(&slapd, "0").await;
    let reg = app.register(CB, false).await;
    let browser = app.browser();
    let page = authorize(&app, &browser, &reg, &[])
        .await
        .text()
        .await
        .unwrap();
    let after = app
        .submit(
            &browser,
            &page,
            &[("username", "ken"), ("password", "ken-pw")],
        )
        .await;
    let consent = browser
        .get(location(&after))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();

    slapd.delete(KEN);
    let r = app
        .submit(&browser, &consent, &[("decision", "approve")])
        .await;

    assert_sign_in_page(r).await;
}

#[tokio::test]
async fn a_superadmin_demoted_in_the_directory_is_signed_out_of_the_admin_screen_after_the_bound() {
    let slapd = Slapd::start();
    let app = app_on(&slapd, "60").await;
    let (browser, _) = screen::sign_in(&app, "ada", "ada-pw").await;
    let (status, _) = screen::get(&browser, &app, "/admin/apps").await;
    assert_eq!(status, StatusCode::OK);

    slapd.replace(ADA, "employeeType", "admin");
    let (status, _) = screen::get(&browser, &app, "/admin/apps").await;
    assert_eq!(status, StatusCode::OK, "still within the bound");
    app.clock.advance(61);

    let r = browser.get(app.url("/admin/apps")).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&r), "/admin/login");
    let (status, _) = screen::get(&browser, &app, "/admin/apps").await;
    assert_ne!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_superadmin_deleted_from_the_directory_is_signed_out_of_the_admin_screen() {
    let slapd = Slapd::start();
    let app = app_on(&slapd, "0").await;
    let (browser, _) = screen::sign_in(&app, "ada", "ada-pw").await;
    let (status, _) = screen::get(&browser, &app, "/admin/apps").await;
    assert_eq!(status, StatusCode::OK);

    slapd.delete(ADA);

    let r = browser.get(app.url("/admin/apps")).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&r), "/admin/login");
}

/// The status of listing the apps with the admin API `token`.
pub(crate) async fn list_apps(app: &TestApp, token: &str) -> StatusCode {
    let r = app
        .api
        .get(app.url("/admin/api/apps"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    r.status()
}

async fn token_of_ada(app: &TestApp) -> String {
    let body: serde_json::Value = app.admin_token("ada", "ada-pw").await.json().await.unwrap();
    body["token"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_demoted_superadmins_admin_token_gets_403_and_is_then_ended() {
    let slapd = Slapd::start();
    let app = app_on(&slapd, "0").await;
    let token = token_of_ada(&app).await;
    assert_eq!(list_apps(&app, &token).await, StatusCode::OK);

    slapd.replace(ADA, "employeeType", "admin");

    assert_eq!(list_apps(&app, &token).await, StatusCode::FORBIDDEN);
    slapd.replace(ADA, "employeeType", "superadmin");
    assert_eq!(list_apps(&app, &token).await, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_deleted_superadmins_admin_token_works_until_the_bound_and_then_gets_401() {
    let slapd = Slapd::start();
    let app = app_on(&slapd, "60").await;
    let token = token_of_ada(&app).await;

    slapd.delete(ADA);
    assert_eq!(list_apps(&app, &token).await, StatusCode::OK);
    app.clock.advance(61);

    assert_eq!(list_apps(&app, &token).await, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_leavers_refresh_token_refused_after_a_revocation_reports_no_second_one() {
    use sso_bridge::audit::Action;
    use sso_bridge::store::{AuditFrom, AuditIndex};
    let slapd = Slapd::start();
    let app = app_on(&slapd, "0").await;
    let reg = app.register(CB, false).await;
    let tokens = app.tokens_for(&reg, "ken").await;
    let refresh = tokens["refresh_token"].as_str().unwrap();
    assert_eq!(app.revoke(&reg, refresh).await.status(), StatusCode::OK);
    slapd.delete(KEN);

    // The node that issued the token may answer from its copy of the record; the token is
    // spent all the same, and only the app's revocation is audited.
    let refused = app.refresh(&reg, refresh).await;
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    let body: serde_json::Value = refused.json().await.unwrap();
    assert_eq!(body["error"], "invalid_grant");
    let page = app
        .state
        .store
        .audit_events(&[AuditIndex::actor("ken")], AuditFrom::Newest, 100)
        .await
        .unwrap();
    let revoked: Vec<_> = page
        .events
        .iter()
        .map(|e| &e.record)
        .filter(|r| r.action == Action::TokenRevoked)
        .collect();
    assert_eq!(revoked.len(), 1, "{revoked:#?}");
}

#[tokio::test]
async fn a_leaver_found_at_a_refresh_loses_their_sessions_too() {
    // Sessions confirmed for an hour: only the refresh can find the leaver in that time.
    let slapd = Slapd::start();
    let app = app_on(&slapd, "3600").await;
    let reg = app.register(CB, false).await;
    let browser = signed_in(&app, &reg, "ken").await;
    let tokens = app.tokens_for(&reg, "ken").await;
    let refresh = tokens["refresh_token"].as_str().unwrap();
    assert_code(&authorize(&app, &browser, &reg, &[]).await);

    slapd.delete(KEN);
    let refused = app.refresh(&reg, refresh).await;

    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    // The session is ended with the grant, well within its hour of trust.
    assert_sign_in_page(authorize(&app, &browser, &reg, &[]).await).await;
}
