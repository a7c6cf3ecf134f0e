//! CORS for browser apps: which scripts may read which answers.
//!
//! - `/oauth/token`, `/oauth/revoke`, `/oauth/userinfo`: an answer is readable by a script of a
//!   web origin of the app concerned (the one that authenticated; the access token's app), and
//!   an error answer by a script of a web origin of any enabled app, so that a browser app can
//!   read why it was refused. A preflight from an origin some app has is answered 204 with
//!   the methods and headers these endpoints take. Every other origin gets no CORS header.
//! - The discovery documents and the JWKS are public: any origin may read them (`*`).
//! - Everything else (the authorize endpoint, the pages, the admin side) sends none.
//!
//! Never `Access-Control-Allow-Credentials`: these endpoints take no cookie. The origins come
//! from [`Origins`], a copy in memory, so no answer costs a store read of its own.

use crate::apps::Origins;
use crate::domain::{ClientId, WebOrigin};
use crate::oidc::discovery::paths;
use poem::http::header::{
    ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS, ACCESS_CONTROL_ALLOW_ORIGIN,
    ACCESS_CONTROL_MAX_AGE, ALLOW, ORIGIN, VARY,
};
use poem::http::{HeaderValue, Method, StatusCode};
use poem::{Endpoint, IntoResponse, Middleware, PathPattern, Request, Response};
use std::sync::{Arc, OnceLock};

/// The methods the app endpoints take.
const METHODS: &str = "GET, POST";
/// The request headers a script may send them.
const HEADERS: &str = "Authorization, Content-Type";
/// How long a browser may keep a preflight's answer (10 minutes).
const MAX_AGE: &str = "600";

/// What an endpoint's answers are to scripts of other origins.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Readable by the web origins of the app concerned; errors by those of any app.
    App,
    /// Readable by any origin.
    Public,
}

fn kind_of(path: &str) -> Option<(Kind, &'static str)> {
    [
        (paths::TOKEN, Kind::App),
        (paths::REVOKE, Kind::App),
        (paths::USERINFO, Kind::App),
        (paths::OPENID_CONFIGURATION, Kind::Public),
        (paths::AUTHORIZATION_SERVER, Kind::Public),
        (paths::JWKS, Kind::Public),
    ]
    .into_iter()
    .find(|(p, _)| *p == path)
    .map(|(p, kind)| (kind, p))
}

/// The app a request concerns, told by its handler once it knows: the app that authenticated
/// at the token or revocation endpoint, the access token's app at userinfo.
#[derive(Clone, Default)]
pub struct ConcernedApp(Arc<OnceLock<ClientId>>);

impl ConcernedApp {
    /// Tells the middleware which app the request concerns, on a request it wraps.
    pub fn tell(req: &Request, app: &ClientId) {
        if let Some(slot) = req.data::<ConcernedApp>() {
            let _ = slot.0.set(app.clone());
        }
    }
}

/// The CORS middleware.
pub struct Cors {
    origins: Arc<Origins>,
}

impl Cors {
    /// Answers from the copy of the apps' origins in `origins`.
    pub fn new(origins: Arc<Origins>) -> Self {
        Self { origins }
    }
}

impl<E: Endpoint> Middleware<E> for Cors {
    type Output = CorsEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        CorsEndpoint {
            inner,
            origins: Arc::clone(&self.origins),
        }
    }
}

/// The endpoint [`Cors`] wraps.
pub struct CorsEndpoint<E> {
    inner: E,
    origins: Arc<Origins>,
}

impl<E: Endpoint> Endpoint for CorsEndpoint<E> {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        let Some((kind, path)) = kind_of(req.uri().path()) else {
            return self.inner.call(req).await.map(IntoResponse::into_response);
        };
        let origin = req
            .headers()
            .get(ORIGIN)
            .and_then(|v| v.to_str().ok())
            .and_then(WebOrigin::of_header);
        if req.method() == Method::OPTIONS {
            return Ok(self.preflight(kind, path, origin.as_ref()).await);
        }
        // An app's backend sends no Origin: nothing to decide, nothing to note.
        let concerned = (kind == Kind::App && origin.is_some()).then(ConcernedApp::default);
        if let Some(concerned) = &concerned {
            req.set_data(concerned.clone());
        }
        let mut response = match self.inner.call(req).await {
            Ok(r) => r.into_response(),
            Err(e) => answer_of(e),
        };
        match kind {
            Kind::Public => {
                set(&mut response, ACCESS_CONTROL_ALLOW_ORIGIN, "*");
            }
            Kind::App => {
                vary(&mut response);
                if let Some(origin) = origin {
                    let index = self.origins.current().await;
                    let allowed = if response.status().is_success() {
                        concerned
                            .as_ref()
                            .and_then(|c| c.0.get())
                            .is_some_and(|app| index.app_allows(app, &origin))
                    } else {
                        index.any_allows(&origin)
                    };
                    if allowed {
                        set(&mut response, ACCESS_CONTROL_ALLOW_ORIGIN, origin.as_str());
                    }
                }
            }
        }
        Ok(response)
    }
}

impl<E> CorsEndpoint<E> {
    /// The answer to an `OPTIONS` request: 204, with the CORS headers of a preflight when the
    /// origin may call the endpoint.
    async fn preflight(
        &self,
        kind: Kind,
        path: &'static str,
        origin: Option<&WebOrigin>,
    ) -> Response {
        let mut response = Response::builder()
            .status(StatusCode::NO_CONTENT)
            .header(ALLOW, format!("{METHODS}, OPTIONS"))
            .finish();
        // For the request metrics: the route this answers for, one of the few above.
        response.set_data(PathPattern(Arc::from(path)));
        let allow_origin = match (kind, origin) {
            (Kind::Public, _) => Some("*".to_owned()),
            (Kind::App, None) => None,
            (Kind::App, Some(origin)) => {
                vary(&mut response);
                let index = self.origins.current().await;
                index.any_allows(origin).then(|| origin.as_str().to_owned())
            }
        };
        if let Some(allow_origin) = allow_origin {
            set(&mut response, ACCESS_CONTROL_ALLOW_ORIGIN, &allow_origin);
            set(&mut response, ACCESS_CONTROL_ALLOW_METHODS, METHODS);
            set(&mut response, ACCESS_CONTROL_ALLOW_HEADERS, HEADERS);
            set(&mut response, ACCESS_CONTROL_MAX_AGE, MAX_AGE);
        }
        response
    }
}

/// An error as the response it becomes, keeping the route it matched for the request metrics.
fn answer_of(error: poem::Error) -> Response {
    let pattern = error.data::<PathPattern>().cloned();
    let mut response = error.into_response();
    if let Some(pattern) = pattern {
        response.set_data(pattern);
    }
    response
}

fn set(response: &mut Response, name: poem::http::HeaderName, value: &str) {
    if let Ok(value) = HeaderValue::from_str(value) {
        response.headers_mut().insert(name, value);
    }
}

/// Says that the answer depends on the `Origin` header, beside anything else it depends on.
fn vary(response: &mut Response) {
    response
        .headers_mut()
        .append(VARY, HeaderValue::from_static("Origin"));
}
