//! Interoperability: the unmodified `openidconnect` crate, as an app developer would use it,
//! drives the whole flow against a running sso-bridge: discovery, PKCE, id_token validation
//! (signature, issuer, audience, nonce, at_hash), userinfo and refresh; then revocation.

use crate::helpers::*;
use openidconnect::core::{CoreClient, CoreProviderMetadata, CoreResponseType, CoreUserInfoClaims};
use openidconnect::{
    AccessTokenHash, AuthenticationFlow, AuthorizationCode, ClientId, ClientSecret, CsrfToken,
    IssuerUrl, Nonce, OAuth2TokenResponse, PkceCodeChallenge, RedirectUrl, RevocationUrl, Scope,
    TokenResponse,
};
use reqwest::StatusCode;

const CB: &str = "http://127.0.0.1:9/callback";

#[derive(Debug, thiserror::Error)]
#[error("http: {0}")]
struct HttpError(String);

/// The library's HTTP hook, on reqwest, following no redirects (as the library requires).
async fn http(
    request: openidconnect::HttpRequest,
) -> Result<openidconnect::HttpResponse, HttpError> {
    let fail = |e: reqwest::Error| HttpError(e.to_string());
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(fail)?;
    let (parts, body) = request.into_parts();
    let response = client
        .request(parts.method, parts.uri.to_string())
        .headers(parts.headers)
        .body(body)
        .send()
        .await
        .map_err(fail)?;
    let mut builder = openidconnect::http::Response::builder().status(response.status());
    for (name, value) in response.headers() {
        builder = builder.header(name, value);
    }
    let body = response.bytes().await.map_err(fail)?.to_vec();
    builder.body(body).map_err(|e| HttpError(e.to_string()))
}

async fn whole_flow(b: Backends, public: bool) {
    let app = spawn_app(b).await;
    let reg = app.register(CB, public).await;

    // Discovery, as the library does it (it also fetches the JWKS).
    let issuer = IssuerUrl::new(app.base.clone()).unwrap();
    let metadata = CoreProviderMetadata::discover_async(issuer, &http)
        .await
        .unwrap();
    let client = CoreClient::from_provider_metadata(
        metadata,
        ClientId::new(reg.client_id.clone()),
        reg.client_secret.clone().map(ClientSecret::new),
    )
    .set_redirect_uri(RedirectUrl::new(CB.into()).unwrap())
    .set_revocation_url(RevocationUrl::new(app.url("/oauth/revoke")).unwrap());
    assert!(client.user_info_url().is_some());

    // Authorization request with PKCE and a nonce; a scripted browser signs in and approves.
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let (url, csrf, nonce) = client
        .authorize_url(
            AuthenticationFlow::<CoreResponseType>::AuthorizationCode,
            CsrfToken::new_random,
            Nonce::new_random,
        )
        .add_scope(Scope::new("profile".into()))
        .add_scope(Scope::new("email".into()))
        .set_pkce_challenge(challenge)
        .url();
    let callback = browse(&app, b, url.as_str()).await;
    let params = query(&callback);
    assert_eq!(params["state"], *csrf.secret());
    assert_eq!(params["iss"], app.base, "RFC 9207 iss");

    // Code exchange; the library validates the id_token.
    let tokens = client
        .exchange_code(AuthorizationCode::new(params["code"].clone()))
        .unwrap()
        .set_pkce_verifier(verifier)
        .request_async(&http)
        .await
        .unwrap();
    let id_token = tokens.id_token().expect("an id_token");
    let verifier = client.id_token_verifier();
    let claims = id_token.claims(&verifier, &nonce).unwrap();
    assert_eq!(claims.subject().as_str(), "alan");
    let at_hash = AccessTokenHash::from_token(
        tokens.access_token(),
        id_token.signing_alg().unwrap(),
        id_token.signing_key(&verifier).unwrap(),
    )
    .unwrap();
    assert_eq!(claims.access_token_hash(), Some(&at_hash));

    // Userinfo, checked against the id_token's subject.
    let info: CoreUserInfoClaims = client
        .user_info(
            tokens.access_token().clone(),
            Some(claims.subject().clone()),
        )
        .unwrap()
        .request_async(&http)
        .await
        .unwrap();
    assert_eq!(info.subject().as_str(), "alan");
    assert!(info.email().is_some());

    // Refresh: a new access token and a new id_token for the same user.
    let refresh = tokens.refresh_token().expect("a refresh token");
    let refreshed = client
        .exchange_refresh_token(refresh)
        .unwrap()
        .request_async(&http)
        .await
        .unwrap();
    let new_id_token = refreshed.id_token().expect("an id_token on refresh");
    let new_claims = new_id_token
        .claims(&verifier, |_: Option<&Nonce>| Ok(()))
        .unwrap();
    assert_eq!(new_claims.subject(), claims.subject());
    assert_ne!(
        refreshed.access_token().secret(),
        tokens.access_token().secret()
    );

    // Revocation of the new refresh token ends the grant: its access token stops working.
    // The library sends revocations only to https URLs (RFC 7009 §2 requires TLS) and this
    // test server speaks plain http, so the library's own check is what stops it here.
    let new_refresh = refreshed.refresh_token().unwrap().clone();
    let refused = client.revoke_token(new_refresh.clone().into());
    assert!(matches!(
        refused,
        Err(openidconnect::ConfigurationError::InsecureUrl(_))
    ));
    let mut form = vec![
        ("token", new_refresh.secret().as_str()),
        ("token_type_hint", "refresh_token"),
        ("client_id", reg.client_id.as_str()),
    ];
    if let Some(secret) = &reg.client_secret {
        form.push(("client_secret", secret));
    }
    let revoked = app
        .api
        .post(app.url("/oauth/revoke"))
        .form(&form)
        .send()
        .await
        .unwrap();
    assert_eq!(revoked.status(), StatusCode::OK);
    let after = app.userinfo(refreshed.access_token().secret()).await;
    assert_eq!(after.status(), StatusCode::UNAUTHORIZED);
}

/// Follows the authorize URL in a scripted browser: sign-in, consent; answers the callback URL.
async fn browse(app: &TestApp, b: Backends, url: &str) -> String {
    let browser = app.browser();
    let page = browser.get(url).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK, "sign-in page");
    let page = page.text().await.unwrap();
    let pw = password(b, "alan");
    let after = app
        .submit(&browser, &page, &[("username", "alan"), ("password", &pw)])
        .await;
    let consent = browser.get(location(&after)).send().await.unwrap();
    let consent = consent.text().await.unwrap();
    let done = app
        .submit(&browser, &consent, &[("decision", "approve")])
        .await;
    location(&done)
}

#[tokio::test]
async fn the_openidconnect_crate_completes_the_flow_as_a_confidential_app_embedded() {
    whole_flow(Backends::Embedded, false).await;
}

#[tokio::test]
async fn the_openidconnect_crate_completes_the_flow_as_a_confidential_app_real() {
    whole_flow(Backends::Real, false).await;
}

#[tokio::test]
async fn the_openidconnect_crate_completes_the_flow_as_a_public_app_with_pkce() {
    whole_flow(Backends::Embedded, true).await;
}
