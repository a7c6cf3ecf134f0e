//! Id token signing keys: key files, generated keys shared by nodes through the store,
//! encryption at rest, ES256, and rotation.

use crate::helpers::*;
use crate::protocol::oidc::{tokens_with_nonce, verify_id_token, verify_with_keys_of};
use reqwest::StatusCode;
use serde_json::Value;
use sso_bridge::config::Settings;

const CB: &str = "https://app.example.com/callback";

#[tokio::test]
async fn an_es256_key_file_signs_and_earlier_keys_stay_published() {
    let b = Backends::Embedded;
    let app = spawn_app_with(
        b,
        &[
            (SIGNING_KEY_FILE, fixture("oidc-es256.pem")),
            (
                "SSO_BRIDGE__OIDC__PREVIOUS_KEY_FILES",
                fixture("oidc-rs256-previous.pub.pem"),
            ),
        ],
    )
    .await;
    let reg = app.register(CB, false).await;
    let tokens = tokens_with_nonce(&app, b, &reg, "n").await;
    let token = tokens["id_token"].as_str().unwrap();
    assert_eq!(
        jsonwebtoken::decode_header(token).unwrap().alg,
        jsonwebtoken::Algorithm::ES256
    );
    verify_id_token(&app, token, &reg.client_id).await;

    let jwks = app.jwks().await;
    let keys = jwks["keys"].as_array().unwrap();
    assert_eq!(keys.len(), 2);
    assert_eq!(
        (keys[0]["kty"].as_str(), keys[0]["alg"].as_str()),
        (Some("EC"), Some("ES256"))
    );
    assert_eq!(
        (keys[1]["kty"].as_str(), keys[1]["use"].as_str()),
        (Some("RSA"), Some("sig"))
    );
    assert!(
        keys[1].get("d").is_none() && keys[0].get("d").is_none(),
        "no private parts"
    );
    let doc = app.get_json("/.well-known/openid-configuration").await;
    assert_eq!(
        doc["id_token_signing_alg_values_supported"],
        serde_json::json!(["ES256"])
    );
}

#[tokio::test]
async fn without_key_files_two_nodes_sharing_a_store_generate_and_publish_one_key_per_algorithm() {
    let extra = [
        (SIGNING_KEY_FILE, String::new()),
        ("SSO_BRIDGE__STORE__KEY_PREFIX", fresh_prefix()),
    ];
    let (one, two) = tokio::join!(
        spawn_app_with(Backends::Real, &extra),
        spawn_app_with(Backends::Real, &extra)
    );
    let (a, b) = tokio::join!(one.jwks(), two.jwks());
    assert_eq!(a, b, "both nodes publish the same generated keys");
    let algs: Vec<&str> = a["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["alg"].as_str().unwrap())
        .collect();
    assert_eq!(algs, ["RS256", "ES256"], "the default's key first");

    // A token signed on one node verifies with the keys the other publishes, for either
    // algorithm.
    for fields in [
        serde_json::json!({}),
        serde_json::json!({"id_token_signed_response_alg": "ES256"}),
    ] {
        let reg = one.register_with(CB, fields).await;
        let tokens = tokens_with_nonce(&one, Backends::Real, &reg, "n").await;
        let token = tokens["id_token"].as_str().unwrap();
        verify_with_keys_of(&two, &one.base, token, &reg.client_id).await;
    }
}

#[tokio::test]
async fn an_unreadable_key_file_stops_start_up_naming_the_setting() {
    let settings = settings(
        Backends::Embedded,
        0,
        None,
        &[(SIGNING_KEY_FILE, fixture("directory.ldif"))],
    );
    let err = sso_bridge::startup::Application::build(settings)
        .await
        .err()
        .expect("start-up refused")
        .to_string();
    assert!(err.contains("oidc.signing_key_file"), "{err}");
}

/// A key prefix of its own, for nodes that share one store.
fn fresh_prefix() -> String {
    format!(
        "t{}:",
        sso_bridge::domain::secret::random_id(6).to_lowercase()
    )
}

#[tokio::test]
async fn a_generated_key_opens_only_with_the_key_encryption_secret_that_sealed_it() {
    let prefix = fresh_prefix();
    let node = |secret: &str| {
        let extra = vec![
            (SIGNING_KEY_FILE, String::new()),
            ("SSO_BRIDGE__STORE__KEY_PREFIX", prefix.clone()),
            (KEY_ENCRYPTION_SECRET, secret.to_owned()),
        ];
        async move { spawn_app_with(Backends::Real, &extra).await }
    };
    let jwks = |app: &TestApp| app.api.get(app.url("/oauth/jwks")).send();

    let first = node("s3cret").await;
    let published: Value = jwks(&first).await.unwrap().json().await.unwrap();
    let wrong = node("other").await;
    assert_eq!(
        jwks(&wrong).await.unwrap().status(),
        StatusCode::INTERNAL_SERVER_ERROR
    );
    let same = node("s3cret").await;
    let again: Value = jwks(&same).await.unwrap().json().await.unwrap();
    assert_eq!(again, published);
}

#[tokio::test]
async fn on_redis_a_generated_signing_key_is_stored_only_encrypted() {
    let app = spawn_app_with(Backends::Real, &[(SIGNING_KEY_FILE, String::new())]).await;

    let jwks = app.api.get(app.url("/oauth/jwks")).send().await.unwrap();

    assert_eq!(jwks.status(), StatusCode::OK);
    let stored = app.state.store.signing_keys().await.unwrap().unwrap();
    assert!(stored.contains("\"sealed\""), "{stored}");
    for clear in ["PRIVATE KEY", "-----BEGIN", "\"pem\""] {
        assert!(!stored.contains(clear), "{clear} in {stored}");
    }
}

#[tokio::test]
async fn a_signing_key_kept_in_clear_in_redis_is_sealed_when_a_node_reads_it() {
    let prefix = fresh_prefix();
    let pem = std::fs::read_to_string(fixture("oidc-rs256.pem")).unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    // What an earlier version stored without a key encryption secret.
    let clear = serde_json::json!({"keys": [
        {"alg": "RS256", "pem": pem, "created_at": now, "active_from": now}
    ]})
    .to_string();
    let extra = [
        (SIGNING_KEY_FILE, String::new()),
        ("SSO_BRIDGE__STORE__KEY_PREFIX", prefix),
    ];
    let app = spawn_app_with(Backends::Real, &extra).await;
    app.state
        .store
        .signing_keys_or_insert(&clear)
        .await
        .unwrap();

    let jwks = app.jwks().await;

    let stored = app.state.store.signing_keys().await.unwrap().unwrap();
    assert!(
        stored.contains("\"sealed\"") && !stored.contains("PRIVATE KEY"),
        "{stored}"
    );
    // The same key, still signing and published: only how it is kept changed. An ES256 key
    // joined it, as every algorithm has one.
    let algs: Vec<&str> = jwks["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["alg"].as_str().unwrap())
        .collect();
    assert_eq!(algs, ["RS256", "ES256"], "{jwks}");
    let on_file = spawn_app(Backends::Embedded).await;
    let from_file = on_file.jwks().await;
    assert_eq!(jwks["keys"][0]["kid"], from_file["keys"][0]["kid"]);
}

#[tokio::test]
async fn an_es256_key_is_generated_when_asked_for() {
    let b = Backends::Embedded;
    let app = spawn_app_with(
        b,
        &[
            (SIGNING_KEY_FILE, String::new()),
            ("SSO_BRIDGE__OIDC__SIGNING_ALG", "ES256".into()),
        ],
    )
    .await;
    let reg = app.register(CB, false).await;
    let tokens = tokens_with_nonce(&app, b, &reg, "n").await;
    let token = tokens["id_token"].as_str().unwrap();
    assert_eq!(
        jsonwebtoken::decode_header(token).unwrap().alg,
        jsonwebtoken::Algorithm::ES256
    );
    verify_id_token(&app, token, &reg.client_id).await;
}

#[tokio::test]
async fn an_unknown_signing_algorithm_is_refused_at_start_up() {
    let err = Settings::load_from(
        None,
        [(
            "SSO_BRIDGE__OIDC__SIGNING_ALG".to_owned(),
            "HS256".to_owned(),
        )],
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("oidc.signing_alg"), "{err}");
}

async fn kid_of(token: &str) -> String {
    jsonwebtoken::decode_header(token).unwrap().kid.unwrap()
}

/// The kids of the published keys of `alg`, as published.
async fn published_kids(app: &TestApp, alg: &str) -> Vec<String> {
    let jwks = app.jwks().await;
    jwks["keys"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|k| k["alg"] == alg)
        .map(|k| k["kid"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_generated_key_rotates_and_the_old_one_stays_published_until_its_tokens_expire() {
    let b = Backends::Embedded;
    let app = spawn_app_with(
        b,
        &[
            (SIGNING_KEY_FILE, String::new()),
            ("SSO_BRIDGE__OIDC__SIGNING_ALG", "ES256".into()),
            ("SSO_BRIDGE__OIDC__ROTATE_AFTER_DAYS", "1".into()),
        ],
    )
    .await;
    let reg = app.register(CB, false).await;
    let old_token = tokens_with_nonce(&app, b, &reg, "n").await["id_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let old_kid = kid_of(&old_token).await;
    assert_eq!(published_kids(&app, "ES256").await, vec![old_kid.clone()]);

    // A day later the key is due: a new key is published at once but signs only a minute later,
    // once every node has read it.
    app.clock.advance(86_400);
    let kids = published_kids(&app, "ES256").await;
    assert_eq!(kids.len(), 2);
    let new_kid = kids.iter().find(|k| **k != old_kid).unwrap().clone();
    let token = tokens_with_nonce(&app, b, &reg, "n").await["id_token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(kid_of(&token).await, old_kid);

    app.clock.advance(61);
    let token = tokens_with_nonce(&app, b, &reg, "n").await["id_token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(kid_of(&token).await, new_kid);
    verify_id_token(&app, &old_token, &reg.client_id).await;
    assert_eq!(
        published_kids(&app, "ES256").await,
        vec![new_kid.clone(), old_kid.clone()]
    );

    // Once every token the old key signed has expired, it is no longer published.
    app.clock.advance(3600 + 60);
    assert_eq!(published_kids(&app, "ES256").await, vec![new_kid]);
}
