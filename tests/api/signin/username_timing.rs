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

/// The `at`-th fraction of `times` (0.5: the median).
fn quantile(times: &[Duration], at: f64) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted[((sorted.len() - 1) as f64 * at).round() as usize]
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
    // A few sign-ins first: connections opened, the hash's cost seen a few times.
    for _ in 0..8 {
        timed(&directory, &real).await;
    }
    timed(&directory, "nobody-at-all").await;

    // Interleaved, so that whatever else the machine does weighs on both alike.
    let (mut known, mut unknown) = (Vec::new(), Vec::new());
    for n in 0..41 {
        known.push(timed(&directory, &real).await);
        unknown.push(timed(&directory, &format!("nobody-{n}")).await);
    }

    let low = quantile(&known, 0.25);
    let (known, unknown) = (quantile(&known, 0.5), quantile(&unknown, 0.5));
    assert!(
        known >= Duration::from_millis(2),
        "the Argon2 hash should cost slapd milliseconds: {known:?}"
    );
    // What would tell a name apart is an unknown one answering sooner: then the hash's cost
    // is missing. An unknown name waits as long as a real sign-in picked at random, or for its
    // own search when that took longer, so on a busy machine it runs somewhat late, never
    // early; its median must not fall below the real names' lower quartile (nor below two
    // thirds of their median), and stays within twice theirs.
    assert!(
        unknown >= low.min(known.mul_f64(2.0 / 3.0)),
        "an unknown name answered sooner: median {unknown:?} against {known:?} for the real \
         name, whose lower quartile is {low:?}"
    );
    assert!(
        unknown <= known * 2,
        "an unknown name answered far later: median {unknown:?} against {known:?}"
    );
}
