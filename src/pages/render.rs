//! Page rendering: the handlebars registry holding the built-in templates, one typed method per page.
//!
//! Templates are embedded at compile time, so a running binary never depends on files beside it.
//! Strict mode turns a field a template names but its page struct lacks into an error instead of
//! an empty string, and HTML escaping stays on for every `{{value}}`.

use handlebars::Handlebars;
use serde::Serialize;

use super::views::{
    ConsentPage, EnrolPage, ErrorPage, LogoutPage, RecoveryCodesPage, SecondFactorPage, SignInPage,
};

/// The stylesheet every page links as `/assets/style.css`.
pub const STYLESHEET: &str = include_str!("../../templates/style.css");

/// Registry name of the layout every page wraps itself in (`{{#> base}}…{{/base}}`).
const BASE: &str = "base";
const SIGNIN: &str = "signin";
const CONSENT: &str = "consent";
const ERROR: &str = "error";
const SECOND_FACTOR: &str = "second_factor";
const ENROL: &str = "enrol";
const RECOVERY_CODES: &str = "recovery_codes";
const LOGOUT: &str = "logout";

/// Every built-in template, by registry name.
const BUILT_IN: [(&str, &str); 8] = [
    (BASE, include_str!("../../templates/base.hbs")),
    (SIGNIN, include_str!("../../templates/signin.hbs")),
    (CONSENT, include_str!("../../templates/consent.hbs")),
    (ERROR, include_str!("../../templates/error.hbs")),
    // second factor
    (
        SECOND_FACTOR,
        include_str!("../../templates/second_factor.hbs"),
    ),
    (ENROL, include_str!("../../templates/enrol.hbs")),
    (
        RECOVERY_CODES,
        include_str!("../../templates/recovery_codes.hbs"),
    ),
    (LOGOUT, include_str!("../../templates/logout.hbs")),
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
    /// A template failed while rendering (in strict mode: it names a field its page lacks).
    #[error("template `{name}` failed to render")]
    Render {
        /// Registry name of the template.
        name: &'static str,
        /// The renderer's complaint.
        #[source]
        source: Box<handlebars::RenderError>,
    },
}

/// The page templates, ready to render. Cheap to share: build once, keep in the app state.
#[derive(Debug, Clone)]
pub struct Templates {
    registry: Handlebars<'static>,
}

impl Templates {
    /// Parses the built-in templates into a strict-mode registry.
    pub fn new() -> Result<Self, RenderError> {
        let mut registry = Handlebars::new();
        registry.set_strict_mode(true);
        // Partials are inserted verbatim rather than re-indented, so the markup a page
        // writes is the markup the browser gets.
        registry.set_prevent_indent(true);
        // The admin screen's templates share the layout and the registry.
        let admin = crate::admin::screen::views::TEMPLATES;
        for (name, source) in BUILT_IN.into_iter().chain(admin) {
            registry
                .register_template_string(name, source)
                .map_err(|source| RenderError::Template {
                    name,
                    source: Box::new(source),
                })?;
        }
        Ok(Self { registry })
    }

    /// The sign-in form of an authorize request.
    pub fn signin(&self, page: &SignInPage) -> Result<String, RenderError> {
        self.render(SIGNIN, page)
    }

    /// The page where a signed-in user approves or denies an app's access.
    pub fn consent(&self, page: &ConsentPage) -> Result<String, RenderError> {
        self.render(CONSENT, page)
    }

    /// A failure the user can only read about.
    pub fn error(&self, page: &ErrorPage) -> Result<String, RenderError> {
        self.render(ERROR, page)
    }

    /// The second-factor form (`otp`).
    pub fn second_factor(&self, page: &SecondFactorPage) -> Result<String, RenderError> {
        self.render(SECOND_FACTOR, page)
    }

    /// Authenticator set-up: QR code, secret, first code.
    pub fn enrol(&self, page: &EnrolPage) -> Result<String, RenderError> {
        self.render(ENROL, page)
    }

    /// Recovery codes shown once, or the count left after one was used.
    pub fn recovery_codes(&self, page: &RecoveryCodesPage) -> Result<String, RenderError> {
        self.render(RECOVERY_CODES, page)
    }

    /// A page of the admin screen.
    pub fn admin<P: crate::admin::screen::views::AdminPage>(
        &self,
        page: &P,
    ) -> Result<String, RenderError> {
        self.render(P::TEMPLATE, page)
    }

    /// The sign-out confirmation, or the page saying the session has ended.
    pub fn logout(&self, page: &LogoutPage) -> Result<String, RenderError> {
        self.render(LOGOUT, page)
    }

    /// Private and generic so the public methods pin each template to its own page struct.
    fn render<T: Serialize>(&self, name: &'static str, data: &T) -> Result<String, RenderError> {
        self.registry
            .render(name, data)
            .map_err(|source| RenderError::Render {
                name,
                source: Box::new(source),
            })
    }
}

#[cfg(test)]
mod tests;
