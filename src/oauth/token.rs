//! `/oauth/token`: client authentication, then the grant the `grant_type` names.

use super::client_auth::{self, ClientCredentials};
use super::grants;
use super::OAuthError;
use crate::admin;
use crate::domain::{ClientRecord, SecretToken};
use crate::state::AppState;
use serde::{Deserialize, Serialize};

/// A token request's parameters, as received (RFC 6749 §4.1.3, §6).
#[derive(Default)]
pub struct TokenParams {
    pub grant_type: Option<String>,
    pub code: Option<SecretToken>,
    pub redirect_uri: Option<String>,
    pub code_verifier: Option<String>,
    pub refresh_token: Option<SecretToken>,
    pub scope: Option<String>,
    /// The caller's address, for the audit log.
    pub address: Option<String>,
}

/// A successful token response (SPEC 2.2, RFC 6749 §5.1).
#[derive(Clone, Serialize, Deserialize, poem_openapi::Object)]
pub struct TokenSuccess {
    /// Opaque access token, sent as `Authorization: Bearer`.
    pub access_token: String,
    /// Always `Bearer`.
    pub token_type: String,
    /// Seconds the access token stays valid (3600 by default).
    pub expires_in: u64,
    /// Refresh token (valid 30 days by default; rotated on every use).
    pub refresh_token: String,
    /// Space-separated scopes granted to the access token.
    pub scope: String,
    /// OpenID Connect id_token (a signed JWT), issued whenever `openid` is granted: on code
    /// exchange and on refresh.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[oai(skip_serializing_if_is_none)]
    pub id_token: Option<String>,
}

/// Authenticates the client, then runs the grant.
#[tracing::instrument(skip_all, fields(grant_type = params.grant_type.as_deref().unwrap_or("")))]
pub async fn exchange(
    state: &AppState,
    credentials: ClientCredentials,
    params: TokenParams,
) -> Result<TokenSuccess, OAuthError> {
    let grant_type = params
        .grant_type
        .as_deref()
        .filter(|g| !g.is_empty())
        .ok_or_else(|| OAuthError::InvalidRequest("grant_type is required".into()))?;
    if !matches!(grant_type, "authorization_code" | "refresh_token") {
        return Err(OAuthError::UnsupportedGrantType(format!(
            "grant_type `{grant_type}` is not supported; use authorization_code or refresh_token"
        )));
    }
    let (raw_id, via_basic) = (credentials.client_id.clone(), credentials.via_basic);
    let result = match client_auth::authenticate(state, credentials).await {
        Ok(client) => {
            tracing::Span::current().record("client_id", client.client_id.as_str());
            match grant_type {
                "authorization_code" => {
                    grants::authorization_code::exchange(state, &client, params).await
                }
                _ => grants::refresh_token::exchange(state, &client, params).await,
            }
            .map(|success| (client, success))
        }
        Err(e) => Err(e),
    };
    match result {
        Ok((client, success)) => keep_if_still_allowed(state, &client, success).await,
        Err(e) => {
            admin::doctor::token_refused(state, raw_id.as_deref(), via_basic, &e).await;
            Err(e)
        }
    }
}

/// Hands out freshly issued tokens only if the app was not disabled or deleted meanwhile
/// (see [`admin::apps::still_allowed`]), and notes when the app was last used.
async fn keep_if_still_allowed(
    state: &AppState,
    client: &ClientRecord,
    success: TokenSuccess,
) -> Result<TokenSuccess, OAuthError> {
    if !admin::apps::still_allowed(state, &client.client_id).await? {
        state.store.revoke_client(&client.client_id).await?;
        return Err(OAuthError::InvalidClient(
            "this application is disabled".into(),
        ));
    }
    if let Err(e) = admin::apps::touch(state, &client.client_id).await {
        tracing::warn!(error = %e, "last-used time of the app not recorded");
    }
    Ok(success)
}
