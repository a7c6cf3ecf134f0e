//! What each hot path asks of Redis, seen by the server itself (`MONITOR` on a private
//! redis-server): the store's round trips per request are pinned here, so an extra one (a
//! health check per request, a read a script could fold in) shows as a failing test.

use crate::helpers::*;
use crate::support::redis::RedisServer;
use redis::aio::MultiplexedConnection;
use reqwest::StatusCode;
use std::collections::BTreeMap;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

const CB: &str = "https://app.example.com/callback";

/// The commands clients send to a Redis server, as `MONITOR` shows them: what scripts run
/// inside the server is left out, so each command counted is one round trip, but for those a
/// transaction or a pipeline sends together.
struct Monitor {
    lines: BufReader<TcpStream>,
    control: MultiplexedConnection,
}

impl Monitor {
    async fn start(redis: &RedisServer) -> Monitor {
        let mut stream = TcpStream::connect(("127.0.0.1", redis.port()))
            .await
            .unwrap();
        stream.write_all(b"MONITOR\r\n").await.unwrap();
        let mut lines = BufReader::new(stream);
        let mut ok = String::new();
        lines.read_line(&mut ok).await.unwrap();
        assert_eq!(ok.trim(), "+OK");
        let client = redis::Client::open(redis.url()).unwrap();
        let control = client.get_multiplexed_async_connection().await.unwrap();
        Monitor { lines, control }
    }

    /// The commands seen since the last call, by name, up to a marker this sends now.
    async fn commands(&mut self) -> BTreeMap<String, u64> {
        let marker = format!("marker-{}", rand::random::<u64>());
        redis::cmd("ECHO")
            .arg(&marker)
            .query_async::<String>(&mut self.control)
            .await
            .unwrap();
        let mut counted = BTreeMap::new();
        loop {
            let mut line = String::new();
            let read =
                tokio::time::timeout(Duration::from_secs(5), self.lines.read_line(&mut line));
            assert!(read.await.unwrap().unwrap() > 0, "MONITOR ended");
            if line.contains(&marker) {
                return counted;
            }
            // +<time> [<db> <client address or "lua">] "<command>" ...
            let Some((source, command)) = line.split_once("] \"") else {
                continue;
            };
            if source.ends_with(" lua") {
                continue;
            }
            let name = command.split('"').next().unwrap().to_lowercase();
            *counted.entry(name).or_insert(0) += 1;
        }
    }
}

/// `counted` less the reads a connection fills its cache with: the app's record is kept by
/// each connection (an access token too), and a connection without a copy reads it with
/// `CLIENT CACHING`, `PTTL` and the `HGET` itself, in one round trip. Whether a request finds
/// a copy depends on which connection it got, so the test counts what is left.
fn without_cache_fills(mut counted: BTreeMap<String, u64>) -> BTreeMap<String, u64> {
    let fills = take_cache_fills(&mut counted);
    let reads = counted.remove("hget").unwrap_or(0);
    assert!(
        reads <= fills,
        "the app read without its cache: {counted:?}"
    );
    counted
}

/// Takes the `CLIENT CACHING` and `PTTL` that go with each read filling a connection's copy
/// out of `counted`; answers how many fills there were (each also has its read).
fn take_cache_fills(counted: &mut BTreeMap<String, u64>) -> u64 {
    let fills = counted.remove("client").unwrap_or(0);
    assert_eq!(counted.remove("pttl").unwrap_or(0), fills, "{counted:?}");
    fills
}

/// An app on a Redis of its own.
async fn app_on_own_redis() -> (TestApp, RedisServer) {
    let redis = RedisServer::start();
    let url = redis.url();
    let app = spawn_app_configured(Backends::Real, |s| s.store.redis_url = url.into()).await;
    (app, redis)
}

/// A second node beside `app`: the same Redis and key prefix, its own connections and copies.
async fn second_node(app: &TestApp, redis: &RedisServer) -> TestApp {
    let (url, prefix) = (redis.url(), app.state.settings.store.key_prefix.clone());
    spawn_app_configured(Backends::Real, |s| {
        s.store.redis_url = url.into();
        s.store.key_prefix = prefix;
    })
    .await
}

#[tokio::test]
async fn userinfo_reads_a_token_once_per_connection_and_a_revocation_still_counts_at_once() {
    let (app, redis) = app_on_own_redis().await;
    let reg = app.register(CB, false).await;
    let tokens = app.tokens_for(&reg, "alan").await;
    let access = tokens["access_token"].as_str().unwrap();
    let mut monitor = Monitor::start(&redis).await;
    monitor.commands().await;

    for _ in 0..40 {
        assert_eq!(app.userinfo(access).await.status(), StatusCode::OK);
    }

    // Each shared connection reads the token once, asking Redis to tell it when the key
    // changes (CLIENT CACHING) and how long it lives (PTTL), then answers from its copy.
    let counted = monitor.commands().await;
    let reads = counted.get("get").copied().unwrap_or(0);
    assert!((1..=4).contains(&reads), "{counted:?}");
    let expected = BTreeMap::from([
        ("client".to_owned(), reads),
        ("get".to_owned(), reads),
        ("pttl".to_owned(), reads),
    ]);
    assert_eq!(counted, expected);

    // A copy lives a second at most, whatever Redis says.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(app.userinfo(access).await.status(), StatusCode::OK);
    assert_eq!(monitor.commands().await.get("get"), Some(&1));

    let revoked = app.revoke(&reg, access).await;
    assert_eq!(revoked.status(), StatusCode::OK);
    for _ in 0..8 {
        let refused = within_a_cached_copy(StatusCode::UNAUTHORIZED, || app.userinfo(access)).await;
        assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    }
}

#[tokio::test]
async fn a_code_exchange_and_a_refresh_each_take_two_round_trips() {
    let (app, redis) = app_on_own_redis().await;
    let reg = app.register(CB, false).await;
    // Once first: the scripts get loaded.
    let tokens = app.tokens_for(&reg, "alan").await;
    app.refresh(&reg, tokens["refresh_token"].as_str().unwrap())
        .await;
    let (code, verifier) = app.code_for(&reg, "alan").await;
    let mut monitor = Monitor::start(&redis).await;
    monitor.commands().await;

    let tokens = app.exchange(&reg, &code, &verifier).await;
    let exchange = without_cache_fills(monitor.commands().await);
    let r = app
        .refresh(&reg, tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let refresh = without_cache_fills(monitor.commands().await);

    // Client authentication reads the app (from the connection's copy, or filling it). A code
    // this node issued needs no read: its record was kept when it was issued, and one script
    // checks it unconsumed and the app still enabled as it writes the issuance; one more
    // appends the audit event. The last-used mark was written by the first exchange and is not
    // written again within the minute.
    let expected = BTreeMap::from([("evalsha".to_owned(), 2)]);
    assert_eq!(exchange, expected);
    // A refresh token this node issued needs no read: its record was kept when it was issued,
    // and the rotation script decides whether it is still live.
    let expected = BTreeMap::from([("evalsha".to_owned(), 2)]);
    assert_eq!(refresh, expected);
}

#[tokio::test]
async fn a_refresh_token_another_node_issued_is_read_once_then_rotated() {
    let (app, redis) = app_on_own_redis().await;
    let other = second_node(&app, &redis).await;
    let reg = app.register(CB, false).await;
    let tokens = app.tokens_for(&reg, "alan").await;
    other
        .refresh(&reg, tokens["refresh_token"].as_str().unwrap())
        .await;
    let tokens = app.tokens_for(&reg, "alan").await;
    let mut monitor = Monitor::start(&redis).await;
    monitor.commands().await;

    let r = other
        .refresh(&reg, tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    // The token's record is one read; any other is the app's, filling a connection's copy.
    let mut counted = monitor.commands().await;
    let fills = take_cache_fills(&mut counted);
    assert_eq!(counted.remove("hget"), Some(fills + 1), "{counted:?}");
    assert_eq!(counted, BTreeMap::from([("evalsha".to_owned(), 2)]));
}

#[tokio::test]
async fn a_code_another_node_issued_is_read_once_then_redeemed_and_a_replay_is_read_again() {
    let (app, redis) = app_on_own_redis().await;
    let other = second_node(&app, &redis).await;
    let reg = app.register(CB, false).await;
    app.tokens_for(&reg, "alan").await;
    other.tokens_for(&reg, "alan").await;
    let (code, verifier) = app.code_for(&reg, "alan").await;
    let mut monitor = Monitor::start(&redis).await;
    monitor.commands().await;

    let tokens = other.exchange(&reg, &code, &verifier).await;
    assert!(tokens["access_token"].is_string(), "{tokens}");
    let mut counted = monitor.commands().await;
    let fills = take_cache_fills(&mut counted);
    assert_eq!(counted.remove("hget").unwrap_or(0), fills, "{counted:?}");
    assert_eq!(counted.remove("hmget"), Some(1), "{counted:?}");
    assert_eq!(counted, BTreeMap::from([("evalsha".to_owned(), 2)]));

    // The node that issued the code still has its copy; the replay there is refused all the
    // same, and revokes what the first exchange issued.
    let form = [
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", reg.redirect_uri.as_str()),
        ("code_verifier", verifier.as_str()),
    ];
    let replay = app.token(&reg, &form).await;
    assert_eq!(replay.status(), StatusCode::BAD_REQUEST);
    let body: serde_json::Value = replay.json().await.unwrap();
    assert_eq!(body["error"], "invalid_grant", "{body}");
    let access = tokens["access_token"].as_str().unwrap();
    let refused = within_a_cached_copy(StatusCode::UNAUTHORIZED, || app.userinfo(access)).await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn single_sign_on_and_a_password_sign_in_take_a_known_number_of_round_trips() {
    let (app, redis) = app_on_own_redis().await;
    let reg = app.register(CB, false).await;
    let browser = app.browser();
    let pkce = Pkce::new();
    let params = [
        ("client_id", reg.client_id.as_str()),
        ("redirect_uri", reg.redirect_uri.as_str()),
        ("response_type", "code"),
        ("scope", "openid profile email role"),
        ("state", "xyz"),
        ("code_challenge", pkce.challenge.as_str()),
        ("code_challenge_method", "S256"),
    ];
    let first = app
        .sign_in_and_approve(&browser, &reg, "alan", &app.password("alan"), &params[5..])
        .await;
    assert!(first.starts_with(CB), "{first}");
    // One single sign-on first, so that every script the counted requests run is loaded.
    let sso = app.authorize(&browser, &params).await;
    assert_eq!(sso.status(), StatusCode::FOUND);
    let mut monitor = Monitor::start(&redis).await;
    monitor.commands().await;

    let sso = app.authorize(&browser, &params).await;
    assert_eq!(sso.status(), StatusCode::FOUND);
    let single_sign_on = without_cache_fills(monitor.commands().await);

    let page = app.authorize(&app.browser(), &params).await;
    assert_eq!(page.status(), StatusCode::OK);
    let shown = without_cache_fills(monitor.commands().await);
    let fresh = app.browser();
    let page = app.authorize(&fresh, &params).await.text().await.unwrap();
    monitor.commands().await;
    let signed_in = app
        .submit(
            &fresh,
            &page,
            &[("username", "alan"), ("password", &app.password("alan"))],
        )
        .await;
    assert_eq!(signed_in.status(), StatusCode::SEE_OTHER);
    let mut password = without_cache_fills(monitor.commands().await);
    // Failures that left their window, and attempts left in flight by a stopped node, are
    // dropped on one attempt in eight, from both windows.
    let pruned = password.remove("zremrangebyscore").unwrap_or(0);
    assert!(pruned == 0 || pruned == 4, "{password:?}");

    let counts = |pairs: &[(&str, u64)]| -> BTreeMap<String, u64> {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    };
    // (Each also reads the app, from the connection's copy or filling it.) The session, the
    // user's second-factor enrolment and the remembered consent; the script that stores the
    // code and indexes it under the app and the user.
    assert_eq!(single_sign_on, counts(&[("evalsha", 1), ("get", 3)]));
    // The script that stores the pending request within its browser's and address's bounds.
    assert_eq!(shown, counts(&[("evalsha", 1)]));
    // The attempt limits of the account and of the address, both in one transaction (each
    // counted by its failures and by its attempts in flight), then both cleared on success in
    // one pipeline; the pending request, the enrolment, the consent; scripts: the session is
    // stored and indexed, the sign-in is audited, and in one script the answered request
    // leaves its groups and its code (the consent is remembered) is stored and indexed.
    assert_eq!(
        password,
        counts(&[
            ("evalsha", 3),
            ("exec", 1),
            ("expire", 2),
            ("get", 3),
            ("multi", 1),
            ("zadd", 2),
            ("zcount", 4),
            ("zrem", 2),
        ])
    );
}
