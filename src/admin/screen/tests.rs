//! Every admin page renders in strict mode, escapes what it shows, and every form that changes
//! state carries the CSRF token.

#![allow(clippy::expect_used)]

use super::views::*;
use crate::domain::SigningAlg;
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
        created_at: when(0),
        last_used: "never".into(),
        who_may: HOSTILE.into(),
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

/// Every page, rendered.
fn pages() -> Vec<(&'static str, String)> {
    let t = Templates::new().expect("templates parse");
    let failure = FailureRow {
        at: when(0),
        endpoint: "token".into(),
        problem: HOSTILE.into(),
        fix: Some("fix".into()),
        verified: false,
    };
    let event = AuditRow {
        at: when(0),
        action: "app created".into(),
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
                error: Some(HOSTILE.into()),
                notice: None,
                otp_step: false,
            })),
        ),
        (
            "signin-otp",
            ok(t.page(&SignInView {
                csrf_token: "csrf-123".into(),
                username: HOSTILE.into(),
                error: Some(HOSTILE.into()),
                notice: None,
                otp_step: true,
            })),
        ),
        (
            "users",
            ok(t.page(&UsersView {
                nav: nav(),
                username: HOSTILE.into(),
                notice: Some(HOSTILE.into()),
                error: Some(HOSTILE.into()),
                revoke_username: HOSTILE.into(),
                revoke_error: Some(HOSTILE.into()),
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
                notice: Some("Saved.".into()),
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
                errors: vec![HOSTILE.into()],
            })),
        ),
        (
            "secret",
            ok(t.page(&SecretView {
                nav: nav(),
                heading: HOSTILE.into(),
                app: row(),
                client_secret: Some("s3cret".into()),
            })),
        ),
        (
            "app",
            ok(t.page(&AppView {
                nav: nav(),
                app: row(),
                redirect_text: HOSTILE.into(),
                post_logout_text: HOSTILE.into(),
                id_token_algs: AlgChoice::all(&SigningAlg::ALL, None),
                access: access(),
                failures: vec![failure],
                notice: None,
                errors: vec![HOSTILE.into()],
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
                actions: vec![],
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
        let only_the_copy_script = html
            .split("<script")
            .skip(1)
            .all(|tag| tag.starts_with(" src=\"/admin/assets/copy.js\" defer></script>"));
        assert!(only_the_copy_script, "{name} carries an inline script");
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
    assert_eq!(choices[0].label, "Service default (RS256)");

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
