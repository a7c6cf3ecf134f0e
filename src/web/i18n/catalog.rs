//! The message catalogs: one Fluent file per language under `templates/locales/`, compiled
//! into the binary, parsed once at start-up.
//!
//! A message's text is trusted markup: it may hold the few inline tags the catalog test allows
//! (`<strong>`, `<em>`, `<code>`, `<br>`) and entities. Every value put into a message (an app's
//! name, a username) is HTML-escaped before Fluent sees it, so what a message shows of the
//! request can never become markup. Numbers are formatted as the message's language writes them.

use super::format;
use crate::domain::Language;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use intl_memoizer::concurrent::IntlLangMemoizer;

/// Every catalog, by language: the English one first, the one every other is checked against.
pub const SOURCES: [(Language, &str); 4] = [
    (
        Language::En,
        include_str!("../../../templates/locales/en.ftl"),
    ),
    (
        Language::De,
        include_str!("../../../templates/locales/de.ftl"),
    ),
    (
        Language::Fr,
        include_str!("../../../templates/locales/fr.ftl"),
    ),
    (
        Language::Es,
        include_str!("../../../templates/locales/es.ftl"),
    ),
];

/// Why the catalogs could not be built, or a message not shown.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// A catalog does not parse, or defines a message twice.
    #[error("catalog `{language}` is broken: {problems}")]
    Broken {
        /// Its language.
        language: Language,
        /// What Fluent found wrong.
        problems: String,
    },
    /// No catalog has the message (not even the English one).
    #[error("no message `{0}` in the catalogs")]
    Missing(String),
    /// The message names a value it was not given, or Fluent could not resolve it.
    #[error("message `{id}` in `{language}` failed: {problems}")]
    Format {
        /// The message.
        id: String,
        /// Its language.
        language: Language,
        /// What Fluent found wrong.
        problems: String,
    },
}

type Bundle = FluentBundle<FluentResource>;

/// The parsed catalogs, ready to format messages. Build once, share.
pub struct Catalogs {
    bundles: Vec<(Language, Bundle)>,
}

impl std::fmt::Debug for Catalogs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalogs")
            .field(
                "languages",
                &self.bundles.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// Fluent's hook for numbers takes a plain function, so each language gets its own.
fn number_formatter(language: Language) -> fn(&FluentValue, &IntlLangMemoizer) -> Option<String> {
    fn with(language: Language, value: &FluentValue) -> Option<String> {
        match value {
            FluentValue::Number(n) if n.value.fract() == 0.0 && n.value.abs() < 1e15 => {
                Some(format::integer(language, n.value as i64))
            }
            _ => None,
        }
    }
    match language {
        Language::En => |v, _| with(Language::En, v),
        Language::De => |v, _| with(Language::De, v),
        Language::Fr => |v, _| with(Language::Fr, v),
        Language::Es => |v, _| with(Language::Es, v),
    }
}

impl Catalogs {
    /// Parses the built-in catalogs.
    pub fn new() -> Result<Self, CatalogError> {
        let mut bundles = Vec::new();
        for (language, source) in SOURCES {
            let broken = |problems: String| CatalogError::Broken { language, problems };
            let resource = FluentResource::try_new(source.to_owned())
                .map_err(|(_, errors)| broken(format!("{errors:?}")))?;
            let id = language
                .code()
                .parse()
                .map_err(|e| broken(format!("language tag: {e}")))?;
            let mut bundle = Bundle::new_concurrent(vec![id]);
            // The pages are left-to-right throughout; isolation marks would only show up as
            // stray characters around names in copied text.
            bundle.set_use_isolating(false);
            bundle.set_formatter(Some(number_formatter(language)));
            bundle
                .add_resource(resource)
                .map_err(|errors| broken(format!("{errors:?}")))?;
            bundles.push((language, bundle));
        }
        Ok(Self { bundles })
    }

    fn bundle(&self, language: Language) -> Option<&Bundle> {
        self.bundles
            .iter()
            .find(|(l, _)| *l == language)
            .map(|(_, b)| b)
    }

    /// Message `id` in `language` with `args` (already escaped where they are text); a message
    /// missing from `language` is taken from the English catalog (the catalog test keeps that
    /// from happening).
    pub fn format(
        &self,
        language: Language,
        id: &str,
        args: Option<&FluentArgs>,
    ) -> Result<String, CatalogError> {
        let found = [language, Language::En].into_iter().find_map(|l| {
            let bundle = self.bundle(l)?;
            let pattern = bundle.get_message(id)?.value()?;
            Some((l, bundle, pattern))
        });
        let Some((language, bundle, pattern)) = found else {
            return Err(CatalogError::Missing(id.to_owned()));
        };
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, args, &mut errors);
        if !errors.is_empty() {
            return Err(CatalogError::Format {
                id: id.to_owned(),
                language,
                problems: format!("{errors:?}"),
            });
        }
        Ok(text.into_owned())
    }

    /// Whether `language`'s catalog holds message `id` (itself, not through English).
    pub fn has(&self, language: Language, id: &str) -> bool {
        self.bundle(language).is_some_and(|b| b.has_message(id))
    }
}

/// The ids of the messages a catalog source defines, in order (terms, `-name`, are not
/// messages and are left out).
pub fn message_ids(source: &str) -> Vec<String> {
    let resource = match FluentResource::try_new(source.to_owned()) {
        Ok(r) => r,
        Err((r, _)) => r,
    };
    resource
        .entries()
        .filter_map(|entry| match entry {
            fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_owned()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests;
