//! Who may call the admin API: the holder of an admin token from `admin_sign_in`, sent as
//! `Authorization: Bearer <token>`.
//!
//! [`AdminAuth`] is an operation parameter that the OpenAPI document lists as the `admin_token`
//! bearer security scheme. It implements poem-openapi's extractor itself rather than deriving
//! `SecurityScheme`: the derived one answers a missing or non-bearer header with poem's
//! plain-text 401 before its checker runs, and operations returning `Result<_, AdminError>`
//! never reach the error type's bad-request handler, so only extracting by hand keeps every
//! refusal the admin API's JSON error.

use super::error::AdminError;
use crate::admin::guard::{self, AdminSession};
use crate::apps::Actor;
use crate::state::AppState;
use crate::web::address::ClientAddr;
use poem::web::Data;
use poem::{FromRequest, Request, RequestBody};
use poem_openapi::registry::{MetaSecurityScheme, Registry};
use poem_openapi::{ApiExtractor, ApiExtractorType, ExtractParamOptions};

/// Name of the security scheme in the OpenAPI document.
const SCHEME: &str = "admin_token";

/// The signed-in superadmin of an admin API call. Operations take it after their other
/// parameters, so a malformed request is refused before its token is looked up.
pub(crate) struct AdminAuth(pub(crate) Caller);

/// The signed-in superadmin of a request, and where it came from.
pub(crate) struct Caller {
    session: AdminSession,
    address: Option<String>,
}

impl Caller {
    /// The superadmin, as the audit log records them.
    pub(crate) fn actor(&self) -> Actor<'_> {
        Actor {
            sub: &self.session.sub,
            address: self.address.as_deref(),
        }
    }
}

impl<'a> ApiExtractor<'a> for AdminAuth {
    const TYPES: &'static [ApiExtractorType] = &[ApiExtractorType::SecurityScheme];

    type ParamType = ();
    type ParamRawType = ();

    fn register(registry: &mut Registry) {
        registry.create_security_scheme(
            SCHEME,
            MetaSecurityScheme {
                ty: "http",
                description: Some(
                    "An admin token (`token` of `admin_sign_in`), as `Authorization: Bearer <token>`.",
                ),
                name: None,
                key_in: None,
                scheme: Some("bearer"),
                bearer_format: None,
                flows: None,
                openid_connect_url: None,
            },
        );
    }

    fn security_schemes() -> Vec<&'static str> {
        vec![SCHEME]
    }

    /// The token must name a live admin session; a refusal is the admin API's error response.
    async fn from_request(
        req: &'a Request,
        _body: &mut RequestBody,
        _param_opts: ExtractParamOptions<Self::ParamType>,
    ) -> poem::Result<Self> {
        let Data(state) = <Data<&AppState>>::from_request_without_body(req).await?;
        let header = req
            .headers()
            .get(poem::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok());
        match guard::check(state, header).await {
            Ok(session) => Ok(AdminAuth(Caller {
                session,
                address: ClientAddr::of(req).shown(),
            })),
            Err(e) => Err(AdminError::from(e).into()),
        }
    }
}
