//! What only the Redis store can get wrong: what its keys reveal, TTLs, and outages.

use super::fixtures::{
    client, code_record, code_record_in, issuance, pending_request, redis_settings, session_record,
    UNBOUNDED,
};
use crate::support::redis::RedisServer;
use redis::{self, aio::MultiplexedConnection, AsyncCommands};
use sso_bridge::audit::Action;
use sso_bridge::clock::{Clock, SystemClock};
use sso_bridge::domain::secret::random_id;
use sso_bridge::domain::{ClientId, Digest, ScopeSet, SecretToken};
use sso_bridge::store::redis::RedisStore;
use sso_bridge::store::{
    AdminSessionStore, AuditFrom, AuditRecord, AuditStore, ClientStore, GrantStore, Issuance,
    LimitStore, PendingBound, Ping, Redemption, Rotation, SecondFactorStore, SessionStore,
    StoreError,
};
use std::net::TcpListener;
use std::time::{Duration, Instant};

pub(crate) async fn raw(server: &RedisServer) -> MultiplexedConnection {
    let client = redis::Client::open(server.url()).unwrap();
    client.get_multiplexed_async_connection().await.unwrap()
}

/// Asserts that `result` is `Unavailable` and came back well within a hang.
fn assert_unavailable<T: std::fmt::Debug>(result: Result<T, StoreError>, started: Instant) {
    assert!(
        matches!(result, Err(StoreError::Unavailable(_))),
        "{result:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn secrets_are_stored_only_as_digests_under_the_key_prefix() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let (code, access, refresh) = (
        SecretToken::generate(),
        SecretToken::generate(),
        SecretToken::generate(),
    );
    let record = code_record_in(&store, SystemClock.now()).await;
    store.put_code(&code.digest(), &record, 60).await.unwrap();
    let mut issue = issuance("g1", &record, 3600);
    issue.access_digest = access.digest();
    issue.refresh_digest = refresh.digest();
    let redeemed = store.redeem_code(&code.digest(), &issue).await.unwrap();
    assert_eq!(redeemed, Redemption::Issued);

    let mut conn = raw(&server).await;
    let keys: Vec<String> = conn
        .keys(format!("{}*", settings.key_prefix))
        .await
        .unwrap();
    let mut dump = keys.join("\n");
    for key in &keys {
        let kind: String = redis::cmd("TYPE")
            .arg(key)
            .query_async(&mut conn)
            .await
            .unwrap();
        let values: Vec<String> = match kind.as_str() {
            "string" => vec![conn.get(key).await.unwrap()],
            "hash" => conn.hvals(key).await.unwrap(),
            "set" => conn.smembers(key).await.unwrap(),
            "zset" => conn.zrange(key, 0, -1).await.unwrap(),
            "list" => conn.lrange(key, 0, -1).await.unwrap(),
            other => panic!("unexpected key type {other}"),
        };
        dump.push_str(&values.join("\n"));
    }
    for secret in [&code, &access, &refresh] {
        assert!(!dump.contains(secret.expose()));
    }
    let p = &settings.key_prefix;
    for expected in [
        format!("{p}code:{}", code.digest().as_hex()),
        format!("{p}at:{}", access.digest().as_hex()),
        format!("{p}rt:{}", refresh.digest().as_hex()),
        format!("{p}grant:g1"),
    ] {
        assert!(keys.contains(&expected), "{expected} not in {keys:?}");
    }
}

#[tokio::test]
async fn a_consumed_code_keeps_its_remaining_ttl_and_the_grant_index_outlives_its_tokens() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let p = settings.key_prefix.clone();
    let code = Digest::of("a code");
    let record = code_record_in(&store, SystemClock.now()).await;
    store.put_code(&code, &record, 60).await.unwrap();
    let mut first = issuance("g1", &record, 600);
    first.refresh_ttl = 5000;
    let mut next = issuance("g1", &record, 600);
    next.refresh_ttl = 1000;

    assert_eq!(
        store.redeem_code(&code, &first).await.unwrap(),
        Redemption::Issued
    );
    let now = SystemClock.now();
    let rotated = store.rotate_refresh(&first.refresh_digest, &next, "s", now, 10);
    assert_eq!(rotated.await.unwrap(), Rotation::Rotated);

    let mut conn = raw(&server).await;
    let ttl = |key: String| {
        let mut conn = conn.clone();
        async move { conn.ttl::<_, i64>(key).await.unwrap() }
    };
    let code_ttl = ttl(format!("{p}code:{}", code.as_hex())).await;
    assert!((50..=60).contains(&code_ttl), "code TTL {code_ttl}");
    let old_ttl = ttl(format!("{p}rt:{}", first.refresh_digest.as_hex())).await;
    assert!(
        (4990..=5000).contains(&old_ttl),
        "rotated token TTL {old_ttl}"
    );
    // The index outlives the longest-lived token, by up to an eighth (it is lengthened ahead).
    let index_ttl = ttl(format!("{p}grant:g1")).await;
    assert!((4990..=5625).contains(&index_ttl), "index TTL {index_ttl}");
    // The index lists the refresh tokens as they were issued, each naming its access token,
    // which it outlives.
    let members: Vec<String> = conn.lrange(format!("{p}grant:g1"), 0, -1).await.unwrap();
    let refresh_keys = [&first, &next].map(|i| format!("{p}rt:{}", i.refresh_digest.as_hex()));
    assert_eq!(members, refresh_keys);
    for (key, issue) in refresh_keys.iter().zip([&first, &next]) {
        let access: String = conn.hget(key, "access").await.unwrap();
        assert_eq!(access, format!("{p}at:{}", issue.access_digest.as_hex()));
    }
}

#[tokio::test]
async fn an_access_token_that_may_outlive_its_refresh_token_is_listed_itself_and_revoked() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let p = settings.key_prefix.clone();
    let code = Digest::of("a code");
    let record = code_record_in(&store, SystemClock.now()).await;
    store.put_code(&code, &record, 60).await.unwrap();
    let mut issue = issuance("g1", &record, 900);
    issue.refresh_ttl = 300;
    store.redeem_code(&code, &issue).await.unwrap();

    let mut conn = raw(&server).await;
    let members: Vec<String> = conn.lrange(format!("{p}grant:g1"), 0, -1).await.unwrap();
    let access = format!("{p}at:{}", issue.access_digest.as_hex());
    let refresh = format!("{p}rt:{}", issue.refresh_digest.as_hex());
    assert_eq!(members, [access.clone(), refresh.clone()]);
    // Once the refresh token is gone, revoking the grant still finds the access token.
    let _: () = conn.del(&refresh).await.unwrap();
    store.revoke_grant("g1").await.unwrap();
    assert!(store
        .access_token(&issue.access_digest)
        .await
        .unwrap()
        .is_none());
    let left: bool = conn.exists(format!("{p}grant:g1")).await.unwrap();
    assert!(!left);
}

#[tokio::test]
async fn a_grants_index_drops_its_expired_tokens_and_an_earlier_versions_set_works_once_migrated() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let p = settings.key_prefix.clone();
    let mut conn = raw(&server).await;
    let now = SystemClock.now();

    // A grant refreshed for months: its index names tokens long expired.
    let record = code_record_in(&store, now).await;
    let code = Digest::of("a code");
    store.put_code(&code, &record, 60).await.unwrap();
    let first = issuance("g1", &record, 600);
    store.redeem_code(&code, &first).await.unwrap();
    let index = format!("{p}grant:g1");
    let gone: Vec<String> = (0..250).map(|i| format!("{p}rt:gone{i}")).collect();
    let _: () = conn.lpush(&index, &gone).await.unwrap();
    // Within a minute of the last drop (the grant began just now) they wait for the next.
    let next = issuance("g1", &record, 600);
    let rotated = store.rotate_refresh(&first.refresh_digest, &next, "s", now, 10);
    assert_eq!(rotated.await.unwrap(), Rotation::Rotated);
    let left: Vec<String> = conn.lrange(&index, 0, -1).await.unwrap();
    assert_eq!(left.len(), 252);
    // A rotation a minute after the last drop (as the spent token records it) drops them from
    // the head, 200 at most; the next such rotation drops the rest, up to the first live token.
    let mut spent = next;
    // 250 gone and 2 live, then 50 gone and 3 live, then 4 live.
    for expected in [53, 4] {
        let key = format!("{p}rt:{}", spent.refresh_digest.as_hex());
        let pruned: u64 = conn.hget(&key, "pruned").await.unwrap();
        let _: () = conn.hset(&key, "pruned", pruned - 60).await.unwrap();
        let successor = issuance("g1", &record, 600);
        let rotated = store.rotate_refresh(&spent.refresh_digest, &successor, "s", now, 10);
        assert_eq!(rotated.await.unwrap(), Rotation::Rotated);
        spent = successor;
        let left: Vec<String> = conn.lrange(&index, 0, -1).await.unwrap();
        assert_eq!(left.len(), expected, "{left:?}");
    }
    let left: Vec<String> = conn.lrange(&index, 0, -1).await.unwrap();
    assert_eq!(
        left[0],
        format!("{p}rt:{}", first.refresh_digest.as_hex()),
        "the oldest live token heads the index"
    );

    // Grants whose index an earlier version wrote as a plain set (g2) or as a sorted set by
    // expiry (g3), naming both tokens, and whose refresh token records nothing of the grant
    // (nor its access token), rotate and revoke once the start-up migration ran.
    let mut begun = Vec::new();
    for (grant, earlier) in [("g2", "set"), ("g3", "zset")] {
        let record = code_record_in(&store, now).await;
        let code = Digest::of(&format!("the code of {grant}"));
        store.put_code(&code, &record, 60).await.unwrap();
        let mut first = issuance(grant, &record, 300);
        first.refresh_ttl = 600;
        store.redeem_code(&code, &first).await.unwrap();
        let index = format!("{p}grant:{grant}");
        let access = format!("{p}at:{}", first.access_digest.as_hex());
        let refresh = format!("{p}rt:{}", first.refresh_digest.as_hex());
        let _: () = conn.del(&index).await.unwrap();
        if earlier == "set" {
            let _: () = conn.sadd(&index, &[&refresh, &access]).await.unwrap();
        } else {
            let scored = [(now + 600, &refresh), (now + 300, &access)];
            let _: () = conn.zadd_multiple(&index, &scored).await.unwrap();
        }
        let _: () = conn.expire(&index, 600).await.unwrap();
        let _: () = conn
            .hdel(&refresh, &["access", "listed", "kept", "pruned"])
            .await
            .unwrap();
        begun.push((grant, record, first, access, refresh));
    }
    let migrated = store.migrate().await.unwrap();
    assert_eq!(migrated.grants, 2, "{migrated:?}");
    for (grant, record, first, access, refresh) in begun {
        let index = format!("{p}grant:{grant}");
        let index_ttl: i64 = conn.ttl(&index).await.unwrap();
        assert!((590..=600).contains(&index_ttl), "{grant}: {index_ttl}");
        // The soonest to expire first.
        let tokens: Vec<String> = conn.lrange(&index, 0, -1).await.unwrap();
        assert_eq!(tokens, [access, refresh], "{grant}");
        let next = issuance(grant, &record, 600);
        let rotated = store.rotate_refresh(&first.refresh_digest, &next, "s", now, 10);
        assert_eq!(rotated.await.unwrap(), Rotation::Rotated, "{grant}");
        let tokens: Vec<String> = conn.lrange(&index, 0, -1).await.unwrap();
        assert_eq!(tokens.len(), 3, "{tokens:?}");
        assert!(
            tokens[2].ends_with(&next.refresh_digest.as_hex()),
            "the newest refresh token last: {tokens:?}"
        );
        let listed = store.user_grants(record.claims.sub()).await.unwrap();
        let newest = listed.iter().find(|g| g.grant_id == grant).unwrap();
        assert_eq!(newest.refresh.expires_at, next.refresh.expires_at);
        store.revoke_grant(grant).await.unwrap();
        for token in [&first.access_digest, &next.access_digest] {
            assert!(
                store.access_token(token).await.unwrap().is_none(),
                "{grant}"
            );
        }
        assert!(store
            .refresh_token(&next.refresh_digest)
            .await
            .unwrap()
            .is_none());
    }
}

#[tokio::test]
async fn a_users_indexes_expire_and_outlive_what_they_name() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let p = settings.key_prefix.clone();
    let record = code_record_in(&store, SystemClock.now()).await;
    let session = Digest::of("a session cookie");
    store
        .put_session(&session, &session_record(record.auth_time, "ada"), 3000)
        .await
        .unwrap();
    let code = Digest::of("a code");
    store.put_code(&code, &record, 60).await.unwrap();
    let mut issue = issuance("g1", &record, 600);
    issue.refresh_ttl = 5000;
    store.redeem_code(&code, &issue).await.unwrap();

    let mut conn = raw(&server).await;
    // Each index outlives what it names, by up to an eighth (it is lengthened ahead).
    let sessions_ttl: i64 = conn.ttl(format!("{p}user-sessions:ada")).await.unwrap();
    assert!((2990..=3375).contains(&sessions_ttl), "{sessions_ttl}");
    let issued_ttl: i64 = conn.ttl(format!("{p}user-issued:ada")).await.unwrap();
    assert!((4990..=5625).contains(&issued_ttl), "{issued_ttl}");
    let issued: Vec<(String, f64)> = conn
        .zrange_withscores(format!("{p}user-issued:ada"), 0, -1)
        .await
        .unwrap();
    // Each member is scored by when it expires: the grant with its longest-lived token. The
    // code left when it was redeemed.
    let now = SystemClock.now() as f64;
    let [(grant, grant_until)] = &issued[..] else {
        panic!("{issued:?}");
    };
    assert_eq!(grant, &format!("{p}grant:g1"));
    assert!(
        (now + 4995.0..=now + 5001.0).contains(grant_until),
        "{issued:?}"
    );
}

#[tokio::test]
async fn a_refresh_rescores_its_grant_under_the_app_and_user_only_when_it_falls_short() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let p = settings.key_prefix.clone();
    let record = code_record_in(&store, SystemClock.now()).await;
    let code = Digest::of("a code");
    store.put_code(&code, &record, 60).await.unwrap();
    let mut first = issuance("g1", &record, 600);
    first.refresh_ttl = 8000;
    store.redeem_code(&code, &first).await.unwrap();
    let grant = format!("{p}grant:g1");
    let indexes = [
        format!("{p}user-issued:{}", record.claims.sub()),
        format!("{p}client-issued:{}", record.client_id.as_str()),
    ];
    let mut conn = raw(&server).await;
    let mut scores = Vec::new();
    for index in &indexes {
        let score: Option<f64> = conn.zscore(index, &grant).await.unwrap();
        scores.push(score.unwrap());
    }

    // A refresh whose tokens the grant's score already covers leaves it alone.
    let mut next = issuance("g1", &record, 600);
    next.refresh_ttl = 8000;
    let now = SystemClock.now();
    let rotated = store.rotate_refresh(&first.refresh_digest, &next, "s", now, 10);
    assert_eq!(rotated.await.unwrap(), Rotation::Rotated);
    for (index, before) in indexes.iter().zip(&scores) {
        let score: Option<f64> = conn.zscore(index, &grant).await.unwrap();
        assert_eq!(score, Some(*before), "{index}");
    }

    // The token records how long the entries last, so the next refresh trusts its record and
    // looks nothing up, even where the entries say otherwise.
    let listed: f64 = conn
        .hget(format!("{p}rt:{}", next.refresh_digest.as_hex()), "listed")
        .await
        .unwrap();
    assert!(scores.iter().all(|&s| s >= listed), "{listed} {scores:?}");
    for index in &indexes {
        let _: () = redis::cmd("ZADD")
            .arg(index)
            .arg("XX")
            .arg(now + 100)
            .arg(&grant)
            .query_async(&mut conn)
            .await
            .unwrap();
    }
    let mut third = issuance("g1", &record, 600);
    third.refresh_ttl = 8000;
    let rotated = store.rotate_refresh(&next.refresh_digest, &third, "s", now, 10);
    assert_eq!(rotated.await.unwrap(), Rotation::Rotated);
    for index in &indexes {
        let score: f64 = conn.zscore(index, &grant).await.unwrap();
        assert_eq!(score, (now + 100) as f64, "{index}");
    }

    // One whose tokens would outlive the entries (a longer refresh lifetime) looks them up and
    // moves each an eighth further ahead than the tokens need, and the index lives at least as
    // long as that.
    let mut fourth = issuance("g1", &record, 600);
    fourth.refresh_ttl = 9000;
    let rotated = store.rotate_refresh(&third.refresh_digest, &fourth, "s", now, 10);
    assert_eq!(rotated.await.unwrap(), Rotation::Rotated);
    let now = SystemClock.now() as f64;
    for index in &indexes {
        let score: f64 = conn.zscore(index, &grant).await.unwrap();
        assert!(
            (now + 10120.0..=now + 10126.0).contains(&score),
            "{index} {score}"
        );
        let ttl: i64 = conn.ttl(index).await.unwrap();
        assert!(
            ttl as f64 >= score - now,
            "{index}: TTL {ttl}, score {score}"
        );
    }
    let listed: f64 = conn
        .hget(
            format!("{p}rt:{}", fourth.refresh_digest.as_hex()),
            "listed",
        )
        .await
        .unwrap();
    assert!(
        (now + 10120.0..=now + 10126.0).contains(&listed),
        "{listed}"
    );
}

#[tokio::test]
async fn a_waiting_code_is_indexed_until_it_is_redeemed() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let p = settings.key_prefix.clone();
    let record = code_record_in(&store, SystemClock.now()).await;
    let code = Digest::of("a waiting code");
    store.put_code(&code, &record, 60).await.unwrap();
    let member = format!("{p}code:{}", code.as_hex());
    let indexes = [
        format!("{p}user-issued:{}", record.claims.sub()),
        format!("{p}client-issued:{}", record.client_id.as_str()),
    ];
    let mut conn = raw(&server).await;
    for index in &indexes {
        let score: Option<f64> = conn.zscore(index, &member).await.unwrap();
        assert!(score.is_some(), "{index}");
    }

    store
        .redeem_code(&code, &issuance("g-waiting", &record, 600))
        .await
        .unwrap();
    for index in &indexes {
        let score: Option<f64> = conn.zscore(index, &member).await.unwrap();
        assert!(score.is_none(), "{index}");
    }
}

#[tokio::test]
async fn an_index_drops_what_has_expired_on_its_writes() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let p = settings.key_prefix.clone();
    let record = code_record_in(&store, SystemClock.now()).await;
    let client_index = format!("{p}client-issued:{}", record.client_id.as_str());
    let mut conn = raw(&server).await;
    // What a busy app leaves behind: thousands of codes and grants long gone.
    let now = SystemClock.now();
    let gone: Vec<(u64, String)> = (0..5000)
        .map(|i| (now - 1 - i % 100, format!("{p}code:gone{i}")))
        .collect();
    let _: () = conn.zadd_multiple(&client_index, &gone).await.unwrap();
    let live = (now + 600, format!("{p}grant:still-live"));
    let _: () = conn.zadd(&client_index, &live.1, live.0).await.unwrap();

    // One write in eight drops them, by the toss of the clock's microseconds: the chance that
    // all of these writes skip it is below one in a hundred billion.
    let codes: Vec<Digest> = (0..200).map(|i| Digest::of(&format!("code {i}"))).collect();
    for code in &codes {
        store.put_code(code, &record, 60).await.unwrap();
    }

    let left: Vec<String> = conn.zrange(&client_index, 0, -1).await.unwrap();
    assert_eq!(left.len(), codes.len() + 1);
    assert!(left.contains(&live.1));
    for code in &codes {
        assert!(left.contains(&format!("{p}code:{}", code.as_hex())));
    }
}

#[tokio::test]
async fn an_attempt_window_drops_the_attempts_that_left_it_within_a_few_dozen_attempts() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let mut conn = raw(&server).await;
    let key = format!("password:{}", random_id(8));
    let window = vec![(key.clone(), 60)];
    let t = SystemClock.now();
    for i in 0..20 {
        let id = format!("old{i}");
        let count = store.add_attempt(&window, &id, t - 120).await.unwrap();
        assert_eq!(count[0].failed, i);
        store
            .fail_attempt(std::slice::from_ref(&key), &id, t - 120)
            .await
            .unwrap();
    }
    // Those twenty failed two minutes ago, out of the one-minute window: they are not counted,
    // and one attempt in eight drops them. The chance that 200 attempts all skip it is below
    // one in 10^11.
    let stored = format!("{}attempts:{key}", settings.key_prefix);
    let mut held = Vec::new();
    for i in 0..200 {
        let id = format!("new{i}");
        let count = store.add_attempt(&window, &id, t).await.unwrap();
        assert_eq!(count[0].failed, i, "only this window's failures count");
        assert_eq!(count[0].in_flight, 1);
        store
            .fail_attempt(std::slice::from_ref(&key), &id, t)
            .await
            .unwrap();
        held.push(conn.zcard::<_, u64>(&stored).await.unwrap());
    }
    // Each count ran past the failures that had left, and the window holds none of them now.
    assert_eq!(held.last(), Some(&200), "{held:?}");
}

#[tokio::test]
async fn a_pending_group_drops_expired_requests_on_its_writes_and_never_for_them_a_live_one() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let p = settings.key_prefix.clone();
    let mut conn = raw(&server).await;
    let bounded = |name: &str, max: u64| {
        let mut request = pending_request();
        request.groups = vec![name.to_owned()];
        let bound = PendingBound {
            group: name.to_owned(),
            max,
            evicts: true,
        };
        (request, [bound])
    };
    // Requests long expired, still counted in their groups (scores are expiries, in
    // microseconds): the writes that do not drop them must pop them first.
    let micros = SystemClock.now() * 1_000_000;
    let gone: Vec<(u64, String)> = (0..1000)
        .map(|i| (micros - 1_000_000 - i, format!("{p}authreq:gone{i}")))
        .collect();
    let group = format!("{p}pendby:browser:full");
    let _: () = conn.zadd_multiple(&group, &gone).await.unwrap();
    let (request, bound) = bounded("browser:full", 3);
    for id in ["r1", "r2", "r3"] {
        store
            .put_pending(id, &request, 600, &bound, UNBOUNDED)
            .await
            .unwrap();
    }
    for id in ["r1", "r2", "r3"] {
        assert!(store.pending(id).await.unwrap().is_some(), "{id}");
    }
    // The bound holds among live requests: the oldest gives way.
    store
        .put_pending("r4", &request, 600, &bound, UNBOUNDED)
        .await
        .unwrap();
    assert_eq!(store.pending("r1").await.unwrap(), None);
    for id in ["r2", "r3", "r4"] {
        assert!(store.pending(id).await.unwrap().is_some(), "{id}");
    }
    assert!(conn.zcard::<_, u64>(&group).await.unwrap() <= 3);

    // A group below its bound drops them on one write in eight: the chance that all of these
    // writes skip it is below one in a hundred billion.
    let group = format!("{p}pendby:addr:quiet");
    let _: () = conn.zadd_multiple(&group, &gone[..50]).await.unwrap();
    let (request, bound) = bounded("addr:quiet", 1000);
    for i in 0..200 {
        let id = format!("q{i}");
        store
            .put_pending(&id, &request, 600, &bound, UNBOUNDED)
            .await
            .unwrap();
    }
    let left: Vec<String> = conn.zrange(&group, 0, -1).await.unwrap();
    assert_eq!(left.len(), 200);
    assert!(left.iter().all(|key| !key.contains("gone")), "{left:?}");
}

#[tokio::test]
async fn what_earlier_versions_indexed_is_listed_revoked_and_ended_once_migrated() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let p = settings.key_prefix.clone();
    let now = SystemClock.now();
    let mut conn = raw(&server).await;
    // Earlier versions indexed grants and sessions under plain sets: moves some there, as they
    // left them.
    let grant = |id: &'static str| {
        let store = &store;
        async move {
            let record = code_record_in(store, now).await;
            let code = Digest::of(id);
            store.put_code(&code, &record, 60).await.unwrap();
            let issue = issuance(id, &record, 600);
            let redeemed = store.redeem_code(&code, &issue).await.unwrap();
            assert_eq!(redeemed, Redemption::Issued);
            (record, issue)
        }
    };
    let (record, by_user) = grant("g-user").await;
    let sub = record.claims.sub().to_owned();
    let _: () = conn.del(format!("{p}user-issued:{sub}")).await.unwrap();
    let _: () = conn
        .sadd(
            format!("{p}userissued:{sub}"),
            &[format!("{p}grant:g-user"), format!("{p}grant:gone")],
        )
        .await
        .unwrap();

    let (record, by_client) = grant("g-client").await;
    let client = record.client_id.clone();
    let _: () = conn
        .del(format!("{p}client-issued:{}", client.as_str()))
        .await
        .unwrap();
    let _: () = conn
        .sadd(
            format!("{p}issued:{}", client.as_str()),
            format!("{p}grant:g-client"),
        )
        .await
        .unwrap();

    let session = Digest::of("a session cookie");
    store
        .put_session(&session, &session_record(now, "ada"), 3000)
        .await
        .unwrap();
    let _: () = conn.del(format!("{p}user-sessions:ada")).await.unwrap();
    let _: () = conn
        .sadd(
            format!("{p}usersess:ada"),
            format!("{p}sess:{}", session.as_hex()),
        )
        .await
        .unwrap();

    // Start-up brings them to the current format, once.
    let migrated = store.migrate().await.unwrap();
    assert_eq!(migrated.indexes, 3, "{migrated:?}");
    assert_eq!(store.migrate().await.unwrap(), Default::default());
    let format: u64 = conn.get(format!("{p}format")).await.unwrap();
    assert_eq!(format, sso_bridge::store::redis::FORMAT);
    for earlier in ["userissued:", "issued:", "usersess:"] {
        let left: Vec<String> = conn.keys(format!("{p}{earlier}*")).await.unwrap();
        assert!(left.is_empty(), "{left:?}");
    }
    let mut named: Vec<String> = conn
        .zrange(format!("{p}user-issued:{sub}"), 0, -1)
        .await
        .unwrap();
    named.sort();
    let expected = [format!("{p}grant:g-client"), format!("{p}grant:g-user")];
    assert_eq!(named, expected, "what is gone is dropped");
    let sessions_ttl: i64 = conn.ttl(format!("{p}user-sessions:ada")).await.unwrap();
    assert!((2990..=3000).contains(&sessions_ttl), "{sessions_ttl}");

    let mut grants: Vec<String> = store
        .user_grants(&sub)
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.grant_id)
        .collect();
    grants.sort();
    assert_eq!(grants, ["g-client", "g-user"]);
    store.revoke_client(&client).await.unwrap();
    assert!(store
        .access_token(&by_client.access_digest)
        .await
        .unwrap()
        .is_none());
    assert_eq!(store.revoke_user(&sub).await.unwrap(), 1);
    assert!(store
        .access_token(&by_user.access_digest)
        .await
        .unwrap()
        .is_none());

    let listed = store.user_sessions("ada").await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].0, session);
    assert_eq!(store.end_sessions("ada").await.unwrap().count, 1);
    assert!(store.session(&session).await.unwrap().is_none());
}

#[tokio::test]
async fn nodes_starting_together_migrate_once_and_a_store_that_is_down_stops_start_up() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let p = settings.key_prefix.clone();
    let mut conn = raw(&server).await;
    let mut batch = redis::pipe();
    for i in 0..3000 {
        let session = format!("{p}sess:s{i}");
        batch
            .set_ex(&session, "{}", 600)
            .ignore()
            .sadd(format!("{p}usersess:u{}", i % 1500), &session)
            .ignore();
    }
    let _: () = batch.query_async(&mut conn).await.unwrap();

    let nodes: Vec<RedisStore> = (0..4)
        .map(|_| RedisStore::new(&settings).unwrap())
        .collect();
    let migrated = futures::future::join_all(nodes.iter().map(|node| node.migrate())).await;
    let merged: u64 = migrated.into_iter().map(|m| m.unwrap().indexes).sum();
    assert_eq!(merged, 1500, "each index is merged once");
    let left: Vec<String> = conn.keys(format!("{p}usersess:*")).await.unwrap();
    assert!(left.is_empty(), "{left:?}");
    let lock: bool = conn.exists(format!("{p}format:lock")).await.unwrap();
    assert!(!lock, "the lock is let go");
    let named: Vec<String> = conn
        .zrange(format!("{p}user-sessions:u7"), 0, -1)
        .await
        .unwrap();
    assert_eq!(named.len(), 2, "{named:?}");

    // Nothing listens on a port that was free a moment ago.
    let port = crate::support::ports::free_port();
    let down = RedisStore::new(&redis_settings(&format!("redis://127.0.0.1:{port}"), 500)).unwrap();
    let started = Instant::now();
    assert_unavailable(down.migrate().await, started);
}

#[tokio::test]
async fn a_node_whose_lock_was_taken_over_leaves_it_to_the_new_holder_and_waits() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let p = settings.key_prefix.clone();
    let mut conn = raw(&server).await;
    // The first versions' audit log, long enough for many steps.
    let earlier = format!("{p}audit");
    let t0 = 1_700_000_000u64;
    let mut batch = redis::pipe();
    for i in 0..20_000u64 {
        let json = serde_json::to_string(&audit_event(&format!("e{i}"), t0 + i, "ada")).unwrap();
        batch.zadd(&earlier, json, t0 + i).ignore();
    }
    let _: () = batch.query_async(&mut conn).await.unwrap();

    let node = RedisStore::new(&settings).unwrap();
    let migration = tokio::spawn(async move { node.migrate().await });
    // As soon as the node holds the lock, another node takes it over, as when the first stalls
    // past the lock's life, and finishes the migration.
    let lock = format!("{p}format:lock");
    loop {
        let holder: Option<String> = conn.get(&lock).await.unwrap();
        if holder.is_some() {
            break;
        }
        assert!(
            !migration.is_finished(),
            "the node was never seen holding the lock"
        );
    }
    let mut takeover = redis::pipe();
    takeover
        .atomic()
        .set_ex(&lock, "another node", 30)
        .ignore()
        .set(format!("{p}format"), sso_bridge::store::redis::FORMAT)
        .ignore();
    let _: () = takeover.query_async(&mut conn).await.unwrap();

    // At its next renewal the node finds the lock taken: it stops, neither renews nor lets go
    // of the other node's lock, and waits like any other node, finding the format recorded.
    migration.await.unwrap().unwrap();
    let holder: Option<String> = conn.get(&lock).await.unwrap();
    assert_eq!(holder.as_deref(), Some("another node"));
    let ttl: i64 = conn.ttl(&lock).await.unwrap();
    assert!(
        (1..=30).contains(&ttl),
        "the lock's life was renewed: {ttl} s"
    );
    let left: u64 = conn.zcard(&earlier).await.unwrap();
    assert!(
        left > 0,
        "the node went on migrating after it lost the lock"
    );
}

#[tokio::test]
async fn a_store_built_while_redis_is_down_answers_unavailable_without_hanging() {
    // Nothing listens on a port that was free a moment ago: connections are refused.
    let port = crate::support::ports::free_port();
    let url = format!("redis://:hunter2@127.0.0.1:{port}");
    let refused = RedisStore::new(&redis_settings(&url, 500)).unwrap();
    let started = Instant::now();
    let answer = refused.ping().await;
    let message = format!("{answer:?}");
    assert!(
        !message.contains("hunter2") && !message.contains("redis://"),
        "{message}"
    );
    assert_unavailable(answer, started);

    // A listener that accepts (the kernel completes the handshake) but never answers.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("redis://{}", silent.local_addr().unwrap());
    let store = RedisStore::new(&redis_settings(&url, 300)).unwrap();
    let started = Instant::now();
    assert_unavailable(store.session(&Digest::of("k")).await, started);
    let started = Instant::now();
    let code = Digest::of("a code");
    let issue = issuance("g1", &code_record(SystemClock.now()), 60);
    assert_unavailable(store.redeem_code(&code, &issue).await, started);
}

#[tokio::test]
async fn audit_appends_queued_behind_a_server_that_never_answers_give_up_within_the_timeout() {
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("redis://{}", silent.local_addr().unwrap());
    let store = RedisStore::new(&redis_settings(&url, 200)).unwrap();
    // Far more appends than one batch writes: the batches queue behind each other, and each
    // write waits out the store timeout.
    let records: Vec<AuditRecord> = (0..1280)
        .map(|i| audit_event(&format!("e{i}"), 1_700_000_000, "ada"))
        .collect();
    let started = Instant::now();
    let appends = records
        .iter()
        .map(|record| store.append_audit(record, 86_400, 1000));
    for answer in futures::future::join_all(appends).await {
        assert_unavailable(answer, started);
    }
}

#[tokio::test]
async fn a_server_that_is_now_a_replica_refuses_writes_as_unavailable_never_as_unreadable() {
    // A master demoted in a failover answers READONLY to every write, plain or scripted.
    let master = RedisServer::start();
    let port = master.port().to_string();
    let replica = RedisServer::start_with(&["--replicaof", "127.0.0.1", &port]);
    let store = RedisStore::new(&redis_settings(&replica.url(), 1000)).unwrap();
    let (id, session) = (Digest::of("k"), session_record(SystemClock.now(), "ada"));

    let started = Instant::now();
    assert_unavailable(store.put_session(&id, &session, 60).await, started);
    let code = Digest::of("a code");
    let started = Instant::now();
    assert_unavailable(
        store
            .put_code(&code, &code_record(SystemClock.now()), 60)
            .await,
        started,
    );
    let started = Instant::now();
    assert_unavailable(store.put_client(&client("Replica")).await, started);
    // Reading what it has still works.
    assert_eq!(store.session(&id).await.unwrap(), None);
}

#[tokio::test]
async fn the_same_store_recovers_by_itself_when_redis_comes_back() {
    let mut server = RedisServer::start();
    let settings = redis_settings(&server.url(), 500);
    let store = RedisStore::new(&settings).unwrap();
    let (id, session) = (Digest::of("k"), session_record(SystemClock.now(), "ada"));
    store.put_session(&id, &session, 60).await.unwrap();

    server.stop();
    let started = Instant::now();
    assert_unavailable(store.session(&id).await, started);
    let started = Instant::now();
    assert_unavailable(store.ping().await, started);

    let port = server.port();
    server.restart();
    assert_eq!(
        server.port(),
        port,
        "the store keeps the address it was built with"
    );
    store.ping().await.unwrap();
    store.put_session(&id, &session, 60).await.unwrap();
    assert_eq!(store.session(&id).await.unwrap(), Some(session));
    // The restarted server has an empty script cache: scripts are loaded again on demand.
    let code = Digest::of("a code");
    let record = code_record_in(&store, SystemClock.now()).await;
    store.put_code(&code, &record, 60).await.unwrap();
    let issue = issuance("g1", &record, 60);
    assert_eq!(
        store.redeem_code(&code, &issue).await.unwrap(),
        Redemption::Issued
    );
}

#[tokio::test]
async fn a_tls_url_is_accepted_and_a_failed_handshake_is_unavailable() {
    // A plain-text server cannot complete a TLS handshake: the store must say so, not panic.
    let server = RedisServer::shared();
    let url = server.url().replacen("redis://", "rediss://", 1);
    let store = RedisStore::new(&redis_settings(&url, 500)).unwrap();
    let started = Instant::now();
    assert_unavailable(store.ping().await, started);
}

/// Records as a running deployment already holds them (the exact JSON under the exact keys),
/// each with the typed value it must read back as.
fn deployed_records(p: &str, client: &ClientId) -> Vec<(String, &'static str)> {
    vec![
        (
            format!("{p}sess:{}", Digest::of("cookie").as_hex()),
            r#"{"claims":{"name":"Ada","sub":"ada"},"auth_time":1700000000,"amr":["pwd"],"expires_at":1700003600}"#,
        ),
        (
            format!("{p}authreq:req-1"),
            r#"{"request":{"client_id":"CLIENT","redirect_uri":"https://app.example.com/cb","scopes":["openid","profile"],"state":"xyz","code_challenge":null,"oidc":{"nonce":null,"prompt_none":false,"prompt_login":true,"prompt_consent":false,"max_age":null,"login_hint":null}},"csrf_token":"csrf","browser":"BROWSER"}"#,
        ),
        (
            format!("{p}consent:ada\n{}", client.as_str()),
            r#"["openid","profile"]"#,
        ),
        (
            format!("{p}admtok:{}", Digest::of("admin token").as_hex()),
            r#"{"sub":"root","expires_at":1700000600,"amr":["pwd","otp"]}"#,
        ),
        (
            format!("{p}admscr:{}", Digest::of("cookie").as_hex()),
            r#"{"sub":"root","user":"Root","csrf_token":"csrf"}"#,
        ),
        (
            format!("{p}admscr:halfway:{}", Digest::of("login").as_hex()),
            r#"{"claims":{"sub":"root"}}"#,
        ),
        (
            format!("{p}mfa:ada"),
            r#"{"sealed_secret":"v1.sealed","enrolled_at":1700000000}"#,
        ),
        (format!("{p}mfasetup:ada\nbrowser"), "v1.pending"),
        (format!("{p}otpused:ada\ntag1\n42"), "1"),
        (format!("{p}lockout:password:ada"), "1"),
        (format!("{p}lastused:{}", client.as_str()), "1700000000"),
    ]
}

#[tokio::test]
async fn records_written_before_the_typed_store_read_back_under_the_same_keys() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let p = &settings.key_prefix;
    let client = ClientId::generate();
    let browser = Digest::of("flow cookie");
    let mut conn = raw(&server).await;
    for (key, json) in deployed_records(p, &client) {
        let json = json
            .replace("CLIENT", client.as_str())
            .replace("BROWSER", browser.as_hex());
        let _: () = conn.set_ex(key, json, 60).await.unwrap();
    }

    let session = store.session(&Digest::of("cookie")).await.unwrap().unwrap();
    assert_eq!(
        (
            session.claims.sub(),
            session.amr.as_slice(),
            session.expires_at
        ),
        ("ada", ["pwd".to_owned()].as_slice(), 1_700_003_600)
    );
    let pending = store.pending("req-1").await.unwrap().unwrap();
    assert_eq!(pending.request.client_id, client);
    assert!(pending.request.oidc.prompt_login && pending.replaced_session.is_none());
    assert_eq!(pending.browser, browser);
    let consent = store.consent("ada", &client).await.unwrap();
    assert_eq!(consent, Some(ScopeSet::parse("profile openid").unwrap()));
    let token = store.admin_token(&Digest::of("admin token")).await.unwrap();
    assert_eq!(
        token.map(|t| (t.sub, t.amr.len())),
        Some(("root".into(), 2))
    );
    let screen = store.screen_sign_in(&Digest::of("cookie")).await.unwrap();
    assert_eq!(screen.map(|s| s.user), Some("Root".into()));
    let halfway = store.halfway_sign_in(&Digest::of("login")).await.unwrap();
    assert_eq!(
        halfway.map(|h| h.claims.sub().to_owned()),
        Some("root".into())
    );
    let enrolment = store.second_factor("ada").await.unwrap().unwrap();
    assert_eq!(enrolment.sealed_secret, "v1.sealed");
    let setup = store.setup("ada", "browser").await.unwrap();
    assert_eq!(setup.as_deref(), Some("v1.pending"));
    assert!(!store.spend_otp_step("ada", "tag1", 42, 60).await.unwrap());
    assert!(!store.note_lockout("password:ada", 60).await.unwrap());
    let last_used = store.last_used(&client).await.unwrap();
    assert_eq!(last_used, Some(1_700_000_000));

    // The audit log was one sorted set: its events move to the lists at start-up.
    let audit = r#"{"id":"a1","at":1700000000,"action":"lockout","actor":"ada","client_id":null,"address":"192.0.2.1","success":false,"detail":"too many attempts"}"#;
    let _: i64 = conn
        .zadd(format!("{p}audit"), audit, 1_700_000_000)
        .await
        .unwrap();
    store.migrate().await.unwrap();
    let next = audit_event("a2", 1_700_000_100, "grace");
    store.append_audit(&next, 86_400, 100).await.unwrap();
    let page = store
        .audit_events(&[], AuditFrom::Newest, 10)
        .await
        .unwrap();
    assert_eq!(
        page.events
            .iter()
            .map(|e| (e.record.id.as_str(), e.record.action, e.record.success))
            .collect::<Vec<_>>(),
        [("a2", Action::SignIn, true), ("a1", Action::Lockout, false)]
    );
    let failure =
        r#"{"at":1700000000,"endpoint":"token","problem":"wrong client secret","fix":null}"#;
    let failures = format!("{p}failures:{}", client.as_str());
    let _: i64 = conn.lpush(&failures, &[failure, "{damaged"]).await.unwrap();
    let entries = store.failures(&client).await.unwrap();
    let problems: Vec<_> = entries
        .iter()
        .map(|e| (e.problem.as_str(), e.verified))
        .collect();
    assert_eq!(
        problems,
        [("wrong client secret", false)],
        "damaged entries are skipped; entries kept before `verified` read as unverified"
    );

    // Written back, each record lands under the key it was read from, as the same JSON.
    let written = Digest::of("another cookie");
    store.put_session(&written, &session, 60).await.unwrap();
    let raw_session: String = conn
        .get(format!("{p}sess:{}", written.as_hex()))
        .await
        .unwrap();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&raw_session).unwrap(),
        serde_json::to_value(&session).unwrap()
    );
    store
        .put_consent("grace", &client, &consent.unwrap(), 60)
        .await
        .unwrap();
    let raw_consent: String = conn
        .get(format!("{p}consent:grace\n{}", client.as_str()))
        .await
        .unwrap();
    assert_eq!(raw_consent, r#"["openid","profile"]"#);
}

#[tokio::test]
async fn a_damaged_record_reads_as_corrupt() {
    let server = RedisServer::shared();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let id = Digest::of("cookie");
    let mut conn = raw(&server).await;
    let key = format!("{}sess:{}", settings.key_prefix, id.as_hex());
    let _: () = conn.set_ex(key, "{not json", 60).await.unwrap();

    let read = store.session(&id).await;

    assert!(matches!(read, Err(StoreError::Corrupt(_))), "{read:?}");
}

/// A sign-in of `actor` at `at`.
fn audit_event(id: &str, at: u64, actor: &str) -> AuditRecord {
    AuditRecord {
        id: id.into(),
        at,
        action: Action::SignIn,
        actor: Some(actor.into()),
        client_id: None,
        address: None,
        success: true,
        detail: None,
    }
}

/// How many times Redis has run `EVALSHA` so far.
pub(crate) async fn evalsha_calls(conn: &mut MultiplexedConnection) -> u64 {
    let stats: String = redis::cmd("INFO")
        .arg("commandstats")
        .query_async(conn)
        .await
        .unwrap();
    stats
        .lines()
        .find_map(|l| l.strip_prefix("cmdstat_evalsha:calls="))
        .and_then(|rest| rest.split(',').next())
        .map_or(0, |n| n.parse().unwrap())
}

#[tokio::test]
async fn refreshes_that_arrive_together_rotate_in_one_call_and_each_gets_its_own_answer() {
    let server = RedisServer::start();
    let settings = redis_settings(&server.url(), 1000);
    let store = RedisStore::new(&settings).unwrap();
    let p = settings.key_prefix.clone();
    let mut conn = raw(&server).await;
    let now = SystemClock.now();
    let record = code_record_in(&store, now).await;
    let mut first = Vec::new();
    for grant in ["ga", "gb", "gc", "gd"] {
        let code = Digest::of(&random_id(32));
        store.put_code(&code, &record, 60).await.unwrap();
        let issue = issuance(grant, &record, 600);
        store.redeem_code(&code, &issue).await.unwrap();
        first.push(issue);
    }
    // gc's token was rotated a moment ago (a retry will get its successor), gd's long ago.
    let earlier = issuance("gc", &record, 600);
    let rotated = store.rotate_refresh(&first[2].refresh_digest, &earlier, "c's", now, 10);
    assert_eq!(rotated.await.unwrap(), Rotation::Rotated);
    let later = issuance("gd", &record, 600);
    let rotated = store.rotate_refresh(&first[3].refresh_digest, &later, "d's", now - 60, 10);
    assert_eq!(rotated.await.unwrap(), Rotation::Rotated);
    // A token that was never issued, and one whose record is damaged.
    let unknown = Digest::of("never issued");
    let damaged = Digest::of("damaged");
    let _: () = conn
        .set(format!("{p}rt:{}", damaged.as_hex()), "not a hash")
        .await
        .unwrap();

    let next: Vec<Issuance> = ["ga", "gb", "gc", "gd", "ge", "gf"]
        .iter()
        .map(|g| issuance(g, &record, 600))
        .collect();
    let spent = [
        &first[0].refresh_digest,
        &first[1].refresh_digest,
        &first[2].refresh_digest,
        &first[3].refresh_digest,
        &unknown,
        &damaged,
    ];
    let calls = evalsha_calls(&mut conn).await;
    let outcomes = futures::future::join_all(
        spent
            .iter()
            .zip(&next)
            .map(|(old, issue)| store.rotate_refresh(old, issue, "s", now, 10)),
    )
    .await;
    assert_eq!(evalsha_calls(&mut conn).await - calls, 1);

    assert_eq!(outcomes[0].as_ref().unwrap(), &Rotation::Rotated);
    assert_eq!(outcomes[1].as_ref().unwrap(), &Rotation::Rotated);
    assert_eq!(
        outcomes[2].as_ref().unwrap(),
        &Rotation::Grace("c's".into())
    );
    assert_eq!(outcomes[3].as_ref().unwrap(), &Rotation::Reused);
    assert_eq!(outcomes[4].as_ref().unwrap(), &Rotation::NotFound);
    assert!(
        matches!(outcomes[5], Err(StoreError::Corrupt(_))),
        "{:?}",
        outcomes[5]
    );
    // Each rotation wrote its own tokens, and the reuse revoked its own grant only.
    for issue in &next[..2] {
        assert!(store
            .access_token(&issue.access_digest)
            .await
            .unwrap()
            .is_some());
        let record = store.refresh_record(&issue.refresh_digest).await.unwrap();
        assert_eq!(record.map(|r| r.grant_id), Some(issue.grant_id.clone()));
    }
    for issue in &next[2..] {
        assert!(store
            .access_token(&issue.access_digest)
            .await
            .unwrap()
            .is_none());
    }
    assert!(store
        .access_token(&later.access_digest)
        .await
        .unwrap()
        .is_none());
    assert!(store
        .access_token(&earlier.access_digest)
        .await
        .unwrap()
        .is_some());
}
