//! Tests of the template registry: strict mode bites, render errors name their template, no
//! template disables escaping, and the error page every failure shows.

// A failed expectation in a test should stop that test loudly.
#![allow(clippy::expect_used)]

use super::*;
use crate::web::errors::ErrorPage;
use crate::web::i18n::Text;

fn templates() -> Templates {
    Templates::new().expect("built-in templates parse")
}

fn error_page() -> ErrorPage {
    ErrorPage {
        status: 400,
        title: Text::new("error-unknown-app-title"),
        message: Text::new("error-unknown-app-message"),
        request_id: Some("01HZX-REQ".into()),
        back: None,
    }
}

#[test]
fn the_error_page_is_a_full_document_with_the_stylesheet() {
    let html = templates().page(&error_page()).expect("error renders");

    assert!(html.starts_with("<!doctype html>"), "{html}");
    assert!(html.contains(r#"<html lang="en">"#));
    assert!(html.contains(r#"name="viewport""#));
    assert!(html.contains(r#"<link rel="stylesheet" href="/assets/style.css">"#));
    assert!(html.contains("sso-bridge"));
    assert!(html.contains(r#"<main class="card">"#));
    assert!(html.trim_end().ends_with("</html>"));
}

#[test]
fn strict_mode_rejects_data_missing_a_field() {
    let templates = templates();
    let incomplete = serde_json::json!({ "app_name": "Payroll", "action": "/login" });

    let result = templates.registries[0].1.render(name::SIGNIN, &incomplete);

    let error = result.expect_err("a missing field is an error, not an empty string");
    assert!(
        matches!(
            error.reason(),
            handlebars::RenderErrorReason::MissingVariable(_)
        ),
        "{error}"
    );
}

#[test]
fn a_missing_field_surfaces_as_a_render_error_naming_the_template() {
    let templates = templates();

    let result = templates.render(
        name::CONSENT,
        Language::En,
        &serde_json::json!({ "app_name": "Payroll" }),
        None,
    );

    assert!(matches!(
        result,
        Err(RenderError::Render {
            name: name::CONSENT,
            ..
        })
    ));
}

#[test]
fn error_page_shows_the_request_id_and_no_links() {
    let templates = templates();
    let with_id = templates.page(&error_page()).expect("renders");
    let without_id = templates
        .page(&ErrorPage {
            request_id: None,
            ..error_page()
        })
        .expect("renders");

    assert!(with_id.contains("<code>01HZX-REQ</code>"));
    assert!(with_id.contains("400"));
    assert!(with_id.contains("<title>Unknown application · sso-bridge</title>"));
    assert!(!without_id.contains("<code>"));
    for html in [&with_id, &without_id] {
        assert!(!html.contains("<a "), "{html}");
        assert!(!html.contains("<form"), "{html}");
    }
}

#[test]
fn a_way_back_to_the_app_is_one_escaped_link() {
    let html = templates()
        .page(&ErrorPage {
            back: Some(crate::web::errors::BackLink {
                text: Text::new("error-no-access-back").arg("app", "<Payroll>"),
                url: "https://app.example.com/cb?error=access_denied&x=<y>".into(),
            }),
            ..error_page()
        })
        .expect("renders");

    assert_eq!(html.matches("<a ").count(), 1, "{html}");
    assert!(html.contains("Back to &lt;Payroll&gt;"), "{html}");
    assert!(
        html.contains(
            "href=\"https://app.example.com/cb?error&#x3D;access_denied&amp;x&#x3D;&lt;y&gt;\""
        ),
        "{html}"
    );
}

#[test]
fn templates_never_disable_escaping() {
    for (name, source) in BUILT_IN {
        assert!(!source.contains("{{{"), "{name} uses a triple-stash");
        assert!(
            !source.contains("{{&"),
            "{name} uses an unescaped expression"
        );
    }
}

#[test]
fn stylesheet_loads_nothing_from_elsewhere() {
    assert!(!STYLESHEET.is_empty());
    assert!(!STYLESHEET.contains("@import"));
    assert!(!STYLESHEET.contains("url("));
}

// --- every word from the catalogs -------------------------------------------------------------

/// What a template shows that does not come from the catalogs: text between tags and the
/// attributes people read (`placeholder`, `title`, `aria-label`, `alt`, `value` of a button
/// input) once every `{{…}}` is taken out, where anything but punctuation is left.
fn stray_text(source: &str) -> Vec<String> {
    const MUSTACHE: char = '\u{1}';
    // The product's name is a name, the same in every language.
    let mut rest = source.replace("sso-bridge", "");
    let mut plain = String::new();
    while let Some(start) = rest.find("{{") {
        plain.push_str(&rest[..start]);
        plain.push(MUSTACHE);
        rest = match rest[start..].find("}}") {
            Some(end) => rest[start + end + 2..].to_owned(),
            None => String::new(),
        };
    }
    plain.push_str(&rest);

    let words = |s: &str| {
        s.chars().any(|c| {
            !(c.is_whitespace()
                || c == MUSTACHE
                || c.is_ascii_punctuation()
                || "·›…—–«»“”’".contains(c))
        })
    };
    let mut stray = Vec::new();
    let mut text = String::new();
    let mut chars = plain.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let starts_tag = c == '<'
            && plain[i + 1..]
                .chars()
                .next()
                .is_some_and(|n| n.is_ascii_alphabetic() || n == '/' || n == '!');
        if !starts_tag {
            text.push(c);
            continue;
        }
        if words(&text) {
            stray.push(text.trim().to_owned());
        }
        text.clear();
        let end = plain[i..].find('>').map_or(plain.len(), |e| i + e);
        let tag = &plain[i..end];
        let button_input = tag.starts_with("<input")
            && ["submit", "button", "reset"]
                .iter()
                .any(|t| tag.contains(&format!("type=\"{t}\"")));
        for name in ["placeholder", "title", "aria-label", "alt", "value"] {
            if name == "value" && !button_input {
                continue;
            }
            let needle = format!(" {name}=\"");
            if let Some(at) = tag.find(&needle) {
                let value_start = at + needle.len();
                let value = &tag[value_start..];
                let value = &value[..value.find('"').unwrap_or(value.len())];
                if words(value) {
                    stray.push(format!("{name}=\"{value}\""));
                }
            }
        }
        while chars.peek().is_some_and(|&(j, _)| j <= end) {
            chars.next();
        }
    }
    if words(&text) {
        stray.push(text.trim().to_owned());
    }
    stray
}

#[test]
fn templates_show_no_words_of_their_own() {
    for (name, source) in BUILT_IN {
        let stray = stray_text(source);
        assert!(
            stray.is_empty(),
            "template `{name}` shows text not from the catalogs: {stray:?}"
        );
    }
}

#[test]
fn the_stray_text_check_finds_words_and_lets_markup_and_values_through() {
    assert!(stray_text("<p>{{t \"x\"}} <a href=\"{{url}}\">{{t \"y\"}}</a>.</p>").is_empty());
    assert!(stray_text("<input value=\"{{username}}\" placeholder=\"{{t \"p\"}}\">").is_empty());
    assert_eq!(stray_text("<p>Hello {{name}}</p>"), ["Hello \u{1}"]);
    assert_eq!(stray_text("<img alt=\"A picture\">"), ["alt=\"A picture\""]);
    assert_eq!(stray_text("<p title=\"Tip\">{{x}}</p>"), ["title=\"Tip\""]);
    assert_eq!(
        stray_text("<nav aria-label=\"Pages\"></nav>"),
        ["aria-label=\"Pages\""]
    );
    assert_eq!(
        stray_text("<input type=\"submit\" value=\"Go\">"),
        ["value=\"Go\""]
    );
    assert!(
        stray_text("<button name=\"decision\" value=\"approve\">{{t \"a\"}}</button>").is_empty()
    );
    assert_eq!(
        stray_text("{{#if x}}Nothing here{{/if}}"),
        ["\u{1}Nothing here\u{1}"]
    );
}

#[test]
fn every_message_a_template_names_is_in_the_english_catalog() {
    let catalogs = crate::web::i18n::Catalogs::new().expect("catalogs build");
    for (name, source) in BUILT_IN {
        for part in source.split("{{t \"").skip(1) {
            let id = &part[..part.find('"').unwrap_or(0)];
            assert!(
                catalogs.has(Language::En, id),
                "`{name}` names `{id}`, which no catalog has"
            );
        }
    }
}

#[test]
fn pages_say_their_language_and_offer_the_menu_only_where_asked() {
    let t = templates();
    for language in Language::ALL {
        let html = t.page_in(language, &error_page()).expect("renders");
        assert!(
            html.contains(&format!(r#"<html lang="{}">"#, language.code())),
            "{html}"
        );
        assert!(!html.contains("name=\"lang\""));
    }
    let german = t.page_in(Language::De, &error_page()).expect("renders");
    assert!(german.contains("Fehler 400"), "{german}");
}

#[test]
fn the_language_menu_offers_every_language_in_itself_and_selects_the_pages() {
    let t = templates();
    for language in Language::ALL {
        let menu = Menu {
            action: "https://sso.example.com/language?return=%2Fauthorize".into(),
        };
        let html = t
            .render(name::ERROR, language, &error_page(), Some(menu))
            .expect("renders");
        let code = language.code();
        assert!(
            html.contains(&format!(
                r#"<option value="{code}" lang="{code}" selected>"#
            )),
            "{html}"
        );
        assert_eq!(html.matches(" selected>").count(), 1, "{html}");
        let offered: Vec<&str> = html
            .split(r#"<option value=""#)
            .skip(1)
            .filter_map(|option| option.split('"').next())
            .collect();
        let all: Vec<&str> = Language::ALL.iter().map(|l| l.code()).collect();
        assert_eq!(offered, all, "{html}");
        assert!(html.contains(">Deutsch</option>"), "{html}");
        assert!(html.contains("</option>\n</select>"), "{html}");
    }
}
