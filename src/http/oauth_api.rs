//! `/oauth/token` and `/oauth/userinfo`: thin handlers over `crate::oauth`.

use super::cors::ConcernedApp;
use crate::domain::{Claims, ClientId, SecretToken};
use crate::oauth::client_auth::ClientCredentials;
use crate::oauth::token::{self, TokenParams, TokenRequest, TokenSuccess};
use crate::oauth::{userinfo, OAuthError, Refused};
use crate::state::AppState;
use crate::web::oauth_error::{self, ErrorBody};
use poem::web::Data;
use poem::{IntoResponse, Request};
use poem_openapi::payload::{Form, Json, Payload};
use poem_openapi::registry::{MetaSchemaRef, Registry};
use poem_openapi::{ApiResponse, Object, OpenApi, Tags};
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};

/// Path of the token endpoint.
pub const TOKEN_PATH: &str = "/oauth/token";
/// Path of the userinfo endpoint.
pub const USERINFO_PATH: &str = "/oauth/userinfo";

#[derive(Tags)]
enum ApiTags {
    /// OAuth 2.0 endpoints called by app backends.
    #[oai(rename = "OAuth 2.0")]
    OAuth,
}

/// The token request body (`application/x-www-form-urlencoded`). Which fields are required
/// depends on `grant_type`. Each parameter may appear once; unknown parameters are ignored.
#[derive(Object, Deserialize)]
#[oai(rename = "TokenRequest")]
pub struct TokenForm {
    /// `authorization_code` or `refresh_token`.
    grant_type: Option<String>,
    /// The app's client id (or send it in the Basic header).
    client_id: Option<String>,
    /// The app's client secret (`client_secret_post`), or send id and secret in an
    /// `Authorization: Basic` header (`client_secret_basic`), never both. Public apps send none.
    client_secret: Option<String>,
    /// authorization_code: the one-time code from the callback.
    code: Option<String>,
    /// authorization_code: the same redirect URI as in the authorize request.
    redirect_uri: Option<String>,
    /// authorization_code: the PKCE verifier, when the authorize request sent a challenge.
    code_verifier: Option<String>,
    /// refresh_token: the refresh token issued earlier.
    refresh_token: Option<String>,
    /// refresh_token: optional, space-separated; may only narrow the granted scope.
    scope: Option<String>,
}

/// Responses of the token endpoint.
#[derive(ApiResponse)]
#[oai(bad_request_handler = "token_bad_request")]
pub enum TokenResponse {
    /// Tokens issued (RFC 6749 §5.1). Sent with `Cache-Control: no-store`.
    #[oai(status = 200)]
    Ok(Json<TokenSuccess>),
    /// RFC 6749 §5.2: invalid_request, invalid_grant, unauthorized_client,
    /// unsupported_grant_type or invalid_scope.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// RFC 6749 §5.2: invalid_client (client authentication failed).
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>, #[oai(header = "WWW-Authenticate")] String),
    /// server_error: details are in the server log under the same time.
    #[oai(status = 500)]
    ServerError(Json<ErrorBody>),
    /// temporarily_unavailable: the store or directory is unreachable; retry shortly.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

fn token_bad_request(err: poem::Error) -> TokenResponse {
    TokenResponse::BadRequest(Json(oauth_error::body(&OAuthError::InvalidRequest(
        format!("malformed token request: {err}"),
    ))))
}

impl From<OAuthError> for TokenResponse {
    fn from(err: OAuthError) -> Self {
        let body = Json(oauth_error::body(&err));
        match oauth_error::status(&err).as_u16() {
            401 => TokenResponse::Unauthorized(body, r#"Basic realm="sso-bridge""#.into()),
            500 => TokenResponse::ServerError(body),
            503 => TokenResponse::Unavailable(body),
            _ => TokenResponse::BadRequest(body),
        }
    }
}

/// The user's identity claims released by the token's scopes (`openid`: sub; `profile`: name,
/// first_name, last_name, employee_code, job_title, department, phone; `email`: email; `role`:
/// role; `groups`: groups), each only when the directory has a value; only `sub` is always
/// present.
#[derive(Object)]
pub struct UserInfo {
    /// The user id (scope `openid`).
    sub: String,
    /// Full name (scope `profile`).
    #[oai(skip_serializing_if_is_none)]
    name: Option<String>,
    /// Given name (scope `profile`).
    #[oai(skip_serializing_if_is_none)]
    first_name: Option<String>,
    /// Family name (scope `profile`).
    #[oai(skip_serializing_if_is_none)]
    last_name: Option<String>,
    /// Employee code (scope `profile`).
    #[oai(skip_serializing_if_is_none)]
    employee_code: Option<String>,
    /// Job title (scope `profile`).
    #[oai(skip_serializing_if_is_none)]
    job_title: Option<String>,
    /// Department (scope `profile`).
    #[oai(skip_serializing_if_is_none)]
    department: Option<String>,
    /// Phone number (scope `profile`).
    #[oai(skip_serializing_if_is_none)]
    phone: Option<String>,
    /// Email address (scope `email`).
    #[oai(skip_serializing_if_is_none)]
    email: Option<String>,
    /// One of employee, manager, hr, finance, ceo, admin, superadmin (scope `role`).
    #[oai(skip_serializing_if_is_none)]
    role: Option<String>,
    /// The names of the groups the user is a member of, nested ones included, in byte order
    /// (scope `groups`); absent when there is none.
    #[oai(skip_serializing_if_is_none)]
    groups: Option<Vec<String>>,
}

/// The userinfo answer: the [`UserInfo`] object, written straight from the token's claims
/// rather than built first (each claim is the field of its name).
pub struct UserInfoBody(Claims);

/// The fields of [`UserInfo`], in the order a JSON object's keys are written (serde_json's map
/// sorts them), as the answer has always had them.
const USERINFO_FIELDS: [&str; 11] = [
    "department",
    "email",
    "employee_code",
    "first_name",
    "groups",
    "job_title",
    "last_name",
    "name",
    "phone",
    "role",
    "sub",
];

impl Payload for UserInfoBody {
    const CONTENT_TYPE: &'static str = <Json<UserInfo> as Payload>::CONTENT_TYPE;

    fn schema_ref() -> MetaSchemaRef {
        <Json<UserInfo> as Payload>::schema_ref()
    }

    fn register(registry: &mut Registry) {
        <Json<UserInfo> as Payload>::register(registry);
    }
}

impl IntoResponse for UserInfoBody {
    fn into_response(self) -> poem::Response {
        poem::web::Json(UserInfoFields(&self.0)).into_response()
    }
}

/// The claims as the [`UserInfo`] object: its fields that have a value, and `sub` always.
struct UserInfoFields<'a>(&'a Claims);

impl Serialize for UserInfoFields<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for field in USERINFO_FIELDS {
            if field == "groups" {
                // The one list: written when it has a member, as `Option<Vec<_>>` was.
                let mut groups = self.0.groups().peekable();
                if groups.peek().is_some() {
                    map.serialize_entry(field, &GroupNames(self.0))?;
                }
                continue;
            }
            match self.0.get(field) {
                Some(value) => map.serialize_entry(field, value)?,
                None if field == "sub" => map.serialize_entry(field, "")?,
                None => {}
            }
        }
        map.end()
    }
}

/// The `groups` claim's names, as a JSON array.
struct GroupNames<'a>(&'a Claims);

impl Serialize for GroupNames<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.groups())
    }
}

/// Responses of the userinfo endpoint.
#[derive(ApiResponse)]
pub enum UserInfoResponse {
    /// The user's claims, filtered by the token's scopes.
    #[oai(status = 200)]
    Ok(UserInfoBody),
    /// RFC 6750 §3.1 invalid_request (malformed header, token in the query string).
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>, #[oai(header = "WWW-Authenticate")] String),
    /// RFC 6750 §3.1 invalid_token: missing, unknown, expired or revoked access token.
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>, #[oai(header = "WWW-Authenticate")] String),
    /// server_error.
    #[oai(status = 500)]
    ServerError(Json<ErrorBody>),
    /// temporarily_unavailable: the store is unreachable; retry shortly.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

impl From<OAuthError> for UserInfoResponse {
    fn from(err: OAuthError) -> Self {
        let challenge = format!(
            r#"Bearer realm="sso-bridge", error="{}", error_description="{}""#,
            err.code(),
            err.description().replace('"', "'")
        );
        let body = Json(oauth_error::body(&err));
        match oauth_error::status(&err).as_u16() {
            401 => UserInfoResponse::Unauthorized(body, challenge),
            500 => UserInfoResponse::ServerError(body),
            503 => UserInfoResponse::Unavailable(body),
            _ => UserInfoResponse::BadRequest(body, challenge),
        }
    }
}

/// The OAuth 2.0 API.
pub struct OAuthApi;

#[OpenApi(tag = "ApiTags::OAuth")]
impl OAuthApi {
    /// Token endpoint
    ///
    /// Exchanges an authorization code (`grant_type=authorization_code`, RFC 6749 §4.1.3) or a
    /// refresh token (`grant_type=refresh_token`, RFC 6749 §6) for an access token and a new
    /// refresh token. Called from the app's backend only. The client authenticates with
    /// `client_secret_basic` (id and secret form-urlencoded, then Basic) or `client_secret_post`;
    /// public apps send only `client_id` and must use PKCE. A code works once: a second use is
    /// `invalid_grant` and revokes the tokens the first use issued. Refresh tokens rotate on
    /// every use.
    #[oai(path = "/oauth/token", method = "post", operation_id = "token")]
    async fn token(
        &self,
        req: &Request,
        Data(state): Data<&AppState>,
        form: Form<TokenForm>,
    ) -> TokenResponse {
        let form = form.0;
        let raw_client_id = form.client_id.clone();
        let authorization = req
            .headers()
            .get(poem::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok());
        let credentials = match ClientCredentials::from_request(
            authorization,
            form.client_id,
            form.client_secret.map(SecretToken::from_presented),
        ) {
            Ok(c) => c,
            Err(e) => {
                let id = raw_client_id.as_deref();
                token::refused(state, id, authorization.is_some(), false, &e).await;
                return e.error.into();
            }
        };
        let params = TokenParams {
            grant_type: form.grant_type,
            code: form.code.map(SecretToken::from_presented),
            redirect_uri: form.redirect_uri,
            code_verifier: form.code_verifier,
            refresh_token: form.refresh_token.map(SecretToken::from_presented),
            scope: form.scope,
        };
        let request = match TokenRequest::parse(params) {
            Ok(request) => request,
            Err(e) => {
                let (id, e) = (credentials.client_id.as_deref(), Refused::from(e));
                token::refused(state, id, credentials.via_basic, false, &e).await;
                return e.error.into();
            }
        };
        let address = crate::web::address::ClientAddr::of(req).shown();
        let client_id = credentials.client_id.as_deref().and_then(ClientId::parse);
        match token::exchange(state, credentials, request, address).await {
            Ok(success) => {
                // Tokens are issued only to the app that authenticated as this client id.
                if let Some(id) = &client_id {
                    ConcernedApp::tell(req, id);
                }
                TokenResponse::Ok(Json(success))
            }
            Err(e) => e.into(),
        }
    }

    /// Userinfo endpoint
    ///
    /// The signed-in user's identity claims (OpenID Connect Core §5.3), filtered by the access
    /// token's scopes. Send the token as `Authorization: Bearer <token>`; tokens in the query
    /// string are refused.
    #[oai(path = "/oauth/userinfo", method = "get", operation_id = "userinfo")]
    async fn userinfo_get(&self, req: &Request, Data(state): Data<&AppState>) -> UserInfoResponse {
        userinfo_for(req, state).await
    }

    /// Userinfo endpoint (POST)
    ///
    /// Same as GET, for clients that use POST (OpenID Connect Core §5.3.1).
    #[oai(
        path = "/oauth/userinfo",
        method = "post",
        operation_id = "userinfo_post"
    )]
    async fn userinfo_post(&self, req: &Request, Data(state): Data<&AppState>) -> UserInfoResponse {
        userinfo_for(req, state).await
    }
}

async fn userinfo_for(req: &Request, state: &AppState) -> UserInfoResponse {
    let in_query = req.uri().query().is_some_and(|q| {
        url::form_urlencoded::parse(q.as_bytes()).any(|(k, _)| k == "access_token")
    });
    if in_query {
        return OAuthError::InvalidRequest(
            "access tokens are not accepted in the query string; use the Authorization header"
                .into(),
        )
        .into();
    }
    let header = req
        .headers()
        .get(poem::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    let token = match userinfo::parse_bearer(header) {
        Ok(t) => t,
        Err(e) => return e.into(),
    };
    match userinfo::claims(state, &token).await {
        Ok((client_id, claims)) => {
            ConcernedApp::tell(req, &client_id);
            UserInfoResponse::Ok(UserInfoBody(claims))
        }
        Err(e) => e.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// The answer as it was built before: the `UserInfo` object from the claims.
    fn built(c: &Claims) -> UserInfo {
        let get = |k: &str| c.get(k).map(str::to_owned);
        UserInfo {
            sub: c.sub().to_owned(),
            name: get("name"),
            first_name: get("first_name"),
            last_name: get("last_name"),
            employee_code: get("employee_code"),
            job_title: get("job_title"),
            department: get("department"),
            phone: get("phone"),
            email: get("email"),
            role: get("role"),
            groups: Some(c.groups().map(str::to_owned).collect::<Vec<_>>())
                .filter(|g| !g.is_empty()),
        }
    }

    async fn body(response: poem::Response) -> (Option<String>, String) {
        let content_type = response.content_type().map(str::to_owned);
        (
            content_type,
            response.into_body().into_string().await.unwrap(),
        )
    }

    #[tokio::test]
    async fn the_answer_is_the_userinfo_object_byte_for_byte() {
        let every: Vec<(String, String)> = USERINFO_FIELDS
            .iter()
            .filter(|f| **f != "groups")
            .map(|f| (f.to_string(), format!("{f} \"value\" ü / <x>")))
            .collect();
        let sets: Vec<Vec<(String, String)>> = vec![
            every.clone(),
            vec![("sub".into(), "ada".into())],
            vec![("sub".into(), "ada".into()), ("role".into(), "hr".into())],
            every
                .iter()
                .filter(|(k, _)| k != "email")
                .cloned()
                .collect(),
        ];
        for set in sets {
            let claims = Claims::new(set.into_iter().collect::<BTreeMap<_, _>>()).unwrap();
            let grouped = claims.clone().with_groups(
                vec!["finance \"x\"".into(), "admins".into()],
                vec!["cn=admins,ou=groups".into()],
            );
            for claims in [claims, grouped] {
                let before = body(Json(built(&claims)).into_response()).await;
                let now = body(UserInfoBody(claims).into_response()).await;
                assert_eq!(now, before);
            }
        }
        // A stored record without a sub (none is written so) still answers one, empty.
        let no_sub: Claims = serde_json::from_str(r#"{"name":"x","other":"y"}"#).unwrap();
        let before = body(Json(built(&no_sub)).into_response()).await;
        assert_eq!(body(UserInfoBody(no_sub).into_response()).await, before);
    }
}
