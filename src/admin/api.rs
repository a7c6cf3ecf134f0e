//! The admin API (`/admin/api/...`): what the CLI and the admin screen call.

use super::apps::{self, AppError, NewApp};
use super::guard::{self, AdminSession, GuardError};
use crate::domain::{ClientId, ClientRecord};
use crate::oauth::error::ErrorBody;
use crate::state::AppState;
use poem::web::Data;
use poem::Request;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};
use secrecy::SecretString;

#[derive(Tags)]
enum AdminTags {
    /// Connected Apps administration (superadmins only).
    #[oai(rename = "Admin")]
    Admin,
}

/// Directory credentials of a superadmin.
#[derive(Object)]
pub struct AdminSignIn {
    /// Directory username.
    pub username: String,
    /// Directory password.
    #[oai(write_only)]
    pub password: String,
    /// Second-factor code, for accounts whose policy requires one.
    #[oai(write_only)]
    pub otp: Option<String>,
}

/// An admin token: send it as `Authorization: Bearer` to the other admin operations.
#[derive(Object)]
pub struct AdminToken {
    /// The token.
    pub token: String,
    /// Always `Bearer`.
    pub token_type: String,
    /// Seconds until it expires.
    pub expires_in: u64,
}

/// A connected app as the admin API shows it (never its secret).
#[derive(Object)]
pub struct App {
    /// Public identifier.
    pub client_id: String,
    /// Display name.
    pub name: String,
    /// Registered callback URLs.
    pub redirect_uris: Vec<String>,
    /// `confidential` (has a secret) or `public` (native/mobile, PKCE).
    #[oai(rename = "type")]
    pub app_type: String,
    /// Whether authorize requests must carry a PKCE challenge.
    pub require_pkce: bool,
    /// Where OpenID Connect logout may send the browser back to.
    pub post_logout_redirect_uris: Vec<String>,
    /// Whether the app may sign users in.
    pub enabled: bool,
    /// Superadmin who registered it.
    pub created_by: String,
    /// Registration time, Unix seconds.
    pub created_at: u64,
}

impl From<&ClientRecord> for App {
    fn from(c: &ClientRecord) -> Self {
        App {
            client_id: c.client_id.to_string(),
            name: c.name.clone(),
            redirect_uris: c.redirect_uris.iter().map(|r| r.to_string()).collect(),
            app_type: if c.is_public() {
                "public"
            } else {
                "confidential"
            }
            .into(),
            require_pkce: c.require_pkce,
            post_logout_redirect_uris: c
                .post_logout_redirect_uris
                .iter()
                .map(|r| r.to_string())
                .collect(),
            enabled: c.enabled,
            created_by: c.created_by.clone(),
            created_at: c.created_at,
        }
    }
}

/// Every registered app.
#[derive(Object)]
pub struct AppList {
    /// The apps, by name.
    pub apps: Vec<App>,
}

/// A new app to register.
#[derive(Object)]
pub struct CreateApp {
    /// Display name shown on the consent page (1–100 characters).
    pub name: String,
    /// Callback URLs, matched exactly: https (http only for loopback), or a private-use scheme
    /// for native apps; no fragment, no wildcard.
    pub redirect_uris: Vec<String>,
    /// A native or mobile app without a secret; it must use PKCE.
    #[oai(default)]
    pub public: bool,
    /// Whether a confidential app must use PKCE (public apps always must).
    #[oai(default)]
    pub require_pkce: bool,
    /// Where OpenID Connect RP-initiated logout may send the browser afterwards (same rules as
    /// redirect URIs, matched exactly).
    #[oai(default)]
    pub post_logout_redirect_uris: Vec<String>,
}

/// A newly registered app with its credentials. The secret is shown only here, once.
#[derive(Object)]
pub struct CreatedApp {
    /// Public identifier.
    pub client_id: String,
    /// The secret, for confidential apps; store it now, it cannot be shown again.
    #[oai(skip_serializing_if_is_none)]
    pub client_secret: Option<String>,
    /// Display name.
    pub name: String,
    /// Registered callback URLs.
    pub redirect_uris: Vec<String>,
    /// `confidential` or `public`.
    #[oai(rename = "type")]
    pub app_type: String,
    /// Whether authorize requests must carry a PKCE challenge.
    pub require_pkce: bool,
    /// Where OpenID Connect logout may send the browser back to.
    pub post_logout_redirect_uris: Vec<String>,
}

/// Error responses of the admin API.
#[derive(ApiResponse)]
#[oai(bad_request_handler = "admin_bad_request")]
pub enum AdminError {
    /// invalid_request: the body is malformed or a field is invalid (the description says which).
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// unauthorized: wrong credentials, or a missing, expired or unknown admin token.
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>),
    /// forbidden: the account is not a superadmin.
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// not_found: no such app.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// temporarily_unavailable: the store or directory is unreachable.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

fn body(error: &str, description: impl Into<String>) -> Json<ErrorBody> {
    Json(ErrorBody {
        error: error.into(),
        error_description: description.into(),
    })
}

fn admin_bad_request(err: poem::Error) -> AdminError {
    AdminError::BadRequest(body("invalid_request", format!("malformed request: {err}")))
}

impl From<GuardError> for AdminError {
    fn from(err: GuardError) -> Self {
        match err {
            GuardError::Unauthenticated => AdminError::Unauthorized(body(
                "unauthorized",
                "wrong username or password, or the admin token is missing or expired",
            )),
            GuardError::Forbidden => AdminError::Forbidden(body(
                "forbidden",
                "only superadmins may manage connected apps",
            )),
            GuardError::Directory(cause) => {
                tracing::error!(%cause, "admin sign-in: directory unavailable");
                AdminError::Unavailable(body(
                    "temporarily_unavailable",
                    "the directory is unavailable",
                ))
            }
            GuardError::Store(e) => e.into(),
        }
    }
}

impl From<crate::store::StoreError> for AdminError {
    fn from(err: crate::store::StoreError) -> Self {
        tracing::error!(error = %err, "admin API: store failure");
        AdminError::Unavailable(body("temporarily_unavailable", "the store is unavailable"))
    }
}

impl From<AppError> for AdminError {
    fn from(err: AppError) -> Self {
        match err {
            AppError::Store(e) => e.into(),
            other => AdminError::BadRequest(body("invalid_request", other.to_string())),
        }
    }
}

/// Responses of the sign-in operation.
#[derive(ApiResponse)]
enum SignInResponse {
    /// Signed in.
    #[oai(status = 200)]
    Ok(Json<AdminToken>),
}

/// Responses of app creation.
#[derive(ApiResponse)]
enum CreateResponse {
    /// Registered; the secret is in this response only.
    #[oai(status = 201)]
    Created(Json<CreatedApp>),
}

/// The admin API.
pub struct AdminApi;

async fn admin(req: &Request, state: &AppState) -> Result<AdminSession, AdminError> {
    let header = req
        .headers()
        .get(poem::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    Ok(guard::check(state, header).await?)
}

#[OpenApi(prefix_path = "/admin/api", tag = "AdminTags::Admin")]
impl AdminApi {
    /// Sign in as a superadmin
    ///
    /// Checks the directory password and the `superadmin` role; answers a short-lived admin token.
    #[oai(path = "/session", method = "post", operation_id = "admin_sign_in")]
    async fn sign_in(
        &self,
        Data(state): Data<&AppState>,
        body: Json<AdminSignIn>,
    ) -> Result<SignInResponse, AdminError> {
        let password = SecretString::from(body.0.password);
        let (token, ttl) = guard::sign_in(state, body.0.username.trim(), &password).await?;
        Ok(SignInResponse::Ok(Json(AdminToken {
            token: token.expose().to_owned(),
            token_type: "Bearer".into(),
            expires_in: ttl,
        })))
    }

    /// List connected apps
    #[oai(path = "/apps", method = "get", operation_id = "list_apps")]
    async fn list(
        &self,
        req: &Request,
        Data(state): Data<&AppState>,
    ) -> Result<Json<AppList>, AdminError> {
        admin(req, state).await?;
        let apps = apps::list(state).await?;
        Ok(Json(AppList {
            apps: apps.iter().map(App::from).collect(),
        }))
    }

    /// Register a connected app
    ///
    /// Issues a client id and, for a confidential app, a client secret of 256 random bits. The
    /// secret is shown in this response only; the service keeps just its SHA-256 digest.
    #[oai(path = "/apps", method = "post", operation_id = "create_app")]
    async fn create(
        &self,
        req: &Request,
        Data(state): Data<&AppState>,
        body: Json<CreateApp>,
    ) -> Result<CreateResponse, AdminError> {
        let session = admin(req, state).await?;
        let new = NewApp {
            name: body.0.name,
            redirect_uris: body.0.redirect_uris,
            public: body.0.public,
            require_pkce: body.0.require_pkce,
            post_logout_redirect_uris: body.0.post_logout_redirect_uris,
        };
        let (record, secret) = apps::create(state, &session.sub, new).await?;
        let view = App::from(&record);
        Ok(CreateResponse::Created(Json(CreatedApp {
            client_id: view.client_id,
            client_secret: secret.map(|s| s.expose().to_owned()),
            name: view.name,
            redirect_uris: view.redirect_uris,
            app_type: view.app_type,
            require_pkce: view.require_pkce,
            post_logout_redirect_uris: view.post_logout_redirect_uris,
        })))
    }

    /// Show one connected app
    #[oai(path = "/apps/:client_id", method = "get", operation_id = "show_app")]
    async fn show(
        &self,
        req: &Request,
        Data(state): Data<&AppState>,
        client_id: Path<String>,
    ) -> Result<Json<App>, AdminError> {
        admin(req, state).await?;
        let not_found = || {
            AdminError::NotFound(body(
                "not_found",
                format!("no app with client_id `{}`", client_id.0),
            ))
        };
        let id = ClientId::parse(&client_id.0).ok_or_else(not_found)?;
        let app = state.store.client(&id).await?.ok_or_else(not_found)?;
        Ok(Json(App::from(&app)))
    }
}
