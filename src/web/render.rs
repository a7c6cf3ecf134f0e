//! Page rendering: the handlebars registry holding every built-in template (the sign-in flow's
//! and the admin screen's), and the [`Page`] trait that pins each page struct to its template.
//!
//! Templates are embedded at compile time, so a running binary never depends on files beside it.
//! Strict mode turns a field a template names but its page struct lacks into an error instead of
//! an empty string, and HTML escaping stays on for every `{{value}}`.
//!
//! Every word a page shows comes from the message catalogs (`{{t "message-id" name=value}}`, see
//! [`i18n`](super::i18n)); dates and counts go through `{{date_time at}}` and `{{number n}}`.
//! Each language has its registry, whose helpers speak it.

mod helpers;

use super::i18n::{self, CatalogError, Catalogs, Menu, MenuOption};
use crate::domain::Language;
use handlebars::Handlebars;
use serde::Serialize;
use std::sync::Arc;

/// The stylesheet every page links as `/assets/style.css`.
pub const STYLESHEET: &str = include_str!("../../templates/style.css");

/// The passkey ceremonies' script, served as [`PASSKEY_SCRIPT_PATH`]: the only script of the
/// sign-in pages, on the pages that offer a passkey.
pub const PASSKEY_SCRIPT: &str = include_str!("../../templates/passkey.js");

/// Where [`PASSKEY_SCRIPT`] is served.
pub const PASSKEY_SCRIPT_PATH: &str = "/assets/passkey.js";

/// A page: a struct holding the whole of what its template may show, pinned to that template.
pub trait Page: Serialize {
    /// Registry name of the template (one of [`name`]).
    const TEMPLATE: &'static str;
}

/// Registry names of the built-in templates.
pub mod name {
    /// The layout every page wraps itself in (`{{#> base}}…{{/base}}`).
    pub const BASE: &str = "base";
    /// The directory sign-in form of an authorize request.
    pub const SIGNIN: &str = "signin";
    /// Approve or deny an app's access.
    pub const CONSENT: &str = "consent";
    /// A failure the user can only read about.
    pub const ERROR: &str = "error";
    /// The second-factor form (`otp`).
    pub const SECOND_FACTOR: &str = "second_factor";
    /// Authenticator set-up: QR code, secret, first code.
    pub const ENROL: &str = "enrol";
    /// Recovery codes shown once, or the count left after one was used.
    pub const RECOVERY_CODES: &str = "recovery_codes";
    /// The sign-out confirmation, or the page saying the session has ended.
    pub const LOGOUT: &str = "logout";
    /// The person's own account page.
    pub const ACCOUNT: &str = "account";
    /// The account page's two-step verification section (a partial).
    pub const ACCOUNT_TWO_STEP: &str = "account_two_step";
    /// The account page's sign-in.
    pub const ACCOUNT_SIGNIN: &str = "account_signin";
    /// The account page's re-check before a change to the second factor.
    pub const ACCOUNT_REAUTH: &str = "account_reauth";
    /// The account page's ceremony that adds a passkey.
    pub const ACCOUNT_PASSKEY_ADD: &str = "account_passkey_add";
    /// Admin screen: reset a user's second factor.
    pub const ADMIN_USERS: &str = "admin_users";
    /// Admin screen: the navigation partial of every signed-in page.
    pub const ADMIN_NAV: &str = "admin_nav";
    /// Admin screen: its sign-in form.
    pub const ADMIN_SIGNIN: &str = "admin_signin";
    /// Admin screen: the list of connected apps.
    pub const ADMIN_APPS: &str = "admin_apps";
    /// Admin screen: register an app.
    pub const ADMIN_APP_FORM: &str = "admin_app_form";
    /// Admin screen: who may use an app and its browser fields, on both app forms.
    pub const ADMIN_APP_ACCESS: &str = "admin_app_access";
    /// Admin screen: credentials shown once.
    pub const ADMIN_SECRET: &str = "admin_secret";
    /// Admin screen: one app.
    pub const ADMIN_APP: &str = "admin_app";
    /// Admin screen: confirm a deletion.
    pub const ADMIN_DELETE: &str = "admin_delete";
    /// Admin screen: the audit log.
    pub const ADMIN_AUDIT: &str = "admin_audit";
    /// The language menu's choices, rendered once per language when the registries are built
    /// and shown by `{{language_options}}`.
    pub const LANGUAGE_OPTIONS: &str = "language_options";
}

/// Every built-in template, by registry name. The admin screen's share the layout and the
/// registry with the sign-in pages.
const BUILT_IN: [(&str, &str); 24] = [
    (name::BASE, include_str!("../../templates/base.hbs")),
    (
        name::LANGUAGE_OPTIONS,
        include_str!("../../templates/language_options.hbs"),
    ),
    (name::SIGNIN, include_str!("../../templates/signin.hbs")),
    (name::CONSENT, include_str!("../../templates/consent.hbs")),
    (name::ERROR, include_str!("../../templates/error.hbs")),
    // second factor
    (
        name::SECOND_FACTOR,
        include_str!("../../templates/second_factor.hbs"),
    ),
    (name::ENROL, include_str!("../../templates/enrol.hbs")),
    (
        name::RECOVERY_CODES,
        include_str!("../../templates/recovery_codes.hbs"),
    ),
    (name::LOGOUT, include_str!("../../templates/logout.hbs")),
    // account page
    (name::ACCOUNT, include_str!("../../templates/account.hbs")),
    (
        name::ACCOUNT_TWO_STEP,
        include_str!("../../templates/account_two_step.hbs"),
    ),
    (
        name::ACCOUNT_SIGNIN,
        include_str!("../../templates/account_signin.hbs"),
    ),
    (
        name::ACCOUNT_REAUTH,
        include_str!("../../templates/account_reauth.hbs"),
    ),
    (
        name::ACCOUNT_PASSKEY_ADD,
        include_str!("../../templates/account_passkey_add.hbs"),
    ),
    // admin screen
    (
        name::ADMIN_USERS,
        include_str!("../../templates/admin/users.hbs"),
    ),
    (
        name::ADMIN_NAV,
        include_str!("../../templates/admin/nav.hbs"),
    ),
    (
        name::ADMIN_SIGNIN,
        include_str!("../../templates/admin/signin.hbs"),
    ),
    (
        name::ADMIN_APPS,
        include_str!("../../templates/admin/apps.hbs"),
    ),
    (
        name::ADMIN_APP_FORM,
        include_str!("../../templates/admin/app_form.hbs"),
    ),
    (
        name::ADMIN_APP_ACCESS,
        include_str!("../../templates/admin/app_access.hbs"),
    ),
    (
        name::ADMIN_SECRET,
        include_str!("../../templates/admin/secret.hbs"),
    ),
    (
        name::ADMIN_APP,
        include_str!("../../templates/admin/app.hbs"),
    ),
    (
        name::ADMIN_DELETE,
        include_str!("../../templates/admin/delete.hbs"),
    ),
    (
        name::ADMIN_AUDIT,
        include_str!("../../templates/admin/audit.hbs"),
    ),
];

/// Why a page could not be built or rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A built-in template does not parse.
    #[error("template `{name}` does not parse")]
    Template {
        /// Registry name of the template.
        name: &'static str,
        /// The parser's complaint.
        #[source]
        source: Box<handlebars::TemplateError>,
    },
    /// A template failed while rendering (in strict mode: it names a field its page lacks; or a
    /// message it shows is missing or lacks a value).
    #[error("template `{name}` failed to render")]
    Render {
        /// Registry name of the template.
        name: &'static str,
        /// The renderer's complaint.
        #[source]
        source: Box<handlebars::RenderError>,
    },
    /// The message catalogs do not parse.
    #[error(transparent)]
    Catalog(#[from] CatalogError),
}

/// The page templates, ready to render in every language. Cheap to share: build once, keep in
/// the app state.
#[derive(Debug, Clone)]
pub struct Templates {
    /// One registry per language: the same templates, with the helpers of that language.
    registries: Vec<(Language, Handlebars<'static>)>,
}

/// What a template sees: its page, the page's language and its language menu.
#[derive(Serialize)]
struct Rendered<'a, P> {
    #[serde(flatten)]
    page: &'a P,
    /// `<html lang>`.
    lang: &'static str,
    /// The language menu at the foot of the page, when the page can be shown again.
    language_menu: Option<Menu>,
}

impl Templates {
    /// Parses the built-in templates and catalogs into a strict-mode registry per language.
    pub fn new() -> Result<Self, RenderError> {
        let catalogs = Arc::new(Catalogs::new()?);
        let mut names = Vec::new();
        for language in Language::ALL {
            names.push((language, catalogs.format(language, "language-name", None)?));
        }
        let mut registries = Vec::new();
        for language in Language::ALL {
            let mut registry = Handlebars::new();
            registry.set_strict_mode(true);
            // Partials are inserted verbatim rather than re-indented, so the markup a page
            // writes is the markup the browser gets.
            registry.set_prevent_indent(true);
            helpers::register(&mut registry, language, Arc::clone(&catalogs));
            for (name, source) in BUILT_IN {
                registry
                    .register_template_string(name, source)
                    .map_err(|source| RenderError::Template {
                        name,
                        source: Box::new(source),
                    })?;
            }
            // The menu's choices are the same on every page of a language: rendered here once,
            // they cost a page nothing (as a loop in the layout, they were half of a sign-in
            // page's rendering).
            let options: Vec<MenuOption> = names
                .iter()
                .map(|(l, name)| MenuOption {
                    code: l.code(),
                    name: name.clone(),
                    selected: *l == language,
                })
                .collect();
            let options = registry
                .render(name::LANGUAGE_OPTIONS, &options)
                .map_err(|source| RenderError::Render {
                    name: name::LANGUAGE_OPTIONS,
                    source: Box::new(source),
                })?;
            helpers::register_language_options(&mut registry, options);
            registries.push((language, registry));
        }
        Ok(Self { registries })
    }

    /// Renders `page` with its own template, in the language of the request being answered
    /// and with its language menu (see [`i18n`](super::i18n)).
    pub fn page<P: Page>(&self, page: &P) -> Result<String, RenderError> {
        let language = i18n::current();
        let menu = i18n::menu_action().map(|action| Menu { action });
        self.render(P::TEMPLATE, language, page, menu)
    }

    /// Renders `page` in `language`, without a language menu.
    pub fn page_in<P: Page>(&self, language: Language, page: &P) -> Result<String, RenderError> {
        self.render(P::TEMPLATE, language, page, None)
    }

    /// Private: the public [`Templates::page`] lets a template see only its own page struct.
    fn render<T: Serialize>(
        &self,
        name: &'static str,
        language: Language,
        data: &T,
        language_menu: Option<Menu>,
    ) -> Result<String, RenderError> {
        let registry = self
            .registries
            .iter()
            .find(|(l, _)| *l == language)
            .or_else(|| self.registries.first())
            .map(|(_, r)| r);
        let Some(registry) = registry else {
            return Err(RenderError::Catalog(CatalogError::Missing(name.to_owned())));
        };
        let data = Rendered {
            page: data,
            lang: language.code(),
            language_menu,
        };
        registry
            .render(name, &data)
            .map_err(|source| RenderError::Render {
                name,
                source: Box::new(source),
            })
    }
}

#[cfg(test)]
mod tests;
