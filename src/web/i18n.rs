//! The pages' languages: the message catalogs (Fluent, one file per language), which language
//! a request is answered in, and dates and numbers as that language writes them.
//!
//! The language of the page being answered belongs to the request. [`RequestLanguages`] works
//! it out before the handler runs (from the language menu's cookie, `Accept-Language` and
//! `server.default_language`) and keeps it for the request's task; a handler that resumes a
//! sign-in narrows it to the app's `ui_locales` with [`for_sign_in`]. Rendering a page (or an
//! error page) then reads it, so a handler never passes the language along by hand.
//!
//! The language menu at the foot of every page posts `lang` to `/language`, which sets the
//! cookie and sends the browser back to the page, by its address, to show it again. A page
//! that answers a GET comes back at that address; one answering a form post names the address
//! that shows it again with [`return_to`], or shows no menu (a page shown only once: fresh
//! recovery codes, a new client secret).
//!
//! API `error_description`s are not pages: they stay in English.

pub mod catalog;
pub mod choose;
pub mod format;

pub use catalog::{CatalogError, Catalogs};
pub use choose::{Preference, MENU_COOKIE};

use crate::clock::UnixTime;
use crate::config::Settings;
use crate::domain::Language;
use poem::Request;
use serde::Serialize;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::future::Future;

/// Path of the language menu's form action.
pub const MENU_PATH: &str = "/language";

/// A message of the catalogs and the values it shows, for a page to show in its language
/// (`{{t text}}` in a template).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Text {
    /// The message id.
    pub id: Cow<'static, str>,
    /// Its values by name: text (escaped when shown) or numbers (formatted).
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub args: Map<String, Value>,
}

impl Text {
    /// Message `id`, without values.
    pub fn new(id: impl Into<Cow<'static, str>>) -> Self {
        Self {
            id: id.into(),
            args: Map::new(),
        }
    }

    /// The same message, also showing `value` as `name`.
    pub fn arg(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.args.insert(name.to_owned(), value.into());
        self
    }
}

/// For the log: the id, and the values as given (`id (name=value, ...)`); whoever logs it
/// escapes what a request may have sent.
impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.id)?;
        for (i, (name, value)) in self.args.iter().enumerate() {
            f.write_str(if i == 0 { " (" } else { ", " })?;
            match value {
                Value::String(s) => write!(f, "{name}={s}")?,
                other => write!(f, "{name}={other}")?,
            }
        }
        if !self.args.is_empty() {
            f.write_str(")")?;
        }
        Ok(())
    }
}

impl From<&'static str> for Text {
    fn from(id: &'static str) -> Self {
        Text::new(id)
    }
}

/// The language menu of a page: where its form posts. Its choices are the same on every page
/// of a language, and the layout shows them with `{{language_options}}`.
#[derive(Debug, Clone, Serialize)]
pub struct Menu {
    /// Form action: `/language` with the page to return to.
    pub action: String,
}

/// One choice of the language menu, named in its own language.
#[derive(Debug, Clone, Serialize)]
pub struct MenuOption {
    /// `lang` value: `de`.
    pub code: &'static str,
    /// `Deutsch`.
    pub name: String,
    /// The page's language.
    pub selected: bool,
}

/// What rendering a page needs to know of the request it answers.
#[derive(Debug)]
pub struct PageContext {
    preference: Preference,
    language: Cell<Language>,
    /// The address (path and query) that shows this page again, if any.
    here: RefCell<Option<String>>,
    issuer: String,
}

tokio::task_local! {
    static PAGE: PageContext;
}

/// Works out each page request's language; see the module documentation.
#[derive(Debug, Clone)]
pub struct RequestLanguages {
    cookie: String,
    default: Language,
    issuer: String,
}

impl RequestLanguages {
    /// From the settings: the cookie's name, the default language, the issuer.
    pub fn new(settings: &Settings) -> Self {
        Self {
            cookie: settings.cookie_name(MENU_COOKIE),
            default: settings.server.default_language,
            issuer: settings.issuer(),
        }
    }

    /// What `req` says: its language before any sign-in is looked at, and (for a GET) the
    /// address that shows the page again.
    pub fn context(&self, req: &Request) -> PageContext {
        let headers = req.headers();
        // Read from the header itself: this runs whether or not a cookie jar was set up.
        let menu = headers
            .get_all(poem::http::header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(name, _)| *name == self.cookie)
            .map(|(_, value)| value);
        let accept = headers
            .get(poem::http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok());
        let preference = Preference::read(menu, accept, self.default);
        let here = (req.method() == poem::http::Method::GET)
            .then(|| req.uri().path_and_query().map(|p| p.as_str().to_owned()))
            .flatten();
        PageContext {
            language: Cell::new(preference.language()),
            preference,
            here: RefCell::new(here),
            issuer: self.issuer.clone(),
        }
    }
}

/// Runs `f` (a request's handling and the rendering of its page) with `context`.
pub async fn scope<F: Future>(context: PageContext, f: F) -> F::Output {
    PAGE.scope(context, f).await
}

/// The language of the page being answered; English outside a request.
pub fn current() -> Language {
    PAGE.try_with(|p| p.language.get()).unwrap_or_default()
}

/// Narrows the page's language to a sign-in's: the app's `ui_locales`, unless the person
/// picked from the menu since the sign-in began (`started`).
pub fn for_sign_in(ui_locales: Option<&str>, started: Option<UnixTime>) {
    let _ = PAGE.try_with(|p| {
        p.language
            .set(p.preference.for_sign_in(ui_locales, started));
    });
}

/// Names the address (a path of this service, with its query) that shows the page being
/// answered again, for the language menu to come back to.
pub fn return_to(path: impl Into<String>) {
    let _ = PAGE.try_with(|p| *p.here.borrow_mut() = Some(path.into()));
}

/// The page being answered cannot be shown again (it holds something shown once): no menu.
pub fn no_return() {
    let _ = PAGE.try_with(|p| *p.here.borrow_mut() = None);
}

/// Where the page's language menu posts, if it has one.
pub fn menu_action() -> Option<String> {
    PAGE.try_with(|p| {
        let here = p.here.borrow();
        let here = here.as_deref()?;
        let encoded: String = url::form_urlencoded::byte_serialize(here.as_bytes()).collect();
        Some(format!("{}{MENU_PATH}?return={encoded}", p.issuer))
    })
    .ok()
    .flatten()
}

/// Whether `path` may be returned to after the menu: a path of this service (one `/`, not
/// `//`, no backslash or control character), never an address elsewhere.
pub fn is_local_path(path: &str) -> bool {
    path.starts_with('/')
        && !path.starts_with("//")
        && !path.contains('\\')
        && !path.chars().any(char::is_control)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_menu_returns_only_to_paths_of_this_service() {
        assert!(is_local_path("/oauth/consent?request_id=abc"));
        assert!(is_local_path("/admin/apps"));
        assert!(!is_local_path("//evil.example/x"));
        assert!(!is_local_path("/\\evil.example"));
        assert!(!is_local_path("https://evil.example/"));
        assert!(!is_local_path("/a\nb"));
        assert!(!is_local_path(""));
    }

    #[tokio::test]
    async fn a_sign_in_narrows_the_language_of_its_own_request_only() {
        let context = || PageContext {
            preference: Preference::read(None, Some("de"), Language::En),
            language: Cell::new(Language::De),
            here: RefCell::new(Some("/oauth/consent?request_id=r&x=1".into())),
            issuer: "https://sso.example.com".into(),
        };
        scope(context(), async {
            assert_eq!(current(), Language::De);
            for_sign_in(Some("es-MX"), Some(10));
            assert_eq!(current(), Language::Es);
            assert_eq!(
                menu_action().as_deref(),
                Some("https://sso.example.com/language?return=%2Foauth%2Fconsent%3Frequest_id%3Dr%26x%3D1")
            );
            no_return();
            assert_eq!(menu_action(), None);
        })
        .await;
        scope(context(), async { assert_eq!(current(), Language::De) }).await;
        assert_eq!(current(), Language::En);
        assert_eq!(menu_action(), None);
    }
}
