//! Who may use the admin screen: a signed-in SSO session whose user passes
//! [`guard::may_administer`], plus an admin sign-in record that ends after
//! `admin.session_idle_secs` without a request and holds the CSRF token of the screen's forms.
//!
//! [`Ctx`] is the screen's gate as a poem extractor: a handler that takes one runs only for a
//! superadmin signed in to the screen.

use super::views::Nav;
use crate::admin::guard;
use crate::apps::Actor;
use crate::domain::secret::random_id;
use crate::domain::{Claims, Digest};
use crate::session::{self, Device, RecheckError, SESSION_COOKIE};
use crate::state::AppState;
use crate::store::{ScreenSignIn, StoreError};
use crate::web::address::ClientAddr;
use crate::web::errors::PageError;
use crate::web::respond;
use poem::web::cookie::CookieJar;
use poem::web::Data;
use poem::{FromRequest, Request, RequestBody};
use subtle::ConstantTimeEq;

/// A superadmin on the admin screen.
#[derive(Debug, Clone)]
pub struct Ctx {
    /// User id.
    pub sub: String,
    /// Display name.
    pub user: String,
    /// CSRF token every form must echo.
    pub csrf_token: String,
    /// Where the request came from.
    pub address: Option<String>,
}

impl Ctx {
    /// The navigation of a page in `section`.
    pub fn nav(&self, section: &'static str) -> Nav {
        Nav {
            user: self.user.clone(),
            csrf_token: self.csrf_token.clone(),
            section,
        }
    }

    /// The actor the audit log records.
    pub fn actor(&self) -> Actor<'_> {
        Actor {
            sub: &self.sub,
            address: self.address.as_deref(),
        }
    }

    /// Checks a form's CSRF token, in constant time.
    pub fn check(&self, presented: Option<&str>) -> Result<(), PageError> {
        let ok: bool = presented
            .map(|p| p.as_bytes().ct_eq(self.csrf_token.as_bytes()).into())
            .unwrap_or(false);
        ok.then_some(()).ok_or(PageError::Forged)
    }
}

/// Where a browser that is not signed in to the admin screen is sent.
const SIGN_IN_PATH: &str = "/admin/login";

/// The superadmin of this request. Anyone else is answered for the page: not signed in (never,
/// or idle too long) with the sign-in form, signed in without the superadmin role with the 403
/// page. A pass renews the idle timeout.
impl<'a> FromRequest<'a> for Ctx {
    async fn from_request(req: &'a Request, _body: &mut RequestBody) -> poem::Result<Self> {
        let Data(state) = <Data<&AppState>>::from_request_without_body(req).await?;
        match gate(state, req.cookie(), ClientAddr::of(req).shown()).await {
            Ok(Gate::Allowed(ctx)) => Ok(ctx),
            Ok(Gate::SignIn) => Err(PageError::SignInFirst(SIGN_IN_PATH).into()),
            Ok(Gate::Refused) => Err(PageError::AdminForbidden.into()),
            Err(e) => Err(PageError::from(e).into()),
        }
    }
}

/// Whether a browser may see the admin screen.
enum Gate {
    /// Yes.
    Allowed(Ctx),
    /// Not signed in to the admin screen (never, or idle too long): show the sign-in form.
    SignIn,
    /// Signed in, but not allowed to administer: 403.
    Refused,
}

/// Decides for the browser holding `jar`; a pass renews the idle timeout.
///
/// The SSO session is confirmed by the directory as single sign-on confirms it
/// ([`session::current`]): a superadmin the directory no longer finds, or finds demoted, is
/// signed out of the screen and shown the sign-in form.
async fn gate(
    state: &AppState,
    jar: &CookieJar,
    address: Option<String>,
) -> Result<Gate, RecheckError> {
    let cookie = respond::cookie_value(&state.settings, jar, SESSION_COOKIE);
    let Some(sso) = session::current(state, cookie.as_deref()).await? else {
        return Ok(Gate::SignIn);
    };
    let key = Digest::of(cookie.as_deref().unwrap_or_default());
    if guard::may_administer(&sso.claims).is_err() {
        // Only a superadmin demoted since signing in holds a screen sign-in here.
        if state.store.screen_sign_in(&key).await?.is_some() {
            state.store.delete_screen_sign_in(&key).await?;
            tracing::info!(
                sub = sso.claims.sub(),
                "admin screen closed: no longer a superadmin"
            );
            return Ok(Gate::SignIn);
        }
        return Ok(Gate::Refused);
    }
    let Some(record) = state.store.screen_sign_in(&key).await? else {
        return Ok(Gate::SignIn);
    };
    if record.sub != sso.claims.sub() {
        return Ok(Gate::SignIn);
    }
    let idle = state.settings.admin.session_idle.as_secs();
    state.store.put_screen_sign_in(&key, &record, idle).await?;
    Ok(Gate::Allowed(Ctx {
        sub: record.sub,
        user: record.user,
        csrf_token: record.csrf_token,
        address,
    }))
}

/// Starts a fresh SSO session for a superadmin who just signed in with the methods `amr` in
/// the browser `device` (never reusing the id the browser brought) and opens the admin screen
/// for it.
pub async fn open(
    state: &AppState,
    jar: &CookieJar,
    (claims, amr): (Claims, Vec<String>),
    device: Device,
) -> Result<(), StoreError> {
    if let Some(old) = respond::cookie_value(&state.settings, jar, SESSION_COOKIE) {
        close_id(state, &old).await?;
    }
    let record = ScreenSignIn {
        sub: claims.sub().to_owned(),
        user: claims.get("name").unwrap_or(claims.sub()).to_owned(),
        csrf_token: random_id(32),
    };
    let (id, _) = session::create(state, claims, amr, device).await?;
    let ttl = state.settings.session.ttl.as_secs();
    jar.add(respond::cookie(
        &state.settings,
        SESSION_COOKIE,
        id.clone(),
        Some(ttl),
    ));
    let idle = state.settings.admin.session_idle.as_secs();
    state
        .store
        .put_screen_sign_in(&Digest::of(&id), &record, idle)
        .await
}

/// Signs the browser out of the admin screen and of single sign-on; the apps that got tokens
/// in the session are told (back-channel logout).
pub async fn close(state: &AppState, jar: &CookieJar) -> Result<(), StoreError> {
    if let Some(cookie) = respond::cookie_value(&state.settings, jar, SESSION_COOKIE) {
        state
            .store
            .delete_screen_sign_in(&Digest::of(&cookie))
            .await?;
        session::end(state, &cookie).await?;
    }
    respond::clear_cookie(&state.settings, jar, SESSION_COOKIE);
    Ok(())
}

async fn close_id(state: &AppState, id: &str) -> Result<(), StoreError> {
    state.store.delete_screen_sign_in(&Digest::of(id)).await?;
    session::destroy(state, id).await
}
