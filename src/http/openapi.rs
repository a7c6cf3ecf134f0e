//! The OpenAPI document of the token, userinfo and admin APIs.

use super::oauth_api::OAuthApi;
use super::oidc_api::OidcApi;
use crate::admin::api::AdminApi;
use crate::admin::mfa_api::AdminMfaApi;
use poem_openapi::OpenApiService;

/// The documented APIs.
pub type Apis = (OAuthApi, OidcApi, AdminApi, AdminMfaApi);

/// The OpenAPI service, with `server_url` as its server (the issuer).
pub fn service(server_url: &str) -> OpenApiService<Apis, ()> {
    OpenApiService::new(
        (OAuthApi, OidcApi, AdminApi, AdminMfaApi),
        "sso-bridge",
        env!("CARGO_PKG_VERSION"),
    )
    .description(
        "Single sign-on identity provider fronting the company directory. Apps use the \
             OAuth 2.0 Authorization Code flow with PKCE: the browser goes to \
             `/oauth/authorize`, the app's backend calls `/oauth/token` and `/oauth/userinfo`. \
             Error bodies are `{\"error\", \"error_description\"}` (RFC 6749 §5.2, RFC 6750 §3.1).",
    )
    .server(server_url)
}

/// The OpenAPI document as committed under `openapi/` (server placeholder fixed, so the file
/// does not depend on settings).
pub fn document() -> String {
    service("http://127.0.0.1:8080").spec()
}
