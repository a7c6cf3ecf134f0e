//! The LDAP directory against a real slapd: search-then-bind, escaping, lookups, timeouts,
//! restarts and TLS.

use crate::support::ports::free_port;
use crate::support::slapd::Slapd;
use secrecy::SecretString;
use sso_bridge::config::ClaimMapping;
use sso_bridge::config::{DirectorySettings, Settings};
use sso_bridge::directory::ldap::LdapDirectory;
use sso_bridge::directory::{Directory, DirectoryError, DirectoryUser};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The claim mapping of the built-in defaults.
fn mapping() -> ClaimMapping {
    Settings::load_from(None, Vec::new()).unwrap().claims
}

fn directory(settings: &DirectorySettings) -> LdapDirectory {
    LdapDirectory::new(settings, &mapping()).expect("usable directory settings")
}

async fn sign_in(
    directory: &LdapDirectory,
    username: &str,
    password: &str,
) -> Result<DirectoryUser, DirectoryError> {
    directory
        .authenticate(username, &SecretString::from(password))
        .await
}

/// Settings of a directory nobody listens for.
fn closed_port_settings() -> DirectorySettings {
    let mut settings = Slapd::shared().settings();
    settings.url = vec![format!("ldap://127.0.0.1:{}/", free_port())
        .parse()
        .unwrap()];
    settings
}

/// The longest a call may take against a hung server: a connect and two operations.
fn hang_bound(settings: &DirectorySettings) -> Duration {
    settings.connect_timeout + 2 * settings.operation_timeout
}

fn first<'a>(user: &'a DirectoryUser, attribute: &str) -> Option<&'a str> {
    user.attributes
        .get(attribute)
        .and_then(|values| values.first())
        .map(String::as_str)
}

fn assert_invalid(result: Result<DirectoryUser, DirectoryError>, what: &str) {
    assert!(
        matches!(result, Err(DirectoryError::InvalidCredentials)),
        "{what}: {result:?}"
    );
}

fn assert_unavailable<T: std::fmt::Debug>(result: Result<T, DirectoryError>) -> String {
    match result {
        Err(DirectoryError::Unavailable(cause)) => cause,
        other => panic!("expected Unavailable, got {other:?}"),
    }
}

#[tokio::test]
async fn the_right_password_answers_the_entry_with_the_mapped_attributes() {
    let directory = directory(&Slapd::shared().settings());

    let ada = sign_in(&directory, "ada", "ada-pw").await.unwrap();

    assert_eq!(ada.dn, "uid=ada,ou=people,dc=example,dc=com");
    for (attribute, value) in [
        ("uid", "ada"),
        ("cn", "Ada Lovelace"),
        ("givenname", "Ada"),
        ("sn", "Lovelace"),
        ("employeenumber", "E0001"),
        ("title", "Chief Platform Architect"),
        ("departmentnumber", "Platform"),
        ("telephonenumber", "+44 20 7946 0001"),
        ("mail", "ada@example.com"),
        ("employeetype", "superadmin"),
    ] {
        assert_eq!(first(&ada, attribute), Some(value), "{attribute}");
    }
    assert!(!ada.attributes.contains_key("userpassword"));
    let claims = mapping().claims(&ada.attributes).unwrap();
    assert_eq!(claims.get("role"), Some("superadmin"));
}

#[tokio::test]
async fn every_fixture_user_signs_in_with_the_documented_password_and_role() {
    let directory = directory(&Slapd::shared().settings());

    for (username, role) in [
        ("ada", "superadmin"),
        ("grace", "admin"),
        ("alan", "employee"),
        ("linus", "manager"),
        ("hedy", "hr"),
        ("ken", "finance"),
        ("barbara", "ceo"),
        ("margaret", "employee"),
        ("dennis", "contractor"),
    ] {
        let user = sign_in(&directory, username, &format!("{username}-pw"))
            .await
            .unwrap_or_else(|err| panic!("{username}: {err}"));
        assert_eq!(first(&user, "uid"), Some(username));
        assert_eq!(first(&user, "employeetype"), Some(role), "{username}");
    }
}

#[tokio::test]
async fn a_user_with_attributes_unset_signs_in_without_them() {
    let directory = directory(&Slapd::shared().settings());

    let margaret = sign_in(&directory, "margaret", "margaret-pw")
        .await
        .unwrap();

    for unset in [
        "mail",
        "telephonenumber",
        "title",
        "givenname",
        "employeenumber",
    ] {
        assert!(!margaret.attributes.contains_key(unset), "{unset}");
    }
    let claims = mapping().claims(&margaret.attributes).unwrap();
    assert_eq!(claims.get("email"), None);
    assert_eq!(claims.get("role"), Some("employee"));
}

#[tokio::test]
async fn a_wrong_password_is_invalid_credentials() {
    let directory = directory(&Slapd::shared().settings());

    assert_invalid(sign_in(&directory, "ada", "grace-pw").await, "wrong");
    assert_invalid(sign_in(&directory, "ada", "ADA-PW").await, "case");
}

#[tokio::test]
async fn an_unknown_user_is_invalid_credentials() {
    let directory = directory(&Slapd::shared().settings());

    assert_invalid(
        sign_in(&directory, "charles", "charles-pw").await,
        "unknown",
    );
}

#[tokio::test]
async fn an_empty_password_is_invalid_credentials_without_reaching_the_server() {
    // Arrange: one directory that answers, one that nobody listens for.
    let live = directory(&Slapd::shared().settings());
    let down = directory(&closed_port_settings());

    // Act / Assert: the closed port would give Unavailable had anything been sent.
    assert_invalid(sign_in(&live, "ada", "").await, "live");
    assert_invalid(sign_in(&down, "ada", "").await, "down");
    assert!(matches!(
        sign_in(&down, "ada", "ada-pw").await,
        Err(DirectoryError::Unavailable(_))
    ));
}

#[tokio::test]
async fn filter_metacharacters_in_a_username_never_sign_anyone_in() {
    let directory = directory(&Slapd::shared().settings());

    for username in [
        "*",
        "ada)(uid=*",
        "*)(|(uid=*",
        "ada*",
        "a*a",
        "ada)",
        "(uid=ada)",
    ] {
        for password in ["ada-pw", "*"] {
            assert_invalid(sign_in(&directory, username, password).await, username);
        }
    }
}

#[tokio::test]
async fn the_user_whose_cn_and_dn_hold_filter_metacharacters_signs_in() {
    let directory = directory(&Slapd::shared().settings());

    let dennis = sign_in(&directory, "dennis", "dennis-pw").await.unwrap();

    assert_eq!(
        dennis.dn,
        "cn=Dennis (dmr*) Ritchie,ou=people,dc=example,dc=com"
    );
    assert_eq!(first(&dennis, "cn"), Some("Dennis (dmr*) Ritchie"));
    let claims = mapping().claims(&dennis.attributes).unwrap();
    assert_eq!(claims.get("role"), None, "contractor is not a role");
    assert_invalid(sign_in(&directory, "dennis", "ada-pw").await, "wrong");
}

#[tokio::test]
async fn a_name_with_filter_metacharacters_matches_only_literally() {
    let mut settings = Slapd::shared().settings();
    settings.user_filter = "(&(objectClass=inetOrgPerson)(cn={username}))".into();
    let directory = directory(&settings);

    let dennis = sign_in(&directory, "Dennis (dmr*) Ritchie", "dennis-pw").await;

    assert_eq!(first(&dennis.unwrap(), "uid"), Some("dennis"));
    for near in [
        "Dennis*",
        "Dennis (dmr*",
        "*Ritchie",
        "Dennis (dmr) Ritchie",
    ] {
        assert_invalid(sign_in(&directory, near, "dennis-pw").await, near);
    }
}

#[tokio::test]
async fn a_filter_matching_several_entries_refuses_the_sign_in() {
    let mut settings = Slapd::shared().settings();
    settings.user_filter =
        "(&(objectClass=inetOrgPerson)(|(uid={username})(departmentNumber=Engineering)))".into();
    let directory = directory(&settings);

    assert_invalid(sign_in(&directory, "alan", "alan-pw").await, "several");
}

#[tokio::test]
async fn lookup_finds_a_user_by_subject() {
    let directory = directory(&Slapd::shared().settings());

    let grace = directory.lookup("grace").await.unwrap().unwrap();

    assert_eq!(grace.dn, "uid=grace,ou=people,dc=example,dc=com");
    assert_eq!(first(&grace, "employeetype"), Some("admin"));
    assert!(!grace.attributes.contains_key("userpassword"));
}

#[tokio::test]
async fn lookup_of_an_unknown_or_wildcard_subject_is_none() {
    let directory = directory(&Slapd::shared().settings());

    for sub in ["charles", "*", "gr*", "grace)(uid=*", ""] {
        assert!(directory.lookup(sub).await.unwrap().is_none(), "{sub}");
    }
}

#[tokio::test]
async fn a_refused_service_account_makes_the_directory_unavailable() {
    let mut settings = Slapd::shared().settings();
    settings.service_account.as_mut().unwrap().password = SecretString::from("not-the-service-pw");
    let directory = directory(&settings);

    let cause = assert_unavailable(sign_in(&directory, "ada", "ada-pw").await);

    assert!(cause.contains("service account"), "{cause}");
    assert!(!cause.contains("not-the-service-pw"), "{cause}");
}

#[tokio::test]
async fn the_service_password_can_come_from_a_file() {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), "sso-bridge-pw\n").unwrap();
    let slapd = Slapd::shared().settings();
    let env = [
        ("BACKEND", "ldap".to_owned()),
        ("URL", slapd.url[0].to_string()),
        ("BIND_DN", slapd.service_account.unwrap().dn),
        ("BIND_PASSWORD_FILE", file.path().display().to_string()),
        ("USER_BASE", slapd.user_base),
    ];
    let env = env.map(|(k, v)| (format!("SSO_BRIDGE__DIRECTORY__{k}"), v));
    let settings = Settings::load_from(None, env).unwrap().directory;
    let directory = directory(&settings);

    assert!(sign_in(&directory, "ken", "ken-pw").await.is_ok());
}

#[tokio::test]
async fn a_directory_that_is_down_is_unavailable_quickly() {
    let settings = closed_port_settings();
    let directory = directory(&settings);
    let bound = settings.connect_timeout;

    let started = Instant::now();
    let cause = assert_unavailable(sign_in(&directory, "ada", "ada-pw").await);
    assert_unavailable(directory.lookup("ada").await);

    assert!(started.elapsed() < bound, "{:?}", started.elapsed());
    assert!(cause.contains("127.0.0.1"), "{cause}");
}

#[tokio::test]
async fn a_suspended_directory_is_unavailable_within_the_timeout() {
    // Arrange: a warm pool, and a second directory that has no connection yet.
    let slapd = Slapd::start();
    let settings = slapd.settings();
    let warm = directory(&settings);
    let cold = directory(&settings);
    sign_in(&warm, "alan", "alan-pw").await.unwrap();
    slapd.suspend();

    // Act / Assert
    for (what, directory) in [("warm", &warm), ("cold", &cold)] {
        let started = Instant::now();
        assert_unavailable(sign_in(directory, "alan", "alan-pw").await);
        assert_unavailable(directory.lookup("alan").await);
        let elapsed = started.elapsed();
        assert!(elapsed < 2 * hang_bound(&settings), "{what}: {elapsed:?}");
    }
    let started = Instant::now();
    assert_unavailable(warm.lookup("alan").await);
    assert!(started.elapsed() < hang_bound(&settings));

    slapd.resume();
    assert!(sign_in(&warm, "alan", "alan-pw").await.is_ok());
    assert!(warm.lookup("alan").await.unwrap().is_some());
}

#[tokio::test]
async fn the_same_directory_works_again_after_slapd_restarts() {
    let mut slapd = Slapd::start();
    let directory = directory(&slapd.settings());
    sign_in(&directory, "linus", "linus-pw").await.unwrap();

    // A restart while the pool holds connections to the old process.
    slapd.restart();
    assert!(sign_in(&directory, "linus", "linus-pw").await.is_ok());

    // A call while it is down, then a restart.
    slapd.stop();
    assert_unavailable(sign_in(&directory, "linus", "linus-pw").await);
    assert_unavailable(directory.lookup("linus").await);
    slapd.restart();
    assert!(sign_in(&directory, "linus", "linus-pw").await.is_ok());
    assert!(directory.lookup("linus").await.unwrap().is_some());
}

/// The sockets of this machine's TCP table (`/proc/net/tcp`): local end, remote end, and state
/// (hex: `01` established, `0A` listening), each once. The kernel may show a socket twice in
/// one read while the table changes under it (other tests open and close connections), so
/// the lines are gathered into a set: a socket is its two ends, never counted twice.
fn tcp_table() -> std::collections::BTreeSet<(String, String, String)> {
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap();
    table
        .lines()
        .skip(1)
        .filter_map(|line| {
            let mut columns = line.split_whitespace().skip(1);
            let (local, remote, state) = (columns.next()?, columns.next()?, columns.next()?);
            Some((local.to_owned(), remote.to_owned(), state.to_owned()))
        })
        .collect()
}

/// Both ends of every connection of this machine to local `port`, in any state but listening:
/// a closed connection lingers a minute in TIME_WAIT on the side that closed it first.
fn connection_ends(port: u16) -> usize {
    let end = format!(":{port:04X}");
    tcp_table()
        .iter()
        .filter(|(local, remote, state)| {
            state != "0A" && (local.ends_with(&end) || remote.ends_with(&end))
        })
        .count()
}

#[tokio::test]
async fn sign_ins_reuse_the_connections_of_their_pools() {
    let slapd = Slapd::start();
    let settings = slapd.settings();
    let port: u16 = settings.url[0].port().unwrap();
    let directory = directory(&settings);
    for round in 0..20 {
        sign_in(&directory, "linus", "linus-pw").await.unwrap();
        let wrong = sign_in(&directory, "linus", &format!("wrong-{round}")).await;
        assert!(matches!(wrong, Err(DirectoryError::InvalidCredentials)));
    }
    // Search and bind connections, each opened once and kept: not one a sign-in.
    let ends = connection_ends(port);
    assert!(
        (2..=2 * 2 * settings.pool_size).contains(&ends),
        "{ends} connection ends for 40 sign-ins"
    );
}

#[tokio::test]
async fn many_concurrent_sign_ins_share_a_small_pool() {
    let directory = Arc::new(directory(&Slapd::shared().settings()));
    let users = [
        "ada", "grace", "alan", "linus", "hedy", "ken", "barbara", "margaret",
    ];

    let mut tasks = tokio::task::JoinSet::new();
    for round in 0..3 {
        for username in users {
            let directory = Arc::clone(&directory);
            let password = match round {
                1 => "wrong".to_owned(),
                _ => format!("{username}-pw"),
            };
            tasks.spawn(async move { (round, sign_in(&directory, username, &password).await) });
        }
    }

    while let Some(joined) = tasks.join_next().await {
        match joined.unwrap() {
            (1, result) => assert_invalid(result, "wrong password"),
            (_, result) => assert!(result.is_ok(), "{result:?}"),
        }
    }
}

/// Looks up every subject at once, each in a task of its own, and answers the DN each found.
async fn look_up_together(
    directory: &Arc<LdapDirectory>,
    subjects: &[&str],
) -> Vec<Option<String>> {
    let mut lookups = tokio::task::JoinSet::new();
    for (i, sub) in subjects.iter().enumerate() {
        let (directory, sub) = (Arc::clone(directory), sub.to_string());
        lookups.spawn(async move { (i, directory.lookup(&sub).await) });
    }
    let mut found = vec![None; subjects.len()];
    while let Some(done) = lookups.join_next().await {
        let (i, user) = done.unwrap();
        found[i] = user.unwrap().map(|u| u.dn);
    }
    found
}

#[tokio::test]
async fn lookups_that_arrive_together_are_answered_by_one_search() {
    let slapd = Slapd::start();
    let mut settings = slapd.settings();
    settings.pool_size = 1;
    let directory = Arc::new(directory(&settings));
    assert!(directory.lookup("ada").await.unwrap().is_some());

    // With the server frozen, no answer comes back: the lookups wait on the wire, and all of
    // them on one search.
    slapd.suspend();
    let subjects = ["ada", "grace", "nobody", "alan", "grace", "dennis"];
    let waiting = {
        let directory = Arc::clone(&directory);
        tokio::spawn(async move { look_up_together(&directory, &subjects).await })
    };
    let deadline = Instant::now() + settings.operation_timeout / 2;
    while directory.pool().unwrap().in_use == 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    let usage = directory.pool().unwrap();
    assert_eq!((usage.open, usage.in_use), (1, 1), "{usage:?}");

    slapd.resume();
    let people = |uid: &str| Some(format!("uid={uid},ou=people,dc=example,dc=com"));
    assert_eq!(
        waiting.await.unwrap(),
        vec![
            people("ada"),
            people("grace"),
            None,
            people("alan"),
            people("grace"),
            Some("cn=Dennis (dmr*) Ritchie,ou=people,dc=example,dc=com".into()),
        ]
    );
    assert_eq!(directory.pool().unwrap().in_use, 0);
}

#[tokio::test]
async fn subjects_that_differ_from_an_entry_only_in_case_are_answered_as_alone() {
    let directory = Arc::new(directory(&Slapd::shared().settings()));
    let alone: Vec<Option<String>> = {
        let mut found = Vec::new();
        for sub in ["Ada", "ADA", "grace"] {
            found.push(directory.lookup(sub).await.unwrap().map(|u| u.dn));
        }
        found
    };
    // The directory matches uid ignoring case: a search of its own finds ada for "Ada".
    assert_eq!(
        alone[0].as_deref(),
        Some("uid=ada,ou=people,dc=example,dc=com")
    );

    for subjects in [["Ada", "ADA", "grace"], ["grace", "Ada", "ADA"]] {
        let together = look_up_together(&directory, &subjects).await;
        let expected: Vec<Option<String>> = subjects
            .iter()
            .map(|s| alone[["Ada", "ADA", "grace"].iter().position(|a| a == s).unwrap()].clone())
            .collect();
        assert_eq!(together, expected, "{subjects:?}");
    }
    let mixed = look_up_together(&directory, &["Ada", "alan"]).await;
    assert_eq!(
        mixed,
        vec![
            Some("uid=ada,ou=people,dc=example,dc=com".into()),
            Some("uid=alan,ou=people,dc=example,dc=com".into()),
        ]
    );
}

#[tokio::test]
async fn a_search_that_times_out_leaves_its_connection_for_a_fresh_one() {
    let slapd = Slapd::start();
    let mut settings = slapd.settings();
    settings.pool_size = 1;
    let directory = directory(&settings);
    assert!(directory.lookup("ada").await.unwrap().is_some());
    let port: u16 = settings.url[0].port().unwrap();
    let before = connected_to(port);
    assert_eq!(before.len(), 1, "{before:?}");

    slapd.suspend();
    assert_unavailable(directory.lookup("ada").await);
    slapd.resume();

    // The connection that timed out is not lent again: the next lookup opens another.
    assert!(directory.lookup("grace").await.unwrap().is_some());
    let after = connected_to(port);
    assert_eq!(after.len(), 1, "{after:?}");
    assert_ne!(before, after);
}

/// The local ends of the established connections of this machine to local `port`.
fn connected_to(port: u16) -> Vec<String> {
    let end = format!(":{port:04X}");
    tcp_table()
        .into_iter()
        .filter(|(_, remote, state)| remote.ends_with(&end) && state == "01")
        .map(|(local, _, _)| local)
        .collect()
}

#[tokio::test]
async fn starttls_with_the_ca_file_signs_in() {
    let slapd = Slapd::shared();
    let mut settings = slapd.settings();
    settings.starttls = true;
    settings.ca_file = Some(slapd.ca_file());
    let directory = directory(&settings);

    assert!(sign_in(&directory, "hedy", "hedy-pw").await.is_ok());
    assert!(directory.lookup("hedy").await.unwrap().is_some());
    assert_invalid(sign_in(&directory, "hedy", "ken-pw").await, "wrong");
}

#[tokio::test]
async fn ldaps_with_the_ca_file_signs_in() {
    let slapd = Slapd::shared();
    let mut settings = slapd.settings();
    settings.url = vec![slapd.ldaps_url().parse().unwrap()];
    settings.ca_file = Some(slapd.ca_file());
    let directory = directory(&settings);

    assert!(sign_in(&directory, "barbara", "barbara-pw").await.is_ok());
    assert!(directory.lookup("barbara").await.unwrap().is_some());
}

#[tokio::test]
async fn a_server_certificate_from_an_unknown_ca_is_unavailable() {
    let slapd = Slapd::shared();
    for (url, starttls) in [(slapd.ldaps_url(), false), (slapd.url(), true)] {
        let mut settings = slapd.settings();
        settings.url = vec![url.parse().unwrap()];
        settings.starttls = starttls;
        settings.ca_file = Some(slapd.foreign_ca_file());
        let directory = directory(&settings);

        let cause = assert_unavailable(sign_in(&directory, "ada", "ada-pw").await);

        assert!(
            cause.contains("TLS") && cause.contains("certificate"),
            "{cause}"
        );
    }
}
