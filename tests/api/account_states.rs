//! Account states on the Samba domain controller: with the right password the sign-in page
//! says what stands in the way (disabled, expired, locked, password expired or to be changed)
//! and where to go; with a wrong password only a lockout differs from a wrong password; a
//! disabled or ended account loses its refresh tokens and its single sign-on.

use crate::active_directory::{sign_in_response, spawn_ad_app};
use crate::helpers::*;
use crate::mfa_helpers::register_direct;
use crate::support::samba::{AdUser, Samba, USER_PASSWORD};
use reqwest::{Client, StatusCode};
use sso_bridge::audit::{Action, AuditFrom};
use sso_bridge::store::AuditIndex;

const HELP: &str = "https://help.corp.example/it";
const CHANGE: &str = "https://passwords.corp.example/change";
const LINKS: [(&str, &str); 2] = [
    ("SSO_BRIDGE__DIRECTORY__HELP_URL", HELP),
    ("SSO_BRIDGE__DIRECTORY__PASSWORD_CHANGE_URL", CHANGE),
];
const WRONG: &str = "Wrong-Passw0rd-7";

/// One person in each state a domain may put an account in, and one in none.
struct People {
    disabled: AdUser,
    ended: AdUser,
    must_change: AdUser,
    password_expired: AdUser,
    locked: AdUser,
    fine: AdUser,
}

impl People {
    fn add(samba: &Samba) -> People {
        let person = |prefix: &str| samba.add_user(&Samba::unique(prefix), &[]);
        let people = People {
            disabled: person("disab"),
            ended: person("ended"),
            must_change: person("change"),
            password_expired: person("pwold"),
            locked: person("locked"),
            fine: person("fine"),
        };
        samba.disable(&people.disabled);
        samba.end_account(&people.ended);
        samba.require_password_change(&people.must_change);
        samba.expire_password(&people.password_expired);
        samba.lock_out(&people.locked);
        people
    }
}

/// The text of the sign-in page's alert (the message and its link), or `None`.
fn alert(page: &str) -> Option<String> {
    let start = page.find(r#"role="alert""#)?;
    let body = &page[start..];
    let open = body.find('>')? + 1;
    let close = body.find("</div>")?;
    Some(body[open..close].trim().to_owned())
}

/// Posts a sign-in; answers the status and the alert's text.
pub(crate) async fn sign_in(
    app: &TestApp,
    reg: &Registered,
    name: &str,
    password: &str,
) -> (StatusCode, String) {
    let response = sign_in_response(app, reg, name, password).await;
    let status = response.status();
    let page = response.text().await.unwrap();
    (status, alert(&page).unwrap_or_default())
}

#[tokio::test]
async fn with_the_right_password_the_page_says_which_state_stands_in_the_way_and_where_to_go() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let people = People::add(samba);
    let app = spawn_ad_app(&LINKS).await;
    let reg = register_direct(&app).await;

    let cases = [
        (&people.disabled, "Your account is disabled.", HELP),
        (&people.ended, "Your account has expired.", HELP),
        (&people.must_change, "You must change your password", CHANGE),
        (
            &people.password_expired,
            "Your password has expired.",
            CHANGE,
        ),
        (&people.locked, "Your account is locked", HELP),
    ];
    for (person, says, link) in cases {
        let (status, alert) = sign_in(&app, &reg, &person.sam, USER_PASSWORD).await;

        assert_eq!(status, StatusCode::FORBIDDEN, "{}: {alert}", person.sam);
        assert!(alert.starts_with(says), "{}: {alert}", person.sam);
        assert!(alert.contains(&format!(r#"href="{link}""#)), "{alert}");
    }
}

#[tokio::test]
async fn without_a_password_change_link_the_help_desk_is_offered_and_without_either_none() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let person = samba.add_user(&Samba::unique("nolink"), &[]);
    samba.require_password_change(&person);
    let with_help = spawn_ad_app(&LINKS[..1]).await;
    let without = spawn_ad_app(&[]).await;

    let (_, helped) = sign_in(
        &with_help,
        &register_direct(&with_help).await,
        &person.sam,
        USER_PASSWORD,
    )
    .await;
    let (status, bare) = sign_in(
        &without,
        &register_direct(&without).await,
        &person.sam,
        USER_PASSWORD,
    )
    .await;

    assert!(helped.contains(&format!(r#"href="{HELP}""#)), "{helped}");
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(
        bare.starts_with("You must change your password") && !bare.contains("href"),
        "{bare}"
    );
}

#[tokio::test]
async fn with_a_wrong_password_every_state_but_a_lockout_reads_as_a_wrong_password() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let people = People::add(samba);
    let app = spawn_ad_app(&LINKS).await;
    let reg = register_direct(&app).await;
    let (_, wrong) = sign_in(&app, &reg, &people.fine.sam, WRONG).await;
    assert_eq!(wrong, "The username or password is incorrect.");

    let nobody = Samba::unique("nobody");
    for name in [
        &people.disabled.sam,
        &people.ended.sam,
        &people.must_change.sam,
        &people.password_expired.sam,
        &nobody,
    ] {
        let (status, alert) = sign_in(&app, &reg, name, WRONG).await;

        assert_eq!(status, StatusCode::UNAUTHORIZED, "{name}");
        assert_eq!(alert, wrong, "{name}");
    }
    let (status, alert) = sign_in(&app, &reg, &people.locked.sam, WRONG).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(alert.starts_with("Your account is locked"), "{alert}");
}

#[tokio::test]
async fn a_refusal_for_the_account_state_is_audited_and_only_a_lockout_uses_up_attempts() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let disabled = samba.add_user(&Samba::unique("audis"), &[]);
    let locked = samba.add_user(&Samba::unique("aulock"), &[]);
    samba.disable(&disabled);
    samba.lock_out(&locked);
    let app = spawn_ad_app(&[("SSO_BRIDGE__LIMITS__PASSWORD_PER_ACCOUNT", "2")]).await;
    let reg = register_direct(&app).await;

    let mut statuses = Vec::new();
    for person in [&disabled, &locked] {
        for _ in 0..3 {
            statuses.push(sign_in(&app, &reg, &person.sam, USER_PASSWORD).await.0);
        }
    }

    let (refused, limited) = (StatusCode::FORBIDDEN, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        statuses,
        [refused, refused, refused, refused, refused, limited],
        "a right password is no guess; a lockout may answer a wrong one"
    );
    for (person, detail, count) in [
        (&disabled, "account disabled", 3),
        (&locked, "account locked by the directory", 2),
    ] {
        let page = app
            .state
            .store
            .audit_events(&[AuditIndex::actor(&person.sam)], AuditFrom::Newest, 100)
            .await
            .unwrap();
        let sign_ins: Vec<_> = page
            .events
            .iter()
            .map(|e| &e.record)
            .filter(|r| r.action == Action::SignIn)
            .collect();
        assert_eq!(sign_ins.len(), count, "{sign_ins:#?}");
        assert!(
            sign_ins
                .iter()
                .all(|r| !r.success && r.detail.as_deref() == Some(detail)),
            "{sign_ins:#?}"
        );
    }
}

/// A browser signed in to single sign-on as `person` for `reg`, and the refresh token it got.
async fn signed_in(app: &TestApp, reg: &Registered, person: &AdUser) -> (Client, String) {
    let browser = app.browser();
    let pkce = Pkce::new();
    let location = app
        .sign_in_and_approve(
            &browser,
            reg,
            &person.sam,
            &person.password,
            &[
                ("code_challenge", &pkce.challenge),
                ("code_challenge_method", "S256"),
            ],
        )
        .await;
    let tokens = app
        .exchange(reg, &query(&location)["code"], &pkce.verifier)
        .await;
    let refresh = tokens["refresh_token"].as_str().unwrap().to_owned();
    (browser, refresh)
}

#[tokio::test]
async fn a_disabled_or_ended_account_loses_its_refresh_tokens_and_its_single_sign_on() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let disabled = samba.add_user(&Samba::unique("ssodis"), &[]);
    let ended = samba.add_user(&Samba::unique("ssoend"), &[]);
    let fine = samba.add_user(&Samba::unique("ssofine"), &[]);
    let app = spawn_ad_app(&[("SSO_BRIDGE__SESSION__DIRECTORY_RECHECK_SECS", "0")]).await;
    let reg = register_direct(&app).await;
    let mut sessions = Vec::new();
    for person in [&disabled, &ended, &fine] {
        sessions.push(signed_in(&app, &reg, person).await);
    }

    samba.disable(&disabled);
    samba.end_account(&ended);

    let params = [
        ("client_id", reg.client_id.as_str()),
        ("redirect_uri", reg.redirect_uri.as_str()),
        ("response_type", "code"),
        ("scope", "openid"),
        ("state", "s"),
    ];
    let mut outcomes = Vec::new();
    for (browser, refresh) in &sessions {
        let refreshed = app.refresh(&reg, refresh).await.status();
        let again = app.authorize(browser, &params).await;
        let single_sign_on = again.status() == StatusCode::FOUND
            && location(&again).starts_with(&format!("{}?code=", reg.redirect_uri));
        outcomes.push((refreshed, single_sign_on));
    }
    assert_eq!(
        outcomes,
        [
            (StatusCode::BAD_REQUEST, false),
            (StatusCode::BAD_REQUEST, false),
            (StatusCode::OK, true),
        ]
    );
}

#[tokio::test]
async fn the_admin_api_names_the_state_as_the_sign_in_page_does() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let person = samba.add_user(&Samba::unique("admdis"), &[]);
    samba.disable(&person);
    let app = spawn_ad_app(&[]).await;

    let refused = app.admin_token(&person.sam, USER_PASSWORD).await;

    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let body: serde_json::Value = refused.json().await.unwrap();
    assert_eq!(body["error"], "account_unusable");
    let description = body["error_description"].as_str().unwrap();
    assert!(
        description.starts_with("Your account is disabled."),
        "{description}"
    );
}
