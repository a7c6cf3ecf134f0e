//! Tests of the sign-in flow's page templates: every page renders, values are escaped, and the
//! form field names outside clients rely on are present.

// A failed expectation in a test should stop that test loudly.
#![allow(clippy::expect_used)]

use super::*;
use crate::domain::Language;
use crate::web::i18n::Text;
use crate::web::render::Templates;

fn templates() -> Templates {
    Templates::new().expect("built-in templates parse")
}

fn signin_page() -> SignInPage {
    SignInPage {
        app_name: "Payroll".into(),
        action: "/login".into(),
        request_id: "req-42".into(),
        csrf_token: "csrf-abc".into(),
        username: String::new(),
        error: None,
        help: None,
        passkey: None,
    }
}

fn consent_page() -> ConsentPage {
    ConsentPage {
        app_name: "Payroll".into(),
        redirect_host: "payroll.example.com".into(),
        user_display: "Ada Lovelace".into(),
        username: "ada".into(),
        scopes: vec![
            ScopeView {
                name: "profile".into(),
                description: Text::new("scope-profile"),
            },
            ScopeView {
                name: "email".into(),
                description: Text::new("scope-email"),
            },
        ],
        action: "/consent".into(),
        request_id: "req-42".into(),
        csrf_token: "csrf-abc".into(),
        enrol_url: None,
    }
}

/// Every `<input …>` tag of the page carrying `name="<name>"`.
fn inputs_named<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let needle = format!("name=\"{name}\"");
    html.match_indices("<input")
        .filter_map(|(start, _)| {
            let end = html[start..].find('>')?;
            Some(&html[start..=start + end])
        })
        .filter(|tag| tag.contains(&needle))
        .collect()
}

fn single_input<'a>(html: &'a str, name: &str) -> &'a str {
    let tags = inputs_named(html, name);
    assert_eq!(tags.len(), 1, "exactly one input named {name}: {tags:?}");
    tags[0]
}

#[test]
fn every_page_renders_a_full_document_with_the_stylesheet() {
    let templates = templates();
    let pages = [
        templates.page(&signin_page()).expect("sign-in renders"),
        templates.page(&consent_page()).expect("consent renders"),
    ];

    for html in pages {
        assert!(html.starts_with("<!doctype html>"), "{html}");
        assert!(html.contains(r#"<html lang="en">"#));
        assert!(html.contains(r#"name="viewport""#));
        assert!(html.contains(r#"<link rel="stylesheet" href="/assets/style.css">"#));
        assert!(html.contains("sso-bridge"));
        assert!(html.contains(r#"<main class="card">"#));
        assert!(html.trim_end().ends_with("</html>"));
    }
}

#[test]
fn sign_in_page_has_the_contract_inputs() {
    let html = templates().page(&signin_page()).expect("renders");

    let username = single_input(&html, "username");
    assert!(username.contains(r#"autocomplete="username""#));
    assert!(username.contains("autofocus"));
    assert!(username.contains("required"));
    let password = single_input(&html, "password");
    assert!(password.contains(r#"type="password""#));
    assert!(password.contains(r#"autocomplete="current-password""#));
    assert!(password.contains("required"));
    assert!(single_input(&html, "request_id")
        .contains(r#"type="hidden" name="request_id" value="req-42""#));
    assert!(single_input(&html, "csrf_token")
        .contains(r#"type="hidden" name="csrf_token" value="csrf-abc""#));
    assert!(html.contains(r#"<form class="form" method="post" action="/login">"#));
    assert!(html.contains(r#"<label for="username">"#));
    assert!(html.contains(r#"<label for="password">"#));
    assert!(html.contains("to continue to <strong>Payroll</strong>"));
}

#[test]
fn sign_in_page_shows_an_alert_only_when_there_is_an_error() {
    let templates = templates();
    let quiet = templates.page(&signin_page()).expect("renders");
    let failed = templates
        .page(&SignInPage {
            username: "ada".into(),
            error: Some(Text::new("signin-wrong")),
            ..signin_page()
        })
        .expect("renders");

    assert!(!quiet.contains(r#"role="alert""#));
    assert!(failed.contains(r#"role="alert""#));
    assert!(failed.contains("The username or password is incorrect."));
    assert!(single_input(&failed, "username").contains(r#"value="ada""#));
}

#[test]
fn consent_page_has_both_decisions_and_the_hidden_inputs() {
    let html = templates().page(&consent_page()).expect("renders");

    assert!(html.contains(r#"name="decision" value="approve""#));
    assert!(html.contains(r#"name="decision" value="deny""#));
    assert!(single_input(&html, "request_id")
        .contains(r#"type="hidden" name="request_id" value="req-42""#));
    assert!(single_input(&html, "csrf_token")
        .contains(r#"type="hidden" name="csrf_token" value="csrf-abc""#));
    assert!(html.contains(r#"<form class="form" method="post" action="/consent">"#));
    assert!(html.contains("Ada Lovelace"));
    assert!(html.contains("payroll.example.com"));
    assert!(html.contains("Read your email address"));
}

#[test]
fn values_are_html_escaped() {
    let templates = templates();
    let hostile_app = "<script>alert(1)</script>";
    let quoted_user = r#"o"brien'x"#;

    let signin = templates
        .page(&SignInPage {
            app_name: hostile_app.into(),
            username: quoted_user.into(),
            ..signin_page()
        })
        .expect("renders");
    let consent = templates
        .page(&ConsentPage {
            app_name: hostile_app.into(),
            user_display: quoted_user.into(),
            username: quoted_user.into(),
            ..consent_page()
        })
        .expect("renders");

    for html in [&signin, &consent] {
        assert!(!html.contains("<script"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(!html.contains(quoted_user));
        assert!(html.contains("o&quot;brien&#x27;x"));
    }
    assert!(single_input(&signin, "username").contains(r#"value="o&quot;brien&#x27;x""#));
}

// --- second factor ------------------------------------------------------------------------

#[test]
fn the_second_factor_pages_render_with_an_otp_input_and_their_hidden_fields() {
    let t = templates();
    let verify = t
        .page(&SecondFactorPage {
            app_name: "Payroll".into(),
            username: "ada".into(),
            action: "/oauth/second-factor".into(),
            request_id: "req-42".into(),
            csrf_token: "csrf-abc".into(),
            error: Some(Text::new("admin-uri-not-absolute").arg("uri", "Wrong <code>")),
            passkey: None,
            code_form: true,
        })
        .expect("verify page renders");
    let enrol = t
        .page(&EnrolPage {
            app_name: Some("Payroll".into()),
            username: "ada".into(),
            qr: "data:image/svg+xml;base64,PHN2Zz4=".into(),
            secret: "ABCD EFGH".into(),
            action: "/oauth/second-factor/enrol".into(),
            request_id: Some("req-42".into()),
            csrf_token: "csrf-abc".into(),
            error: None,
            passkey: None,
        })
        .expect("enrol page renders");
    for html in [&verify, &enrol] {
        assert_eq!(inputs_named(html, "otp").len(), 1, "{html}");
        assert_eq!(inputs_named(html, "csrf_token").len(), 1);
        assert_eq!(inputs_named(html, "request_id").len(), 1);
    }
    assert!(
        verify.contains("`Wrong &lt;code&gt;` is not an absolute URL."),
        "{verify}"
    );
    assert!(enrol.contains("ABCD EFGH") && enrol.contains("data:image/svg+xml;base64,"));
}

#[test]
fn the_recovery_codes_page_lists_fresh_codes_or_counts_what_is_left() {
    let t = templates();
    let page = |codes: Vec<String>, left| RecoveryCodesPage {
        codes,
        left,
        enrol_url: Some("/oauth/second-factor/enrol?request_id=req-42".into()),
        action: "/oauth/second-factor/continue".into(),
        request_id: "req-42".into(),
        csrf_token: "csrf-abc".into(),
        back_url: None,
    };
    let fresh = t
        .page(&page(vec!["abcdef-ghjkmn".into()], None))
        .expect("renders");
    assert!(fresh.contains("abcdef-ghjkmn"));
    let used = t.page(&page(vec![], Some(9))).expect("renders");
    assert!(used.contains(">9<") && used.contains("set up a new one"));
    assert_eq!(inputs_named(&used, "csrf_token").len(), 1);
}

// --- OpenID Connect logout ---------------------------------------------------------------------

fn logout_page(signed_out: bool) -> LogoutPage {
    LogoutPage {
        signed_out,
        app_name: Some("Payroll <beta>".into()),
        action: "/oauth/logout".into(),
        csrf_token: "csrf-abc".into(),
        client_id: "client-1".into(),
        post_logout_redirect_uri: "https://payroll.example.com/bye".into(),
        state: "s&1".into(),
    }
}

#[test]
fn logout_confirmation_posts_the_decision_with_its_hidden_inputs() {
    let html = templates()
        .page(&logout_page(false))
        .expect("logout renders");
    assert!(html.starts_with("<!doctype html>"));
    assert!(html.contains("Payroll &lt;beta&gt;"));
    for name in [
        "csrf_token",
        "client_id",
        "post_logout_redirect_uri",
        "state",
    ] {
        assert!(single_input(&html, name).contains(r#"type="hidden""#));
    }
    assert!(html.contains(r#"name="decision" value="logout""#));
}

#[test]
fn the_signed_out_page_has_no_form() {
    let html = templates()
        .page(&logout_page(true))
        .expect("logout renders");
    assert!(html.contains("You are signed out"));
    assert!(!html.contains("<form"));
}

// --- languages -------------------------------------------------------------------------------

#[test]
fn every_sign_in_page_renders_in_every_language_with_its_contract_names() {
    let t = templates();
    for language in Language::ALL {
        let signin = t
            .page_in(language, &signin_page())
            .expect("sign-in renders");
        let consent = t
            .page_in(language, &consent_page())
            .expect("consent renders");
        let logout = t
            .page_in(language, &logout_page(false))
            .expect("logout renders");
        let done = t
            .page_in(language, &logout_page(true))
            .expect("signed-out renders");
        let lang = format!(r#"<html lang="{}">"#, language.code());
        for html in [&signin, &consent, &logout, &done] {
            assert!(html.contains(&lang), "{html}");
        }
        single_input(&signin, "username");
        single_input(&signin, "password");
        assert!(consent.contains(r#"name="decision" value="approve""#));
        assert!(consent.contains(r#"name="decision" value="deny""#));
        assert!(consent.contains("Payroll"));
    }
    let german = t.page_in(Language::De, &signin_page()).expect("renders");
    assert!(german.contains("<h1>Anmelden</h1>"), "{german}");
    assert!(german.contains("um mit <strong>Payroll</strong> fortzufahren"));
    let french = t.page_in(Language::Fr, &consent_page()).expect("renders");
    assert!(french.contains("Autoriser") && french.contains("Lire votre adresse e-mail"));
    let spanish = t
        .page_in(Language::Es, &logout_page(true))
        .expect("renders");
    assert!(spanish.contains("Ha cerrado la sesión"), "{spanish}");
}

#[test]
fn values_stay_escaped_inside_translated_messages() {
    let t = templates();
    for language in Language::ALL {
        let html = t
            .page_in(
                language,
                &ConsentPage {
                    app_name: "<script>alert(1)</script>".into(),
                    ..consent_page()
                },
            )
            .expect("renders");
        assert!(!html.contains("<script"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    }
}

#[test]
fn the_recovery_count_is_a_number_of_the_page_language() {
    let t = templates();
    let page = RecoveryCodesPage {
        codes: vec![],
        left: Some(1),
        enrol_url: None,
        action: "/oauth/second-factor/continue".into(),
        request_id: "req-42".into(),
        csrf_token: "csrf-abc".into(),
        back_url: None,
    };
    let english = t.page_in(Language::En, &page).expect("renders");
    assert!(
        english.contains(r#"<strong id="codes-left">1</strong> recovery code left."#),
        "{english}"
    );
    let spanish = t.page_in(Language::Es, &page).expect("renders");
    assert!(
        spanish.contains("Le queda <strong id=\"codes-left\">1</strong> código"),
        "{spanish}"
    );
}
