//! The account page's templates: they render in every language, every form posts to its
//! contract path with its contract field and the CSRF token, and values stay escaped.

#![allow(clippy::expect_used)]

use super::reauth::Change;
use super::views::{
    AccountPage, AccountReauthPage, AccountSignInPage, ActivityRow, AppRow, PasskeyRow, SessionRow,
    TwoStepView,
};
use crate::domain::Language;
use crate::web::i18n::Text;
use crate::web::render::Templates;

fn page() -> AccountPage {
    AccountPage {
        user_display: "Ada <Lovelace>".into(),
        username: "ada".into(),
        csrf_token: "csrf-abc".into(),
        notice: Some(Text::new("account-sessions-ended").arg("count", 2u64)),
        apps: vec![AppRow {
            client_id: "app-1".into(),
            name: "Pay<roll>".into(),
            scopes: vec!["openid".into(), "email".into()],
            first_used: Some(1_700_000_000),
            last_used: None,
        }],
        sessions: vec![
            SessionRow {
                session: "sid-here".into(),
                device: Text::new("account-device")
                    .arg("browser", "Firefox")
                    .arg("system", "Linux"),
                address: Some("192.0.2.7".into()),
                signed_in: 1_700_000_000,
                last_seen: 1_700_000_100,
                this_browser: true,
            },
            SessionRow {
                session: "sid-there".into(),
                device: Text::new("account-device-unknown"),
                address: None,
                signed_in: 1_700_000_000,
                last_seen: 1_700_000_000,
                this_browser: false,
            },
        ],
        others: true,
        two_step: TwoStepView {
            authenticator_since: Some(1_700_000_000),
            recovery_codes_left: 7,
            required: true,
            passkeys: vec![PasskeyRow {
                id: "cred-1".into(),
                name: "Lap<top>".into(),
                created_at: 1_700_000_000,
                last_used_at: None,
            }],
            passkeys_offered: true,
        },
        activity: vec![ActivityRow {
            at: 1_700_000_000,
            action: Text::new("audit-action-sign_in"),
            app: Some("Pay<roll>".into()),
            address: Some("192.0.2.7".into()),
            success: false,
        }],
    }
}

#[test]
fn the_account_page_renders_every_form_with_its_contract_names_in_every_language() {
    let t = Templates::new().expect("built-in templates parse");
    for language in Language::ALL {
        let html = t.page_in(language, &page()).expect("account page renders");
        assert!(html.contains(&format!(r#"<html lang="{}">"#, language.code())));
        for action in [
            "/account/apps/revoke",
            "/account/sessions/end",
            "/account/sessions/end-all",
            "/account/two-step/recovery-codes",
            "/account/passkeys/rename",
            "/account/passkeys/remove",
        ] {
            assert!(html.contains(&format!(r#"method="post" action="{action}""#)));
        }
        assert!(html.contains(r#"name="client_id" value="app-1""#));
        assert!(html.contains(r#"name="session" value="sid-here""#));
        assert!(html.contains(r#"name="session" value="sid-there""#));
        assert_eq!(html.matches(r#"name="passkey" value="cred-1""#).count(), 2);
        assert!(html.contains(r#"href="/account/passkeys/add""#));
        assert_eq!(
            html.matches(r#"name="csrf_token" value="csrf-abc""#)
                .count(),
            7
        );
        // Required by the policy: replaced, never removed.
        assert!(html.contains(r#"href="/account/two-step/authenticator""#));
        assert!(!html.contains("/account/two-step/authenticator/remove"));
        assert!(html.contains("Pay&lt;roll&gt;") && !html.contains("Pay<roll>"));
        assert!(html.contains("Lap&lt;top&gt;") && !html.contains("Lap<top>"));
        assert!(html.contains("Ada &lt;Lovelace&gt;"));
        assert!(html.contains(r#"id="this-browser""#));
    }
    let english = t.page_in(Language::En, &page()).expect("renders");
    assert!(english.contains("Firefox on Linux"), "{english}");
    assert!(english.contains("2 other sessions have ended."));
    assert!(english.contains("7 codes left.") && english.contains("refused"));
    assert!(english.contains(r#"id="two-step-heading""#));
    let german = t.page_in(Language::De, &page()).expect("renders");
    assert!(german.contains("Firefox unter Linux"), "{german}");
}

#[test]
fn the_account_sign_in_asks_for_the_password_then_the_code() {
    let t = Templates::new().expect("built-in templates parse");
    let mut form = AccountSignInPage {
        csrf_token: "csrf-abc".into(),
        username: "ada".into(),
        error: None,
        otp_step: false,
        passkey: None,
        code_form: false,
    };
    for language in Language::ALL {
        let html = t.page_in(language, &form).expect("renders");
        assert!(html.contains(r#"action="/account/login""#));
        assert!(html.contains(r#"name="username""#) && html.contains(r#"name="password""#));
        assert!(!html.contains(r#"name="otp""#));
    }
    form.otp_step = true;
    form.code_form = true;
    let html = t.page_in(Language::En, &form).expect("renders");
    assert!(html.contains(r#"name="otp""#) && !html.contains(r#"name="password""#));
    // A person with only a passkey: the passkey, and no code form that could never pass.
    form.code_form = false;
    form.passkey = Some(crate::pages::views::PasskeyPrompt {
        action: "/account/login/passkey".into(),
        options: "{}".into(),
    });
    let html = t.page_in(Language::En, &form).expect("renders");
    assert!(html.contains(r#"action="/account/login/passkey" data-passkey="get""#));
    assert!(!html.contains(r#"name="otp""#));
}

#[test]
fn the_two_step_section_offers_what_fits_the_person() {
    let t = Templates::new().expect("built-in templates parse");
    let mut optional = page();
    optional.two_step.required = false;
    let html = t.page_in(Language::En, &optional).expect("renders");
    assert!(html.contains(r#"method="post" action="/account/two-step/authenticator/remove""#));
    assert!(html.contains("Replace with a new app or phone"));
    optional.two_step.authenticator_since = None;
    let html = t.page_in(Language::En, &optional).expect("renders");
    assert!(html.contains(r#"id="authenticator-set-up""#));
    assert!(!html.contains("/account/two-step/recovery-codes"));
    assert!(!html.contains("/account/two-step/authenticator/remove"));
}

#[test]
fn the_re_check_asks_for_the_password_and_names_the_change_that_follows() {
    let t = Templates::new().expect("built-in templates parse");
    let page = AccountReauthPage {
        username: "ada".into(),
        csrf_token: "csrf-abc".into(),
        next: Change::RemoveAuthenticator,
        passkey_id: String::new(),
        passkey_name: String::new(),
        sig: String::new(),
        password: true,
        passkey: None,
        error: Some(Text::new("account-reauth-wrong")),
    };
    for language in Language::ALL {
        let html = t.page_in(language, &page).expect("renders");
        assert!(html.contains(r#"method="post" action="/account/confirm""#));
        assert!(html.contains(r#"name="next" value="remove_authenticator""#));
        assert!(html.contains(r#"name="csrf_token" value="csrf-abc""#));
        assert!(html.contains(r#"name="password""#));
        assert!(html.contains(r#"role="alert""#));
    }
    let english = t.page_in(Language::En, &page).expect("renders");
    assert!(english.contains("more than 5 minutes ago"), "{english}");
}

#[test]
fn a_passkey_change_is_re_checked_with_a_passkey_and_carries_its_signed_id_and_name() {
    let t = Templates::new().expect("built-in templates parse");
    let page = AccountReauthPage {
        username: "ada".into(),
        csrf_token: "csrf-abc".into(),
        next: Change::RenamePasskey,
        passkey_id: "cred-1".into(),
        passkey_name: "Desk <key>".into(),
        sig: "sig-1".into(),
        password: false,
        passkey: Some(crate::pages::views::PasskeyPrompt {
            action: "/account/confirm".into(),
            options: "{}".into(),
        }),
        error: None,
    };
    for language in Language::ALL {
        let html = t.page_in(language, &page).expect("renders");
        assert!(html.contains(r#"data-passkey="get""#));
        assert!(html.contains(r#"name="next" value="rename_passkey""#));
        assert!(html.contains(r#"name="passkey" value="cred-1""#));
        assert!(html.contains(r#"name="name" value="Desk &lt;key&gt;""#));
        assert!(html.contains(r#"name="sig" value="sig-1""#));
        assert!(!html.contains(r#"name="password""#));
    }
}
