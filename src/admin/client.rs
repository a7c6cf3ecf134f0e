//! The admin API client used by `sso-bridge apps …`.

use reqwest::StatusCode;
use serde::Serialize;
use serde_json::{json, Value};
use std::time::Duration;

/// Why an admin command failed; each message names what was wrong.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("{0}")]
    Input(String),
    #[error("cannot reach {server}: {cause}")]
    Unreachable { server: String, cause: String },
    #[error("{status}: {description}")]
    Refused { status: u16, description: String },
}

/// What `apps create` sends.
#[derive(Debug, Serialize)]
pub struct CreateRequest {
    pub name: String,
    pub redirect_uris: Vec<String>,
    pub public: bool,
    pub require_pkce: bool,
    /// OpenID Connect logout return addresses.
    pub post_logout_redirect_uris: Vec<String>,
}

/// A signed-in admin API session.
pub struct AdminClient {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl AdminClient {
    /// Signs in as a superadmin.
    pub async fn sign_in(
        server: &str,
        username: &str,
        password: &str,
        otp: Option<&str>,
    ) -> Result<Self, ClientError> {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .connect_timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| ClientError::Input(format!("cannot build the HTTP client: {e}")))?;
        let base = server.trim_end_matches('/').to_owned();
        let mut body = json!({ "username": username, "password": password });
        if let Some(otp) = otp {
            body["otp"] = json!(otp);
        }
        let mut client = Self {
            http,
            base,
            token: String::new(),
        };
        let session = client
            .send(client.http.post(client.url("/session")).json(&body))
            .await?;
        client.token = session["token"]
            .as_str()
            .ok_or_else(|| ClientError::Input("the server answered without a token".into()))?
            .to_owned();
        Ok(client)
    }

    fn url(&self, path: &str) -> String {
        format!("{}/admin/api{}", self.base, path)
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> Result<Value, ClientError> {
        let request = if self.token.is_empty() {
            request
        } else {
            request.bearer_auth(&self.token)
        };
        let response = request.send().await.map_err(|e| ClientError::Unreachable {
            server: self.base.clone(),
            cause: e.to_string(),
        })?;
        let status = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        if status.is_success() {
            return Ok(body);
        }
        let description = body["error_description"]
            .as_str()
            .map(str::to_owned)
            .unwrap_or_else(|| status.canonical_reason().unwrap_or("error").to_owned());
        let description = match status {
            StatusCode::UNAUTHORIZED => format!("not signed in: {description}"),
            StatusCode::FORBIDDEN => format!("refused: {description}"),
            _ => description,
        };
        Err(ClientError::Refused {
            status: status.as_u16(),
            description,
        })
    }

    /// Registers an app.
    pub async fn create(&self, app: &CreateRequest) -> Result<Value, ClientError> {
        self.send(self.http.post(self.url("/apps")).json(app)).await
    }

    /// Lists apps.
    pub async fn list(&self) -> Result<Value, ClientError> {
        self.send(self.http.get(self.url("/apps"))).await
    }

    /// Shows one app.
    pub async fn show(&self, client_id: &str) -> Result<Value, ClientError> {
        let id: String = url::form_urlencoded::byte_serialize(client_id.as_bytes()).collect();
        self.send(self.http.get(self.url(&format!("/apps/{id}"))))
            .await
    }
}
