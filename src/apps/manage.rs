//! The life of a connected app: register, edit, rotate its secret, disable / enable, delete.
//!
//! The admin API and the admin screen both call these functions, so the CLI and the screen
//! behave the same and every step is audited in one place. Secrets are shown once (returned
//! here, never stored raw) and kept only as digests.
//!
//! Disabling and deleting revoke every code and token of the app at once: userinfo then stays
//! a single store read (it never has to look at the app's record). The token endpoint reads the
//! app again after issuing, so a token request racing a disable cannot leave a live token
//! behind.

use super::Context;
use crate::domain::app_access::{
    parse_groups, parse_logout_uri, parse_origins, parse_roles, AccessError,
};
use crate::domain::audit::Action;
use crate::domain::bounds;
use crate::domain::redirect_uri::RedirectUriError;
use crate::domain::{ClientId, ClientRecord, RedirectUri, SecretToken, SigningAlg};
use crate::events::Event;
use crate::store::{Replaced, StoreError};

/// What a superadmin asks for when registering an app.
#[derive(Debug, Clone, Default)]
pub struct NewApp {
    /// Display name (shown on the consent page).
    pub name: String,
    /// Callback URLs.
    pub redirect_uris: Vec<String>,
    /// A native or mobile app without a secret (PKCE required).
    pub public: bool,
    /// Whether a confidential app must use PKCE.
    pub require_pkce: bool,
    /// Where OpenID Connect logout may send the browser back to (validated like redirect URIs).
    pub post_logout_redirect_uris: Vec<String>,
    /// A resource server: may introspect the tokens of other apps (confidential apps only).
    pub may_introspect: bool,
    /// The algorithm of its id_tokens; `None`: the service's default.
    pub id_token_signed_response_alg: Option<SigningAlg>,
    /// Roles whose holders may use it; with `allowed_groups` both empty, everyone may.
    pub allowed_roles: Vec<String>,
    /// Groups (names or DNs) whose members may use it.
    pub allowed_groups: Vec<String>,
    /// Browser origins besides those of the redirect URIs (CORS).
    pub web_origins: Vec<String>,
    /// Where it hears that someone signed out (Back-Channel Logout 1.0).
    pub backchannel_logout_uri: Option<String>,
}

/// What an edit changes; `None` keeps the current value.
#[derive(Debug, Clone, Default)]
pub struct Changes {
    /// New display name.
    pub name: Option<String>,
    /// New callback URLs (replacing all of them).
    pub redirect_uris: Option<Vec<String>>,
    /// New PKCE rule for a confidential app (public apps always require PKCE).
    pub require_pkce: Option<bool>,
    /// New post-logout redirect URIs (replacing all of them; empty removes them).
    pub post_logout_redirect_uris: Option<Vec<String>>,
    /// Whether the app may introspect the tokens of other apps.
    pub may_introspect: Option<bool>,
    /// The algorithm of its id_tokens: `Some(None)` goes back to the service's default.
    pub id_token_signed_response_alg: Option<Option<SigningAlg>>,
    /// New roles that may use it (replacing them; empty removes them).
    pub allowed_roles: Option<Vec<String>>,
    /// New groups that may use it (replacing them; empty removes them).
    pub allowed_groups: Option<Vec<String>>,
    /// New web origins (replacing the given ones; empty removes them).
    pub web_origins: Option<Vec<String>>,
    /// The back-channel logout URI: `Some(None)` removes it.
    pub backchannel_logout_uri: Option<Option<String>>,
}

/// Who acts, from where: what the audit log records.
#[derive(Debug, Clone, Copy)]
pub struct Actor<'a> {
    /// The superadmin's user id.
    pub sub: &'a str,
    /// The address the request came from.
    pub address: Option<&'a str>,
}

/// Why an app operation was refused.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("name must be 1 to 100 characters")]
    BadName,
    #[error("at least one redirect URI is required")]
    NoRedirectUri,
    #[error("at most {max} URIs may be registered in each list", max = bounds::REDIRECT_URIS)]
    TooManyUris,
    #[error("{}", join(.0))]
    BadRedirectUris(Vec<RedirectUriError>),
    #[error("no app with client_id `{0}`")]
    NotFound(String),
    #[error("this is a public app: it has no secret to rotate")]
    PublicApp,
    #[error("a public app cannot introspect tokens: introspection needs a client secret")]
    PublicIntrospection,
    #[error("id_tokens cannot be signed with {alg} here: this service holds a signing key for {} only; to offer {alg}, name a {alg} key in oidc.extra_signing_key_files", names(.supported))]
    UnsupportedAlg {
        alg: SigningAlg,
        supported: Vec<SigningAlg>,
    },
    /// A role, group, web origin or back-channel logout URI that cannot be registered.
    #[error(transparent)]
    Access(#[from] AccessError),
    /// Other changes to the app kept being written while this one was made.
    #[error("the app kept changing while this change was made; try again")]
    Busy,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<RedirectUriError> for AppError {
    fn from(err: RedirectUriError) -> Self {
        AppError::BadRedirectUris(vec![err])
    }
}

fn names(algs: &[SigningAlg]) -> String {
    let all: Vec<&str> = algs.iter().map(|a| a.as_str()).collect();
    all.join(" and ")
}

/// `alg` when the service can sign with it (`None`, the default, always).
fn signable(cx: &impl Context, alg: Option<SigningAlg>) -> Result<Option<SigningAlg>, AppError> {
    match alg {
        Some(alg) if !cx.id_token_algs().contains(&alg) => Err(AppError::UnsupportedAlg {
            alg,
            supported: cx.id_token_algs().to_vec(),
        }),
        _ => Ok(alg),
    }
}

fn join(errors: &[RedirectUriError]) -> String {
    let all: Vec<String> = errors.iter().map(ToString::to_string).collect();
    all.join("; ")
}

fn valid_name(raw: &str) -> Result<String, AppError> {
    let name = raw.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(AppError::BadName);
    }
    Ok(name.to_owned())
}

/// Validates redirect URIs (at least one), reporting each bad one; drops blanks and duplicates.
pub fn valid_redirect_uris(raw: &[String]) -> Result<Vec<RedirectUri>, AppError> {
    let uris = valid_uris(raw)?;
    if uris.is_empty() {
        return Err(AppError::NoRedirectUri);
    }
    Ok(uris)
}

/// Validates URIs with the redirect URI rules (none is fine), reporting each bad one; drops
/// blanks and duplicates. Post-logout redirect URIs follow these rules too.
pub fn valid_uris(raw: &[String]) -> Result<Vec<RedirectUri>, AppError> {
    let mut uris = Vec::new();
    let mut errors = Vec::new();
    let given = raw.iter().map(|r| r.trim()).filter(|r| !r.is_empty());
    if given.clone().count() > bounds::REDIRECT_URIS {
        return Err(AppError::TooManyUris);
    }
    for raw in given {
        match RedirectUri::parse(raw) {
            Ok(uri) if !uris.contains(&uri) => uris.push(uri),
            Ok(_) => {}
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(AppError::BadRedirectUris(errors));
    }
    Ok(uris)
}

/// Registers an app; answers its record and, for a confidential app, the secret (shown once).
pub async fn create(
    cx: &impl Context,
    by: Actor<'_>,
    new: NewApp,
) -> Result<(ClientRecord, Option<SecretToken>), AppError> {
    let name = valid_name(&new.name)?;
    let redirect_uris = valid_redirect_uris(&new.redirect_uris)?;
    let post_logout_redirect_uris = valid_uris(&new.post_logout_redirect_uris)?;
    if new.public && new.may_introspect {
        return Err(AppError::PublicIntrospection);
    }
    let id_token_signed_response_alg = signable(cx, new.id_token_signed_response_alg)?;
    let allowed_roles = parse_roles(&new.allowed_roles)?;
    let allowed_groups = parse_groups(&new.allowed_groups)?;
    let web_origins = parse_origins(&new.web_origins)?;
    let backchannel_logout_uri = new
        .backchannel_logout_uri
        .as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .map(parse_logout_uri)
        .transpose()?;
    let secret = (!new.public).then(SecretToken::generate);
    let record = ClientRecord {
        client_id: ClientId::generate(),
        name,
        secret_digest: secret.as_ref().map(SecretToken::digest),
        redirect_uris,
        require_pkce: new.public || new.require_pkce,
        enabled: true,
        created_by: by.sub.to_owned(),
        created_at: cx.now(),
        post_logout_redirect_uris,
        may_introspect: new.may_introspect,
        id_token_signed_response_alg,
        revision: 0,
        allowed_roles,
        allowed_groups,
        web_origins,
        backchannel_logout_uri,
    };
    cx.store().put_client(&record).await?;
    let mut kind = match (new.public, new.may_introspect) {
        (true, _) => "public",
        (false, false) => "confidential",
        (false, true) => "confidential; may introspect other apps' tokens",
    }
    .to_owned();
    if let Some(alg) = id_token_signed_response_alg {
        kind.push_str(&format!("; {alg} id_tokens"));
    }
    if record.is_restricted() {
        kind.push_str(&format!("; {}", who_may(&record)));
    }
    audit(
        cx,
        by,
        Action::AppCreated,
        &record,
        format!("registered `{}` ({kind})", record.name),
    )
    .await;
    Ok((record, secret))
}

/// Every app, by name.
pub async fn list(cx: &impl Context) -> Result<Vec<ClientRecord>, StoreError> {
    let mut apps = cx.store().clients().await?;
    apps.sort_by_key(|a| a.name.to_lowercase());
    Ok(apps)
}

/// One app, by the client id as typed.
pub async fn find(cx: &impl Context, raw_id: &str) -> Result<ClientRecord, AppError> {
    let not_found = || AppError::NotFound(raw_id.to_owned());
    let id = ClientId::parse(raw_id).ok_or_else(not_found)?;
    cx.store().client(&id).await?.ok_or_else(not_found)
}

/// How often a change is made again from a fresher copy of the app before giving up: each
/// try loses only to another admin's change that was written meanwhile.
const CHANGE_TRIES: usize = 8;

/// Applies `edit` to the app `raw_id` and writes it over the revision it was read at; when
/// another change was written meanwhile (on this node or another), applies `edit` again to
/// that one, so no change undoes another. `edit` answers what it changed, in words (nothing:
/// nothing is written). Answers the app as written, and what changed.
async fn change(
    cx: &impl Context,
    raw_id: &str,
    mut edit: impl FnMut(&mut ClientRecord) -> Result<Vec<String>, AppError>,
) -> Result<(ClientRecord, Vec<String>), AppError> {
    let mut current = find(cx, raw_id).await?;
    for _ in 0..CHANGE_TRIES {
        let mut app = current.clone();
        let what = edit(&mut app)?;
        if what.is_empty() {
            return Ok((app, what));
        }
        app.revision = current.revision.saturating_add(1);
        match cx.store().replace_client(&app).await? {
            Replaced::Done => return Ok((app, what)),
            Replaced::Stale(now) => current = *now,
            Replaced::Gone => return Err(AppError::NotFound(raw_id.to_owned())),
        }
    }
    Err(AppError::Busy)
}

/// Edits an app's name, redirect URIs, post-logout redirect URIs, PKCE rule, whether it may
/// introspect other apps' tokens, or its id_token algorithm.
pub async fn update(
    cx: &impl Context,
    by: Actor<'_>,
    raw_id: &str,
    changes: Changes,
) -> Result<ClientRecord, AppError> {
    // Checked once, before any copy of the app is read.
    let name = changes.name.as_deref().map(valid_name).transpose()?;
    let redirect_uris = changes
        .redirect_uris
        .as_deref()
        .map(valid_redirect_uris)
        .transpose()?;
    let post_logout = changes
        .post_logout_redirect_uris
        .as_deref()
        .map(valid_uris)
        .transpose()?;
    let roles = changes
        .allowed_roles
        .as_deref()
        .map(parse_roles)
        .transpose()?;
    let groups = changes
        .allowed_groups
        .as_deref()
        .map(parse_groups)
        .transpose()?;
    let origins = changes
        .web_origins
        .as_deref()
        .map(parse_origins)
        .transpose()?;
    let logout_uri = match &changes.backchannel_logout_uri {
        None => None,
        Some(None) => Some(None),
        Some(Some(raw)) if raw.trim().is_empty() => Some(None),
        Some(Some(raw)) => Some(Some(parse_logout_uri(raw)?)),
    };
    let (app, what) = change(cx, raw_id, |app| {
        let mut what = Vec::new();
        if let Some(name) = &name {
            if *name != app.name {
                what.push(format!("name `{}` → `{name}`", app.name));
                app.name = name.clone();
            }
        }
        if let Some(uris) = &redirect_uris {
            if *uris != app.redirect_uris {
                let list: Vec<&str> = uris.iter().map(RedirectUri::as_str).collect();
                what.push(format!("redirect URIs → {}", list.join(" ")));
                app.redirect_uris = uris.clone();
            }
        }
        if let Some(uris) = &post_logout {
            if *uris != app.post_logout_redirect_uris {
                let list: Vec<&str> = uris.iter().map(RedirectUri::as_str).collect();
                what.push(format!("post-logout redirect URIs → {}", list.join(" ")));
                app.post_logout_redirect_uris = uris.clone();
            }
        }
        if let Some(pkce) = changes.require_pkce {
            let pkce = pkce || app.is_public();
            if pkce != app.require_pkce {
                what.push(format!(
                    "require PKCE → {}",
                    if pkce { "on" } else { "off" }
                ));
                app.require_pkce = pkce;
            }
        }
        if let Some(introspect) = changes.may_introspect {
            if introspect && app.is_public() {
                return Err(AppError::PublicIntrospection);
            }
            if introspect != app.may_introspect {
                what.push(format!(
                    "may introspect other apps' tokens → {}",
                    if introspect { "on" } else { "off" }
                ));
                app.may_introspect = introspect;
            }
        }
        if let Some(alg) = changes.id_token_signed_response_alg {
            set_alg(cx, app, alg, &mut what)?;
        }
        let (was_roles, was_groups) = (app.allowed_roles.clone(), app.allowed_groups.clone());
        if let Some(roles) = &roles {
            app.allowed_roles = roles.clone();
        }
        if let Some(groups) = &groups {
            app.allowed_groups = groups.clone();
        }
        if app.allowed_roles != was_roles || app.allowed_groups != was_groups {
            what.push(who_may(app));
        }
        if let Some(origins) = &origins {
            if *origins != app.web_origins {
                let list: Vec<&str> = origins.iter().map(|o| o.as_str()).collect();
                what.push(format!("web origins → [{}]", list.join(" ")));
                app.web_origins = origins.clone();
            }
        }
        if let Some(uri) = &logout_uri {
            if *uri != app.backchannel_logout_uri {
                what.push(match uri {
                    Some(uri) => format!("back-channel logout → {uri}"),
                    None => "back-channel logout removed".into(),
                });
                app.backchannel_logout_uri = uri.clone();
            }
        }
        Ok(what)
    })
    .await?;
    if !what.is_empty() {
        audit(cx, by, Action::AppUpdated, &app, what.join("; ")).await;
    }
    Ok(app)
}

/// Who may use `app`, in words.
fn who_may(app: &ClientRecord) -> String {
    if !app.is_restricted() {
        return "everyone may use it".into();
    }
    let roles: Vec<&str> = app.allowed_roles.iter().map(|r| r.as_str()).collect();
    format!(
        "only roles [{}] and groups [{}] may use it",
        roles.join(", "),
        app.allowed_groups.join(", ")
    )
}

/// Gives `app` the id_token algorithm `alg` when it differs, saying so in `what`.
fn set_alg(
    cx: &impl Context,
    app: &mut ClientRecord,
    alg: Option<SigningAlg>,
    what: &mut Vec<String>,
) -> Result<(), AppError> {
    if alg == app.id_token_signed_response_alg {
        return Ok(());
    }
    let alg = signable(cx, alg)?;
    what.push(match alg {
        Some(alg) => format!("id_token algorithm → {alg}"),
        None => "id_token algorithm → the service's default".to_owned(),
    });
    app.id_token_signed_response_alg = alg;
    Ok(())
}

/// Gives a confidential app a new secret; the old one stops working at once.
pub async fn rotate_secret(
    cx: &impl Context,
    by: Actor<'_>,
    raw_id: &str,
) -> Result<(ClientRecord, SecretToken), AppError> {
    let secret = SecretToken::generate();
    let (app, _) = change(cx, raw_id, |app| {
        if app.is_public() {
            return Err(AppError::PublicApp);
        }
        app.secret_digest = Some(secret.digest());
        Ok(vec!["secret".to_owned()])
    })
    .await?;
    audit(
        cx,
        by,
        Action::SecretRotated,
        &app,
        "the old secret no longer works".into(),
    )
    .await;
    Ok((app, secret))
}

/// Disables or enables an app. Disabling revokes every code and token it holds.
pub async fn set_enabled(
    cx: &impl Context,
    by: Actor<'_>,
    raw_id: &str,
    enabled: bool,
) -> Result<ClientRecord, AppError> {
    // Flag first, revoke second: a token request that raced this reads the flag again after
    // storing its tokens, and revokes them itself if it missed the revocation.
    let (app, what) = change(cx, raw_id, |app| {
        if app.enabled == enabled {
            return Ok(Vec::new());
        }
        app.enabled = enabled;
        Ok(vec!["enabled".to_owned()])
    })
    .await?;
    if what.is_empty() {
        return Ok(app);
    }
    if enabled {
        audit(
            cx,
            by,
            Action::AppEnabled,
            &app,
            "can sign users in again".into(),
        )
        .await;
    } else {
        cx.store().revoke_client(&app.client_id).await?;
        audit(
            cx,
            by,
            Action::AppDisabled,
            &app,
            "every code and token of the app was revoked".into(),
        )
        .await;
    }
    Ok(app)
}

/// Deletes an app and revokes every code and token it holds.
pub async fn delete(
    cx: &impl Context,
    by: Actor<'_>,
    raw_id: &str,
) -> Result<ClientRecord, AppError> {
    let app = find(cx, raw_id).await?;
    cx.store().delete_client(&app.client_id).await?;
    cx.store().revoke_client(&app.client_id).await?;
    audit(
        cx,
        by,
        Action::AppDeleted,
        &app,
        format!(
            "deleted `{}`; every code and token of the app was revoked",
            app.name
        ),
    )
    .await;
    Ok(app)
}

async fn audit(
    cx: &impl Context,
    by: Actor<'_>,
    action: Action,
    app: &ClientRecord,
    detail: String,
) {
    let event = Event::AppChanged {
        action,
        by: by.sub.to_owned(),
        address: by.address.map(str::to_owned),
        client_id: app.client_id.clone(),
        detail,
    };
    cx.events().publish(event).await;
}
