//! The languages the pages are written in, and how a language tag names one.
//!
//! A language is known by its two-letter code (`en`, `de`, `fr`, `es`): the code pages carry in
//! `<html lang>` and `Content-Language`, the value of `server.default_language` and of the
//! language menu. A tag such as `de-CH` or `fr_BE` names the language of its first subtag.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A language every page is available in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Language {
    /// English, the language of the catalog every other is checked against.
    #[default]
    En,
    /// German.
    De,
    /// French.
    Fr,
    /// Spanish.
    Es,
}

impl Language {
    /// Every language, in the order the language menu lists them.
    pub const ALL: [Language; 4] = [Language::En, Language::De, Language::Fr, Language::Es];

    /// The two-letter code: `en`, `de`, `fr`, `es`.
    pub fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::De => "de",
            Language::Fr => "fr",
            Language::Es => "es",
        }
    }

    /// The language a tag names (`de`, `de-CH`, `FR_be`), by its first subtag, any case; `None`
    /// for a language the pages are not written in (or `*`).
    pub fn from_tag(tag: &str) -> Option<Self> {
        let primary = tag.trim().split(['-', '_']).next()?;
        Self::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(primary))
    }

    /// The first language of a space-separated list of tags (OpenID Connect's `ui_locales`)
    /// that the pages are written in.
    pub fn first_of(tags: &str) -> Option<Self> {
        tags.split_ascii_whitespace().find_map(Self::from_tag)
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Language {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// Reads the two-letter code alone (as `server.default_language` takes it), any case.
impl<'de> Deserialize<'de> for Language {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let code = String::deserialize(d)?;
        Self::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(code.trim()))
            .ok_or_else(|| {
                let known: Vec<&str> = Self::ALL.iter().map(|l| l.code()).collect();
                serde::de::Error::custom(format!(
                    "unknown language `{code}`; use one of {}",
                    known.join(", ")
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::Language;

    #[test]
    fn a_tag_names_the_language_of_its_first_subtag() {
        assert_eq!(Language::from_tag("de"), Some(Language::De));
        assert_eq!(Language::from_tag("de-CH"), Some(Language::De));
        assert_eq!(Language::from_tag("FR_be"), Some(Language::Fr));
        assert_eq!(Language::from_tag(" es-419 "), Some(Language::Es));
        assert_eq!(Language::from_tag("en-GB"), Some(Language::En));
        assert_eq!(Language::from_tag("nl"), None);
        assert_eq!(Language::from_tag("*"), None);
        assert_eq!(Language::from_tag(""), None);
        assert_eq!(Language::from_tag("deu"), None);
    }

    #[test]
    fn ui_locales_give_their_first_known_language() {
        assert_eq!(Language::first_of("nl-BE fr-BE de"), Some(Language::Fr));
        assert_eq!(Language::first_of("  es "), Some(Language::Es));
        assert_eq!(Language::first_of("nl ja"), None);
    }

    #[test]
    fn the_setting_takes_a_known_code_only() {
        let de: Language = serde_json::from_str("\"DE\"").unwrap_or_default();
        assert_eq!(de, Language::De);
        let err = serde_json::from_str::<Language>("\"nl\"")
            .map(|_| ())
            .unwrap_err();
        assert!(
            err.to_string().contains("use one of en, de, fr, es"),
            "{err}"
        );
    }
}
