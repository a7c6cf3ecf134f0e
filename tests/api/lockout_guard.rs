//! The lockout guard, against the Samba domain controller (threshold 5, observation window 30
//! minutes): guessing through sso-bridge never locks a real account.
//!
//! sso-bridge's window runs on the app's clock, moved forward by the test; the domain
//! controller's runs on the real one. The guesses come 4 minutes apart on the app's clock: less
//! than the domain's 30-minute window, so the domain would not have forgotten any of them in
//! real time either, and its count here is the one a real attacker would leave. At the end the
//! app's clock passes sso-bridge's window, where the domain would have forgotten the guesses;
//! here it has not, and the right password must still work with the count it has.

use crate::active_directory::{sign_in_status, spawn_ad_app};
use crate::mfa_helpers::register_direct;
use crate::support::logs;
use crate::support::samba::{Samba, LOCKOUT_THRESHOLD, USER_PASSWORD};
use reqwest::StatusCode;
use std::time::{Duration, Instant};

/// What the guard allows against the test domain: the threshold minus 2.
const ALLOWED: u32 = LOCKOUT_THRESHOLD - 2;
/// Its window: the allowed count times the domain's 30 minutes, and a minute.
const WINDOW_SECS: i64 = ALLOWED as i64 * 1800 + 60;
/// The app-clock time between two guesses.
const PACE_SECS: i64 = 240;

#[tokio::test]
async fn an_account_survives_twenty_wrong_passwords_and_the_right_one_works_after_the_window() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let person = samba.add_user(&Samba::unique("guard"), &[]);
    // The default limit, 10 per 15 minutes, would lock the account at the fifth guess.
    let app = spawn_ad_app(&[]).await;
    let reg = register_direct(&app).await;

    let mut statuses = Vec::new();
    for n in 0..20 {
        let wrong = format!("Guess-Passw0rd-{n}");
        statuses.push(sign_in_status(&app, &reg, &person.sam, &wrong).await);
        app.clock.advance(PACE_SECS);
    }

    let mut expected = vec![StatusCode::UNAUTHORIZED; ALLOWED as usize];
    expected.resize(20, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(statuses, expected);
    let counters = samba.lockout(&person);
    assert_eq!(counters.bad_password_count, ALLOWED, "{counters:?}");
    assert!(counters.bad_password_count < LOCKOUT_THRESHOLD);
    assert_eq!(counters.lockout_time, 0, "{counters:?}");

    // 20 guesses took 80 minutes; the first leaves the window WINDOW_SECS after it was made.
    app.clock.advance(WINDOW_SECS - 20 * PACE_SECS - 60);
    assert_eq!(
        sign_in_status(&app, &reg, &person.sam, USER_PASSWORD).await,
        StatusCode::TOO_MANY_REQUESTS,
        "a minute before the window ends"
    );
    app.clock.advance(60);
    assert_eq!(
        sign_in_status(&app, &reg, &person.sam, USER_PASSWORD).await,
        StatusCode::SEE_OTHER,
        "the right password after the window"
    );
    assert_eq!(samba.lockout(&person).lockout_time, 0);
}

#[tokio::test]
async fn a_configured_limit_above_the_threshold_is_lowered_with_a_warning_at_start_up() {
    if Samba::shared().is_none() {
        return;
    }
    let (logs, _guard) = logs::capture();
    let _app = spawn_ad_app(&[("SSO_BRIDGE__LIMITS__PASSWORD_PER_ACCOUNT", "10")]).await;

    // The start-up read runs beside the server; wait for its line, at most a few seconds.
    let deadline = Instant::now() + Duration::from_secs(10);
    let warning = loop {
        let text = logs.text();
        if let Some(line) = text
            .lines()
            .find(|line| line.contains("limits.password_per_account is above"))
        {
            break line.to_owned();
        }
        assert!(Instant::now() < deadline, "no warning was logged:\n{text}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };

    assert!(warning.contains("WARN"), "{warning}");
    for field in [
        "configured=10",
        "threshold=5",
        "observation_secs=1800",
        "per_account=3",
        &format!("window_secs={WINDOW_SECS}"),
    ] {
        assert!(warning.contains(field), "{field}: {warning}");
    }
}
