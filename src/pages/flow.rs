//! The authorize request a page of the sign-in belongs to, opened from the page's address
//! (`?request_id=`) or from its form (with the request's CSRF token): the pages' handlers take
//! it already opened, as an extractor ([`PageFlow`], [`FlowForm`]).
//!
//! Every page checks that it comes from the browser that started the request (the flow
//! cookie), and every form that it carries the request's CSRF token; the page's language is
//! chosen for the request, and its app must still be enabled. The steps after the password
//! ([`Flow`]) also need the browser's session, one the request accepts.

use crate::domain::{ClientRecord, Digest};
use crate::session::pending::{self, PendingRequest};
use crate::session::{self, SessionRecord, FLOW_COOKIE, SESSION_COOKIE};
use crate::state::AppState;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::respond;
use poem::web::cookie::CookieJar;
use poem::web::{Data, Form, Query};
use poem::{FromRequest, Request, RequestBody};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::future::Future;

/// A pending authorize request, opened by one of its pages, with its app.
pub struct Resumed {
    pub request_id: String,
    pub pending: PendingRequest,
    pub client: ClientRecord,
}

/// A signed-in browser in the middle of an authorize request.
pub struct Flow {
    pub request_id: String,
    pub pending: PendingRequest,
    pub client: ClientRecord,
    pub session: SessionRecord,
    pub cookie: String,
}

/// What a page of the sign-in opens before its handler runs.
pub trait Opening: Sized {
    /// Opens request `request_id` for the browser holding `jar`. Forms (`csrf` given) must
    /// carry the request's CSRF token.
    fn open(
        state: &AppState,
        jar: &CookieJar,
        request_id: &str,
        csrf: Option<Option<&str>>,
    ) -> impl Future<Output = Result<Self, PageError>> + Send;
}

impl Opening for Resumed {
    async fn open(
        state: &AppState,
        jar: &CookieJar,
        request_id: &str,
        csrf: Option<Option<&str>>,
    ) -> Result<Self, PageError> {
        let flow_cookie = respond::cookie_value(&state.settings, jar, FLOW_COOKIE);
        let pending = match csrf {
            Some(csrf) => pending::resume(state, request_id, csrf, flow_cookie.as_deref()).await?,
            None => {
                let pending = pending::load(state, request_id)
                    .await?
                    .ok_or(PageError::Expired)?;
                if !flow_cookie.is_some_and(|f| Digest::of(&f).ct_eq(&pending.browser)) {
                    return Err(PageError::Forged);
                }
                pending
            }
        };
        let oidc = &pending.request.oidc;
        i18n::for_sign_in(oidc.ui_locales.as_deref(), pending.admitted_at);
        let client = client_of(state, &pending).await?;
        Ok(Resumed {
            request_id: request_id.to_owned(),
            pending,
            client,
        })
    }
}

impl Resumed {
    /// The browser's session and its cookie, when it is one this request accepts.
    pub async fn session(
        &self,
        state: &AppState,
        jar: &CookieJar,
    ) -> Result<Option<(String, SessionRecord)>, PageError> {
        let cookie = respond::cookie_value(&state.settings, jar, SESSION_COOKIE);
        let now = state.now();
        let session = session::current(state, cookie.as_deref()).await?;
        let cookie = cookie.unwrap_or_default();
        Ok(session
            .filter(|s| self.pending.accepts(&cookie, s, now))
            .map(|s| (cookie, s)))
    }
}

impl Opening for Flow {
    /// The request, and a session it accepts: none is an expired sign-in.
    async fn open(
        state: &AppState,
        jar: &CookieJar,
        request_id: &str,
        csrf: Option<Option<&str>>,
    ) -> Result<Self, PageError> {
        let resumed = Resumed::open(state, jar, request_id, csrf).await?;
        let (cookie, session) = resumed
            .session(state, jar)
            .await?
            .ok_or(PageError::Expired)?;
        let Resumed {
            request_id,
            pending,
            client,
        } = resumed;
        Ok(Flow {
            request_id,
            pending,
            client,
            session,
            cookie,
        })
    }
}

/// The app of a pending request, while it is enabled.
pub(super) async fn client_of(
    state: &AppState,
    pending: &PendingRequest,
) -> Result<ClientRecord, PageError> {
    state
        .store
        .client(&pending.request.client_id)
        .await?
        .filter(|c| c.enabled)
        .ok_or_else(|| PageError::Untrusted {
            title: Text::new("error-unknown-app-title"),
            message: Text::new("error-app-gone-message"),
        })
}

/// `?request_id=` of the pages.
#[derive(Deserialize)]
pub struct FlowQuery {
    #[serde(default)]
    pub request_id: String,
}

/// A page shown at its address, with the request it belongs to opened (no CSRF token: a
/// page only shows). An address that cannot be read is answered as the framework answers it.
pub struct PageFlow<O = Flow>(pub O);

impl<'a, O: Opening> FromRequest<'a> for PageFlow<O> {
    async fn from_request(req: &'a Request, _body: &mut RequestBody) -> poem::Result<Self> {
        let Data(state) = <Data<&AppState>>::from_request_without_body(req).await?;
        let Query(query) = <Query<FlowQuery>>::from_request_without_body(req).await?;
        let opened = O::open(state, req.cookie(), &query.request_id, None).await?;
        Ok(PageFlow(opened))
    }
}

/// What every form of the sign-in's pages carries.
pub trait FlowFields {
    /// The request it belongs to, and the CSRF token it was given.
    fn flow_fields(&self) -> (&str, Option<&str>);
}

/// A form of the sign-in's pages as one handler reads it. A form read by one handler only
/// is its own step.
pub trait Step {
    /// Its fields.
    type Form: DeserializeOwned + FlowFields + Send + Sync;
    /// What the log calls it when it cannot be read.
    const NAME: &'static str;
}

/// A posted form, read, with the request it belongs to opened under its CSRF token. A form
/// that cannot be read is the "bad form" page.
pub struct FlowForm<S: Step, O = Flow> {
    pub flow: O,
    pub form: S::Form,
}

impl<'a, S: Step, O: Opening> FromRequest<'a> for FlowForm<S, O> {
    async fn from_request(req: &'a Request, body: &mut RequestBody) -> poem::Result<Self> {
        let Data(state) = <Data<&AppState>>::from_request_without_body(req).await?;
        let Form(form) = <Form<S::Form>>::from_request(req, body)
            .await
            .map_err(|e| PageError::unreadable(S::NAME, e))?;
        let (request_id, csrf) = form.flow_fields();
        let flow = O::open(state, req.cookie(), request_id, Some(csrf)).await?;
        Ok(FlowForm { flow, form })
    }
}
