//! The attempt limits of the sign-in flow: per account (every spelling of a name sharing one
//! counter), per address (an IPv4 address, an IPv6 /64 and its /48), and correct sign-ins in
//! flight together never refused for one another.

use super::TestContext;
use crate::events::{Event, Place};
use crate::signin::{self, PasswordError, Where};
use secrecy::SecretString;
use std::net::IpAddr;

/// People whose passwords the directory compares at once: the race of the sign-ins in flight
/// is then the limits', not argon2's.
const QUICK_DIRECTORY: &str = "
dn: uid=kim,ou=people,dc=example,dc=com
uid: kim
cn: Kim
userPassword: kim-password
";

/// `name` tries `password` from `address` on an app's sign-in page.
async fn attempt(
    cx: &TestContext,
    name: &str,
    password: &str,
    address: &str,
) -> Result<(), PasswordError> {
    let at = Where {
        place: Place::App,
        client_id: None,
        address: Some(address.parse::<IpAddr>().unwrap()),
    };
    let password = SecretString::from(password);
    signin::check_password(cx, at, name, &password)
        .await
        .map(drop)
}

/// The kinds of the counters a lockout was published for (`account`, `ipv4`, ...).
fn lockouts(events: &[Event]) -> Vec<&'static str> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Lockout { group, .. } => Some(*group),
            _ => None,
        })
        .collect()
}

fn limits(per_account: u64, per_address: u64, per_ipv6_48: u64) -> TestContext {
    TestContext::setup()
        .settings(|s| {
            s.limits.password_per_account = per_account;
            s.limits.per_address = per_address;
            s.limits.per_ipv6_48 = per_ipv6_48;
        })
        .build()
}

#[tokio::test]
async fn past_the_accounts_limit_of_wrong_passwords_even_the_right_one_is_refused() {
    let cx = limits(3, 100, 100);
    for n in 1..=3 {
        let from = format!("192.0.2.{n}");
        attempt(&cx, "alan", "wrong", &from).await.unwrap_err();
    }
    cx.take_events();

    let refused = attempt(&cx, "alan", "alan-demo", "198.51.100.1").await;

    assert!(matches!(refused, Err(PasswordError::Locked)));
    assert_eq!(lockouts(&cx.take_events()), ["account"]);
}

#[tokio::test]
async fn once_the_window_has_passed_the_account_signs_in_again() {
    let cx = limits(3, 100, 100);
    for _ in 0..3 {
        attempt(&cx, "alan", "wrong", "192.0.2.1")
            .await
            .unwrap_err();
    }

    cx.advance_past(cx.settings().limits.window);
    let passed = attempt(&cx, "alan", "alan-demo", "192.0.2.1").await;

    assert!(passed.is_ok(), "{passed:?}");
}

#[tokio::test]
async fn every_spelling_of_a_name_counts_against_one_account() {
    let cx = limits(3, 100, 100);
    for spelling in ["Alan", "  ALAN ", "ａｌａｎ"] {
        attempt(&cx, spelling, "wrong", "192.0.2.1")
            .await
            .unwrap_err();
    }

    let refused = attempt(&cx, "alan", "alan-demo", "192.0.2.1").await;

    assert!(matches!(refused, Err(PasswordError::Locked)));
}

#[tokio::test]
async fn past_an_ipv4_addresss_limit_every_account_is_refused_from_it_and_only_from_it() {
    let cx = limits(100, 3, 100);
    for name in ["alan", "grace", "linus"] {
        attempt(&cx, name, "wrong", "192.0.2.7").await.unwrap_err();
    }
    cx.take_events();

    let there = attempt(&cx, "hedy", "hedy-demo", "192.0.2.7").await;
    let elsewhere = attempt(&cx, "hedy", "hedy-demo", "192.0.2.8").await;

    assert!(matches!(there, Err(PasswordError::Locked)));
    assert!(elsewhere.is_ok(), "{elsewhere:?}");
    assert_eq!(lockouts(&cx.take_events()), ["ipv4"]);
}

#[tokio::test]
async fn an_ipv6_host_is_counted_by_its_64_network() {
    let cx = limits(100, 3, 100);
    for host in ["2001:db8:1:1::1", "2001:db8:1:1::2", "2001:db8:1:1:ffff::3"] {
        attempt(&cx, "alan", "wrong", host).await.unwrap_err();
    }
    cx.take_events();

    let same_64 = attempt(&cx, "hedy", "hedy-demo", "2001:db8:1:1::99").await;
    let next_64 = attempt(&cx, "hedy", "hedy-demo", "2001:db8:1:2::99").await;

    assert!(matches!(same_64, Err(PasswordError::Locked)));
    assert!(next_64.is_ok(), "{next_64:?}");
    assert_eq!(lockouts(&cx.take_events()), ["ipv6_64"]);
}

#[tokio::test]
async fn guesses_spread_over_the_64s_of_one_site_meet_the_limit_of_its_48() {
    let cx = limits(100, 100, 3);
    for host in ["2001:db8:1:1::1", "2001:db8:1:2::1", "2001:db8:1:3::1"] {
        attempt(&cx, "alan", "wrong", host).await.unwrap_err();
    }
    cx.take_events();

    let same_48 = attempt(&cx, "hedy", "hedy-demo", "2001:db8:1:4::1").await;
    let next_48 = attempt(&cx, "hedy", "hedy-demo", "2001:db8:2:1::1").await;

    assert!(matches!(same_48, Err(PasswordError::Locked)));
    assert!(next_48.is_ok(), "{next_48:?}");
    assert_eq!(lockouts(&cx.take_events()), ["ipv6_48"]);
}

#[tokio::test]
async fn correct_sign_ins_in_flight_together_are_never_refused_for_one_another() {
    let cx = TestContext::setup()
        .directory(QUICK_DIRECTORY)
        .settings(|s| {
            s.limits.password_per_account = 2;
            s.limits.per_address = 2;
        })
        .build();

    let together = (0..6).map(|_| attempt(&cx, "kim", "kim-password", "192.0.2.7"));
    let results = futures::future::join_all(together).await;

    for result in results {
        assert!(result.is_ok(), "{result:?}");
    }
    assert!(lockouts(&cx.take_events()).is_empty());
}
