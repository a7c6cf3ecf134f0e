//! Refresh token rotations that arrive together and go out in one script call (Redis only):
//! each answers as it would alone, under reuse, failure and outage.

use super::fixtures::{code_record_in, issuance, redis_settings};
use super::redis_only::{evalsha_calls, raw};
use crate::support::redis::RedisServer;
use redis::AsyncCommands;
use sso_bridge::clock::{Clock, SystemClock, UnixTime};
use sso_bridge::domain::secret::random_id;
use sso_bridge::domain::Digest;
use sso_bridge::store::redis::RedisStore;
use sso_bridge::store::{CodeRecord, GrantStore, Issuance, Rotation, StoreError};
use std::time::{Duration, Instant};

/// A grant begun by redeeming a fresh code of `record`, with tokens for `ttl` seconds.
async fn begun(store: &RedisStore, record: &CodeRecord, grant: &str, ttl: u64) -> Issuance {
    let code = Digest::of(&random_id(32));
    store.put_code(&code, record, 60).await.unwrap();
    let issue = issuance(grant, record, ttl);
    store.redeem_code(&code, &issue).await.unwrap();
    issue
}

/// Has Redis load the rotation script, so that a call counted or held later runs at once.
async fn load_rotation(store: &RedisStore, record: &CodeRecord) {
    let never = Digest::of("never issued");
    let issue = issuance("unused", record, 60);
    let outcome = store.rotate_refresh(&never, &issue, "s", SystemClock.now(), 10);
    assert_eq!(outcome.await.unwrap(), Rotation::NotFound);
}

/// Rotates each `(spent token, issuance, sealed successor, now)` at once, from one task, so
/// that they are queued in this order and go out together.
async fn together(
    store: &RedisStore,
    rotations: &[(&Digest, &Issuance, &str, UnixTime)],
) -> Vec<Result<Rotation, StoreError>> {
    futures::future::join_all(
        rotations
            .iter()
            .map(|(old, issue, sealed, now)| store.rotate_refresh(old, issue, sealed, *now, 10)),
    )
    .await
}

#[tokio::test]
async fn rotations_that_arrive_together_keep_each_grant_in_its_sessions_index() {
    let server = RedisServer::start();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let p = settings.key_prefix.clone();
    let mut conn = raw(&server).await;
    let now = SystemClock.now();
    let plain = code_record_in(&store, now).await;
    let (mut first, mut second) = (plain.clone(), plain.clone());
    first.sid = Some(random_id(16));
    second.sid = Some(random_id(16));
    let begun = [
        begun(&store, &first, "g1", 600).await,
        begun(&store, &plain, "g2", 600).await,
        begun(&store, &second, "g3", 600).await,
    ];
    // Successors that live longer than the grants' entries so far: each rotation moves its
    // session's index ahead with its other entries.
    let next: Vec<Issuance> = [(&first, "g1"), (&plain, "g2"), (&second, "g3")]
        .iter()
        .map(|(record, grant)| issuance(grant, record, 6000))
        .collect();
    load_rotation(&store, &plain).await;
    let calls = evalsha_calls(&mut conn).await;
    let outcomes = together(
        &store,
        &[
            (&begun[0].refresh_digest, &next[0], "s1", now),
            (&begun[1].refresh_digest, &next[1], "s2", now),
            (&begun[2].refresh_digest, &next[2], "s3", now),
        ],
    )
    .await;
    assert_eq!(evalsha_calls(&mut conn).await - calls, 1);
    for outcome in &outcomes {
        assert_eq!(outcome.as_ref().unwrap(), &Rotation::Rotated);
    }
    for record in [&first, &second] {
        let sid = record.sid.as_deref().unwrap();
        let ttl: i64 = conn.ttl(format!("{p}session-issued:{sid}")).await.unwrap();
        assert!(ttl > 600, "the session's index was not moved ahead: {ttl}");
    }
    let kept = store.refresh_record(&next[0].refresh_digest).await.unwrap();
    assert_eq!(kept.and_then(|r| r.sid), first.sid);

    // Ending the first session revokes what its grant's rotation issued, and only that.
    let apps = store.revoke_session(first.sid.as_deref().unwrap()).await;
    assert_eq!(apps.unwrap(), vec![plain.client_id.clone()]);
    let live = |issue: &Issuance| {
        let digest = issue.access_digest.clone();
        let store = &store;
        async move { store.access_token(&digest).await.unwrap().is_some() }
    };
    assert!(!live(&next[0]).await);
    assert!(live(&next[1]).await);
    assert!(live(&next[2]).await);
}

#[tokio::test]
async fn a_token_presented_twice_in_one_call_rotates_once_and_the_second_gets_the_successor() {
    let server = RedisServer::start();
    let store = RedisStore::new(&redis_settings(&server.url(), 1000)).unwrap();
    let now = SystemClock.now();
    let record = code_record_in(&store, now).await;
    let begun = begun(&store, &record, "g1", 600).await;
    let (one, two) = (issuance("g1", &record, 600), issuance("g1", &record, 600));

    let outcomes = together(
        &store,
        &[
            (&begun.refresh_digest, &one, "first", now),
            (&begun.refresh_digest, &two, "second", now + 1),
        ],
    )
    .await;

    assert_eq!(outcomes[0].as_ref().unwrap(), &Rotation::Rotated);
    assert_eq!(
        outcomes[1].as_ref().unwrap(),
        &Rotation::Grace("first".into())
    );
    assert!(store
        .access_token(&one.access_digest)
        .await
        .unwrap()
        .is_some());
    assert!(store
        .access_token(&two.access_digest)
        .await
        .unwrap()
        .is_none());
}

#[tokio::test]
async fn a_token_reused_after_its_grace_in_the_same_call_revokes_its_family() {
    let server = RedisServer::start();
    let store = RedisStore::new(&redis_settings(&server.url(), 1000)).unwrap();
    let now = SystemClock.now();
    let record = code_record_in(&store, now).await;
    let begun = begun(&store, &record, "g1", 600).await;
    let other = self::begun(&store, &record, "g2", 600).await;
    let (one, two) = (issuance("g1", &record, 600), issuance("g1", &record, 600));
    let beside = issuance("g2", &record, 600);

    // The second request's clock is past the first's rotation and its grace (10 s).
    let outcomes = together(
        &store,
        &[
            (&begun.refresh_digest, &one, "first", now),
            (&other.refresh_digest, &beside, "beside", now),
            (&begun.refresh_digest, &two, "second", now + 11),
        ],
    )
    .await;

    assert_eq!(outcomes[0].as_ref().unwrap(), &Rotation::Rotated);
    assert_eq!(outcomes[1].as_ref().unwrap(), &Rotation::Rotated);
    assert_eq!(outcomes[2].as_ref().unwrap(), &Rotation::Reused);
    // The family is gone, the successor written a moment before in the same call with it;
    // the other grant of the call is not.
    for issue in [&begun, &one, &two] {
        assert!(store
            .access_token(&issue.access_digest)
            .await
            .unwrap()
            .is_none());
    }
    assert!(store
        .refresh_token(&one.refresh_digest)
        .await
        .unwrap()
        .is_none());
    assert!(store
        .access_token(&beside.access_digest)
        .await
        .unwrap()
        .is_some());
}

#[tokio::test]
async fn a_rotation_whose_writer_went_away_is_answered_all_the_same() {
    let server = RedisServer::start();
    let store = RedisStore::new(&redis_settings(&server.url(), 3000)).unwrap();
    let mut conn = raw(&server).await;
    let now = SystemClock.now();
    let record = code_record_in(&store, now).await;
    let mut begun_ = Vec::new();
    for grant in ["g1", "g2", "g3"] {
        begun_.push(begun(&store, &record, grant, 600).await);
    }
    let next: Vec<Issuance> = ["g1", "g2", "g3"]
        .iter()
        .map(|g| issuance(g, &record, 600))
        .collect();
    load_rotation(&store, &record).await;
    // Redis holds every script call for a while: the first request writes the call of all
    // three, then goes away (its client hung up) before the answer.
    // The pause is long beside the writer's 100 ms, so a stalled test thread still sees it go
    // first, and short beside the store's 3 s, which the other two wait out.
    let _: () = redis::cmd("CLIENT")
        .arg("PAUSE")
        .arg(1500)
        .arg("WRITE")
        .query_async(&mut conn)
        .await
        .unwrap();
    let writer = tokio::time::timeout(
        Duration::from_millis(100),
        store.rotate_refresh(&begun_[0].refresh_digest, &next[0], "s1", now, 10),
    );
    let (gone, second, third) = tokio::join!(
        writer,
        store.rotate_refresh(&begun_[1].refresh_digest, &next[1], "s2", now, 10),
        store.rotate_refresh(&begun_[2].refresh_digest, &next[2], "s3", now, 10),
    );

    assert!(gone.is_err(), "the writer was to go away first: {gone:?}");
    assert_eq!(second.unwrap(), Rotation::Rotated);
    assert_eq!(third.unwrap(), Rotation::Rotated);
    for issue in &next[1..] {
        assert!(store
            .access_token(&issue.access_digest)
            .await
            .unwrap()
            .is_some());
    }
}

#[tokio::test]
async fn when_redis_is_down_every_waiting_rotation_is_unavailable_and_none_hangs() {
    let mut server = RedisServer::start();
    // Five calls' worth of rotations waiting in turn would take five timeouts; each may take
    // two, and a loaded machine a second more.
    let timeout = Duration::from_millis(1000);
    let store = RedisStore::new(&redis_settings(&server.url(), 1000)).unwrap();
    let now = SystemClock.now();
    let record = code_record_in(&store, now).await;
    let begun = begun(&store, &record, "g1", 600).await;
    // More than one call carries (32), so some wait for calls before theirs.
    let next: Vec<Issuance> = (0..160)
        .map(|i| issuance(&format!("g{i}"), &record, 600))
        .collect();

    // A server that takes requests and answers none (every client paused)...
    let mut conn = raw(&server).await;
    let _: () = redis::cmd("CLIENT")
        .arg("PAUSE")
        .arg(10000)
        .arg("ALL")
        .query_async(&mut conn)
        .await
        .unwrap();
    let started = Instant::now();
    let outcomes = futures::future::join_all(next.iter().map(|issue| async {
        let outcome = store
            .rotate_refresh(&begun.refresh_digest, issue, "s", now, 10)
            .await;
        (outcome, started.elapsed())
    }))
    .await;
    for (outcome, took) in &outcomes {
        assert!(
            matches!(outcome, Err(StoreError::Unavailable(_))),
            "{outcome:?}"
        );
        // Its wait, then its own call: each bounded by the store timeout.
        assert!(
            *took < 2 * timeout + Duration::from_millis(1000),
            "{took:?}"
        );
    }

    // ...and one that is gone.
    server.stop();
    let started = Instant::now();
    let outcomes = futures::future::join_all(
        next.iter()
            .take(40)
            .map(|issue| store.rotate_refresh(&begun.refresh_digest, issue, "s", now, 10)),
    )
    .await;
    for outcome in outcomes {
        assert!(
            matches!(outcome, Err(StoreError::Unavailable(_))),
            "{outcome:?}"
        );
    }
    assert!(started.elapsed() < 2 * timeout, "{:?}", started.elapsed());
}
