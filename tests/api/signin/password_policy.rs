//! OpenLDAP's password policy in the generic flavor, on slapd with the ppolicy overlay: a
//! locked account, an expired password and a reset one to change are said as on Active
//! Directory, a wrong password still reads as one, and an account locked for good (OpenLDAP's
//! way of disabling) loses its refresh tokens. With `directory.password_policy_dn`, guessing
//! through sso-bridge stays under the policy's lockout, every spelling of a name counted as one.

use crate::helpers::*;
use crate::signin::account_states::sign_in;
use crate::signin::mfa_helpers::register_direct;
use crate::support::samba::Samba;
use crate::support::slapd::Slapd;
use crate::support::slapd_admin::{PolicyUser, POLICY_PASSWORD};
use reqwest::StatusCode;

/// `pwdAccountLockedTime` of an account locked until an administrator unlocks it.
const LOCKED_FOR_GOOD: &str = "000001010000Z";

/// A person of the shared slapd under a policy of their own test.
fn person(slapd: &Slapd, policy: &str, prefix: &str) -> PolicyUser {
    slapd.add_policy_user(&Samba::unique(prefix), policy)
}

#[tokio::test]
async fn the_password_policy_states_are_said_with_the_right_password_and_hidden_with_a_wrong_one() {
    let slapd = Slapd::shared();
    let policy = slapd.add_policy(&Samba::unique("policy"));
    let locked = person(slapd, &policy, "pplock");
    let reset = person(slapd, &policy, "ppreset");
    let expired = person(slapd, &policy, "ppold");
    slapd.lock_out(&locked);
    slapd.set_policy_state(&reset, "pwdReset", "TRUE");
    slapd.set_policy_state(&expired, "pwdChangedTime", "20200101000000Z");
    let app = spawn_app_with(Backends::Real, &[]).await;
    let reg = register_direct(&app).await;

    let mut right = Vec::new();
    let mut wrong = Vec::new();
    for user in [&locked, &reset, &expired] {
        right.push(sign_in(&app, &reg, &user.uid, POLICY_PASSWORD).await);
        wrong.push(sign_in(&app, &reg, &user.uid, "not-the-password").await);
    }

    let says = |answers: &[(StatusCode, String)]| -> Vec<(StatusCode, String)> {
        answers
            .iter()
            .map(|(status, alert)| (*status, alert.split('.').next().unwrap_or("").to_owned()))
            .collect()
    };
    let refused = StatusCode::FORBIDDEN;
    assert_eq!(
        says(&right),
        [
            (
                refused,
                "Your account is locked, usually after too many wrong passwords".into()
            ),
            (
                refused,
                "You must change your password before you can sign in".into()
            ),
            (refused, "Your password has expired".into()),
        ]
    );
    let incorrect = (
        StatusCode::UNAUTHORIZED,
        "The username or password is incorrect".to_owned(),
    );
    assert_eq!(
        says(&wrong),
        [
            (
                refused,
                "Your account is locked, usually after too many wrong passwords".into()
            ),
            incorrect.clone(),
            incorrect,
        ]
    );
}

#[tokio::test]
async fn an_account_locked_for_good_loses_its_refresh_tokens_and_a_passing_lockout_does_not() {
    let slapd = Slapd::shared();
    let policy = slapd.add_policy(&Samba::unique("policy"));
    let disabled = person(slapd, &policy, "ppdis");
    let locked = person(slapd, &policy, "pptemp");
    let app = spawn_app_with(Backends::Real, &[]).await;
    let reg = register_direct(&app).await;
    let mut refresh_tokens = Vec::new();
    for user in [&disabled, &locked] {
        let (tokens, _) = crate::directories::active_directory::userinfo_after_sign_in(
            &app,
            &reg,
            &user.uid,
            POLICY_PASSWORD,
        )
        .await;
        refresh_tokens.push(tokens["refresh_token"].as_str().unwrap().to_owned());
    }

    slapd.set_policy_state(&disabled, "pwdAccountLockedTime", LOCKED_FOR_GOOD);
    slapd.lock_out(&locked);

    let mut statuses = Vec::new();
    for token in &refresh_tokens {
        statuses.push(app.refresh(&reg, token).await.status());
    }
    assert_eq!(statuses, [StatusCode::BAD_REQUEST, StatusCode::OK]);
}

/// A person under `policy` whose uid holds a space (`mary jane-…`), which LDAP compares with
/// its spaces made insignificant.
fn spaced_person(slapd: &Slapd, policy: &str) -> PolicyUser {
    slapd.add_policy_user(&format!("mary jane-{}", Samba::unique("sp")), policy)
}

#[tokio::test]
async fn spellings_of_one_entry_share_its_counter_which_stays_below_the_policys_lockout() {
    // pwdMaxFailure 6, failures forgotten only at a correct password: sso-bridge lets at most
    // 4 reach slapd, whatever spelling each guess uses.
    let slapd = Slapd::shared();
    let policy = slapd.add_lockout_policy(&Samba::unique("guard"), 6, 0);
    let mary = spaced_person(slapd, &policy);
    let app = spawn_app_with(
        Backends::Real,
        &[("SSO_BRIDGE__DIRECTORY__PASSWORD_POLICY_DN", policy.clone())],
    )
    .await;
    let reg = register_direct(&app).await;
    let spellings = [
        mary.uid.clone(),
        mary.uid.replacen(' ', "  ", 1),
        mary.uid.replacen(' ', "   ", 1),
        format!(" {} ", mary.uid.to_uppercase()),
    ];

    let mut statuses = Vec::new();
    for n in 0..50 {
        let name = &spellings[n % spellings.len()];
        let wrong = format!("wrong-{n}");
        statuses.push(sign_in(&app, &reg, name, &wrong).await.0);
    }

    let mut expected = vec![StatusCode::UNAUTHORIZED; 4];
    expected.resize(50, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(statuses, expected);
    assert!(
        !slapd.is_locked(&mary),
        "the directory did not lock the account"
    );
}

#[tokio::test]
async fn a_policy_that_forgets_failures_over_an_interval_is_counted_over_it_and_a_success_counts_none(
) {
    // pwdMaxFailure 5, each failure forgotten after 10 minutes: 3 guesses per 3 × 10 minutes
    // and a minute. A correct password in between is no failure and locks nothing.
    let slapd = Slapd::shared();
    let policy = slapd.add_lockout_policy(&Samba::unique("slide"), 5, 600);
    let user = person(slapd, &policy, "ppslide");
    let app = spawn_app_with(
        Backends::Real,
        &[("SSO_BRIDGE__DIRECTORY__PASSWORD_POLICY_DN", policy.clone())],
    )
    .await;
    let reg = register_direct(&app).await;

    let mut statuses = Vec::new();
    for n in 0..6 {
        statuses.push(
            sign_in(&app, &reg, &user.uid, &format!("wrong-{n}"))
                .await
                .0,
        );
    }
    assert_eq!(
        statuses,
        [
            StatusCode::UNAUTHORIZED,
            StatusCode::UNAUTHORIZED,
            StatusCode::UNAUTHORIZED,
            StatusCode::TOO_MANY_REQUESTS,
            StatusCode::TOO_MANY_REQUESTS,
            StatusCode::TOO_MANY_REQUESTS,
        ]
    );
    assert!(!slapd.is_locked(&user));
    app.clock.advance(3 * 600 + 61);
    let (status, _) = sign_in(&app, &reg, &user.uid, POLICY_PASSWORD).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "after the window");
}

#[tokio::test]
async fn the_policy_is_read_at_start_up_and_said_in_the_log() {
    let (logs, _guard) = crate::support::logs::capture();
    let slapd = Slapd::shared();
    let policy = slapd.add_lockout_policy(&Samba::unique("said"), 5, 0);
    let _app = spawn_app_with(
        Backends::Real,
        &[("SSO_BRIDGE__DIRECTORY__PASSWORD_POLICY_DN", policy)],
    )
    .await;

    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let text = logs.text();
        if let Some(line) = text
            .lines()
            .find(|l| l.contains("limits.password_per_account is above"))
        {
            assert!(
                line.contains("threshold=5") && line.contains("per_account=3"),
                "{line}"
            );
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{text}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
