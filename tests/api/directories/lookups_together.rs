//! Lookups by subject that arrive together and go out as one search (the LDAP backend against
//! a real slapd): each answers as a lookup of its own would, when people are gone or disabled
//! and when the directory is down.

use crate::support::samba::Samba;
use crate::support::slapd::Slapd;
use sso_bridge::config::{DirectorySettings, Settings};
use sso_bridge::directory::ldap::LdapDirectory;
use sso_bridge::directory::{Directory, DirectoryError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `pwdAccountLockedTime` of an account locked until an administrator unlocks it.
const LOCKED_FOR_GOOD: &str = "000001010000Z";

fn directory(settings: &DirectorySettings) -> Arc<LdapDirectory> {
    let mapping = Settings::load_from(None, Vec::new()).unwrap().claims;
    Arc::new(LdapDirectory::new(settings, &mapping).expect("usable directory settings"))
}

/// What each lookup of `subjects` answered (the DN found) and when, all started at once, each
/// in a task of its own.
async fn look_up_all(
    directory: &Arc<LdapDirectory>,
    subjects: &[String],
) -> Vec<(Result<Option<String>, DirectoryError>, Duration)> {
    let started = Instant::now();
    let mut lookups = tokio::task::JoinSet::new();
    for (i, sub) in subjects.iter().enumerate() {
        let (directory, sub) = (Arc::clone(directory), sub.clone());
        lookups.spawn(async move {
            let found = directory.lookup(&sub).await.map(|u| u.map(|u| u.dn));
            (i, found, started.elapsed())
        });
    }
    let mut answers: Vec<_> = (0..subjects.len()).map(|_| None).collect();
    while let Some(done) = lookups.join_next().await {
        let (i, found, took) = done.unwrap();
        answers[i] = Some((found, took));
    }
    answers.into_iter().map(Option::unwrap).collect()
}

/// Waits until `directory` has a search in flight, then a moment more for any other.
async fn searching(directory: &LdapDirectory, within: Duration) {
    let deadline = Instant::now() + within;
    while directory.pool().unwrap().in_use == 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
}

#[tokio::test]
async fn among_lookups_that_arrive_together_a_person_gone_or_disabled_finds_no_one() {
    let slapd = Slapd::start();
    let policy = slapd.add_policy(&Samba::unique("policy"));
    let disabled = slapd.add_policy_user(&Samba::unique("dis"), &policy);
    let leaver = slapd.add_policy_user(&Samba::unique("gone"), &policy);
    slapd.set_policy_state(&disabled, "pwdAccountLockedTime", LOCKED_FOR_GOOD);
    slapd.delete(&leaver.dn);
    let mut settings = slapd.settings();
    settings.pool_size = 1;
    let directory = directory(&settings);
    assert!(directory.lookup("ada").await.unwrap().is_some());

    // Frozen, the server holds every search: the lookups are gathered into one.
    slapd.suspend();
    let subjects: Vec<String> = ["ada", &disabled.uid, "grace", &leaver.uid, "alan"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let waiting = {
        let (directory, subjects) = (Arc::clone(&directory), subjects.clone());
        tokio::spawn(async move { look_up_all(&directory, &subjects).await })
    };
    searching(&directory, settings.operation_timeout / 2).await;
    let usage = directory.pool().unwrap();
    slapd.resume();
    assert_eq!((usage.open, usage.in_use), (1, 1), "{usage:?}");

    let found: Vec<Option<String>> = waiting
        .await
        .unwrap()
        .into_iter()
        .map(|(found, _)| found.unwrap())
        .collect();
    let people = |uid: &str| Some(format!("uid={uid},ou=people,dc=example,dc=com"));
    assert_eq!(
        found,
        vec![people("ada"), None, people("grace"), None, people("alan")]
    );
}

#[tokio::test]
async fn when_the_directory_is_down_every_gathered_lookup_is_unavailable_and_none_hangs() {
    let mut slapd = Slapd::start();
    let settings = slapd.settings();
    let directory = directory(&settings);
    assert!(directory.lookup("ada").await.unwrap().is_some());
    let subjects: Vec<String> = ["ada", "grace", "alan", "linus", "hedy", "nobody"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    // A lookup's own budget: a connection and two operations.
    let bound = settings.connect_timeout + 2 * settings.operation_timeout;

    // Hung: the server takes the search and never answers.
    slapd.suspend();
    let answers = tokio::time::timeout(2 * bound, look_up_all(&directory, &subjects)).await;
    slapd.resume();
    let answers = answers.expect("the lookups hung");
    for (found, took) in &answers {
        assert!(
            matches!(found, Err(DirectoryError::Unavailable(_))),
            "{found:?}"
        );
        assert!(*took < bound + Duration::from_millis(500), "{took:?}");
    }

    // Gone: nothing listens.
    slapd.stop();
    let answers = look_up_all(&directory, &subjects).await;
    for (found, took) in &answers {
        assert!(
            matches!(found, Err(DirectoryError::Unavailable(_))),
            "{found:?}"
        );
        assert!(*took < bound, "{took:?}");
    }
}
