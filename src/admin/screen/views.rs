//! One `Serialize` struct per admin screen template. Times are Unix seconds: the templates show
//! them as the page's language writes dates (`{{date_time …}}`).

use crate::apps::doctor::DoctorEntry;
use crate::audit::AuditRecord;
use crate::domain::{ClientRecord, Role, SigningAlg};
use crate::pages::views::PasskeyPrompt;
use crate::web::i18n::Text;
use crate::web::render::{name, Page};
use serde::Serialize;

/// What every signed-in page shows in its navigation, and the CSRF token of its forms.
#[derive(Debug, Clone, Serialize)]
pub struct Nav {
    /// The superadmin's name.
    pub user: String,
    /// Anti-CSRF token of every form (and of the sign-out button).
    pub csrf_token: String,
    /// Which section is current: `apps`, `users` or `audit`.
    pub section: &'static str,
}

/// `admin/signin.hbs`.
#[derive(Debug, Clone, Serialize)]
pub struct SignInView {
    pub csrf_token: String,
    pub username: String,
    pub error: Option<Text>,
    pub notice: Option<Text>,
    /// The second step: ask for the second factor.
    pub otp_step: bool,
    /// At the second step, the passkey offered first, when the person has one.
    pub passkey: Option<PasskeyPrompt>,
    /// At the second step, whether the code form (`otp`) is shown: the person has an
    /// authenticator app, or no passkey to use instead.
    pub code_form: bool,
}
impl Page for SignInView {
    const TEMPLATE: &'static str = name::ADMIN_SIGNIN;
}

/// One row of the apps list and the head of an app's page.
#[derive(Debug, Clone, Serialize)]
pub struct AppRow {
    pub client_id: String,
    pub name: String,
    pub redirect_uris: Vec<String>,
    pub public: bool,
    pub require_pkce: bool,
    /// A resource server: may introspect other apps' tokens.
    pub may_introspect: bool,
    /// The algorithm it registered for its id_tokens; `None`: the service's default.
    pub id_token_alg: Option<&'static str>,
    pub enabled: bool,
    pub created_by: String,
    /// Unix seconds.
    pub created_at: u64,
    /// Unix seconds; `None`: never.
    pub last_used: Option<u64>,
    /// Whether only some roles or groups may use it.
    pub restricted: bool,
    /// The roles that may use it.
    pub allowed_roles: Vec<&'static str>,
    /// The groups that may use it.
    pub allowed_groups: Vec<String>,
    /// Browser origins given besides those of the redirect URIs.
    pub web_origins: Vec<String>,
    /// Where it hears that someone signed out.
    pub backchannel_logout_uri: Option<String>,
}

impl AppRow {
    /// The row of `app`, last used at `last_used` (Unix seconds) if ever.
    pub fn new(app: &ClientRecord, last_used: Option<u64>) -> Self {
        AppRow {
            client_id: app.client_id.to_string(),
            name: app.name.clone(),
            redirect_uris: app.redirect_uris.iter().map(|r| r.to_string()).collect(),
            public: app.is_public(),
            require_pkce: app.require_pkce,
            may_introspect: app.may_introspect,
            id_token_alg: app.id_token_signed_response_alg.map(SigningAlg::as_str),
            enabled: app.enabled,
            created_by: app.created_by.clone(),
            created_at: app.created_at,
            last_used,
            restricted: app.is_restricted(),
            allowed_roles: app.allowed_roles.iter().map(|r| r.as_str()).collect(),
            allowed_groups: app.allowed_groups.clone(),
            web_origins: app.web_origins.iter().map(|o| o.to_string()).collect(),
            backchannel_logout_uri: app.backchannel_logout_uri.clone(),
        }
    }
}

/// One role's box of the "who may use it" fields.
#[derive(Debug, Clone, Serialize)]
pub struct RoleChoice {
    /// The role, also the box's name after `allow_`.
    pub value: &'static str,
    pub checked: bool,
}

/// Who may use an app and its browser fields, as the forms show them.
#[derive(Debug, Clone, Serialize)]
pub struct AccessFields {
    pub roles: Vec<RoleChoice>,
    /// Allowed groups, one per line.
    pub groups: String,
    /// Web origins, one per line.
    pub web_origins: String,
    pub backchannel_logout_uri: String,
}

impl AccessFields {
    /// The fields of `app` (the registration form: none).
    pub fn of(app: Option<&ClientRecord>) -> Self {
        let checked = |role: Role| app.is_some_and(|a| a.allowed_roles.contains(&role));
        AccessFields {
            roles: Role::ALL
                .into_iter()
                .map(|role| RoleChoice {
                    value: role.as_str(),
                    checked: checked(role),
                })
                .collect(),
            groups: app.map(|a| a.allowed_groups.join("\n")).unwrap_or_default(),
            web_origins: app
                .map(|a| {
                    let all: Vec<&str> = a.web_origins.iter().map(|o| o.as_str()).collect();
                    all.join("\n")
                })
                .unwrap_or_default(),
            backchannel_logout_uri: app
                .and_then(|a| a.backchannel_logout_uri.clone())
                .unwrap_or_default(),
        }
    }
}

/// One option of the id_token algorithm select.
#[derive(Debug, Clone, Serialize)]
pub struct AlgChoice {
    /// What the form sends: the JWS name, or empty for the service's default.
    pub value: &'static str,
    pub label: Text,
    pub selected: bool,
}

impl AlgChoice {
    /// The service's default (`""`) and each algorithm in `offered` (with `current` among
    /// them even when no longer offered, so an edit keeps it), `current` selected.
    pub fn all(offered: &[SigningAlg], current: Option<SigningAlg>) -> Vec<Self> {
        let default = offered.first().map(|a| a.as_str()).unwrap_or_default();
        let mut choices = vec![AlgChoice {
            value: "",
            label: Text::new("admin-alg-default").arg("alg", default),
            selected: current.is_none(),
        }];
        let mut algs = offered.to_vec();
        algs.extend(current.filter(|c| !offered.contains(c)));
        choices.extend(algs.into_iter().map(|alg| AlgChoice {
            value: alg.as_str(),
            label: Text::new(match alg {
                SigningAlg::Es256 => "admin-alg-es256",
                SigningAlg::Rs256 => "admin-alg-rs256",
            }),
            selected: current == Some(alg),
        }));
        choices
    }
}

/// `admin/apps.hbs`: the list, with search.
#[derive(Debug, Clone, Serialize)]
pub struct AppsView {
    pub nav: Nav,
    pub query: String,
    pub apps: Vec<AppRow>,
    pub shown: usize,
    pub total: usize,
    pub notice: Option<Text>,
}
impl Page for AppsView {
    const TEMPLATE: &'static str = name::ADMIN_APPS;
}

/// `admin/app_form.hbs`: register an app (values kept after a refused attempt).
#[derive(Debug, Clone, Serialize)]
pub struct AppFormView {
    pub nav: Nav,
    pub name: String,
    pub redirect_uris: String,
    /// Post-logout redirect URIs, one per line.
    pub post_logout_uris: String,
    pub public: bool,
    pub require_pkce: bool,
    /// The resource-server switch.
    pub may_introspect: bool,
    /// The id_token algorithm select.
    pub id_token_algs: Vec<AlgChoice>,
    /// Who may use it, web origins, back-channel logout.
    pub access: AccessFields,
    pub errors: Vec<Text>,
}
impl Page for AppFormView {
    const TEMPLATE: &'static str = name::ADMIN_APP_FORM;
}

/// `admin/secret.hbs`: credentials shown once. No `Debug`: it holds the secret.
#[derive(Clone, Serialize)]
pub struct SecretView {
    pub nav: Nav,
    pub heading: Text,
    pub app: AppRow,
    pub client_secret: Option<String>,
}
impl Page for SecretView {
    const TEMPLATE: &'static str = name::ADMIN_SECRET;
}

/// One failed request on an app's page.
#[derive(Debug, Clone, Serialize)]
pub struct FailureRow {
    /// Unix seconds.
    pub at: u64,
    pub endpoint: String,
    pub problem: String,
    pub fix: Option<String>,
    /// The request proved it came from the app (see `DoctorEntry::verified`).
    pub verified: bool,
}

impl From<DoctorEntry> for FailureRow {
    fn from(e: DoctorEntry) -> Self {
        FailureRow {
            at: e.at,
            endpoint: e.endpoint,
            problem: e.problem,
            fix: e.fix,
            verified: e.verified,
        }
    }
}

/// `admin/app.hbs`: one app, its edit form, its actions and its recent failures.
#[derive(Debug, Clone, Serialize)]
pub struct AppView {
    pub nav: Nav,
    /// The page's title: the app's name.
    pub title: Text,
    pub app: AppRow,
    /// The edit form's redirect URIs, one per line.
    pub redirect_text: String,
    /// The edit form's post-logout redirect URIs, one per line.
    pub post_logout_text: String,
    /// The edit form's id_token algorithm select.
    pub id_token_algs: Vec<AlgChoice>,
    /// The edit form's access and browser fields.
    pub access: AccessFields,
    pub failures: Vec<FailureRow>,
    pub notice: Option<Text>,
    pub errors: Vec<Text>,
}
impl Page for AppView {
    const TEMPLATE: &'static str = name::ADMIN_APP;
}

/// `admin/delete.hbs`: confirm a deletion.
#[derive(Debug, Clone, Serialize)]
pub struct DeleteView {
    pub nav: Nav,
    pub app: AppRow,
}
impl Page for DeleteView {
    const TEMPLATE: &'static str = name::ADMIN_DELETE;
}

/// One audit event on the audit page.
#[derive(Debug, Clone, Serialize)]
pub struct AuditRow {
    /// Unix seconds.
    pub at: u64,
    pub action: Text,
    pub actor: String,
    pub client_id: String,
    pub address: String,
    pub success: bool,
    pub detail: String,
}

impl From<AuditRecord> for AuditRow {
    fn from(r: AuditRecord) -> Self {
        AuditRow {
            at: r.at,
            action: action_label(r.action),
            actor: r.actor.unwrap_or_default(),
            client_id: r.client_id.unwrap_or_default(),
            address: r.address.unwrap_or_default(),
            success: r.success,
            detail: r.detail.unwrap_or_default(),
        }
    }
}

/// One choice of the action filter.
#[derive(Debug, Clone, Serialize)]
pub struct ActionChoice {
    pub value: &'static str,
    pub label: Text,
    pub selected: bool,
}

/// `admin/audit.hbs`: the filtered audit log.
#[derive(Debug, Clone, Serialize)]
pub struct AuditView {
    pub nav: Nav,
    pub actions: Vec<ActionChoice>,
    pub client_id: String,
    pub actor: String,
    pub failures_only: bool,
    pub events: Vec<AuditRow>,
    pub error: Option<Text>,
    /// The link to the next older page, keeping the filter.
    pub older: Option<String>,
    /// The link to the next newer page, keeping the filter.
    pub newer: Option<String>,
    /// A pattern search stopped after its share of the log: older events may still match.
    pub partial: bool,
}
impl Page for AuditView {
    const TEMPLATE: &'static str = name::ADMIN_AUDIT;
}

/// What the audit page calls an action: `audit-action-<name>` of the catalogs.
pub fn action_label(action: crate::domain::audit::Action) -> Text {
    Text::new(format!("audit-action-{}", action.as_str()))
}

/// `admin/users.hbs`: look up a user's second factors; reset a user's second factor; sign a
/// user out everywhere.
#[derive(Debug, Clone, Serialize)]
pub struct UsersView {
    pub nav: Nav,
    /// The username typed in the lookup form.
    pub lookup_username: String,
    /// What the lookup found.
    pub factors: Option<FactorsView>,
    /// The username typed in the reset form, kept after a refusal.
    pub username: String,
    /// What the last reset or sign-out did.
    pub notice: Option<Text>,
    /// Why the reset was refused.
    pub error: Option<Text>,
    /// The username typed in the sign-out form, kept after a refusal.
    pub revoke_username: String,
    /// Why the sign-out was refused.
    pub revoke_error: Option<Text>,
}

/// A user's second factors, as the users page shows them.
#[derive(Debug, Clone, Serialize)]
pub struct FactorsView {
    /// The user, by subject.
    pub sub: String,
    /// When the authenticator app was set up (Unix seconds); `None`: not set up.
    pub authenticator_since: Option<u64>,
    /// Recovery codes left.
    pub recovery_codes_left: u64,
    /// How many passkeys the user has.
    pub passkey_count: usize,
    /// Their names, oldest first.
    pub passkeys: Vec<String>,
}

impl Page for UsersView {
    const TEMPLATE: &'static str = name::ADMIN_USERS;
}
