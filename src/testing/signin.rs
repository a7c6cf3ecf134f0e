//! The sign-in flow: passwords and the events they publish, second-factor codes, and the admin
//! side's rule (a superadmin, with the second factor the policy asks for).

use super::TestContext;
use crate::audit::{self, AuditFilter, AuditFrom};
use crate::clock::HasClock;
use crate::events::{Event, Guess, Place, SignInOutcome};
use crate::mfa::enrolment::{self, Holder, Proof};
use crate::signin::admin::{self, AdminSignInError, NOT_ENROLLED};
use crate::signin::{self, CodeError, PasswordError, Where};
use secrecy::SecretString;
use std::net::IpAddr;
use totp_rs::TOTP;

const ADDRESS: &str = "192.0.2.7";

fn at_app() -> Where<'static> {
    Where {
        place: Place::App,
        client_id: None,
        address: Some(ADDRESS.parse().unwrap()),
    }
}

async fn check(cx: &TestContext, name: &str, password: &str) -> Result<String, PasswordError> {
    let password = SecretString::from(password);
    let passed = signin::check_password(cx, at_app(), name, &password).await?;
    Ok(passed.claims.sub().to_owned())
}

async fn admin_sign_in(
    cx: &TestContext,
    name: &str,
    otp: Option<&str>,
) -> Result<admin::Admin, AdminSignInError> {
    let password = SecretString::from(format!("{name}-demo"));
    let address: IpAddr = ADDRESS.parse().unwrap();
    admin::authenticate(cx, name, &password, otp, Some(address)).await
}

/// The sign-ins published, as (place, who, outcome).
fn sign_ins(events: &[Event]) -> Vec<(Place, String, SignInOutcome)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SignIn {
                place,
                who,
                outcome,
                ..
            } => Some((*place, who.clone(), outcome.clone())),
            _ => None,
        })
        .collect()
}

fn failed(reason: &str) -> SignInOutcome {
    SignInOutcome::Failed(reason.to_owned())
}

/// `sub` sets up an authenticator and confirms it with a first code; answers the
/// authenticator. The clock is then a time step on, past the code spent.
async fn enrolled(cx: &TestContext, sub: &str) -> TOTP {
    let holder = Holder::browser("a-browser");
    let view = enrolment::setup(cx, sub, holder).await.unwrap();
    let authenticator = TOTP::from_url(&view.url).unwrap();
    let first = authenticator.generate(cx.now());
    signin::confirm_enrolment(cx, at_app(), sub, holder, &first)
        .await
        .unwrap();
    cx.advance(crate::mfa::totp::STEP);
    authenticator
}

#[tokio::test]
async fn the_right_password_passes_with_the_claims_of_the_entry_and_nothing_is_refused() {
    let cx = TestContext::new();

    let sub = check(&cx, "alan", "alan-demo").await.unwrap();

    assert_eq!(sub, "alan");
    assert!(sign_ins(&cx.take_events()).is_empty());
}

#[tokio::test]
async fn a_completed_sign_in_is_published_as_one() {
    let cx = TestContext::new();
    check(&cx, "alan", "alan-demo").await.unwrap();

    signin::succeeded(&cx, at_app(), "alan").await;

    assert_eq!(
        sign_ins(&cx.take_events()),
        [(Place::App, "alan".to_owned(), SignInOutcome::Succeeded)]
    );
}

#[tokio::test]
async fn a_wrong_password_is_refused_counted_and_published_as_a_failed_sign_in() {
    let cx = TestContext::new();

    let refused = check(&cx, "alan", "not-the-password").await;

    assert!(matches!(refused, Err(PasswordError::Invalid)));
    let events = cx.take_events();
    let counted = events.iter().any(|e| {
        *e == Event::AttemptFailed {
            guess: Guess::Password,
            counters: vec!["account", "ipv4"],
        }
    });
    assert!(counted, "{events:?}");
    assert_eq!(
        sign_ins(&events),
        [(
            Place::App,
            "alan".to_owned(),
            failed("wrong username or password")
        )]
    );
}

#[tokio::test]
async fn an_unknown_name_is_refused_and_published_like_a_wrong_password() {
    let cx = TestContext::new();

    let refused = check(&cx, "nobody", "any-password").await;

    assert!(matches!(refused, Err(PasswordError::Invalid)));
    assert_eq!(
        sign_ins(&cx.take_events()),
        [(
            Place::App,
            "nobody".to_owned(),
            failed("wrong username or password")
        )]
    );
}

#[tokio::test]
async fn a_refused_sign_in_is_written_to_the_audit_log_by_its_listener() {
    let cx = TestContext::new();

    check(&cx, "alan", "not-the-password").await.unwrap_err();

    let filter = AuditFilter {
        actor: Some("alan".into()),
        failures_only: true,
        ..AuditFilter::default()
    };
    let found = audit::search(&cx, &filter, AuditFrom::Newest, 10)
        .await
        .unwrap();
    assert_eq!(found.events.len(), 1);
    assert_eq!(found.events[0].address.as_deref(), Some(ADDRESS));
}

#[tokio::test]
async fn a_code_of_the_enrolled_authenticator_passes_and_a_wrong_one_is_refused() {
    let cx = TestContext::new();
    let authenticator = enrolled(&cx, "alan").await;
    cx.take_events();

    let right = signin::check_code(&cx, at_app(), "alan", &authenticator.generate(cx.now())).await;
    let wrong = signin::check_code(&cx, at_app(), "alan", "000000").await;

    assert_eq!(right.unwrap(), Proof::Totp);
    assert!(matches!(wrong, Err(CodeError::Wrong)));
    let refused = cx
        .take_events()
        .into_iter()
        .filter(|e| matches!(e, Event::SecondFactorRefused { sub, .. } if sub == "alan"))
        .count();
    assert_eq!(refused, 1);
}

#[tokio::test]
async fn a_code_used_once_is_refused_the_second_time() {
    let cx = TestContext::new();
    let authenticator = enrolled(&cx, "alan").await;
    let code = authenticator.generate(cx.now());
    signin::check_code(&cx, at_app(), "alan", &code)
        .await
        .unwrap();

    let again = signin::check_code(&cx, at_app(), "alan", &code).await;

    assert!(matches!(again, Err(CodeError::Replayed)));
}

#[tokio::test]
async fn a_superadmin_under_the_second_factor_policy_is_refused_the_admin_side_until_enrolled() {
    let cx = TestContext::new();
    assert!(cx
        .settings()
        .mfa
        .required_roles
        .contains(&"superadmin".to_owned()));

    let refused = admin_sign_in(&cx, "ada", None).await;

    assert!(matches!(refused, Err(AdminSignInError::EnrolmentRequired)));
    assert_eq!(
        sign_ins(&cx.take_events()),
        [(Place::Admin, "ada".to_owned(), failed(NOT_ENROLLED))]
    );
}

#[tokio::test]
async fn an_enrolled_superadmin_signs_in_to_the_admin_side_with_a_code_and_not_without() {
    let cx = TestContext::new();
    let authenticator = enrolled(&cx, "ada").await;
    cx.take_events();

    let without = admin_sign_in(&cx, "ada", None).await;
    let with = admin_sign_in(&cx, "ada", Some(&authenticator.generate(cx.now()))).await;

    assert!(matches!(
        without,
        Err(AdminSignInError::SecondFactorRequired)
    ));
    assert_eq!(with.unwrap().amr, ["pwd", "otp"]);
    assert_eq!(
        sign_ins(&cx.take_events()),
        [(Place::Admin, "ada".to_owned(), SignInOutcome::Succeeded)]
    );
}

#[tokio::test]
async fn a_superadmin_outside_the_policy_signs_in_to_the_admin_side_with_the_password_alone() {
    let cx = TestContext::setup()
        .settings(|s| s.mfa.required_roles.clear())
        .build();

    let admin = admin_sign_in(&cx, "ada", None).await.unwrap();

    assert_eq!(admin.claims.sub(), "ada");
    assert_eq!(admin.amr, ["pwd"]);
}

#[tokio::test]
async fn someone_who_is_not_a_superadmin_is_refused_the_admin_side() {
    let cx = TestContext::new();

    let refused = admin_sign_in(&cx, "grace", None).await;

    assert!(matches!(refused, Err(AdminSignInError::Forbidden)));
    assert_eq!(
        sign_ins(&cx.take_events()),
        [(Place::Admin, "grace".to_owned(), failed("not a superadmin"))]
    );
}
