//! The audit log part of the store contract, on both backends: appending, forgetting by age
//! and by count, the indexes by actor, app, action and failure, and walking them both ways;
//! and, on Redis, moving the logs of earlier versions into the lists at start-up.

use super::fixtures::{redis_settings, Subject};
use super::redis_only::raw;
use crate::support::redis::RedisServer;
use ::redis::{pipe, AsyncCommands};
use sso_bridge::audit::Action;
use sso_bridge::clock::{Clock, SystemClock, UnixTime};
use sso_bridge::store::redis::RedisStore;
use sso_bridge::store::{AuditFrom, AuditIndex, AuditRecord, AuditStore};

on_both_backends!(
    audit_events_read_back_newest_first_and_old_ones_are_forgotten,
    each_index_finds_its_events_however_many_others_came_after,
    a_walk_through_several_indexes_finds_exactly_the_events_in_all_of_them,
    a_forgotten_event_leaves_every_index_with_the_log,
    a_walk_pages_older_and_newer_from_a_cursor,
    events_appended_at_once_are_each_kept_once_and_filed,
);

/// Event `id` of `actor` at `at`: `action` on `app`, failed when `failed`.
fn event(id: &str, at: UnixTime, actor: &str, action: Action, app: Option<&str>) -> AuditRecord {
    AuditRecord {
        id: id.into(),
        at,
        action,
        actor: Some(actor.into()),
        client_id: app.map(str::to_owned),
        address: None,
        success: true,
        detail: None,
    }
}

fn failed(mut record: AuditRecord) -> AuditRecord {
    record.success = false;
    record.detail = Some("wrong username or password".into());
    record
}

/// Appends `record`, keeping a day of events and at most `keep`.
async fn append(s: &Subject, record: &AuditRecord, keep: usize) {
    s.store.append_audit(record, 86_400, keep).await.unwrap();
}

/// Appends `n` token exchanges of `alan` on `app`, at `at`.
async fn many(s: &Subject, n: usize, at: UnixTime, app: &str) {
    for i in 0..n {
        let record = event(
            &format!("{app}-{i}"),
            at,
            "alan",
            Action::TokenIssued,
            Some(app),
        );
        append(s, &record, 100_000).await;
    }
}

/// Walks every step from `from` under `under` with pages of `limit`; answers the ids in the
/// order walked.
async fn walk(s: &Subject, under: &[AuditIndex], from: AuditFrom, limit: usize) -> Vec<String> {
    walk_in(&*s.store, under, from, limit).await
}

async fn walk_in(
    store: &(impl AuditStore + ?Sized),
    under: &[AuditIndex],
    from: AuditFrom,
    limit: usize,
) -> Vec<String> {
    let (mut ids, mut position) = (Vec::new(), from);
    loop {
        let page = store.audit_events(under, position, limit).await.unwrap();
        assert!(page.events.len() <= limit);
        ids.extend(page.events.into_iter().map(|e| e.record.id));
        match page.next {
            Some(cursor) => position = from.on_from(cursor),
            None => return ids,
        }
    }
}

async fn ids(s: &Subject, under: &[AuditIndex]) -> Vec<String> {
    walk(s, under, AuditFrom::Newest, 50).await
}

/// The event ids a Redis list of the log (`<cursor> <id>` entries) holds, in its order.
async fn listed(conn: &mut ::redis::aio::MultiplexedConnection, key: &str) -> Vec<String> {
    let entries: Vec<String> = conn.lrange(key, 0, -1).await.unwrap();
    entries
        .iter()
        .map(|entry| entry.split_once(' ').unwrap().1.to_owned())
        .collect()
}

async fn audit_events_read_back_newest_first_and_old_ones_are_forgotten(s: Subject) {
    let now = s.now();
    for (n, at) in [(1, now - 500), (2, now - 10), (3, now)] {
        let record = event(&format!("e{n}"), at, "ada", Action::TokenIssued, None);
        s.store.append_audit(&record, 1000, 100).await.unwrap();
    }
    assert_eq!(ids(&s, &[]).await, ["e3", "e2", "e1"]);
    let first = s
        .store
        .audit_events(&[], AuditFrom::Newest, 1)
        .await
        .unwrap();
    assert_eq!(first.events.len(), 1);
    let second = s
        .store
        .audit_events(&[], AuditFrom::Before(first.next.unwrap()), 1)
        .await
        .unwrap();
    let e2 = event("e2", now - 10, "ada", Action::TokenIssued, None);
    assert_eq!(second.events[0].record, e2);

    // An event 600 seconds later with a retention of 1000 forgets the one at now - 500.
    let e4 = event("e4", now + 600, "ada", Action::TokenIssued, None);
    s.store.append_audit(&e4, 1000, 100).await.unwrap();
    assert_eq!(ids(&s, &[]).await, ["e4", "e3", "e2"]);

    // Beyond `keep`, the oldest go first.
    let e5 = event("e5", now + 601, "ada", Action::TokenIssued, None);
    s.store.append_audit(&e5, 1000, 2).await.unwrap();
    assert_eq!(ids(&s, &[]).await, ["e5", "e4"]);
}

/// Appends 200 events of two apps at once, as many requests of one node do.
async fn append_at_once(store: &dyn AuditStore, now: UnixTime) -> Vec<AuditRecord> {
    let records: Vec<AuditRecord> = (0..200)
        .map(|i| {
            let app = if i % 2 == 0 { "even" } else { "odd" };
            event(&format!("c{i}"), now, "ada", Action::TokenIssued, Some(app))
        })
        .collect();
    let appends = records
        .iter()
        .map(|r| store.append_audit(r, 86_400, 100_000));
    for appended in futures::future::join_all(appends).await {
        appended.unwrap();
    }
    records
}

async fn events_appended_at_once_are_each_kept_once_and_filed(s: Subject) {
    append_at_once(s.store.as_ref(), s.now()).await;
    let mut all = ids(&s, &[]).await;
    all.sort();
    let mut expected: Vec<String> = (0..200).map(|i| format!("c{i}")).collect();
    expected.sort();
    assert_eq!(all, expected);
    let even = ids(&s, &[AuditIndex::App("even".into())]).await;
    assert_eq!(even.len(), 100);
    assert!(even
        .iter()
        .all(|id| id[1..].parse::<u32>().unwrap() % 2 == 0));
}

#[tokio::test]
async fn events_appended_at_once_go_to_redis_together() {
    // A server of its own, so that every script call counted is this test's.
    let server = RedisServer::start();
    let settings = redis_settings(&server.url(), 2000);
    let store = RedisStore::new(&settings).unwrap();
    let mut conn = raw(&server).await;
    let evalsha = |info: String| -> u64 {
        info.lines()
            .find_map(|line| line.strip_prefix("cmdstat_evalsha:calls="))
            .and_then(|rest| rest.split(',').next())
            .and_then(|calls| calls.parse().ok())
            .unwrap_or(0)
    };
    let before: String = ::redis::cmd("INFO")
        .arg("commandstats")
        .query_async(&mut conn)
        .await
        .unwrap();
    append_at_once(&store, SystemClock.now()).await;
    let after: String = ::redis::cmd("INFO")
        .arg("commandstats")
        .query_async(&mut conn)
        .await
        .unwrap();
    // Script calls, not events: each call writes what queued while the one before ran.
    let calls = evalsha(after) - evalsha(before);
    assert!(
        (1..=50).contains(&calls),
        "{calls} script calls for 200 events"
    );
    let logged: u64 = conn
        .llen(format!("{}audit:seq", settings.key_prefix))
        .await
        .unwrap();
    assert_eq!(logged, 200);
}

async fn each_index_finds_its_events_however_many_others_came_after(s: Subject) {
    let now = s.now();
    let created = event("created", now, "Ada", Action::AppCreated, Some("app-a"));
    append(&s, &created, 100_000).await;
    let refused = failed(event("refused", now, "Ada", Action::AdminSignIn, None));
    append(&s, &refused, 100_000).await;

    many(&s, 2500, now, "app-b").await;

    assert_eq!(
        ids(&s, &[AuditIndex::actor("ADA")]).await,
        ["refused", "created"]
    );
    assert_eq!(
        ids(&s, &[AuditIndex::App("app-a".into())]).await,
        ["created"]
    );
    let action = AuditIndex::Action(Action::AppCreated);
    assert_eq!(ids(&s, &[action]).await, ["created"]);
    assert_eq!(ids(&s, &[AuditIndex::Failures]).await, ["refused"]);
    let exchanges = ids(&s, &[AuditIndex::actor("alan")]).await;
    assert_eq!(exchanges.len(), 2500);
    assert_eq!(exchanges[0], "app-b-2499");
    let all = ids(&s, &[]).await;
    assert_eq!((all.len(), all[2501].as_str()), (2502, "created"));
    assert!(ids(&s, &[AuditIndex::actor("nobody")]).await.is_empty());
}

async fn a_walk_through_several_indexes_finds_exactly_the_events_in_all_of_them(s: Subject) {
    let now = s.now();
    // The one token exchange on app-z is the oldest of app-z's 1,501 events, and app-b's
    // 1,600 exchanges make its action's index larger still: a walk must go a long way.
    let wanted = event("wanted", now, "grace", Action::TokenIssued, Some("app-z"));
    append(&s, &wanted, 100_000).await;
    for i in 0..1500 {
        let sign_in = event(
            &format!("z{i}"),
            now,
            "grace",
            Action::SignIn,
            Some("app-z"),
        );
        append(&s, &sign_in, 100_000).await;
    }
    many(&s, 1600, now, "app-b").await;

    let both = [
        AuditIndex::Action(Action::TokenIssued),
        AuditIndex::App("app-z".into()),
    ];
    let found = walk(&s, &both, AuditFrom::Newest, 10).await;

    assert_eq!(found, ["wanted"]);
    let grace_signing_in = [
        AuditIndex::actor("grace"),
        AuditIndex::Action(Action::SignIn),
    ];
    let signed_in = walk(&s, &grace_signing_in, AuditFrom::Newest, 400).await;
    assert_eq!(signed_in.len(), 1500);
    assert_eq!(
        (signed_in[0].as_str(), signed_in[1499].as_str()),
        ("z1499", "z0")
    );
}

async fn a_forgotten_event_leaves_every_index_with_the_log(s: Subject) {
    let now = s.now();
    let old = failed(event(
        "old",
        now - 5000,
        "Ada",
        Action::SignIn,
        Some("app-a"),
    ));
    append(&s, &old, 100).await;
    let kept = event("kept", now, "grace", Action::AppCreated, Some("app-b"));
    append(&s, &kept, 100).await;

    // Older than the day kept: forgotten everywhere, at the next append.
    let later = event(
        "later",
        now + 86_400 - 4000,
        "grace",
        Action::AppUpdated,
        None,
    );
    append(&s, &later, 100).await;
    for index in [
        AuditIndex::actor("ada"),
        AuditIndex::App("app-a".into()),
        AuditIndex::Action(Action::SignIn),
        AuditIndex::Failures,
    ] {
        assert!(
            ids(&s, std::slice::from_ref(&index)).await.is_empty(),
            "{index:?}"
        );
    }

    // Beyond the count kept: forgotten everywhere too.
    let last = event("last", now + 86_400 - 4000, "ken", Action::AppDeleted, None);
    append(&s, &last, 2).await;
    assert_eq!(ids(&s, &[]).await, ["last", "later"]);
    assert!(ids(&s, &[AuditIndex::App("app-b".into())]).await.is_empty());
    let created = AuditIndex::Action(Action::AppCreated);
    assert!(ids(&s, &[created]).await.is_empty());
    assert_eq!(ids(&s, &[AuditIndex::actor("grace")]).await, ["later"]);
}

#[tokio::test]
async fn a_long_backlog_is_forgotten_over_the_next_appends() {
    let server = RedisServer::start();
    let settings = redis_settings(&server.url(), 2000);
    let store = RedisStore::new(&settings).unwrap();
    let mut conn = raw(&server).await;
    let log = format!("{}audit:seq", settings.key_prefix);
    let now = SystemClock.now();
    for i in 0..1200 {
        let old = event(
            &format!("o{i}"),
            now - 5000,
            "ada",
            Action::SignIn,
            Some("a"),
        );
        store.append_audit(&old, 86_400, 100_000).await.unwrap();
    }

    // A retention of 1000 seconds leaves none of them, but one append forgets 1000 at most.
    let first = event("n1", now, "ada", Action::SignIn, Some("a"));
    store.append_audit(&first, 1000, 100_000).await.unwrap();
    let logged: u64 = conn.llen(&log).await.unwrap();
    assert_eq!(logged, 201);

    // The next one goes on where it stopped, in the same second.
    let second = event("n2", now, "ada", Action::SignIn, Some("a"));
    store.append_audit(&second, 1000, 100_000).await.unwrap();
    assert_eq!(listed(&mut conn, &log).await, ["n1", "n2"]);
    for index in ["ix:actor:ada", "ix:app:a", "ix:action:sign_in"] {
        let key = format!("{}audit:{index}", settings.key_prefix);
        assert_eq!(listed(&mut conn, &key).await, ["n1", "n2"], "{index}");
    }
    let texts: u64 = conn
        .hlen(format!("{}audit:events", settings.key_prefix))
        .await
        .unwrap();
    assert_eq!(texts, 2);
}

async fn a_walk_pages_older_and_newer_from_a_cursor(s: Subject) {
    let now = s.now();
    for n in 1..=7 {
        let actor = if n % 2 == 0 { "even" } else { "odd" };
        let record = event(&format!("e{n}"), now, actor, Action::SignIn, None);
        append(&s, &record, 100).await;
    }
    let odd = [AuditIndex::actor("odd")];

    let newest = s
        .store
        .audit_events(&odd, AuditFrom::Newest, 2)
        .await
        .unwrap();
    let shown: Vec<_> = newest.events.iter().map(|e| e.record.id.as_str()).collect();
    assert_eq!(shown, ["e7", "e5"]);
    assert!(newest.events[0].cursor > newest.events[1].cursor);
    let older_than_e5 = AuditFrom::Before(newest.next.unwrap());
    let older = walk(&s, &odd, older_than_e5, 2).await;
    assert_eq!(older, ["e3", "e1"]);

    let e3 = s.store.audit_events(&odd, older_than_e5, 1).await.unwrap();
    let newer_than_e3 = AuditFrom::After(e3.events[0].cursor);
    let newer = walk(&s, &odd, newer_than_e3, 1).await;
    assert_eq!(newer, ["e5", "e7"], "oldest first, towards the newest");
    let everything_newer = walk(&s, &[], newer_than_e3, 10).await;
    assert_eq!(everything_newer, ["e4", "e5", "e6", "e7"]);
}

#[tokio::test]
async fn an_earlier_versions_audit_log_moves_into_the_indexed_one_in_order() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let earlier = format!("{}audit", settings.key_prefix);
    let mut conn = raw(&server).await;
    let t0 = 1_700_000_000u64;
    let mut batch = pipe();
    for i in 0..600u64 {
        let json = serde_json::to_string(&event(
            &format!("old{i}"),
            t0 + i,
            "Ada",
            Action::SignIn,
            None,
        ))
        .unwrap();
        batch.zadd(&earlier, json, t0 + i).ignore();
    }
    batch.zadd(&earlier, "{damaged", t0).ignore();
    let _: () = batch.query_async(&mut conn).await.unwrap();

    // Start-up moves them all, a batch at a time; appends go on after them.
    let migrated = store.migrate().await.unwrap();
    assert_eq!(migrated.audit_events, 601, "{migrated:?}");
    for n in 1..=2 {
        let new = event(
            &format!("new{n}"),
            t0 + 1000 + n,
            "grace",
            Action::SignIn,
            None,
        );
        store
            .append_audit(&new, 86_400 * 365, 10_000)
            .await
            .unwrap();
    }

    let mut ids = Vec::new();
    let mut from = AuditFrom::Newest;
    loop {
        let page = store.audit_events(&[], from, 250).await.unwrap();
        ids.extend(page.events.into_iter().map(|e| e.record.id));
        match page.next {
            Some(cursor) => from = AuditFrom::Before(cursor),
            None => break,
        }
    }
    let expected: Vec<String> = ["new2".to_owned(), "new1".to_owned()]
        .into_iter()
        .chain((0..600).rev().map(|i| format!("old{i}")))
        .collect();
    assert_eq!(ids, expected);
    let ada = store
        .audit_events(&[AuditIndex::actor("ada")], AuditFrom::Newest, 1)
        .await
        .unwrap();
    assert_eq!(ada.events[0].record.id, "old599");
    let left: bool = conn.exists(&earlier).await.unwrap();
    assert!(!left, "the earlier log is gone, its damaged event with it");
}

#[tokio::test]
async fn a_sorted_set_audit_log_moves_into_the_lists_in_order() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let p = settings.key_prefix.clone();
    let mut conn = raw(&server).await;
    let t0 = 1_700_000_000u64;
    // 700 events as the sorted-set version filed them: ids by cursor in the log and in each
    // index, the JSON and the filing in hashes.
    let old = |i: u64| {
        let actor = if i.is_multiple_of(2) { "ada" } else { "ken" };
        event(&format!("old{i}"), t0 + i, actor, Action::SignIn, None)
    };
    let file = |batch: &mut ::redis::Pipeline, record: &AuditRecord, cursor: u64| {
        let actor = record.actor.as_deref().unwrap();
        let indexes = [
            format!("{p}audit:by:actor:{actor}"),
            format!("{p}audit:by:action:sign_in"),
        ];
        let filing = serde_json::json!({ "at": record.at, "ix": indexes });
        batch
            .zadd(format!("{p}audit:log"), &record.id, cursor)
            .ignore()
            .hset(
                format!("{p}audit:events"),
                &record.id,
                serde_json::to_string(record).unwrap(),
            )
            .ignore()
            .hset(format!("{p}audit:filed"), &record.id, filing.to_string())
            .ignore();
        for index in &indexes {
            batch.zadd(index, &record.id, cursor).ignore();
        }
    };
    let mut batch = pipe();
    for i in 1..=700u64 {
        file(&mut batch, &old(i), i);
    }
    batch.set(format!("{p}audit:cursor"), 700).ignore();
    let _: () = batch.query_async(&mut conn).await.unwrap();

    // A node of a version keeping the lists appended one there; then a node of the earlier
    // version filed one more the old way. Start-up moves the sorted sets below what is already
    // in the lists, in cursor order.
    let now = t0 + 1000;
    let new1 = event("new1", now, "ada", Action::SignIn, None);
    store
        .append_audit(&new1, 86_400 * 365, 10_000)
        .await
        .unwrap();
    let mut batch = pipe();
    file(
        &mut batch,
        &event("late", now, "ada", Action::SignIn, None),
        702,
    );
    let _: () = batch.query_async(&mut conn).await.unwrap();
    let migrated = store.migrate().await.unwrap();
    assert_eq!(migrated.audit_events, 701, "{migrated:?}");
    let new2 = event("new2", now + 1, "ken", Action::SignIn, None);
    store
        .append_audit(&new2, 86_400 * 365, 10_000)
        .await
        .unwrap();

    let expected: Vec<String> = ["new2", "new1"]
        .into_iter()
        .map(str::to_owned)
        .chain(["late".to_owned()])
        .chain((1..=700).rev().map(|i| format!("old{i}")))
        .collect();
    assert_eq!(walk_in(&store, &[], AuditFrom::Newest, 90).await, expected);
    let ada: Vec<String> = expected
        .iter()
        .filter(|id| {
            ["new1", "late"].contains(&id.as_str())
                || id
                    .strip_prefix("old")
                    .is_some_and(|n| n.parse::<u64>().unwrap().is_multiple_of(2))
        })
        .cloned()
        .collect();
    let under = [AuditIndex::actor("ada"), AuditIndex::Action(Action::SignIn)];
    assert_eq!(walk_in(&store, &under, AuditFrom::Newest, 60).await, ada);
    let mut oldest_first = ada.clone();
    oldest_first.reverse();
    let after = walk_in(&store, &under[..1], AuditFrom::After(i64::MIN), 60).await;
    assert_eq!(after, oldest_first);

    for key in [
        format!("{p}audit:log"),
        format!("{p}audit:by:actor:ada"),
        format!("{p}audit:by:actor:ken"),
        format!("{p}audit:by:action:sign_in"),
    ] {
        let left: bool = conn.exists(&key).await.unwrap();
        assert!(!left, "{key} is left");
    }
}

#[tokio::test]
async fn past_the_count_limit_a_little_more_goes_at_once() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let log = format!("{}audit:seq", settings.key_prefix);
    let mut conn = raw(&server).await;
    let now = SystemClock.now();
    let append = |i: usize| {
        let record = event(&format!("e{i}"), now, "ada", Action::SignIn, Some("a"));
        let store = &store;
        async move { store.append_audit(&record, 86_400, 400).await.unwrap() }
    };
    for i in 1..=400 {
        append(i).await;
    }
    assert_eq!(conn.llen::<_, u64>(&log).await.unwrap(), 400);

    // One past 400 forgets the oldest and two more (a two-hundredth of the limit), so the two
    // appends after it find room.
    append(401).await;
    assert_eq!(conn.llen::<_, u64>(&log).await.unwrap(), 398);
    append(402).await;
    append(403).await;
    let kept = listed(&mut conn, &log).await;
    assert_eq!(kept.len(), 400);
    assert_eq!(kept.first().map(String::as_str), Some("e4"));
    let index = format!("{}audit:ix:actor:ada", settings.key_prefix);
    assert_eq!(listed(&mut conn, &index).await, kept);
}

#[tokio::test]
async fn an_index_that_lost_an_entry_keeps_its_live_events_when_the_log_forgets() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let p = &settings.key_prefix;
    let mut conn = raw(&server).await;
    let now = SystemClock.now();
    for (id, actor) in [("e1", "ada"), ("e2", "ada"), ("e3", "ada")] {
        let record = event(id, now, actor, Action::SignIn, Some("a"));
        store.append_audit(&record, 86_400, 3).await.unwrap();
    }
    // The index lost its first entry (a write cut short, say): the filings still name it.
    let ada = format!("{p}audit:ix:actor:ada");
    let _: Option<String> = conn.lpop(&ada, None).await.unwrap();

    // The count limit forgets e1: the index's head is e2 now, which is live and stays.
    let record = event("e4", now, "bob", Action::SignIn, Some("a"));
    store.append_audit(&record, 86_400, 3).await.unwrap();
    assert_eq!(
        listed(&mut conn, &format!("{p}audit:seq")).await,
        ["e2", "e3", "e4"]
    );
    assert_eq!(listed(&mut conn, &ada).await, ["e2", "e3"]);
    let app = format!("{p}audit:ix:app:a");
    assert_eq!(listed(&mut conn, &app).await, ["e2", "e3", "e4"]);
}

#[tokio::test]
async fn an_event_appended_again_is_filed_once() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let mut conn = raw(&server).await;
    let record = event("once", SystemClock.now(), "ada", Action::SignIn, Some("a"));
    // Again after it was written, and twice in one batch (appended at once).
    store.append_audit(&record, 86_400, 1000).await.unwrap();
    let copies = (0..3).map(|_| store.append_audit(&record, 86_400, 1000));
    for appended in futures::future::join_all(copies).await {
        appended.unwrap();
    }
    let other = event("other", SystemClock.now(), "ada", Action::SignIn, Some("a"));
    let twice = [&other, &other].map(|r| store.append_audit(r, 86_400, 1000));
    for appended in futures::future::join_all(twice).await {
        appended.unwrap();
    }

    let p = &settings.key_prefix;
    for list in ["seq", "ix:actor:ada", "ix:app:a", "ix:action:sign_in"] {
        let ids = listed(&mut conn, &format!("{p}audit:{list}")).await;
        assert_eq!(ids, ["once", "other"], "{list}");
    }
}
