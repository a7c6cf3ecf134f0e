//! The admin API (`/admin/api/...`): what the CLI calls. Superadmins only.
//!
//! Every operation but sign-in needs `Authorization: Bearer <admin token>`: it takes the
//! [`AdminAuth`] security scheme, after its other parameters. A bearer header is never sent by
//! a browser on its own, so these state-changing calls need no CSRF token.

mod auth;
mod error;
mod types;

pub(crate) use auth::AdminAuth;
pub(crate) use error::body;
pub use error::AdminError;
pub use types::*;

use super::guard;
use crate::apps::{self, doctor, Changes, NewApp};
use crate::audit::{self, AuditFilter, AuditFrom};
use crate::state::AppState;
use crate::web::address::ClientAddr;
use poem::web::Data;
use poem::Request;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::types::MaybeUndefined;
use poem_openapi::{ApiResponse, OpenApi, Tags};
use secrecy::SecretString;

#[derive(Tags)]
enum AdminTags {
    /// Connected Apps administration (superadmins only).
    #[oai(rename = "Admin")]
    Admin,
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
    Created(Json<AppWithSecret>),
}

/// Responses of app deletion.
#[derive(ApiResponse)]
enum DeleteResponse {
    /// Deleted; every code and token of the app was revoked.
    #[oai(status = 204)]
    Deleted,
}

/// Responses of signing a user out everywhere.
#[derive(ApiResponse)]
enum RevokeUserResponse {
    /// Signed out: how many sessions ended and grants were revoked.
    #[oai(status = 200)]
    SignedOut(Json<UserSignedOut>),
}

/// The admin API.
pub struct AdminApi;

#[OpenApi(prefix_path = "/admin/api", tag = "AdminTags::Admin")]
impl AdminApi {
    /// Sign in as a superadmin
    ///
    /// Checks the directory password and the `superadmin` role, then the second factor (`otp`)
    /// when the account's policy asks for one; answers a short-lived admin token. An account
    /// whose policy asks for a second factor it has not set up yet gets no token (401
    /// `mfa_enrolment_required`): its password opens only `start_enrolment` and
    /// `confirm_enrolment`. Failed attempts are limited per account and per client address.
    #[oai(path = "/session", method = "post", operation_id = "admin_sign_in")]
    async fn sign_in(
        &self,
        req: &Request,
        Data(state): Data<&AppState>,
        body: Json<AdminSignIn>,
    ) -> Result<SignInResponse, AdminError> {
        let password = SecretString::from(body.0.password);
        let address = ClientAddr::of(req).ip();
        let issued = guard::sign_in(
            state,
            body.0.username.trim(),
            &password,
            body.0.otp.as_deref(),
            address,
        )
        .await?;
        Ok(SignInResponse::Ok(Json(AdminToken {
            token: issued.token.expose().to_owned(),
            token_type: "Bearer".into(),
            expires_in: issued.ttl,
        })))
    }

    /// List connected apps
    #[oai(path = "/apps", method = "get", operation_id = "list_apps")]
    async fn list(
        &self,
        Data(state): Data<&AppState>,
        _auth: AdminAuth,
    ) -> Result<Json<AppList>, AdminError> {
        let apps = apps::manage::list(state).await?;
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
        Data(state): Data<&AppState>,
        body: Json<CreateApp>,
        AdminAuth(caller): AdminAuth,
    ) -> Result<CreateResponse, AdminError> {
        let new = NewApp {
            name: body.0.name,
            redirect_uris: body.0.redirect_uris,
            public: body.0.public,
            require_pkce: body.0.require_pkce,
            post_logout_redirect_uris: body.0.post_logout_redirect_uris,
            may_introspect: body.0.may_introspect,
            id_token_signed_response_alg: body.0.id_token_signed_response_alg.map(Into::into),
            allowed_roles: body.0.allowed_roles,
            allowed_groups: body.0.allowed_groups,
            web_origins: body.0.web_origins,
            backchannel_logout_uri: body.0.backchannel_logout_uri,
        };
        let (record, secret) = apps::manage::create(state, caller.actor(), new).await?;
        let secret = secret.map(|s| s.expose().to_owned());
        Ok(CreateResponse::Created(Json(AppWithSecret::new(
            &record, secret,
        ))))
    }

    /// Show one connected app
    #[oai(path = "/apps/:client_id", method = "get", operation_id = "show_app")]
    async fn show(
        &self,
        Data(state): Data<&AppState>,
        client_id: Path<String>,
        _auth: AdminAuth,
    ) -> Result<Json<App>, AdminError> {
        let app = apps::manage::find(state, &client_id.0).await?;
        Ok(Json(App::from(&app)))
    }

    /// Edit a connected app
    ///
    /// Changes the name, the redirect URIs (replacing all of them), the PKCE rule, whether the
    /// app may introspect other apps' tokens or its id_token algorithm; absent fields stay as
    /// they are.
    #[oai(
        path = "/apps/:client_id",
        method = "patch",
        operation_id = "update_app"
    )]
    async fn update(
        &self,
        Data(state): Data<&AppState>,
        client_id: Path<String>,
        body: Json<UpdateApp>,
        AdminAuth(caller): AdminAuth,
    ) -> Result<Json<App>, AdminError> {
        let changes = Changes {
            name: body.0.name,
            redirect_uris: body.0.redirect_uris,
            require_pkce: body.0.require_pkce,
            post_logout_redirect_uris: body.0.post_logout_redirect_uris,
            may_introspect: body.0.may_introspect,
            id_token_signed_response_alg: match body.0.id_token_signed_response_alg {
                MaybeUndefined::Undefined => None,
                MaybeUndefined::Null => Some(None),
                MaybeUndefined::Value(alg) => Some(Some(alg.into())),
            },
            allowed_roles: body.0.allowed_roles,
            allowed_groups: body.0.allowed_groups,
            web_origins: body.0.web_origins,
            backchannel_logout_uri: match body.0.backchannel_logout_uri {
                MaybeUndefined::Undefined => None,
                MaybeUndefined::Null => Some(None),
                MaybeUndefined::Value(uri) => Some(Some(uri)),
            },
        };
        let app = apps::manage::update(state, caller.actor(), &client_id.0, changes).await?;
        Ok(Json(App::from(&app)))
    }

    /// Rotate an app's secret
    ///
    /// Issues a new secret, shown in this response only; the old secret stops working at once.
    #[oai(
        path = "/apps/:client_id/secret",
        method = "post",
        operation_id = "rotate_secret"
    )]
    async fn rotate(
        &self,
        Data(state): Data<&AppState>,
        client_id: Path<String>,
        AdminAuth(caller): AdminAuth,
    ) -> Result<Json<AppWithSecret>, AdminError> {
        let (app, secret) =
            apps::manage::rotate_secret(state, caller.actor(), &client_id.0).await?;
        Ok(Json(AppWithSecret::new(
            &app,
            Some(secret.expose().to_owned()),
        )))
    }

    /// Disable an app
    ///
    /// Its token requests get `invalid_client`, its authorize requests an error page, and every
    /// code and token it holds is revoked (they stop working at userinfo).
    #[oai(
        path = "/apps/:client_id/disable",
        method = "post",
        operation_id = "disable_app"
    )]
    async fn disable(
        &self,
        Data(state): Data<&AppState>,
        client_id: Path<String>,
        AdminAuth(caller): AdminAuth,
    ) -> Result<Json<App>, AdminError> {
        let app = apps::manage::set_enabled(state, caller.actor(), &client_id.0, false).await?;
        Ok(Json(App::from(&app)))
    }

    /// Enable an app again
    #[oai(
        path = "/apps/:client_id/enable",
        method = "post",
        operation_id = "enable_app"
    )]
    async fn enable(
        &self,
        Data(state): Data<&AppState>,
        client_id: Path<String>,
        AdminAuth(caller): AdminAuth,
    ) -> Result<Json<App>, AdminError> {
        let app = apps::manage::set_enabled(state, caller.actor(), &client_id.0, true).await?;
        Ok(Json(App::from(&app)))
    }

    /// Delete an app
    ///
    /// Removes the registration and revokes every code and token of the app.
    #[oai(
        path = "/apps/:client_id",
        method = "delete",
        operation_id = "delete_app"
    )]
    async fn delete(
        &self,
        Data(state): Data<&AppState>,
        client_id: Path<String>,
        AdminAuth(caller): AdminAuth,
    ) -> Result<DeleteResponse, AdminError> {
        apps::manage::delete(state, caller.actor(), &client_id.0).await?;
        Ok(DeleteResponse::Deleted)
    }

    /// An app's recent failed requests (app doctor)
    ///
    /// The last failed authorize and token requests of the app, newest first, each with the
    /// problem and its fix in plain words.
    #[oai(
        path = "/apps/:client_id/failures",
        method = "get",
        operation_id = "app_failures"
    )]
    async fn failures(
        &self,
        Data(state): Data<&AppState>,
        client_id: Path<String>,
        _auth: AdminAuth,
    ) -> Result<Json<FailureList>, AdminError> {
        let app = apps::manage::find(state, &client_id.0).await?;
        let failures = doctor::recent(state, &app.client_id).await?;
        Ok(Json(FailureList {
            failures: failures.into_iter().map(Failure::from).collect(),
        }))
    }

    /// Read the audit log
    ///
    /// Events newest first (at most `limit`, default 100, up to 1000), optionally only one
    /// `action`, one `client_id`, one `actor` (the name, case ignored; with `*`, a pattern in
    /// which `*` stands for any text), or failures only. Every event kept is found, however
    /// many came after it.
    ///
    /// Page on with the answer's cursors: `before=<older>` for the next older page,
    /// `after=<newer>` for the next newer one (one of the two at a time), with the same
    /// filters. A search by an `actor` pattern reads at most 10,000 events per request, so its
    /// page may hold fewer than `limit` events, even none, and still name an `older` page.
    #[oai(path = "/audit", method = "get", operation_id = "audit_log")]
    #[allow(clippy::too_many_arguments)]
    async fn audit_log(
        &self,
        Data(state): Data<&AppState>,
        action: Query<Option<String>>,
        client_id: Query<Option<String>>,
        actor: Query<Option<String>>,
        failures_only: Query<Option<bool>>,
        limit: Query<Option<usize>>,
        before: Query<Option<i64>>,
        after: Query<Option<i64>>,
        _auth: AdminAuth,
    ) -> Result<Json<AuditList>, AdminError> {
        let filter = AuditFilter::parse(
            action.0.as_deref(),
            client_id.0.as_deref(),
            actor.0.as_deref(),
            failures_only.0.unwrap_or(false),
        )
        .map_err(AdminError::bad_request)?;
        let from = match (before.0, after.0) {
            (None, None) => AuditFrom::Newest,
            (Some(cursor), None) => AuditFrom::Before(cursor),
            (None, Some(cursor)) => AuditFrom::After(cursor),
            (Some(_), Some(_)) => {
                let message = "give either `before` or `after`, not both";
                return Err(AdminError::bad_request(message.into()));
            }
        };
        let limit = limit.0.unwrap_or(100).clamp(1, 1000);
        let found = audit::search(state, &filter, from, limit).await?;
        Ok(Json(AuditList {
            events: found.events.into_iter().map(AuditEntry::from).collect(),
            older: found.older,
            newer: found.newer,
        }))
    }

    /// Sign a user out everywhere
    ///
    /// Ends every single sign-on session of the user and revokes every authorization code,
    /// access token and refresh token issued to them, for every app: their next request to any
    /// app needs a new sign-in. `username` is the name they sign in with, or their subject
    /// (`sub`); a user already deleted from the directory is named by their subject. Sessions
    /// and tokens from before the service indexed them per user are not found; they expire on
    /// their own. Audited.
    #[oai(
        path = "/users/:username/revoke",
        method = "post",
        operation_id = "revoke_user"
    )]
    async fn revoke_user(
        &self,
        Data(state): Data<&AppState>,
        username: Path<String>,
        AdminAuth(caller): AdminAuth,
    ) -> Result<RevokeUserResponse, AdminError> {
        if username.0.trim().is_empty() {
            return Err(AdminError::bad_request("name the user to sign out".into()));
        }
        let done = super::users::sign_out_everywhere(state, caller.actor(), &username.0).await?;
        Ok(RevokeUserResponse::SignedOut(Json(UserSignedOut {
            sub: done.sub,
            sessions_ended: done.sessions,
            grants_revoked: done.grants,
            admin_sessions_ended: done.admin_sessions,
        })))
    }
}
