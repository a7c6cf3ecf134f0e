//! Request and response bodies of the admin API.

use crate::audit::AuditRecord;
use crate::domain::{ClientRecord, SigningAlg};
use poem_openapi::types::MaybeUndefined;
use poem_openapi::{Enum, Object};

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

/// An id_token signing algorithm, by its JWS name.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdTokenAlg {
    /// RSA PKCS#1 v1.5 with SHA-256.
    #[oai(rename = "RS256")]
    Rs256,
    /// ECDSA on P-256 with SHA-256: far cheaper to sign than RS256.
    #[oai(rename = "ES256")]
    Es256,
}

impl From<SigningAlg> for IdTokenAlg {
    fn from(alg: SigningAlg) -> Self {
        match alg {
            SigningAlg::Rs256 => IdTokenAlg::Rs256,
            SigningAlg::Es256 => IdTokenAlg::Es256,
        }
    }
}

impl From<IdTokenAlg> for SigningAlg {
    fn from(alg: IdTokenAlg) -> Self {
        match alg {
            IdTokenAlg::Rs256 => SigningAlg::Rs256,
            IdTokenAlg::Es256 => SigningAlg::Es256,
        }
    }
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
    /// A resource server: may introspect the tokens of other apps. Without it an app's
    /// introspection answers only for its own tokens.
    pub may_introspect: bool,
    /// The algorithm its id_tokens are signed with; absent: the service's default (the first
    /// of the discovery document's `id_token_signing_alg_values_supported`).
    #[oai(skip_serializing_if_is_none)]
    pub id_token_signed_response_alg: Option<IdTokenAlg>,
    /// Whether the app may sign users in.
    pub enabled: bool,
    /// Superadmin who registered it.
    pub created_by: String,
    /// Registration time, Unix seconds.
    pub created_at: u64,
    /// Roles whose holders may use the app; with `allowed_groups`, empty when everyone may.
    pub allowed_roles: Vec<String>,
    /// Groups (names as the `groups` claim shows them, or DNs) whose members may use the app.
    pub allowed_groups: Vec<String>,
    /// Browser origins given besides those of the redirect URIs, whose scripts may call the
    /// token, userinfo and revocation endpoints (CORS).
    pub web_origins: Vec<String>,
    /// Where the app hears that someone signed out (OpenID Connect Back-Channel Logout 1.0).
    #[oai(skip_serializing_if_is_none)]
    pub backchannel_logout_uri: Option<String>,
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
            may_introspect: c.may_introspect,
            id_token_signed_response_alg: c.id_token_signed_response_alg.map(IdTokenAlg::from),
            enabled: c.enabled,
            created_by: c.created_by.clone(),
            created_at: c.created_at,
            allowed_roles: c
                .allowed_roles
                .iter()
                .map(|r| r.as_str().to_owned())
                .collect(),
            allowed_groups: c.allowed_groups.clone(),
            web_origins: c.web_origins.iter().map(|o| o.to_string()).collect(),
            backchannel_logout_uri: c.backchannel_logout_uri.clone(),
        }
    }
}

/// Every registered app.
#[derive(Object)]
pub struct AppList {
    /// The apps, by name.
    pub apps: Vec<App>,
}

/// PKCE unless asked otherwise (RFC 9700 §2.1.1).
fn pkce_by_default() -> bool {
    true
}

/// A new app to register.
#[derive(Object)]
pub struct CreateApp {
    /// Display name shown on the consent page (1–100 characters).
    pub name: String,
    /// Callback URLs, matched exactly: https (http only for loopback), or a private-use scheme
    /// for native apps; no fragment, no wildcard. At most 20, each at most 2048 bytes.
    pub redirect_uris: Vec<String>,
    /// A native or mobile app without a secret; it must use PKCE.
    #[oai(default)]
    pub public: bool,
    /// Whether a confidential app must use PKCE (public apps always must). Default: `true`,
    /// as RFC 9700 recommends PKCE for every client; `false` only for a confidential app that
    /// cannot send it.
    #[oai(default = "pkce_by_default")]
    pub require_pkce: bool,
    /// Where OpenID Connect RP-initiated logout may send the browser afterwards (same rules and
    /// limits as redirect URIs, matched exactly).
    #[oai(default)]
    pub post_logout_redirect_uris: Vec<String>,
    /// Register the app as a resource server that may introspect the tokens of other apps
    /// (confidential apps only). Without it its introspection answers only for its own tokens.
    #[oai(default)]
    pub may_introspect: bool,
    /// The algorithm of the app's id_tokens (OpenID Connect Dynamic Client Registration's
    /// name): `ES256` costs far less to sign than `RS256`. Absent: the service's default.
    /// Refused when the service holds no key for it (see `oidc.extra_signing_key_files`).
    pub id_token_signed_response_alg: Option<IdTokenAlg>,
    /// Roles (of employee, manager, hr, finance, ceo, admin, superadmin) whose holders may use
    /// the app. With `allowed_groups`, both empty (the default): everyone may.
    #[oai(default)]
    pub allowed_roles: Vec<String>,
    /// Groups whose members may use the app, nested membership counted: names as the `groups`
    /// claim shows them, or full DNs, compared case-insensitively. At most 50 of each.
    #[oai(default)]
    pub allowed_groups: Vec<String>,
    /// Browser origins (`scheme://host[:port]`) whose scripts may call the token, userinfo and
    /// revocation endpoints, besides the origins of the redirect URIs.
    #[oai(default)]
    pub web_origins: Vec<String>,
    /// Where the app hears that someone signed out (OpenID Connect Back-Channel Logout 1.0):
    /// https, or http to the loopback; a query is allowed, a fragment is not.
    pub backchannel_logout_uri: Option<String>,
}

/// Changes to an app; absent fields stay as they are.
#[derive(Object)]
pub struct UpdateApp {
    /// New display name (1–100 characters).
    pub name: Option<String>,
    /// New callback URLs, replacing the registered ones (at most 20, each at most 2048 bytes).
    pub redirect_uris: Option<Vec<String>>,
    /// Whether a confidential app must use PKCE (public apps always must).
    pub require_pkce: Option<bool>,
    /// New post-logout redirect URIs, replacing the registered ones (`[]` removes them).
    pub post_logout_redirect_uris: Option<Vec<String>>,
    /// Whether the app may introspect the tokens of other apps (confidential apps only).
    pub may_introspect: Option<bool>,
    /// The algorithm of the app's id_tokens, from its next token on; `null` goes back to the
    /// service's default.
    pub id_token_signed_response_alg: MaybeUndefined<IdTokenAlg>,
    /// Roles that may use the app, replacing them (`[]` removes them; the groups stay).
    pub allowed_roles: Option<Vec<String>>,
    /// Groups that may use the app, replacing them (`[]` removes them; the roles stay).
    pub allowed_groups: Option<Vec<String>>,
    /// Web origins, replacing the given ones (`[]` removes them).
    pub web_origins: Option<Vec<String>>,
    /// The back-channel logout URI; `null` removes it.
    pub backchannel_logout_uri: MaybeUndefined<String>,
}

/// An app with credentials just issued. The secret is shown only here, once.
#[derive(Object)]
pub struct AppWithSecret {
    /// The secret, for confidential apps; store it now, it cannot be shown again.
    #[oai(skip_serializing_if_is_none)]
    pub client_secret: Option<String>,
    /// The app.
    #[oai(flatten)]
    pub app: App,
}

impl AppWithSecret {
    /// The view of `record` with `secret`.
    pub fn new(record: &ClientRecord, secret: Option<String>) -> Self {
        AppWithSecret {
            client_secret: secret,
            app: App::from(record),
        }
    }
}

/// One failed request of an app, in plain words (the app doctor).
#[derive(Object)]
pub struct Failure {
    /// When, Unix seconds.
    pub at: u64,
    /// `authorize` or `token`.
    pub endpoint: String,
    /// What went wrong. Text the request sent appears only in double quotes, escaped and cut
    /// to 200 characters.
    pub problem: String,
    /// What to change, in the service's own words.
    #[oai(skip_serializing_if_is_none)]
    pub fix: Option<String>,
    /// Whether the request proved it came from the app: a token request that authenticated
    /// with the app's secret. Authorize requests, and token requests refused before or during
    /// client authentication (or from a public app), are unverified: anyone can send them,
    /// naming any app.
    pub verified: bool,
}

impl From<crate::apps::doctor::DoctorEntry> for Failure {
    fn from(e: crate::apps::doctor::DoctorEntry) -> Self {
        Failure {
            at: e.at,
            endpoint: e.endpoint,
            problem: e.problem,
            fix: e.fix,
            verified: e.verified,
        }
    }
}

/// An app's recent failed requests, newest first.
#[derive(Object)]
pub struct FailureList {
    /// The failures.
    pub failures: Vec<Failure>,
}

/// One audit event.
#[derive(Object)]
pub struct AuditEntry {
    /// When, Unix seconds.
    pub at: u64,
    /// What: `sign_in`, `admin_sign_in`, `app_created`, `token_issued`, …
    pub action: String,
    /// Who (user id or username), when a person acted.
    #[oai(skip_serializing_if_is_none)]
    pub actor: Option<String>,
    /// Which app.
    #[oai(skip_serializing_if_is_none)]
    pub client_id: Option<String>,
    /// From which address.
    #[oai(skip_serializing_if_is_none)]
    pub address: Option<String>,
    /// Whether it succeeded.
    pub success: bool,
    /// Failure reason or what changed.
    #[oai(skip_serializing_if_is_none)]
    pub detail: Option<String>,
}

impl From<AuditRecord> for AuditEntry {
    fn from(r: AuditRecord) -> Self {
        AuditEntry {
            at: r.at,
            action: r.action.as_str().to_owned(),
            actor: r.actor,
            client_id: r.client_id,
            address: r.address,
            success: r.success,
            detail: r.detail,
        }
    }
}

/// Audit events, newest first, and where the pages either side start.
#[derive(Object)]
pub struct AuditList {
    /// The events.
    pub events: Vec<AuditEntry>,
    /// Pass as `before` (same filters) for the next older page; absent when no older event
    /// matches.
    #[oai(skip_serializing_if_is_none)]
    pub older: Option<i64>,
    /// Pass as `after` (same filters) for the next newer page; absent on the newest page.
    #[oai(skip_serializing_if_is_none)]
    pub newer: Option<i64>,
}

/// What signing a user out everywhere ended.
#[derive(Object)]
pub struct UserSignedOut {
    /// The user, by subject.
    pub sub: String,
    /// Single sign-on sessions ended.
    pub sessions_ended: u64,
    /// Grants revoked: each is one app's access and refresh tokens from one sign-in.
    pub grants_revoked: u64,
    /// Admin API tokens, admin screen sign-ins and admin sign-ins waiting for their second
    /// factor ended.
    pub admin_sessions_ended: u64,
}

/// What removing a user's second factor ended.
#[derive(Object)]
pub struct SecondFactorRemoved {
    /// The user, by subject.
    pub sub: String,
    /// Admin API tokens, admin screen sign-ins and admin sign-ins waiting for their second
    /// factor ended with it.
    pub admin_sessions_ended: u64,
}
