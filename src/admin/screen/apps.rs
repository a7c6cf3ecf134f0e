//! Connected Apps pages: list and search, register (secret shown once), show and edit.

use super::page;
use super::session::Ctx;
use super::views::{
    AccessFields, AlgChoice, AppFormView, AppRow, AppView, AppsView, FailureRow, SecretView,
};
use crate::apps::{self, doctor, AppError, Changes, NewApp};
use crate::domain::app_access::{AccessError, MAX_ENTRIES, MAX_GROUP};
use crate::domain::redirect_uri::RedirectUriError;
use crate::domain::{ClientRecord, RedirectUri, Role, SigningAlg};
use crate::state::AppState;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::respond::redirect;
use poem::http::StatusCode;
use poem::web::{Data, Form, Path, Query};
use poem::{handler, Response};
use serde::Deserialize;

pub(super) fn not_found(err: AppError) -> PageError {
    match err {
        AppError::Store(e) => e.into(),
        AppError::NotFound(id) => {
            PageError::AdminNotFound(Text::new("admin-error-not-found").arg("id", id))
        }
        other => PageError::AdminNotFound(app_error(&other)),
    }
}

/// What the admin screen says of a refused app change, in the page's language (the admin
/// API says it in English, from the error itself).
fn app_error(err: &AppError) -> Text {
    match err {
        AppError::BadName => Text::new("admin-error-bad-name"),
        AppError::NoRedirectUri => Text::new("admin-error-no-redirect-uri"),
        AppError::TooManyUris => {
            Text::new("admin-error-too-many-uris").arg("max", crate::domain::bounds::REDIRECT_URIS)
        }
        AppError::BadRedirectUris(all) => match all.first() {
            Some(first) => uri_error(first),
            None => Text::new("admin-error-no-redirect-uri"),
        },
        AppError::NotFound(id) => Text::new("admin-error-not-found").arg("id", id.as_str()),
        AppError::PublicApp => Text::new("admin-error-public-app"),
        AppError::PublicIntrospection => Text::new("admin-error-public-introspection"),
        AppError::UnsupportedAlg { alg, supported } => {
            let names: Vec<&str> = supported.iter().map(|a| a.as_str()).collect();
            Text::new("admin-error-unsupported-alg")
                .arg("alg", alg.as_str())
                .arg("supported", names.join(", "))
        }
        AppError::Busy => Text::new("admin-error-busy"),
        AppError::Access(e) => access_error(e),
        AppError::Store(_) => Text::new("error-store-message"),
    }
}

/// What the admin screen says of who-may-use or browser fields it cannot take.
fn access_error(err: &AccessError) -> Text {
    match err {
        AccessError::UnknownRole(role) => {
            Text::new("admin-error-unknown-role").arg("role", role.as_str())
        }
        AccessError::BadGroup => Text::new("admin-error-bad-group").arg("max", MAX_GROUP),
        AccessError::TooMany => Text::new("admin-error-too-many-listed").arg("max", MAX_ENTRIES),
        AccessError::BadOrigin(origin) => {
            Text::new("admin-error-bad-origin").arg("origin", origin.as_str())
        }
        AccessError::BadLogoutUri(uri) => {
            Text::new("admin-error-bad-logout-uri").arg("uri", uri.as_str())
        }
    }
}

/// What the admin screen says of a redirect URI it cannot register.
fn uri_error(err: &RedirectUriError) -> Text {
    let (id, uri) = match err {
        RedirectUriError::NotAbsolute(u) => ("admin-uri-not-absolute", u),
        RedirectUriError::Fragment(u) => ("admin-uri-fragment", u),
        RedirectUriError::Wildcard(u) => ("admin-uri-wildcard", u),
        RedirectUriError::ForbiddenScheme(u) => ("admin-uri-scheme", u),
        RedirectUriError::NotHttps(u) => ("admin-uri-https", u),
        RedirectUriError::TooLong(u) => {
            return Text::new("admin-uri-too-long")
                .arg("uri", u.as_str())
                .arg("max", crate::domain::bounds::REDIRECT_URI.to_string())
        }
    };
    Text::new(id).arg("uri", uri.as_str())
}

/// What a redirect's `done` parameter says on the next page.
fn notice(done: Option<&str>) -> Option<Text> {
    let id = match done? {
        "updated" => "admin-notice-updated",
        "unchanged" => "admin-notice-unchanged",
        "disabled" => "admin-notice-disabled",
        "enabled" => "admin-notice-enabled",
        "deleted" => "admin-notice-deleted",
        _ => return None,
    };
    Some(Text::new(id))
}

pub(super) fn see_other(location: &str) -> Result<Response, PageError> {
    Ok(redirect(StatusCode::SEE_OTHER, location))
}

/// Query of the list page.
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    #[serde(default)]
    q: String,
    done: Option<String>,
}

/// `GET /admin/apps`: every app, or those whose name or client id contains the search.
#[handler]
pub async fn list(
    Data(state): Data<&AppState>,
    Query(query): Query<ListQuery>,
    ctx: Ctx,
) -> Result<Response, PageError> {
    let all = apps::manage::list(state).await?;
    let needle = query.q.trim().to_lowercase();
    let mut rows = Vec::new();
    for app in all.iter().filter(|a| {
        needle.is_empty()
            || a.name.to_lowercase().contains(&needle)
            || a.client_id.as_str().to_lowercase().contains(&needle)
    }) {
        rows.push(AppRow::new(
            app,
            apps::last_used::last_used(state, &app.client_id).await?,
        ));
    }
    let view = AppsView {
        nav: ctx.nav("apps"),
        query: query.q.trim().to_owned(),
        shown: rows.len(),
        apps: rows,
        total: all.len(),
        notice: notice(query.done.as_deref()),
    };
    page(state, StatusCode::OK, &view)
}

/// `GET /admin/apps/new`: the registration form.
#[handler]
pub async fn new_form(Data(state): Data<&AppState>, ctx: Ctx) -> Result<Response, PageError> {
    let view = AppFormView {
        nav: ctx.nav("apps"),
        name: String::new(),
        redirect_uris: String::new(),
        post_logout_uris: String::new(),
        public: false,
        require_pkce: true,
        may_introspect: false,
        id_token_algs: AlgChoice::all(state.keys.algorithms(), None),
        access: AccessFields::of(None),
        errors: Vec::new(),
    };
    page(state, StatusCode::OK, &view)
}

/// Who may use an app and its browser fields, as both app forms send them.
#[derive(Debug, Default, Deserialize)]
pub struct AccessForm {
    #[serde(default)]
    allow_employee: Option<String>,
    #[serde(default)]
    allow_manager: Option<String>,
    #[serde(default)]
    allow_hr: Option<String>,
    #[serde(default)]
    allow_finance: Option<String>,
    #[serde(default)]
    allow_ceo: Option<String>,
    #[serde(default)]
    allow_admin: Option<String>,
    #[serde(default)]
    allow_superadmin: Option<String>,
    #[serde(default)]
    allowed_groups: String,
    #[serde(default)]
    web_origins: String,
    #[serde(default)]
    backchannel_logout_uri: String,
}

impl AccessForm {
    /// The roles ticked.
    fn roles(&self) -> Vec<String> {
        [
            (&self.allow_employee, Role::Employee),
            (&self.allow_manager, Role::Manager),
            (&self.allow_hr, Role::Hr),
            (&self.allow_finance, Role::Finance),
            (&self.allow_ceo, Role::Ceo),
            (&self.allow_admin, Role::Admin),
            (&self.allow_superadmin, Role::Superadmin),
        ]
        .into_iter()
        .filter(|(ticked, _)| ticked.is_some())
        .map(|(_, role)| role.as_str().to_owned())
        .collect()
    }

    /// The fields again as sent, for a form shown with its errors.
    fn fields(&self) -> AccessFields {
        let ticked = self.roles();
        let mut fields = AccessFields::of(None);
        for role in &mut fields.roles {
            role.checked = ticked.iter().any(|t| t == role.value);
        }
        fields.groups = self.allowed_groups.clone();
        fields.web_origins = self.web_origins.clone();
        fields.backchannel_logout_uri = self.backchannel_logout_uri.clone();
        fields
    }
}

/// The registration form.
#[derive(Debug, Deserialize)]
pub struct RegisterForm {
    #[serde(default)]
    csrf_token: Option<String>,
    #[serde(default)]
    name: String,
    #[serde(default)]
    redirect_uris: String,
    #[serde(default)]
    post_logout_uris: String,
    #[serde(default)]
    app_type: String,
    #[serde(default)]
    require_pkce: Option<String>,
    #[serde(default)]
    may_introspect: Option<String>,
    #[serde(default)]
    id_token_alg: String,
    #[serde(flatten)]
    access: AccessForm,
}

fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.trim().to_owned())
        .filter(|l| !l.is_empty())
        .collect()
}

/// The select's value: empty for the service's default, else a JWS name. Anything else did not
/// come from the form.
fn chosen_alg(value: &str) -> Result<Option<SigningAlg>, PageError> {
    if value.is_empty() {
        return Ok(None);
    }
    SigningAlg::parse(value).map(Some).ok_or_else(|| {
        PageError::unreadable("form", "the id_token algorithm must be RS256 or ES256")
    })
}

/// A validation failure as one message per problem (one per bad redirect URI).
fn messages(err: &AppError) -> Vec<Text> {
    match err {
        AppError::BadRedirectUris(all) => all.iter().map(uri_error).collect(),
        other => vec![app_error(other)],
    }
}

/// `POST /admin/apps`: registers an app and shows its credentials, once.
#[handler]
pub async fn create(
    Data(state): Data<&AppState>,
    form: poem::Result<Form<RegisterForm>>,
    ctx: Ctx,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("form", e))?;
    ctx.check(form.csrf_token.as_deref())?;
    let public = form.app_type == "public";
    let alg = chosen_alg(&form.id_token_alg)?;
    let new = NewApp {
        name: form.name.clone(),
        redirect_uris: lines(&form.redirect_uris),
        public,
        require_pkce: form.require_pkce.is_some(),
        post_logout_redirect_uris: lines(&form.post_logout_uris),
        may_introspect: form.may_introspect.is_some(),
        id_token_signed_response_alg: alg,
        allowed_roles: form.access.roles(),
        allowed_groups: lines(&form.access.allowed_groups),
        web_origins: lines(&form.access.web_origins),
        backchannel_logout_uri: Some(form.access.backchannel_logout_uri.clone()),
    };
    match apps::manage::create(state, ctx.actor(), new).await {
        Ok((app, secret)) => {
            // Shown once: the secret cannot be shown again.
            i18n::no_return();
            let view = SecretView {
                nav: ctx.nav("apps"),
                heading: Text::new("admin-secret-registered").arg("app", app.name.as_str()),
                app: AppRow::new(&app, None),
                client_secret: secret.map(|s| s.expose().to_owned()),
            };
            page(state, StatusCode::CREATED, &view)
        }
        Err(AppError::Store(e)) => Err(e.into()),
        Err(err) => {
            i18n::return_to("/admin/apps/new");
            let view = AppFormView {
                nav: ctx.nav("apps"),
                name: form.name,
                redirect_uris: form.redirect_uris,
                post_logout_uris: form.post_logout_uris,
                public,
                require_pkce: form.require_pkce.is_some(),
                may_introspect: form.may_introspect.is_some(),
                id_token_algs: AlgChoice::all(state.keys.algorithms(), alg),
                access: form.access.fields(),
                errors: messages(&err),
            };
            page(state, StatusCode::BAD_REQUEST, &view)
        }
    }
}

/// Query of an app's page.
#[derive(Debug, Deserialize)]
pub struct ShowQuery {
    done: Option<String>,
}

async fn app_view(
    state: &AppState,
    ctx: &Ctx,
    app: &ClientRecord,
    notice: Option<Text>,
    errors: Vec<Text>,
) -> Result<AppView, PageError> {
    let failures = doctor::recent(state, &app.client_id).await?;
    let last_used = apps::last_used::last_used(state, &app.client_id).await?;
    Ok(AppView {
        nav: ctx.nav("apps"),
        title: Text::new("admin-app-title").arg("name", app.name.as_str()),
        app: AppRow::new(app, last_used),
        redirect_text: one_per_line(&app.redirect_uris),
        post_logout_text: one_per_line(&app.post_logout_redirect_uris),
        id_token_algs: AlgChoice::all(state.keys.algorithms(), app.id_token_signed_response_alg),
        access: AccessFields::of(Some(app)),
        failures: failures.into_iter().map(FailureRow::from).collect(),
        notice,
        errors,
    })
}

fn one_per_line(uris: &[RedirectUri]) -> String {
    uris.iter()
        .map(RedirectUri::as_str)
        .collect::<Vec<_>>()
        .join("\n")
}

/// `GET /admin/apps/:client_id`: the app, its edit form, actions and recent failures.
#[handler]
pub async fn show(
    Data(state): Data<&AppState>,
    Path(id): Path<String>,
    Query(query): Query<ShowQuery>,
    ctx: Ctx,
) -> Result<Response, PageError> {
    let app = apps::manage::find(state, &id).await.map_err(not_found)?;
    let view = app_view(state, &ctx, &app, notice(query.done.as_deref()), Vec::new()).await?;
    page(state, StatusCode::OK, &view)
}

/// The edit form.
#[derive(Debug, Deserialize)]
pub struct EditForm {
    #[serde(default)]
    csrf_token: Option<String>,
    #[serde(default)]
    name: String,
    #[serde(default)]
    redirect_uris: String,
    #[serde(default)]
    post_logout_uris: String,
    #[serde(default)]
    require_pkce: Option<String>,
    #[serde(default)]
    may_introspect: Option<String>,
    /// Absent (a form from before the select): kept as it is.
    #[serde(default)]
    id_token_alg: Option<String>,
    #[serde(flatten)]
    access: AccessForm,
}

/// `POST /admin/apps/:client_id`: saves the edit form.
#[handler]
pub async fn edit(
    Data(state): Data<&AppState>,
    Path(id): Path<String>,
    form: poem::Result<Form<EditForm>>,
    ctx: Ctx,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("form", e))?;
    ctx.check(form.csrf_token.as_deref())?;
    let before = apps::manage::find(state, &id).await.map_err(not_found)?;
    let changes = Changes {
        name: Some(form.name),
        redirect_uris: Some(lines(&form.redirect_uris)),
        require_pkce: Some(form.require_pkce.is_some()),
        post_logout_redirect_uris: Some(lines(&form.post_logout_uris)),
        may_introspect: Some(form.may_introspect.is_some()),
        id_token_signed_response_alg: form.id_token_alg.as_deref().map(chosen_alg).transpose()?,
        allowed_roles: Some(form.access.roles()),
        allowed_groups: Some(lines(&form.access.allowed_groups)),
        web_origins: Some(lines(&form.access.web_origins)),
        backchannel_logout_uri: Some(Some(form.access.backchannel_logout_uri.clone())),
    };
    match apps::manage::update(state, ctx.actor(), &id, changes).await {
        Ok(after) if after == before => see_other(&format!("/admin/apps/{id}?done=unchanged")),
        Ok(_) => see_other(&format!("/admin/apps/{id}?done=updated")),
        Err(AppError::Store(e)) => Err(e.into()),
        Err(AppError::NotFound(m)) => Err(not_found(AppError::NotFound(m))),
        Err(err) => {
            i18n::return_to(format!("/admin/apps/{}", before.client_id));
            let view = app_view(state, &ctx, &before, None, messages(&err)).await?;
            page(state, StatusCode::BAD_REQUEST, &view)
        }
    }
}
