//! OpenLDAP's password policy in the generic flavor, on slapd with the ppolicy overlay: a
//! locked account, an expired password and a reset one to change are said as on Active
//! Directory, a wrong password still reads as one, and an account locked for good (OpenLDAP's
//! way of disabling) loses its refresh tokens.

use crate::account_states::sign_in;
use crate::helpers::*;
use crate::mfa_helpers::register_direct;
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
        let (tokens, _) =
            crate::active_directory::userinfo_after_sign_in(&app, &reg, &user.uid, POLICY_PASSWORD)
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
