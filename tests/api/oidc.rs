//! OpenID Connect: discovery, JWKS, the id_token on code exchange and refresh, signing keys.

use crate::helpers::*;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{DecodingKey, Validation};
use reqwest::StatusCode;
use serde_json::Value;
use sso_bridge::config::Settings;

const CB: &str = "https://app.example.com/callback";

/// Verifies `token` against the app's published JWKS, as a client would; answers its claims.
pub async fn verify_id_token(app: &TestApp, token: &str, audience: &str) -> Value {
    verify_with_keys_of(app, &app.base, token, audience).await
}

/// Verifies `token` from `issuer` with the keys `app` publishes.
async fn verify_with_keys_of(app: &TestApp, issuer: &str, token: &str, audience: &str) -> Value {
    let jwks: JwkSet = app
        .api
        .get(app.url("/oauth/jwks"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let header = jsonwebtoken::decode_header(token).unwrap();
    let kid = header.kid.clone().expect("a kid in the header");
    let jwk = jwks.find(&kid).expect("the kid is published");
    let key = DecodingKey::from_jwk(jwk).unwrap();
    let mut validation = Validation::new(header.alg);
    validation.set_audience(&[audience]);
    validation.set_issuer(&[issuer]);
    jsonwebtoken::decode::<Value>(token, &key, &validation)
        .expect("a valid id_token")
        .claims
}

/// The whole flow with a nonce; answers the token response.
async fn tokens_with_nonce(app: &TestApp, b: Backends, reg: &Registered, nonce: &str) -> Value {
    let pkce = Pkce::new();
    let browser = app.browser();
    let location = app
        .sign_in_and_approve(
            &browser,
            reg,
            "alan",
            &password(b, "alan"),
            &[
                ("code_challenge", &pkce.challenge),
                ("code_challenge_method", "S256"),
                ("nonce", nonce),
            ],
        )
        .await;
    app.exchange(reg, &query(&location)["code"], &pkce.verifier)
        .await
}

#[tokio::test]
async fn both_discovery_documents_name_the_issuer_and_every_endpoint() {
    let app = spawn_app(Backends::Embedded).await;
    for path in [
        "/.well-known/openid-configuration",
        "/.well-known/oauth-authorization-server",
    ] {
        let r = app.api.get(app.url(path)).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        let doc: Value = r.json().await.unwrap();
        assert_eq!(doc["issuer"], app.base);
        for (key, endpoint) in [
            ("authorization_endpoint", "/oauth/authorize"),
            ("token_endpoint", "/oauth/token"),
            ("userinfo_endpoint", "/oauth/userinfo"),
            ("jwks_uri", "/oauth/jwks"),
            ("revocation_endpoint", "/oauth/revoke"),
            ("introspection_endpoint", "/oauth/introspect"),
            ("end_session_endpoint", "/oauth/logout"),
        ] {
            assert_eq!(doc[key], app.url(endpoint), "{key}");
        }
        assert_eq!(
            doc["code_challenge_methods_supported"],
            serde_json::json!(["S256"])
        );
        assert_eq!(doc["response_types_supported"], serde_json::json!(["code"]));
        assert_eq!(
            doc["token_endpoint_auth_methods_supported"],
            serde_json::json!(["client_secret_basic", "client_secret_post", "none"])
        );
        assert_eq!(
            doc["id_token_signing_alg_values_supported"],
            serde_json::json!(["RS256"])
        );
        assert_eq!(
            doc["scopes_supported"],
            serde_json::json!(["openid", "profile", "email", "role"])
        );
        assert!(doc["claims_supported"]
            .as_array()
            .unwrap()
            .contains(&"email".into()));
        assert_eq!(doc["authorization_response_iss_parameter_supported"], true);
    }
}

async fn id_token_carries_every_claim(b: Backends) {
    let app = spawn_app(b).await;
    let reg = app.register(b, CB, false).await;
    let before = app.state.now();
    let tokens = tokens_with_nonce(&app, b, &reg, "n-0S6_WzA2Mj").await;
    let claims = verify_id_token(&app, tokens["id_token"].as_str().unwrap(), &reg.client_id).await;

    assert_eq!(claims["iss"], app.base);
    assert_eq!(claims["sub"], "alan");
    assert_eq!(claims["aud"], reg.client_id);
    assert_eq!(claims["azp"], reg.client_id);
    assert_eq!(claims["nonce"], "n-0S6_WzA2Mj");
    assert_eq!(claims["amr"], serde_json::json!(["pwd"]));
    let (iat, exp) = (
        claims["iat"].as_u64().unwrap(),
        claims["exp"].as_u64().unwrap(),
    );
    assert_eq!(exp - iat, 3600);
    let auth_time = claims["auth_time"].as_u64().unwrap();
    assert!(
        auth_time >= before && auth_time <= iat,
        "{auth_time} in [{before}, {iat}]"
    );
    let access = tokens["access_token"].as_str().unwrap();
    assert_eq!(
        claims["at_hash"],
        sso_bridge::oidc::id_token::at_hash(access)
    );
    assert!(claims["email"].is_string(), "claims released by the scopes");
}

#[tokio::test]
async fn the_code_exchange_returns_a_signed_id_token_with_every_claim_embedded() {
    id_token_carries_every_claim(Backends::Embedded).await;
}

#[tokio::test]
async fn the_code_exchange_returns_a_signed_id_token_with_every_claim_real() {
    id_token_carries_every_claim(Backends::Real).await;
}

#[tokio::test]
async fn a_refresh_returns_a_new_id_token_for_the_same_sign_in_without_the_nonce() {
    let b = Backends::Embedded;
    let app = spawn_app(b).await;
    let reg = app.register(b, CB, false).await;
    let first = tokens_with_nonce(&app, b, &reg, "first-nonce").await;
    let first_claims =
        verify_id_token(&app, first["id_token"].as_str().unwrap(), &reg.client_id).await;

    let refreshed: Value = app
        .token(
            &reg,
            &[
                ("grant_type", "refresh_token"),
                ("refresh_token", first["refresh_token"].as_str().unwrap()),
                ("scope", "openid email"),
            ],
        )
        .await
        .json()
        .await
        .unwrap();
    let claims = verify_id_token(
        &app,
        refreshed["id_token"].as_str().unwrap(),
        &reg.client_id,
    )
    .await;

    for same in ["iss", "sub", "aud", "azp", "auth_time", "amr"] {
        assert_eq!(claims[same], first_claims[same], "{same}");
    }
    assert!(claims.get("nonce").is_none());
    assert!(claims.get("name").is_none(), "the narrower scope holds");
    let access = refreshed["access_token"].as_str().unwrap();
    assert_eq!(
        claims["at_hash"],
        sso_bridge::oidc::id_token::at_hash(access)
    );
}

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
    let reg = app.register(b, CB, false).await;
    let tokens = tokens_with_nonce(&app, b, &reg, "n").await;
    let token = tokens["id_token"].as_str().unwrap();
    assert_eq!(
        jsonwebtoken::decode_header(token).unwrap().alg,
        jsonwebtoken::Algorithm::ES256
    );
    verify_id_token(&app, token, &reg.client_id).await;

    let jwks: Value = app
        .api
        .get(app.url("/oauth/jwks"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
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
    let doc: Value = app
        .api
        .get(app.url("/.well-known/openid-configuration"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        doc["id_token_signing_alg_values_supported"],
        serde_json::json!(["ES256"])
    );
}

#[tokio::test]
async fn without_key_files_two_nodes_sharing_a_store_generate_and_publish_one_key() {
    let prefix = format!(
        "t{}:",
        sso_bridge::domain::secret::random_id(6).to_lowercase()
    );
    let extra = [
        (SIGNING_KEY_FILE, String::new()),
        ("SSO_BRIDGE__STORE__KEY_PREFIX", prefix),
    ];
    let (one, two) = tokio::join!(
        spawn_app_with(Backends::Real, &extra),
        spawn_app_with(Backends::Real, &extra)
    );
    let jwks = |app: &TestApp| {
        let request = app.api.get(app.url("/oauth/jwks"));
        async move { request.send().await.unwrap().json::<Value>().await.unwrap() }
    };
    let (a, b) = tokio::join!(jwks(&one), jwks(&two));
    assert_eq!(a["keys"].as_array().unwrap().len(), 1);
    assert_eq!(a, b, "both nodes publish the same generated key");
    assert_eq!(a["keys"][0]["alg"], "RS256");

    // A token signed on one node verifies with the keys the other publishes.
    let reg = one.register(Backends::Real, CB, false).await;
    let tokens = tokens_with_nonce(&one, Backends::Real, &reg, "n").await;
    let token = tokens["id_token"].as_str().unwrap();
    verify_with_keys_of(&two, &one.base, token, &reg.client_id).await;
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

#[tokio::test]
async fn a_generated_key_is_kept_encrypted_when_a_key_encryption_secret_is_set() {
    let prefix = format!(
        "t{}:",
        sso_bridge::domain::secret::random_id(6).to_lowercase()
    );
    let node = |secret: Option<&str>| {
        let mut extra = vec![
            (SIGNING_KEY_FILE, String::new()),
            ("SSO_BRIDGE__STORE__KEY_PREFIX", prefix.clone()),
        ];
        if let Some(s) = secret {
            extra.push(("SSO_BRIDGE__OIDC__KEY_ENCRYPTION_SECRET", s.to_owned()));
        }
        async move { spawn_app_with(Backends::Real, &extra).await }
    };
    let jwks = |app: &TestApp| app.api.get(app.url("/oauth/jwks")).send();

    let first = node(Some("s3cret")).await;
    let published: Value = jwks(&first).await.unwrap().json().await.unwrap();
    let stored = first.state.store.signing_keys().await.unwrap().unwrap();
    assert!(
        stored.contains("sealed") && !stored.contains("PRIVATE KEY"),
        "{stored}"
    );

    let without = node(None).await;
    assert_eq!(
        jwks(&without).await.unwrap().status(),
        StatusCode::INTERNAL_SERVER_ERROR
    );
    let wrong = node(Some("other")).await;
    assert_eq!(
        jwks(&wrong).await.unwrap().status(),
        StatusCode::INTERNAL_SERVER_ERROR
    );
    let same = node(Some("s3cret")).await;
    let again: Value = jwks(&same).await.unwrap().json().await.unwrap();
    assert_eq!(again, published);
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
    let reg = app.register(b, CB, false).await;
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

async fn published_kids(app: &TestApp) -> Vec<String> {
    let jwks: Value = app
        .api
        .get(app.url("/oauth/jwks"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    jwks["keys"]
        .as_array()
        .unwrap()
        .iter()
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
    let reg = app.register(b, CB, false).await;
    let old_token = tokens_with_nonce(&app, b, &reg, "n").await["id_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let old_kid = kid_of(&old_token).await;
    assert_eq!(published_kids(&app).await, vec![old_kid.clone()]);

    // A day later the key is due: a new key is published at once but signs only a minute later,
    // once every node has read it.
    app.clock.advance(86_400);
    let kids = published_kids(&app).await;
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
        published_kids(&app).await,
        vec![new_kid.clone(), old_kid.clone()]
    );

    // Once every token the old key signed has expired, it is no longer published.
    app.clock.advance(3600 + 60);
    assert_eq!(published_kids(&app).await, vec![new_kid]);
}
