//! What several areas' tests do through the flows: register an app, sign in on its sign-in
//! page, get a code for a session and exchange it, refresh, use an access token.

use super::TestContext;
use crate::apps::{Actor, NewApp};
use crate::domain::{ClientRecord, SecretToken};
use crate::events::Place;
use crate::oauth::client_auth::ClientCredentials;
use crate::oauth::issue::{issue_code, Subject};
use crate::oauth::token::{self, TokenRequest, TokenSuccess};
use crate::oauth::{authorize, pkce, userinfo, OAuthError};
use crate::session::SessionRecord;
use crate::signin::{check_password, start_session, Where, AMR_PWD};
use secrecy::SecretString;

impl TestContext {
    /// Registers a confidential app (PKCE required) with one redirect URI, as `ada` would;
    /// answers it and its secret.
    pub async fn register_app(&self, name: &str) -> App {
        let (record, secret) = crate::apps::manage::create(self, ADA, new_app(name))
            .await
            .unwrap();
        App {
            record,
            secret: secret.unwrap(),
        }
    }

    /// `name` signs in with `password` on the sign-in page of `app` and a session starts:
    /// answers its cookie value and the session.
    pub async fn signed_in(
        &self,
        app: &App,
        name: &str,
        password: &str,
    ) -> (String, SessionRecord) {
        let at = Where {
            place: Place::App,
            client_id: Some(&app.record.client_id),
            address: None,
        };
        let password = SecretString::from(password);
        let passed = check_password(self, at, name, &password).await.unwrap();
        let amr = vec![AMR_PWD.to_owned()];
        start_session(self, None, passed.claims, amr, Default::default())
            .await
            .unwrap()
    }

    /// The code an authorize request of `app` for `openid profile`, with the PKCE challenge of
    /// `verifier`, yields to `session`.
    pub async fn code(&self, app: &App, session: &SessionRecord, verifier: &str) -> SecretToken {
        let query: String = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("response_type", "code")
            .append_pair("client_id", app.record.client_id.as_str())
            .append_pair("redirect_uri", REDIRECT_URI)
            .append_pair("scope", "openid profile")
            .append_pair("code_challenge", &pkce::challenge_of(verifier))
            .append_pair("code_challenge_method", "S256")
            .finish();
        let (_, request) = authorize::validate(self.store.as_ref(), &query)
            .await
            .unwrap();
        let location = issue_code(self, &request, Subject::of(session))
            .await
            .unwrap();
        let location = url::Url::parse(&location).unwrap();
        let (_, code) = location.query_pairs().find(|(k, _)| k == "code").unwrap();
        SecretToken::from_presented(code)
    }

    /// `app` exchanges `code` with `verifier` at the token endpoint.
    pub async fn exchange(
        &self,
        app: &App,
        code: &SecretToken,
        verifier: &str,
    ) -> Result<TokenSuccess, OAuthError> {
        let request = TokenRequest::AuthorizationCode {
            code: SecretToken::from_presented(code.expose()),
            redirect_uri: REDIRECT_URI.to_owned(),
            code_verifier: Some(verifier.to_owned()),
        };
        token::exchange(self, app.credentials(), request, None).await
    }

    /// `app` presents `refresh_token` at the token endpoint.
    pub async fn refresh(
        &self,
        app: &App,
        refresh_token: &str,
    ) -> Result<TokenSuccess, OAuthError> {
        let request = TokenRequest::RefreshToken {
            refresh_token: SecretToken::from_presented(refresh_token),
            scope: None,
        };
        token::exchange(self, app.credentials(), request, None).await
    }

    /// `name` signs in to `app` and the app exchanges the code: its tokens, and the session.
    pub async fn tokens(&self, app: &App, name: &str) -> (TokenSuccess, String) {
        let (cookie, session) = self.signed_in(app, name, &format!("{name}-demo")).await;
        let code = self.code(app, &session, VERIFIER).await;
        let tokens = self.exchange(app, &code, VERIFIER).await.unwrap();
        (tokens, cookie)
    }

    /// Whether `access_token` still opens userinfo.
    pub async fn access_works(&self, access_token: &str) -> bool {
        let token = SecretToken::from_presented(access_token);
        userinfo::claims(self, &token).await.is_ok()
    }
}

/// The error code of a refused token request.
pub fn refusal(result: Result<TokenSuccess, OAuthError>) -> &'static str {
    match result {
        Ok(_) => panic!("the token request was answered with tokens"),
        Err(e) => e.code(),
    }
}

/// A PKCE verifier (RFC 7636 §4.1: 43 to 128 unreserved characters).
pub const VERIFIER: &str = "a-pkce-verifier-long-enough-to-be-one-of-rfc-7636";

/// A registered app and its secret.
pub struct App {
    /// The app as stored.
    pub record: ClientRecord,
    /// Its secret, as shown once.
    pub secret: SecretToken,
}

impl App {
    /// Its client id and secret, as sent in the body of a token request.
    pub fn credentials(&self) -> ClientCredentials {
        ClientCredentials {
            client_id: Some(self.record.client_id.as_str().to_owned()),
            secret: Some(SecretToken::from_presented(self.secret.expose())),
            via_basic: false,
        }
    }
}

/// The demo directory's superadmin, acting from nowhere in particular.
pub const ADA: Actor<'static> = Actor {
    sub: "ada",
    address: None,
};

/// The redirect URI of the apps [`new_app`] describes.
pub const REDIRECT_URI: &str = "https://app.example/callback";

/// A confidential app requiring PKCE, with the redirect URI [`REDIRECT_URI`].
pub fn new_app(name: &str) -> NewApp {
    NewApp {
        name: name.to_owned(),
        redirect_uris: vec![REDIRECT_URI.to_owned()],
        public: false,
        require_pkce: true,
        post_logout_redirect_uris: Vec::new(),
        may_introspect: false,
        id_token_signed_response_alg: None,
        allowed_roles: Vec::new(),
        allowed_groups: Vec::new(),
        web_origins: Vec::new(),
        backchannel_logout_uri: None,
    }
}
