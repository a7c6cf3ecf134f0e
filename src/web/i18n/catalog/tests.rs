//! The catalogs agree with each other: every language has exactly the English catalog's
//! messages, each with the same values and the same markup, and nothing but the inline markup
//! pages may show; every message the pages and their Rust code name exists.

use super::*;
use fluent_syntax::ast;
use std::collections::{BTreeMap, BTreeSet};

/// The messages of a catalog source, by id.
fn messages(source: &str) -> BTreeMap<String, ast::Message<String>> {
    let resource = fluent_syntax::parser::parse(source.to_owned())
        .unwrap_or_else(|(_, errors)| panic!("catalog does not parse: {errors:?}"));
    let mut found = BTreeMap::new();
    for entry in resource.body {
        if let ast::Entry::Message(m) = entry {
            let id = m.id.name.clone();
            assert!(
                found.insert(id.clone(), m).is_none(),
                "`{id}` defined twice"
            );
        }
    }
    found
}

/// The values a pattern shows (`{ $name }`), selectors included.
fn variables(pattern: &ast::Pattern<String>, into: &mut BTreeSet<String>) {
    fn expression(e: &ast::Expression<String>, into: &mut BTreeSet<String>) {
        match e {
            ast::Expression::Inline(inline) => inline_expression(inline, into),
            ast::Expression::Select { selector, variants } => {
                inline_expression(selector, into);
                for v in variants {
                    variables(&v.value, into);
                }
            }
        }
    }
    fn inline_expression(e: &ast::InlineExpression<String>, into: &mut BTreeSet<String>) {
        match e {
            ast::InlineExpression::VariableReference { id } => {
                into.insert(id.name.clone());
            }
            ast::InlineExpression::Placeable { expression: e } => expression(e, into),
            _ => {}
        }
    }
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression: e } = element {
            expression(e, into);
        }
    }
}

/// The text of a pattern: its own words and those of every variant.
fn text(pattern: &ast::Pattern<String>) -> String {
    let mut out = String::new();
    for element in &pattern.elements {
        match element {
            ast::PatternElement::TextElement { value } => out.push_str(value),
            ast::PatternElement::Placeable {
                expression: ast::Expression::Select { variants, .. },
            } => {
                for v in variants {
                    out.push_str(&text(&v.value));
                }
            }
            ast::PatternElement::Placeable { .. } => out.push_str("{}"),
        }
    }
    out
}

/// The inline markup a message may hold.
const ALLOWED_TAGS: [&str; 5] = ["strong", "em", "code", "span", "br"];

/// The tags of `text`, in order; an error for anything that is not allowed markup.
fn tags(text: &str) -> Result<Vec<String>, String> {
    let mut found = Vec::new();
    let mut rest = text;
    // A double quote may stand only in an allowed tag's attribute: messages without markup
    // also fill attributes.
    while let Some(start) = rest.find(['<', '>', '"', '&']) {
        let tail = &rest[start..];
        match tail.as_bytes()[0] {
            b'<' => {
                let end = tail.find('>').ok_or("an unclosed `<`")?;
                let tag = &tail[1..end];
                let (name, attribute) = tag.split_once(' ').unwrap_or((tag, ""));
                let bare = name.trim_start_matches('/');
                if !ALLOWED_TAGS.contains(&bare) {
                    return Err(format!("markup `<{tag}>` is not allowed"));
                }
                let attribute_ok = attribute.is_empty()
                    || attribute.split_once('=').is_some_and(|(k, v)| {
                        let v = v.strip_prefix('"').and_then(|v| v.strip_suffix('"'));
                        matches!(k, "id" | "class")
                            && v.is_some_and(|v| {
                                !v.is_empty()
                                    && v.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                            })
                    });
                if !attribute_ok {
                    return Err(format!("attribute `{attribute}` is not allowed"));
                }
                found.push(tag.to_owned());
                rest = &tail[end + 1..];
            }
            b'&' => {
                let entity_end = tail.find(';').ok_or("a bare `&`: write &amp;")?;
                let entity = &tail[..=entity_end];
                if !matches!(entity, "&amp;" | "&lt;" | "&gt;" | "&nbsp;") {
                    return Err(format!("entity `{entity}` is not allowed"));
                }
                rest = &tail[entity_end + 1..];
            }
            other => return Err(format!("a bare `{}`", other as char)),
        }
    }
    Ok(found)
}

#[test]
fn the_catalogs_parse_and_build() {
    Catalogs::new().expect("catalogs build");
}

#[test]
fn every_language_has_every_english_message_and_no_other() {
    let english = messages(SOURCES[0].1);
    assert!(
        english.len() > 100,
        "the English catalog is the whole of the pages' text"
    );
    for (language, source) in SOURCES.iter().skip(1) {
        let other = messages(source);
        let missing: Vec<&String> = english.keys().filter(|k| !other.contains_key(*k)).collect();
        let extra: Vec<&String> = other.keys().filter(|k| !english.contains_key(*k)).collect();
        assert!(missing.is_empty(), "`{language}` lacks {missing:?}");
        assert!(
            extra.is_empty(),
            "`{language}` has messages English lacks: {extra:?}"
        );
    }
}

#[test]
fn every_translation_shows_the_same_values_and_markup_as_english() {
    let english = messages(SOURCES[0].1);
    for (language, source) in SOURCES {
        for (id, message) in messages(source) {
            let pattern = message
                .value
                .as_ref()
                .unwrap_or_else(|| panic!("`{id}` has no text"));
            let reference = english[&id].value.as_ref().expect("English has text");
            let (mut mine, mut theirs) = (BTreeSet::new(), BTreeSet::new());
            variables(pattern, &mut mine);
            variables(reference, &mut theirs);
            assert_eq!(
                mine, theirs,
                "`{id}` in `{language}` shows other values than English"
            );
            let own = text(pattern);
            let markup = tags(&own).unwrap_or_else(|e| panic!("`{id}` in `{language}`: {e}"));
            let mut markup_set: Vec<String> = markup;
            let mut english_set = tags(&text(reference)).expect("English markup is allowed");
            markup_set.sort();
            markup_set.dedup();
            english_set.sort();
            english_set.dedup();
            assert_eq!(
                markup_set, english_set,
                "`{id}` in `{language}` has other markup than English"
            );
        }
    }
}

#[test]
fn the_markup_check_refuses_what_a_message_may_not_hold() {
    assert!(tags("Plain words, and <strong>bold</strong> &amp; <code>code</code>.").is_ok());
    assert!(tags("<strong id=\"codes-left\">9</strong>").is_ok());
    assert!(tags("<a href=x>link</a>").is_err());
    assert!(tags("<script>").is_err());
    assert!(tags("a \"quote\"").is_err());
    assert!(tags("a & b").is_err());
    assert!(tags("<span onclick=\"x\">").is_err());
    assert!(tags("<span class=x>").is_err());
    assert!(tags("<span class=\"x y\">").is_err());
}

#[test]
fn values_are_escaped_and_counts_follow_the_language() {
    let catalogs = Catalogs::new().expect("catalogs build");
    let mut args = FluentArgs::new();
    args.set("app", FluentValue::from("&lt;b&gt;"));
    let text = catalogs
        .format(Language::De, "continue-to", Some(&args))
        .expect("formats");
    assert_eq!(text, "um mit <strong>&lt;b&gt;</strong> fortzufahren");
    let counted = |language, left: u32| {
        let mut args = FluentArgs::new();
        args.set("left", FluentValue::from(left));
        catalogs
            .format(language, "codes-left", Some(&args))
            .expect("formats")
    };
    assert!(counted(Language::En, 1).ends_with("recovery code left."));
    assert!(counted(Language::En, 9).ends_with("recovery codes left."));
    assert!(counted(Language::Fr, 1).ends_with("code de récupération."));
    assert!(counted(Language::Es, 2).starts_with("Le quedan"));
    let mut args = FluentArgs::new();
    args.set("max", FluentValue::from(16384));
    let long = catalogs
        .format(Language::De, "error-request-too-long", Some(&args))
        .expect("formats");
    assert!(long.contains("16.384 Bytes"), "{long}");
    let missing = catalogs.format(Language::De, "continue-to", None);
    assert!(
        matches!(missing, Err(CatalogError::Format { .. })),
        "{missing:?}"
    );
    assert!(matches!(
        catalogs.format(Language::Fr, "no-such-message", None),
        Err(CatalogError::Missing(_))
    ));
}

/// Every string literal in the web layer's page code that is shaped like a message id and
/// starts like one: the messages the Rust side names.
fn ids_named_in_code() -> BTreeSet<String> {
    const PREFIXES: [&str; 17] = [
        "account-",
        "admin-",
        "audit-",
        "change-",
        "codes-",
        "consent-",
        "continue-",
        "enrol-",
        "error-",
        "help-",
        "language-",
        "locked",
        "logout-",
        "otp-",
        "scope-",
        "signed-",
        "signin-",
    ];
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut ids = BTreeSet::new();
    let mut dirs = vec![
        root.join("web"),
        root.join("pages"),
        root.join("admin/screen"),
    ];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("source folder reads") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") || path.ends_with("tests.rs") {
                continue;
            }
            let source = std::fs::read_to_string(&path).expect("source reads");
            for literal in source.split('"').skip(1).step_by(2) {
                let shaped = !literal.is_empty()
                    && literal
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                    && !literal.ends_with('-');
                if shaped && PREFIXES.iter().any(|p| literal.starts_with(p)) {
                    ids.insert(literal.to_owned());
                }
            }
        }
    }
    ids
}

#[test]
fn every_message_the_code_names_is_in_the_catalogs() {
    let english = messages(SOURCES[0].1);
    let named = ids_named_in_code();
    assert!(
        named.contains("signin-wrong") && named.contains("admin-alg-default"),
        "{named:?}"
    );
    let missing: Vec<&String> = named
        .iter()
        .filter(|id| !english.contains_key(*id))
        .collect();
    assert!(
        missing.is_empty(),
        "named in the code but not in the catalog: {missing:?}"
    );
    for action in crate::domain::audit::Action::ALL {
        let id = format!("audit-action-{}", action.as_str());
        assert!(english.contains_key(&id), "no `{id}`");
    }
}
