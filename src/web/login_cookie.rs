//! The CSRF token of a sign-in form shown before there is a session to hold one (the account
//! page's and the admin screen's): the token is also set as a cookie, and a post must carry
//! the cookie's value (a cross-site form can neither read nor set the cookie).

use super::errors::PageError;
use super::respond::{clear_cookie, cookie, cookie_value};
use crate::config::Settings;
use crate::domain::secret::random_id;
use poem::web::cookie::CookieJar;
use subtle::ConstantTimeEq;

/// The cookie of one sign-in form, by its name.
pub struct LoginCookie(pub &'static str);

impl LoginCookie {
    /// A fresh token for the form, set as the cookie for as long as a sign-in may wait.
    pub fn issue(&self, settings: &Settings, jar: &CookieJar) -> String {
        let token = random_id(32);
        let ttl = settings.session.request_ttl.as_secs();
        jar.add(cookie(settings, self.0, token.clone(), Some(ttl)));
        token
    }

    /// The cookie's value, when the form's `token` matches it; otherwise the form is forged.
    pub fn check(
        &self,
        settings: &Settings,
        jar: &CookieJar,
        token: &str,
    ) -> Result<String, PageError> {
        let value = cookie_value(settings, jar, self.0).unwrap_or_default();
        let same = !value.is_empty() && bool::from(value.as_bytes().ct_eq(token.as_bytes()));
        same.then_some(value).ok_or(PageError::Forged)
    }

    /// Removes the cookie once the sign-in is done.
    pub fn clear(&self, settings: &Settings, jar: &CookieJar) {
        clear_cookie(settings, jar, self.0);
    }
}
