//! The template helpers of one language: `t` (a message of the catalogs), `date_time` (a Unix
//! time), `number` (a count) and `language_options` (the language menu's choices, rendered once
//! from the `language_options` template when the registry is built).
//!
//! `{{date_time at}}` and `{{number n}}` are values like any other, escaped when shown, and may
//! be given to a message: `{{t "registered-by" at=(date_time created_at)}}`.
//!
//! `{{t "message-id" name=value}}` shows a message with its values; `{{t text}}` shows a
//! [`Text`](crate::web::i18n::Text) a page struct holds (its id and values), with any further
//! `name=value` added. Text values are HTML-escaped before the message takes them; numbers are
//! formatted as the language writes them. The message's own text is the catalog's, trusted
//! markup.

use crate::domain::Language;
use crate::web::i18n::{format, Catalogs};
use fluent_bundle::{FluentArgs, FluentValue};
use handlebars::{
    Context, Handlebars, Helper, HelperDef, HelperResult, Output, RenderContext, RenderError,
    RenderErrorReason, ScopedJson,
};
use serde_json::Value;
use std::sync::Arc;

/// Registers the helpers of `language` in `registry`.
pub(super) fn register(
    registry: &mut Handlebars<'static>,
    language: Language,
    catalogs: Arc<Catalogs>,
) {
    registry.register_helper("t", Box::new(Translate { language, catalogs }));
    registry.register_helper("date_time", Box::new(DateTime(language)));
    registry.register_helper("number", Box::new(Number(language)));
}

/// Registers `{{language_options}}`: the language menu's choices of the registry's language,
/// `options` (rendered from the `language_options` template, its values escaped).
pub(super) fn register_language_options(registry: &mut Handlebars<'static>, options: String) {
    registry.register_helper("language_options", Box::new(LanguageOptions(options)));
}

/// `{{language_options}}`.
struct LanguageOptions(String);

impl HelperDef for LanguageOptions {
    fn call<'reg: 'rc, 'rc>(
        &self,
        _: &Helper<'rc>,
        _: &'reg Handlebars<'reg>,
        _: &'rc Context,
        _: &mut RenderContext<'reg, 'rc>,
        out: &mut dyn Output,
    ) -> HelperResult {
        out.write(&self.0)?;
        Ok(())
    }
}

fn fail(helper: &str, why: impl std::fmt::Display) -> RenderError {
    RenderErrorReason::Other(format!("{helper}: {why}")).into()
}

/// `{{t …}}`.
struct Translate {
    language: Language,
    catalogs: Arc<Catalogs>,
}

/// A template value as a message's value: text escaped, numbers as numbers.
fn fluent_value(value: &Value) -> Option<FluentValue<'static>> {
    match value {
        Value::String(s) => Some(FluentValue::from(handlebars::html_escape(s))),
        Value::Number(n) => n.as_f64().map(FluentValue::from),
        Value::Bool(b) => Some(FluentValue::from(b.to_string())),
        Value::Null | Value::Array(_) | Value::Object(_) => None,
    }
}

impl HelperDef for Translate {
    fn call<'reg: 'rc, 'rc>(
        &self,
        h: &Helper<'rc>,
        _: &'reg Handlebars<'reg>,
        _: &'rc Context,
        _: &mut RenderContext<'reg, 'rc>,
        out: &mut dyn Output,
    ) -> HelperResult {
        let first = h
            .param(0)
            .ok_or(RenderErrorReason::ParamNotFoundForIndex("t", 0))?;
        let mut args = FluentArgs::new();
        let id = match first.value() {
            Value::String(id) => id.as_str(),
            Value::Object(text) => {
                if let Some(Value::Object(values)) = text.get("args") {
                    for (name, value) in values {
                        if let Some(v) = fluent_value(value) {
                            args.set(name.clone(), v);
                        }
                    }
                }
                text.get("id")
                    .and_then(Value::as_str)
                    .ok_or_else(|| fail("t", "a text without an id"))?
            }
            other => return Err(fail("t", format!("not a message: {other}"))),
        };
        for (name, value) in h.hash() {
            if let Some(v) = fluent_value(value.value()) {
                args.set(name.to_string(), v);
            }
        }
        let text = self
            .catalogs
            .format(self.language, id, Some(&args))
            .map_err(|e| fail("t", e))?;
        out.write(&text)?;
        Ok(())
    }
}

/// The first parameter as a whole number, for the date and number helpers.
fn integer(h: &Helper<'_>, name: &'static str) -> Result<i64, RenderError> {
    let value = h
        .param(0)
        .ok_or(RenderErrorReason::ParamNotFoundForIndex(name, 0))?
        .value();
    value
        .as_i64()
        .or_else(|| value.as_u64().map(|n| i64::try_from(n).unwrap_or(i64::MAX)))
        .ok_or_else(|| fail(name, format!("not a whole number: {value}")))
}

/// `{{date_time unix_seconds}}`.
struct DateTime(Language);

impl HelperDef for DateTime {
    fn call_inner<'reg: 'rc, 'rc>(
        &self,
        h: &Helper<'rc>,
        _: &'reg Handlebars<'reg>,
        _: &'rc Context,
        _: &mut RenderContext<'reg, 'rc>,
    ) -> Result<ScopedJson<'rc>, RenderError> {
        let secs = u64::try_from(integer(h, "date_time")?).unwrap_or(0);
        Ok(ScopedJson::Derived(Value::String(format::date_time(
            self.0, secs,
        ))))
    }
}

/// `{{number n}}`.
struct Number(Language);

impl HelperDef for Number {
    fn call_inner<'reg: 'rc, 'rc>(
        &self,
        h: &Helper<'rc>,
        _: &'reg Handlebars<'reg>,
        _: &'rc Context,
        _: &mut RenderContext<'reg, 'rc>,
    ) -> Result<ScopedJson<'rc>, RenderError> {
        let n = integer(h, "number")?;
        Ok(ScopedJson::Derived(Value::String(format::integer(
            self.0, n,
        ))))
    }
}
