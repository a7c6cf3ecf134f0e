//! Every admin page renders in strict mode, escapes what it shows, and every form that changes
//! state carries the CSRF token.

#![allow(clippy::expect_used)]

use super::views::*;
use crate::domain::{Language, SigningAlg};
use crate::pages::views::PasskeyPrompt;
use crate::web::i18n::Text;
use crate::web::render::Templates;

const HOSTILE: &str = "<script>alert(1)</script>";

fn nav() -> Nav {
    Nav {
        user: "Ada".into(),
        csrf_token: "csrf-123".into(),
        section: "apps",
    }
}

fn row() -> AppRow {
    AppRow {
        client_id: "cid-1".into(),
        name: HOSTILE.into(),
        redirect_uris: vec!["https://a.example/cb".into()],
        public: false,
        require_pkce: true,
        may_introspect: true,
        id_token_alg: Some("ES256"),
        enabled: true,
        created_by: "ada".into(),
        created_at: 0,
        last_used: None,
        restricted: true,
        allowed_roles: vec!["finance"],
        allowed_groups: vec![HOSTILE.into()],
        web_origins: vec![HOSTILE.into()],
        backchannel_logout_uri: Some(HOSTILE.into()),
    }
}

/// Access fields holding hostile text everywhere a person can type.
fn access() -> AccessFields {
    let mut fields = AccessFields::of(None);
    fields.roles[0].checked = true;
    fields.groups = HOSTILE.into();
    fields.web_origins = HOSTILE.into();
    fields.backchannel_logout_uri = HOSTILE.into();
    fields
}

/// A message showing `HOSTILE`.
fn hostile() -> Text {
    Text::new("admin-users-reset-none").arg("user", HOSTILE)
}

/// Every page, rendered in English.
fn pages() -> Vec<(&'static str, String)> {
    pages_in(Language::En)
}

/// Every page, rendered in `language`.
fn pages_in(language: Language) -> Vec<(&'static str, String)> {
    let t = Templates::new().expect("templates parse");
    let t = Rendering { t, language };
    let failure = FailureRow {
        at: 0,
        endpoint: "token".into(),
        problem: HOSTILE.into(),
        fix: Some("fix".into()),
        verified: false,
    };
    let event = AuditRow {
        at: 1_700_000_000,
        action: action_label(crate::domain::audit::Action::AppCreated),
        actor: HOSTILE.into(),
        client_id: "cid-1".into(),
        address: "127.0.0.1".into(),
        success: false,
        detail: HOSTILE.into(),
    };
    let ok = |r: Result<String, _>| r.expect("page renders");
    vec![
        (
            "signin",
            ok(t.page(&SignInView {
                csrf_token: "csrf-123".into(),
                username: HOSTILE.into(),
                error: Some(hostile()),
                notice: None,
                otp_step: false,
                passkey: None,
                code_form: false,
            })),
        ),
        (
            "signin-otp",
            ok(t.page(&SignInView {
                csrf_token: "csrf-123".into(),
                username: HOSTILE.into(),
                error: Some(hostile()),
                notice: None,
                otp_step: true,
                passkey: Some(PasskeyPrompt {
                    action: "/admin/login/passkey".into(),
                    options: HOSTILE.into(),
                }),
                code_form: true,
            })),
        ),
        (
            "users",
            ok(t.page(&UsersView {
                nav: nav(),
                lookup_username: HOSTILE.into(),
                factors: Some(FactorsView {
                    sub: HOSTILE.into(),
                    authenticator_since: Some(1_700_000_000),
                    recovery_codes_left: 3,
                    passkey_count: 1,
                    passkeys: vec![HOSTILE.into()],
                }),
                username: HOSTILE.into(),
                notice: Some(hostile()),
                error: Some(hostile()),
                revoke_username: HOSTILE.into(),
                revoke_error: Some(hostile()),
            })),
        ),
        (
            "apps",
            ok(t.page(&AppsView {
                nav: nav(),
                query: HOSTILE.into(),
                apps: vec![row()],
                shown: 1,
                total: 1,
                notice: Some(Text::new("admin-notice-updated")),
            })),
        ),
        (
            "apps-empty",
            ok(t.page(&AppsView {
                nav: nav(),
                query: String::new(),
                apps: vec![],
                shown: 0,
                total: 0,
                notice: None,
            })),
        ),
        (
            "form",
            ok(t.page(&AppFormView {
                nav: nav(),
                name: HOSTILE.into(),
                redirect_uris: HOSTILE.into(),
                post_logout_uris: HOSTILE.into(),
                public: false,
                require_pkce: true,
                may_introspect: true,
                id_token_algs: AlgChoice::all(&[SigningAlg::Rs256], Some(SigningAlg::Es256)),
                access: access(),
                errors: vec![Text::new("admin-uri-not-absolute").arg("uri", HOSTILE)],
            })),
        ),
        (
            "secret",
            ok(t.page(&SecretView {
                nav: nav(),
                heading: Text::new("admin-secret-registered").arg("app", HOSTILE),
                app: row(),
                client_secret: Some("s3cret".into()),
            })),
        ),
        (
            "app",
            ok(t.page(&AppView {
                nav: nav(),
                title: Text::new("admin-app-title").arg("name", HOSTILE),
                app: row(),
                redirect_text: HOSTILE.into(),
                post_logout_text: HOSTILE.into(),
                id_token_algs: AlgChoice::all(&SigningAlg::ALL, None),
                access: access(),
                failures: vec![failure],
                notice: None,
                errors: vec![hostile()],
            })),
        ),
        (
            "delete",
            ok(t.page(&DeleteView {
                nav: nav(),
                app: row(),
            })),
        ),
        (
            "audit",
            ok(t.page(&AuditView {
                nav: nav(),
                actions: vec![ActionChoice {
                    value: "app_created",
                    label: action_label(crate::domain::audit::Action::AppCreated),
                    selected: true,
                }],
                client_id: HOSTILE.into(),
                actor: String::new(),
                failures_only: true,
                events: vec![event],
                error: None,
                older: Some(format!("/admin/audit?actor={HOSTILE}&before=7")),
                newer: Some("/admin/audit?after=9".into()),
                partial: true,
            })),
        ),
    ]
}

#[test]
fn every_admin_page_renders_and_escapes_what_it_shows() {
    for (name, html) in pages() {
        assert!(!html.contains(HOSTILE), "{name} shows raw markup");
        // The Copy button's script, and the passkey ceremony's at the second sign-in step.
        let only_own_scripts = html.split("<script").skip(1).all(|tag| {
            tag.starts_with(" src=\"/admin/assets/copy.js\" defer></script>")
                || tag.starts_with(" src=\"/assets/passkey.js\" defer></script>")
        });
        assert!(only_own_scripts, "{name} carries an inline script");
    }
}

#[test]
fn every_form_that_posts_carries_the_csrf_token() {
    for (name, html) in pages() {
        for form in html.split("<form").skip(1) {
            let form = &form[..form.find("</form>").expect("closed form")];
            if form.contains("method=\"post\"") {
                assert!(
                    form.contains("name=\"csrf_token\" value=\"csrf-123\""),
                    "a form of {name} lacks the CSRF token: {form}"
                );
            }
        }
    }
}

#[test]
fn the_secret_page_shows_the_secret_in_a_read_only_field() {
    let html = pages()
        .into_iter()
        .find(|(n, _)| *n == "secret")
        .expect("secret page")
        .1;
    assert!(html
        .contains("id=\"client_secret\" class=\"secret\" type=\"text\" value=\"s3cret\" readonly"));
}

#[test]
fn the_algorithm_select_offers_the_default_and_keeps_an_app_on_an_algorithm_no_longer_offered() {
    let choices = AlgChoice::all(&[SigningAlg::Rs256], Some(SigningAlg::Es256));
    let shown: Vec<(&str, bool)> = choices.iter().map(|c| (c.value, c.selected)).collect();
    assert_eq!(shown, [("", false), ("RS256", false), ("ES256", true)]);
    assert_eq!(
        choices[0].label,
        Text::new("admin-alg-default").arg("alg", "RS256")
    );

    let html = pages()
        .into_iter()
        .find(|(n, _)| *n == "app")
        .expect("app page")
        .1;
    assert!(
        html.contains("<option value=\"\" selected>Service default (RS256)</option>"),
        "{html}"
    );
    assert!(html.contains("<option value=\"ES256\">"), "{html}");
}

/// Renders pages in one language.
struct Rendering {
    t: Templates,
    language: Language,
}

impl Rendering {
    fn page<P: crate::web::render::Page>(
        &self,
        page: &P,
    ) -> Result<String, crate::web::render::RenderError> {
        self.t.page_in(self.language, page)
    }
}

#[test]
fn every_admin_page_renders_in_every_language_with_its_dates_and_counts() {
    for language in Language::ALL {
        for (name, html) in pages_in(language) {
            assert!(
                html.contains(&format!(r#"<html lang="{}">"#, language.code())),
                "{name} in {language}"
            );
            assert!(
                !html.contains(HOSTILE),
                "{name} in {language} shows raw markup"
            );
        }
    }
    let audit = |language| {
        pages_in(language)
            .into_iter()
            .find(|(n, _)| *n == "audit")
            .expect("audit page")
            .1
    };
    assert!(audit(Language::De).contains("14.11.2023, 22:13 UTC"));
    assert!(audit(Language::De).contains("App erstellt"));
    assert!(audit(Language::En).contains("app created"));
    assert!(audit(Language::Fr).contains("application créée"));
    let apps = |language| {
        pages_in(language)
            .into_iter()
            .find(|(n, _)| *n == "apps")
            .expect("apps page")
            .1
    };
    assert!(
        apps(Language::En).contains("1 of 1 app<"),
        "{}",
        apps(Language::En)
    );
    assert!(apps(Language::Es).contains("1 de 1 aplicación"));
    assert!(apps(Language::De).contains("01.01.1970, 00:00 UTC"));
}

#[test]
fn the_users_page_shows_the_factors_of_the_person_looked_up_next_to_the_actions() {
    let t = Templates::new().expect("built-in templates parse");
    let view = |factors| UsersView {
        nav: nav(),
        lookup_username: "grace".into(),
        factors,
        username: "grace".into(),
        notice: None,
        error: None,
        revoke_username: "grace".into(),
        revoke_error: None,
    };
    let with = view(Some(FactorsView {
        sub: "grace".into(),
        authenticator_since: Some(1_700_000_000),
        recovery_codes_left: 3,
        passkey_count: 2,
        passkeys: vec!["Laptop".into(), "Desk <key>".into()],
    }));
    for language in Language::ALL {
        let html = t.page_in(language, &with).expect("renders");
        assert!(
            html.contains(r#"<form class="form" method="get" action="/admin/users#user-factors">"#)
        );
        assert!(html.contains(r#"name="user" type="text" value="grace""#));
        assert!(html.contains(r#"id="user-factors""#));
    }
    let english = t.page_in(Language::En, &with).expect("renders");
    assert!(english.contains("Yes, set up on"), "{english}");
    assert!(english.contains("3 codes left."));
    assert!(english.contains("2 passkeys:"), "{english}");
    assert!(english.contains("<li>Laptop</li>") && english.contains("<li>Desk &lt;key&gt;</li>"));
    let without = view(Some(FactorsView {
        sub: "grace".into(),
        authenticator_since: None,
        recovery_codes_left: 0,
        passkey_count: 0,
        passkeys: Vec::new(),
    }));
    let english = t.page_in(Language::En, &without).expect("renders");
    assert!(
        english.contains(r#"<dd id="factor-authenticator">No</dd>"#),
        "{english}"
    );
    assert!(english.contains(r#"<dd id="factor-passkeys">None</dd>"#));
    let blank = t.page_in(Language::En, &view(None)).expect("renders");
    assert!(!blank.contains(r#"id="user-factors""#));
}
