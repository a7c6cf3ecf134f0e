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
    Refused {
        status: u16,
        /// The API's `error` code.
        code: String,
        description: String,
    },
}

/// Refuses a `--server` the password could leak from: anything but `https://`, or `http://`
/// to the loopback.
fn check_server(server: &str) -> Result<(), ClientError> {
    let url = url::Url::parse(server)
        .map_err(|e| ClientError::Input(format!("--server {server} is not a URL: {e}")))?;
    match url.scheme() {
        "https" => Ok(()),
        "http" if crate::domain::redirect_uri::is_loopback(&url) => Ok(()),
        "http" => Err(ClientError::Input(format!(
            "refusing to send a superadmin's password to {server} in clear text: use its https:// address (plain http:// only to this machine, e.g. http://127.0.0.1:8080)"
        ))),
        other => Err(ClientError::Input(format!(
            "--server {server}: `{other}` is not http or https"
        ))),
    }
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
    /// A resource server that may introspect other apps' tokens.
    pub may_introspect: bool,
    /// `RS256` or `ES256`; absent: the service's default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id_token_signed_response_alg: Option<String>,
    /// Roles whose holders may use the app.
    pub allowed_roles: Vec<String>,
    /// Groups whose members may use the app.
    pub allowed_groups: Vec<String>,
    /// Browser origins besides those of the redirect URIs.
    pub web_origins: Vec<String>,
    /// Where the app hears that someone signed out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backchannel_logout_uri: Option<String>,
}

/// What `apps update` sends; absent fields stay as they are.
#[derive(Debug, Serialize)]
pub struct UpdateRequest {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redirect_uris: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub require_pkce: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub post_logout_redirect_uris: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub may_introspect: Option<bool>,
    /// `Some(None)` is sent as `null`: back to the service's default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id_token_signed_response_alg: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_roles: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_groups: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub web_origins: Option<Vec<String>>,
    /// `Some(None)` is sent as `null`: no back-channel logout.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backchannel_logout_uri: Option<Option<String>>,
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
        let mut body = json!({ "username": username, "password": password });
        if let Some(otp) = otp {
            body["otp"] = json!(otp);
        }
        let mut client = Self::anonymous(server)?;
        let session = client
            .send(client.http.post(client.url("/session")).json(&body))
            .await
            .map_err(|e| client.what_to_do(e, username))?;
        client.token = session["token"]
            .as_str()
            .ok_or_else(|| ClientError::Input("the server answered without a token".into()))?
            .to_owned();
        Ok(client)
    }

    /// A refused sign-in that the user fixes by a command of their own, told as that command.
    fn what_to_do(&self, err: ClientError, username: &str) -> ClientError {
        let ClientError::Refused { status, code, .. } = &err else {
            return err;
        };
        let description = match code.as_str() {
            "mfa_enrolment_required" => format!(
                "not signed in: the policy asks {username} for a second factor, which is not set up yet; set it up first with: sso-bridge users enrol-mfa --admin {username} --server {}",
                self.base
            ),
            "mfa_required" => "not signed in: this account must pass its second factor; add --otp with the current code of its authenticator app (or a recovery code)".to_owned(),
            _ => return err,
        };
        ClientError::Refused {
            status: *status,
            code: code.clone(),
            description,
        }
    }

    /// A client that is not signed in (for self-service enrolment).
    ///
    /// It carries a superadmin's password, so it talks only `https://`, or plain `http://` to
    /// this machine's loopback, and follows no redirect: a password is never sent anywhere but
    /// the address given.
    pub fn anonymous(server: &str) -> Result<Self, ClientError> {
        check_server(server)?;
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .connect_timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| ClientError::Input(format!("cannot build the HTTP client: {e}")))?;
        Ok(Self {
            http,
            base: server.trim_end_matches('/').to_owned(),
            token: String::new(),
        })
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
        if status.is_redirection() {
            let location = response
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|l| l.to_str().ok())
                .unwrap_or("elsewhere")
                .to_owned();
            return Err(ClientError::Refused {
                status: status.as_u16(),
                code: "redirect".into(),
                description: format!(
                    "{} answered with a redirect to {location}, which is not followed; give the service's own address as --server",
                    self.base
                ),
            });
        }
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
            code: body["error"].as_str().unwrap_or_default().to_owned(),
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

    /// `/admin/api/apps/<client_id><rest>`, the id percent-encoded.
    fn app_url(&self, client_id: &str, rest: &str) -> String {
        let id: String = url::form_urlencoded::byte_serialize(client_id.as_bytes()).collect();
        self.url(&format!("/apps/{id}{rest}"))
    }

    /// Shows one app.
    pub async fn show(&self, client_id: &str) -> Result<Value, ClientError> {
        self.send(self.http.get(self.app_url(client_id, ""))).await
    }

    /// An app's recent failed requests.
    pub async fn failures(&self, client_id: &str) -> Result<Value, ClientError> {
        self.send(self.http.get(self.app_url(client_id, "/failures")))
            .await
    }

    /// Edits an app.
    pub async fn update(
        &self,
        client_id: &str,
        changes: &UpdateRequest,
    ) -> Result<Value, ClientError> {
        self.send(self.http.patch(self.app_url(client_id, "")).json(changes))
            .await
    }

    /// Issues a new secret.
    pub async fn rotate_secret(&self, client_id: &str) -> Result<Value, ClientError> {
        self.send(self.http.post(self.app_url(client_id, "/secret")))
            .await
    }

    /// Disables or enables an app.
    pub async fn set_enabled(&self, client_id: &str, enabled: bool) -> Result<Value, ClientError> {
        let action = if enabled { "/enable" } else { "/disable" };
        self.send(self.http.post(self.app_url(client_id, action)))
            .await
    }

    /// Deletes an app.
    pub async fn delete(&self, client_id: &str) -> Result<Value, ClientError> {
        self.send(self.http.delete(self.app_url(client_id, "")))
            .await
    }

    // --- second factor ---

    /// Removes a user's second factor (superadmin): what was ended with it.
    pub async fn reset_second_factor(&self, username: &str) -> Result<Value, ClientError> {
        let user: String = url::form_urlencoded::byte_serialize(username.as_bytes()).collect();
        let url = self.url(&format!("/users/{user}/second-factor"));
        self.send(self.http.delete(url)).await
    }

    /// Signs a user out everywhere (superadmin): what was ended.
    pub async fn revoke_user(&self, username: &str) -> Result<Value, ClientError> {
        let user: String = url::form_urlencoded::byte_serialize(username.as_bytes()).collect();
        let url = self.url(&format!("/users/{user}/revoke"));
        self.send(self.http.post(url)).await
    }

    /// Starts setting up the caller's own second factor: the secret and `otpauth://` URL.
    pub async fn start_enrolment(
        &self,
        username: &str,
        password: &str,
    ) -> Result<Value, ClientError> {
        let body = json!({ "username": username, "password": password });
        self.send(self.http.post(self.url("/second-factor/setup")).json(&body))
            .await
    }

    /// Confirms the set-up `setup_id` with a first code; answers the recovery codes.
    pub async fn confirm_enrolment(
        &self,
        username: &str,
        password: &str,
        setup_id: &str,
        otp: &str,
    ) -> Result<Value, ClientError> {
        let body = json!({
            "username": username,
            "password": password,
            "setup_id": setup_id,
            "otp": otp,
        });
        self.send(
            self.http
                .post(self.url("/second-factor/confirm"))
                .json(&body),
        )
        .await
    }
}
