//! Per-app id_token signing algorithms (`id_token_signed_response_alg`): generated keys for
//! every algorithm, key files for one or several, switching an app, and apps stored before.

use crate::admin::audit::{cli, ok_json};
use crate::admin::screen::{get, input, post, sign_in};
use crate::helpers::*;
use crate::protocol::oidc::verify_id_token;
use reqwest::StatusCode;
use serde_json::{json, Value};
use sso_bridge::config::Settings;
use sso_bridge::domain::Digest;

const CB: &str = "https://app.example.com/callback";
const BYE: &str = "https://app.example.com/signed-out";
const EXTRA_KEY_FILES: &str = "SSO_BRIDGE__OIDC__EXTRA_SIGNING_KEY_FILES";

/// The `alg` of a JWS's header.
fn alg_of(token: &str) -> jsonwebtoken::Algorithm {
    jsonwebtoken::decode_header(token).unwrap().alg
}

/// The id_token of a whole sign-in of `alan` through `reg`, checked against the JWKS.
async fn id_token(app: &TestApp, reg: &Registered) -> (String, Value) {
    let tokens = app.tokens_for(reg, "alan").await;
    let token = tokens["id_token"].as_str().unwrap().to_owned();
    verify_id_token(app, &token, &reg.client_id).await;
    (token, tokens)
}

async fn discovered_algs(app: &TestApp) -> Value {
    let doc = app.get_json("/.well-known/openid-configuration").await;
    doc["id_token_signing_alg_values_supported"].clone()
}

/// `PATCH /admin/api/apps/{client_id}` with `body`.
async fn update(app: &TestApp, reg: &Registered, body: Value) -> reqwest::Response {
    app.api
        .patch(app.url(&format!("/admin/api/apps/{}", reg.client_id)))
        .bearer_auth(app.superadmin_token().await)
        .json(&body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn an_app_registered_for_es256_gets_es256_id_tokens_while_the_others_keep_the_default() {
    let app = spawn_app_with(Backends::Real, &[(SIGNING_KEY_FILE, String::new())]).await;
    assert_eq!(discovered_algs(&app).await, json!(["RS256", "ES256"]));
    let default = app.register(CB, false).await;
    let es256 = app
        .register_with(CB, json!({"id_token_signed_response_alg": "ES256"}))
        .await;

    let (token, _) = id_token(&app, &es256).await;
    assert_eq!(alg_of(&token), jsonwebtoken::Algorithm::ES256);
    let (token, _) = id_token(&app, &default).await;
    assert_eq!(alg_of(&token), jsonwebtoken::Algorithm::RS256);

    let shown: Value = app
        .api
        .get(app.url(&format!("/admin/api/apps/{}", es256.client_id)))
        .bearer_auth(app.superadmin_token().await)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(shown["id_token_signed_response_alg"], "ES256");
}

#[tokio::test]
async fn switching_an_apps_algorithm_takes_effect_at_its_next_token() {
    let app = spawn_app_with(Backends::Real, &[(SIGNING_KEY_FILE, String::new())]).await;
    let reg = app.register(CB, false).await;
    let (token, tokens) = id_token(&app, &reg).await;
    assert_eq!(alg_of(&token), jsonwebtoken::Algorithm::RS256);

    let switched = update(&app, &reg, json!({"id_token_signed_response_alg": "ES256"})).await;
    assert_eq!(switched.status(), StatusCode::OK);
    let switched: Value = switched.json().await.unwrap();
    assert_eq!(switched["id_token_signed_response_alg"], "ES256");
    let refreshed: Value = app
        .refresh(&reg, tokens["refresh_token"].as_str().unwrap())
        .await
        .json()
        .await
        .unwrap();
    let token = refreshed["id_token"].as_str().unwrap();
    assert_eq!(alg_of(token), jsonwebtoken::Algorithm::ES256);
    verify_id_token(&app, token, &reg.client_id).await;

    // `null` goes back to the service's default; a change of something else keeps it.
    let back: Value = update(&app, &reg, json!({"id_token_signed_response_alg": null}))
        .await
        .json()
        .await
        .unwrap();
    assert!(back.get("id_token_signed_response_alg").is_none(), "{back}");
    let renamed: Value = update(&app, &reg, json!({"name": "Renamed"}))
        .await
        .json()
        .await
        .unwrap();
    assert!(renamed.get("id_token_signed_response_alg").is_none());
    let again: Value = app
        .refresh(&reg, refreshed["refresh_token"].as_str().unwrap())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        alg_of(again["id_token"].as_str().unwrap()),
        jsonwebtoken::Algorithm::RS256
    );
}

#[tokio::test]
async fn with_one_key_file_an_app_for_another_algorithm_is_refused_naming_the_setting() {
    // The test default: an RS256 key file and nothing else.
    let app = spawn_app(Backends::Embedded).await;
    assert_eq!(discovered_algs(&app).await, json!(["RS256"]));
    let token = app.superadmin_token().await;
    let refused = app
        .api
        .post(app.url("/admin/api/apps"))
        .bearer_auth(&token)
        .json(&json!({"name": "X", "redirect_uris": [CB], "id_token_signed_response_alg": "ES256"}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    let body: Value = refused.json().await.unwrap();
    let description = body["error_description"].as_str().unwrap();
    assert!(
        description.contains("ES256") && description.contains("oidc.extra_signing_key_files"),
        "{body}"
    );

    let reg = app.register(CB, false).await;
    let r = update(&app, &reg, json!({"id_token_signed_response_alg": "ES256"})).await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let r = update(&app, &reg, json!({"id_token_signed_response_alg": "HS256"})).await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let r = update(&app, &reg, json!({"id_token_signed_response_alg": "RS256"})).await;
    assert_eq!(r.status(), StatusCode::OK);
    let (token, _) = id_token(&app, &reg).await;
    assert_eq!(alg_of(&token), jsonwebtoken::Algorithm::RS256);
}

#[tokio::test]
async fn an_extra_key_file_signs_for_the_apps_of_its_algorithm_and_its_tokens_end_sessions() {
    let app = spawn_app_with(
        Backends::Embedded,
        &[(EXTRA_KEY_FILES, fixture("oidc-es256.pem"))],
    )
    .await;
    assert_eq!(discovered_algs(&app).await, json!(["RS256", "ES256"]));
    let reg = app
        .register_with(
            CB,
            json!({"id_token_signed_response_alg": "ES256", "post_logout_redirect_uris": [BYE]}),
        )
        .await;
    let browser = app.browser();
    let pkce = Pkce::new();
    let pkce_params = [
        ("code_challenge", pkce.challenge.as_str()),
        ("code_challenge_method", "S256"),
    ];
    let pw = app.password("alan");
    let callback = app
        .sign_in_and_approve(&browser, &reg, "alan", &pw, &pkce_params)
        .await;
    let tokens = app
        .exchange(&reg, &query(&callback)["code"], &pkce.verifier)
        .await;
    let token = tokens["id_token"].as_str().unwrap();
    verify_id_token(&app, token, &reg.client_id).await;
    let pem = std::fs::read_to_string(fixture("oidc-es256.pem")).unwrap();
    let file_kid = sso_bridge::oidc::signing_key::public_jwk(&pem).unwrap().kid;
    let header = jsonwebtoken::decode_header(token).unwrap();
    assert_eq!(
        (header.alg, header.kid),
        (jsonwebtoken::Algorithm::ES256, Some(file_kid))
    );

    // Logout takes an ES256 id_token as its hint like an RS256 one.
    let r = browser
        .get(app.url("/oauth/logout"))
        .query(&[("id_token_hint", token), ("post_logout_redirect_uri", BYE)])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&r), BYE);
}

#[tokio::test]
async fn a_misplaced_extra_key_file_stops_start_up_naming_the_setting() {
    // A second RS256 key beside the RS256 signing key file.
    let settings = settings(
        Backends::Embedded,
        0,
        None,
        &[(EXTRA_KEY_FILES, fixture("oidc-rs256.pem"))],
    );
    let err = sso_bridge::startup::Application::build(settings)
        .await
        .err()
        .expect("start-up refused")
        .to_string();
    assert!(
        err.contains("oidc.extra_signing_key_files") && err.contains("RS256"),
        "{err}"
    );

    // Without a signing key file every algorithm's key is generated: an extra one is a mistake.
    let err = Settings::load_from(
        None,
        [(EXTRA_KEY_FILES.to_owned(), fixture("oidc-es256.pem"))],
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("oidc.extra_signing_key_files"), "{err}");
}

#[tokio::test]
async fn an_app_stored_before_apps_chose_an_algorithm_signs_with_the_default() {
    use redis::{self, AsyncCommands};
    let app = spawn_app(Backends::Real).await;
    let client_id = "stored-before-1";
    // The exact JSON an earlier version stored.
    let stored = json!({
        "client_id": client_id,
        "name": "Stored before",
        "secret_digest": Digest::of("old-secret"),
        "redirect_uris": [CB],
        "require_pkce": false,
        "enabled": true,
        "created_by": "ada",
        "created_at": 1_700_000_000u64,
        "post_logout_redirect_uris": [],
        "may_introspect": false,
    });
    let settings = &app.state.settings.store;
    let url = secrecy::ExposeSecret::expose_secret(&settings.redis_url);
    let mut conn = redis::Client::open(url)
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let key = format!("{}clients", settings.key_prefix);
    let _: i64 = conn.hset(key, client_id, stored.to_string()).await.unwrap();
    let reg = Registered {
        client_id: client_id.into(),
        client_secret: Some("old-secret".into()),
        redirect_uri: CB.into(),
    };

    let (token, _) = id_token(&app, &reg).await;

    assert_eq!(alg_of(&token), jsonwebtoken::Algorithm::RS256);
}

#[tokio::test]
async fn the_cli_registers_an_app_for_es256_and_sets_it_back_to_the_default() {
    let app = spawn_app_with(Backends::Embedded, &[(SIGNING_KEY_FILE, String::new())]).await;
    let base = app.base.clone();
    let (created, refused) = tokio::task::spawn_blocking(move || {
        let create = [
            "apps",
            "create",
            "--name",
            "CLI ES256",
            "--redirect-uri",
            CB,
            "--id-token-alg",
            "ES256",
        ];
        let created = ok_json(&cli(&base, &create));
        let refused = cli(
            &base,
            &[
                "apps",
                "create",
                "--name",
                "X",
                "--redirect-uri",
                CB,
                "--id-token-alg",
                "HS256",
            ],
        );
        (created, refused)
    })
    .await
    .unwrap();
    assert_eq!(created["id_token_signed_response_alg"], "ES256");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("ES256"));
    let reg = Registered {
        client_id: created["client_id"].as_str().unwrap().to_owned(),
        client_secret: created["client_secret"].as_str().map(str::to_owned),
        redirect_uri: CB.into(),
    };
    let (token, _) = id_token(&app, &reg).await;
    assert_eq!(alg_of(&token), jsonwebtoken::Algorithm::ES256);

    let base = app.base.clone();
    let id = reg.client_id.clone();
    let updated = tokio::task::spawn_blocking(move || {
        ok_json(&cli(
            &base,
            &["apps", "update", &id, "--id-token-alg", "default"],
        ))
    })
    .await
    .unwrap();
    assert!(
        updated.get("id_token_signed_response_alg").is_none(),
        "{updated}"
    );
    let (token, _) = id_token(&app, &reg).await;
    assert_eq!(alg_of(&token), jsonwebtoken::Algorithm::RS256);
}

#[tokio::test]
async fn the_admin_screen_registers_an_app_for_es256_and_sets_it_back_to_the_default() {
    let b = Backends::Embedded;
    let app = spawn_app_with(b, &[(SIGNING_KEY_FILE, String::new())]).await;
    let (user, pw) = superadmin(b);
    let (browser, _) = sign_in(&app, user, pw).await;
    let (_, new) = get(&browser, &app, "/admin/apps/new").await;
    assert!(
        new.contains("<option value=\"\" selected>Service default (RS256)</option>")
            && new.contains("<option value=\"ES256\">"),
        "{new}"
    );
    let fields = [
        ("name", "Screen ES256"),
        ("redirect_uris", CB),
        ("app_type", "confidential"),
        ("id_token_alg", "ES256"),
    ];
    let created = post(&browser, &app, &new, "/admin/apps", &fields).await;
    assert_eq!(created.status(), StatusCode::CREATED);
    let created = created.text().await.unwrap();
    let reg = Registered {
        client_id: input(&created, "client_id"),
        client_secret: Some(input(&created, "client_secret")),
        redirect_uri: CB.into(),
    };
    let (token, _) = id_token(&app, &reg).await;
    assert_eq!(alg_of(&token), jsonwebtoken::Algorithm::ES256);

    let page = format!("/admin/apps/{}", reg.client_id);
    let (_, shown) = get(&browser, &app, &page).await;
    assert!(shown.contains("signed ES256"), "{shown}");
    assert!(
        shown.contains("<option value=\"ES256\" selected>"),
        "{shown}"
    );
    let fields = [
        ("name", "Screen ES256"),
        ("redirect_uris", CB),
        ("id_token_alg", ""),
    ];
    let saved = post(&browser, &app, &shown, &page, &fields).await;
    assert_eq!(saved.status(), StatusCode::SEE_OTHER);
    let (_, shown) = get(&browser, &app, &page).await;
    assert!(shown.contains("signed with the service default"), "{shown}");
    let (token, _) = id_token(&app, &reg).await;
    assert_eq!(alg_of(&token), jsonwebtoken::Algorithm::RS256);
}
