//! `/oauth/userinfo`: claims by scope, bearer handling, RFC 6750 errors.

use crate::helpers::*;
use reqwest::StatusCode;

const CB: &str = "https://app.example.com/callback";

async fn tokens_for(
    app: &TestApp,
    backends: Backends,
    user: &str,
    scope: &str,
) -> serde_json::Value {
    let reg = app.register(CB, false).await;
    let pkce = Pkce::new();
    let loc = app
        .sign_in_and_approve(
            &app.browser(),
            &reg,
            user,
            &password(backends, user),
            &[
                ("scope", scope),
                ("code_challenge", &pkce.challenge),
                ("code_challenge_method", "S256"),
            ],
        )
        .await;
    app.exchange(&reg, &query(&loc)["code"], &pkce.verifier)
        .await
}

async fn claims(
    app: &TestApp,
    tokens: &serde_json::Value,
) -> serde_json::Map<String, serde_json::Value> {
    let r = app.userinfo(tokens["access_token"].as_str().unwrap()).await;
    assert_eq!(r.status(), StatusCode::OK);
    r.json().await.unwrap()
}

fn keys(m: &serde_json::Map<String, serde_json::Value>) -> Vec<&str> {
    let mut k: Vec<&str> = m.keys().map(String::as_str).collect();
    k.sort();
    k
}

#[tokio::test]
async fn claims_are_filtered_by_the_granted_scopes() {
    let app = spawn_app(Backends::Embedded).await;
    let all = claims(
        &app,
        &tokens_for(&app, Backends::Embedded, "ada", "openid profile email role").await,
    )
    .await;
    assert_eq!(
        keys(&all),
        [
            "department",
            "email",
            "employee_code",
            "first_name",
            "job_title",
            "last_name",
            "name",
            "phone",
            "role",
            "sub"
        ]
    );
    assert_eq!(all["role"], "superadmin");
    assert_eq!(all["name"], "Ada Lovelace");
    let only_sub = claims(
        &app,
        &tokens_for(&app, Backends::Embedded, "ada", "openid").await,
    )
    .await;
    assert_eq!(keys(&only_sub), ["sub"]);
    let email = claims(
        &app,
        &tokens_for(&app, Backends::Embedded, "ada", "email").await,
    )
    .await;
    assert_eq!(keys(&email), ["email", "sub"]);
}

#[tokio::test]
async fn unset_attributes_and_unknown_roles_give_no_claim() {
    let app = spawn_app(Backends::Embedded).await;
    let margaret = claims(
        &app,
        &tokens_for(
            &app,
            Backends::Embedded,
            "margaret",
            "openid profile email role",
        )
        .await,
    )
    .await;
    assert_eq!(keys(&margaret), ["last_name", "name", "role", "sub"]);
    let dennis = claims(
        &app,
        &tokens_for(&app, Backends::Embedded, "dennis", "openid role").await,
    )
    .await;
    assert_eq!(keys(&dennis), ["sub"]);
}

#[tokio::test]
async fn claims_come_from_the_attributes_the_settings_name_on_ldap() {
    let app = spawn_app_configured(Backends::Real, |s| {
        s.claims.job_title = "departmentNumber".into();
    })
    .await;
    let all = claims(
        &app,
        &tokens_for(&app, Backends::Real, "linus", "openid profile email role").await,
    )
    .await;
    assert_eq!(all["sub"], "linus");
    assert_eq!(all["job_title"], all["department"]);
}

#[tokio::test]
async fn the_bearer_scheme_is_case_insensitive_and_post_works_too() {
    let app = spawn_app(Backends::Embedded).await;
    let tokens = tokens_for(&app, Backends::Embedded, "alan", "openid").await;
    let at = tokens["access_token"].as_str().unwrap();
    for scheme in ["bearer", "BEARER", "Bearer"] {
        let r = app
            .api
            .get(app.url("/oauth/userinfo"))
            .header("authorization", format!("{scheme} {at}"))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{scheme}");
    }
    let r = app
        .api
        .post(app.url("/oauth/userinfo"))
        .bearer_auth(at)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_missing_or_unknown_token_is_401_with_a_bearer_challenge() {
    let app = spawn_app(Backends::Embedded).await;
    for r in [
        app.api
            .get(app.url("/oauth/userinfo"))
            .send()
            .await
            .unwrap(),
        app.userinfo("not-a-real-token").await,
    ] {
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
        let challenge = r.headers()["www-authenticate"].to_str().unwrap().to_owned();
        assert!(
            challenge.starts_with("Bearer ") && challenge.contains("error=\"invalid_token\""),
            "{challenge}"
        );
        let body: serde_json::Value = r.json().await.unwrap();
        assert_eq!(body["error"], "invalid_token");
    }
}

#[tokio::test]
async fn a_token_in_the_query_string_is_refused() {
    let app = spawn_app(Backends::Embedded).await;
    let tokens = tokens_for(&app, Backends::Embedded, "alan", "openid").await;
    let r = app
        .api
        .get(app.url("/oauth/userinfo"))
        .query(&[("access_token", tokens["access_token"].as_str().unwrap())])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["error"], "invalid_request");
}

#[tokio::test]
async fn an_expired_access_token_is_refused() {
    let app = spawn_app(Backends::Embedded).await;
    let tokens = tokens_for(&app, Backends::Embedded, "alan", "openid").await;
    app.clock.advance(3601);
    assert_eq!(
        app.userinfo(tokens["access_token"].as_str().unwrap())
            .await
            .status(),
        StatusCode::UNAUTHORIZED
    );
}
