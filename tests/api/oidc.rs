//! OpenID Connect: discovery, JWKS and the id_token on code exchange and refresh.

use crate::helpers::*;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{DecodingKey, Validation};
use reqwest::StatusCode;
use serde_json::Value;

const CB: &str = "https://app.example.com/callback";

/// Verifies `token` against the app's published JWKS, as a client would; answers its claims.
pub async fn verify_id_token(app: &TestApp, token: &str, audience: &str) -> Value {
    verify_with_keys_of(app, &app.base, token, audience).await
}

/// Verifies `token` from `issuer` with the keys `app` publishes.
pub async fn verify_with_keys_of(
    app: &TestApp,
    issuer: &str,
    token: &str,
    audience: &str,
) -> Value {
    let jwks: JwkSet = serde_json::from_value(app.jwks().await).unwrap();
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
pub async fn tokens_with_nonce(app: &TestApp, b: Backends, reg: &Registered, nonce: &str) -> Value {
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
            serde_json::json!(["openid", "profile", "email", "role", "groups"])
        );
        assert!(doc["claims_supported"]
            .as_array()
            .unwrap()
            .contains(&"email".into()));
        assert_eq!(doc["authorization_response_iss_parameter_supported"], true);
        assert_eq!(doc["backchannel_logout_supported"], true);
        assert_eq!(doc["backchannel_logout_session_supported"], true);
        assert!(doc["claims_supported"]
            .as_array()
            .unwrap()
            .contains(&"sid".into()));
    }
}

async fn id_token_carries_every_claim(b: Backends) {
    let app = spawn_app(b).await;
    let reg = app.register(CB, false).await;
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
    let sid = claims["sid"].as_str().expect("the session's public id");
    assert_eq!(sid.len(), 22, "{sid}");
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
    let reg = app.register(CB, false).await;
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

    for same in ["iss", "sub", "aud", "azp", "auth_time", "amr", "sid"] {
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
