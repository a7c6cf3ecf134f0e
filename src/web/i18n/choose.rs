//! Which language a page is shown in.
//!
//! In order: the app's `ui_locales` on the authorize request, for the pages of that sign-in;
//! the language the person picked from the language menu (a cookie); the browser's
//! `Accept-Language`, by its q-values; `server.default_language`. A pick from the menu made
//! during a sign-in wins over that sign-in's `ui_locales`: the person chose after the app did.

use crate::clock::UnixTime;
use crate::domain::Language;

/// The language menu's cookie: the code picked, and when (`de.1700000000`).
pub const MENU_COOKIE: &str = "sso_lang";

/// What the request says about its reader's language, before any sign-in is looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preference {
    /// Picked from the language menu, and when (Unix seconds; 0 when the cookie says not).
    pub menu: Option<(Language, UnixTime)>,
    /// The browser's first language the pages are in, by `Accept-Language`.
    pub browser: Option<Language>,
    /// `server.default_language`.
    pub default: Language,
}

impl Preference {
    /// Reads the menu cookie's value and the `Accept-Language` header.
    pub fn read(
        menu_cookie: Option<&str>,
        accept_language: Option<&str>,
        default: Language,
    ) -> Self {
        Self {
            menu: menu_cookie.and_then(read_menu_cookie),
            browser: accept_language.and_then(from_accept_language),
            default,
        }
    }

    /// The language of a page that belongs to no sign-in (or to one whose app asked for none).
    pub fn language(&self) -> Language {
        self.menu
            .map(|(l, _)| l)
            .or(self.browser)
            .unwrap_or(self.default)
    }

    /// The language of a page of a sign-in that began at `started` (Unix seconds, when known)
    /// with `ui_locales`.
    pub fn for_sign_in(&self, ui_locales: Option<&str>, started: Option<UnixTime>) -> Language {
        let Some(asked) = ui_locales.and_then(Language::first_of) else {
            return self.language();
        };
        match (self.menu, started) {
            (Some((picked, at)), Some(started)) if at > started => picked,
            _ => asked,
        }
    }
}

/// The menu cookie's value for `language` picked at `now`.
pub fn menu_cookie(language: Language, now: UnixTime) -> String {
    format!("{}.{now}", language.code())
}

fn read_menu_cookie(value: &str) -> Option<(Language, UnixTime)> {
    let (code, at) = value.split_once('.').unwrap_or((value, "0"));
    let language = Language::ALL.into_iter().find(|l| l.code() == code)?;
    Some((language, at.parse().unwrap_or(0)))
}

/// The first language of an `Accept-Language` header (RFC 9110 §12.5.4) that the pages are
/// in: by q-value, highest first, and in the header's order among equals; `q=0` means "not
/// this one" and `*` names none in particular.
pub fn from_accept_language(header: &str) -> Option<Language> {
    let mut ranges: Vec<(u16, usize, Language)> = header
        .split(',')
        .take(32)
        .enumerate()
        .filter_map(|(i, item)| {
            let mut parts = item.split(';');
            let tag = parts.next()?.trim();
            let q = parts
                .find_map(|p| {
                    let (name, value) = p.split_once('=')?;
                    name.trim()
                        .eq_ignore_ascii_case("q")
                        .then(|| quality(value.trim()))
                })
                .unwrap_or(Some(1000))?;
            let language = Language::from_tag(tag)?;
            (q > 0).then_some((q, i, language))
        })
        .collect();
    ranges.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    ranges.first().map(|&(_, _, l)| l)
}

/// A q-value in thousandths; `None` when it does not read (the range is then ignored).
fn quality(value: &str) -> Option<u16> {
    let q: f32 = value.parse().ok()?;
    (0.0..=1.0)
        .contains(&q)
        .then(|| (q * 1000.0).round() as u16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Language::*;

    #[test]
    fn accept_language_is_read_by_q_value() {
        assert_eq!(from_accept_language("de-DE,de;q=0.9,en;q=0.8"), Some(De));
        assert_eq!(from_accept_language("en;q=0.5, fr;q=0.9"), Some(Fr));
        assert_eq!(from_accept_language("nl, es;q=0.3, en;q=0.2"), Some(Es));
        assert_eq!(from_accept_language("fr;q=0, es"), Some(Es));
        assert_eq!(from_accept_language("nl, *;q=0.5"), None);
        assert_eq!(from_accept_language("de;q=0.8, fr;q=0.8"), Some(De));
        assert_eq!(from_accept_language("de;q=abc, fr;q=0.1"), Some(Fr));
        assert_eq!(from_accept_language(""), None);
        assert_eq!(from_accept_language("ES-mx ; Q=0.7"), Some(Es));
    }

    #[test]
    fn the_menu_comes_before_the_browser_and_the_browser_before_the_default() {
        let p = |menu, accept| Preference::read(menu, accept, Fr);
        assert_eq!(p(Some("es.10"), Some("de")).language(), Es);
        assert_eq!(p(None, Some("de")).language(), De);
        assert_eq!(p(Some("nl.10"), Some("nl")).language(), Fr);
        assert_eq!(p(Some("de"), None).language(), De);
        assert_eq!(p(None, None).language(), Fr);
    }

    #[test]
    fn ui_locales_rule_their_sign_in_until_the_menu_is_used_during_it() {
        let menu = |at: u64| Preference::read(Some(&menu_cookie(Es, at)), Some("de"), En);
        // Picked before the sign-in began: the app's choice wins.
        assert_eq!(menu(100).for_sign_in(Some("fr-CA"), Some(200)), Fr);
        // Picked on one of its pages: the person's choice wins.
        assert_eq!(menu(300).for_sign_in(Some("fr-CA"), Some(200)), Es);
        // An older request that does not know when it began: the app's choice.
        assert_eq!(menu(300).for_sign_in(Some("fr"), None), Fr);
        // Nothing the pages are in: the person's language.
        assert_eq!(menu(100).for_sign_in(Some("nl ja"), Some(200)), Es);
        let browser = Preference::read(None, Some("de"), En);
        assert_eq!(browser.for_sign_in(Some("fr"), Some(200)), Fr);
        assert_eq!(browser.for_sign_in(None, Some(200)), De);
    }
}
