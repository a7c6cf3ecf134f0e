//! A name that finds no one costs what a real one costs: on slapd, whose `{ARGON2}` hashes take
//! milliseconds to check, a sign-in with an unknown name must not answer faster than one with
//! a real name and a wrong password, or timing would tell which names exist.

use crate::support::samba::Samba;
use crate::support::slapd::Slapd;
use secrecy::SecretString;
use sso_bridge::config::Settings;
use sso_bridge::directory::ldap::LdapDirectory;
use sso_bridge::directory::{Directory, DirectoryError};
use std::time::{Duration, Instant};

/// The middle of `times`.
fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// How long a wrong-password sign-in as `name` takes.
async fn timed(directory: &LdapDirectory, name: &str) -> Duration {
    let wrong = SecretString::from("not-the-password");
    let started = Instant::now();
    let result = directory.authenticate(name, &wrong).await;
    let took = started.elapsed();
    assert!(
        matches!(result, Err(DirectoryError::InvalidCredentials)),
        "{name}: {result:?}"
    );
    took
}

#[tokio::test]
async fn an_unknown_name_takes_as_long_as_a_real_one_with_an_argon2_hash() {
    let slapd = Slapd::shared();
    let real = Samba::unique("argon");
    slapd.add_argon2_user(&real, "the-Real-passw0rd");
    let mapping = Settings::load_from(None, Vec::new()).unwrap().claims;
    let directory = LdapDirectory::new(&slapd.settings(), &mapping).unwrap();
    // One sign-in of each first: connections opened, the hash's cost seen once.
    timed(&directory, &real).await;
    timed(&directory, "nobody-at-all").await;

    // Interleaved, so that whatever else the machine does weighs on both alike.
    let (mut known, mut unknown) = (Vec::new(), Vec::new());
    for n in 0..25 {
        known.push(timed(&directory, &real).await);
        unknown.push(timed(&directory, &format!("nobody-{n}")).await);
    }

    let (known, unknown) = (median(known), median(unknown));
    assert!(
        known >= Duration::from_millis(2),
        "the Argon2 hash should cost slapd milliseconds: {known:?}"
    );
    let ratio = known.as_secs_f64().max(unknown.as_secs_f64())
        / known.as_secs_f64().min(unknown.as_secs_f64());
    assert!(
        ratio <= 1.5,
        "medians {known:?} (real name) and {unknown:?} (unknown name) differ by {ratio:.2}x"
    );
}
