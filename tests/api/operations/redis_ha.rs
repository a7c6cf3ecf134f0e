//! Redis failures a deployment lives through: a Sentinel failover under traffic, and a restart
//! of a Redis that keeps an append-only file.

use crate::helpers::*;
use crate::support::redis::RedisServer;
use crate::support::sentinel::SentinelSetup;
use reqwest::StatusCode;
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const CB: &str = "https://app.example.com/callback";

/// `store.timeout_ms` of the test apps (see `settings_env`).
const STORE_TIMEOUT: Duration = Duration::from_millis(1000);

/// One answer the service gave while the master failed.
#[derive(Debug)]
struct Seen {
    what: &'static str,
    status: StatusCode,
    body: String,
    took: Duration,
}

/// Calls userinfo and refreshes, over and over, until `stop`: what apps keep doing while Redis
/// fails over. Follows the refresh chain as it rotates.
async fn traffic(app: &TestApp, reg: &Registered, tokens: &Value, stop: &AtomicBool) -> Vec<Seen> {
    let access = tokens["access_token"].as_str().unwrap();
    let mut refresh = tokens["refresh_token"].as_str().unwrap().to_owned();
    let mut seen = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let started = Instant::now();
        let answer = app.userinfo(access).await;
        seen.push(Seen {
            what: "userinfo",
            status: answer.status(),
            took: started.elapsed(),
            body: answer.text().await.unwrap_or_default(),
        });
        let started = Instant::now();
        let answer = app.refresh(reg, &refresh).await;
        let (status, took) = (answer.status(), started.elapsed());
        let body = answer.text().await.unwrap_or_default();
        if status == StatusCode::OK {
            let body: Value = serde_json::from_str(&body).unwrap();
            refresh = body["refresh_token"].as_str().unwrap().to_owned();
        }
        seen.push(Seen {
            what: "refresh",
            status,
            body,
            took,
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    seen
}

/// Polls userinfo with `access` until it answers 200; panics past `deadline`.
async fn until_the_store_answers(app: &TestApp, access: &str, deadline: Instant) {
    while app.userinfo(access).await.status() != StatusCode::OK {
        assert!(Instant::now() < deadline, "the store did not come back");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// How the master stops being the master.
#[derive(Debug, Clone, Copy)]
enum Switch {
    /// `kill -9`: the sentinels find it down and promote the replica.
    Killed,
    /// `SENTINEL FAILOVER`: the replica is promoted and the old master, still running, becomes
    /// its replica; connections to it stay open and would answer `READONLY` to writes.
    Demoted,
}

/// Switches the master as `how` says while apps keep calling; checks that every answer meanwhile
/// is 200 or a prompt 503 `temporarily_unavailable`, and that within 15 s of the promotion
/// tokens issued before still work and a new sign-in, code exchange and refresh succeed.
async fn fail_over_under_traffic(how: Switch) {
    // Arrange: an app on the sentinels, an app registered, tokens issued and replicated.
    let mut redis = SentinelSetup::start();
    let mut settings = redis.settings();
    // A refresh whose answer was lost in the switch is retried with the same token after it.
    settings.push(("SSO_BRIDGE__TOKENS__REFRESH_GRACE_SECS", "60".into()));
    let app = spawn_app_with(Backends::Real, &settings).await;
    let reg = app.register(CB, false).await;
    let busy = app.tokens_for(&reg, "alan").await;
    let kept = app.tokens_for(&reg, "grace").await;
    redis.wait_for_replication();

    // Act
    let stop = AtomicBool::new(false);
    let (seen, (promoted, recovered)) = tokio::join!(traffic(&app, &reg, &busy, &stop), async {
        match how {
            Switch::Killed => redis.master.stop(),
            Switch::Demoted => redis.fail_over(),
        }
        let promoted = redis.promotion(Duration::from_secs(20)).await;
        let access = kept["access_token"].as_str().unwrap();
        until_the_store_answers(&app, access, promoted + Duration::from_secs(15)).await;

        // Tokens issued before the switch still work: the replica had them.
        assert_eq!(app.userinfo(access).await.status(), StatusCode::OK);
        let refresh = kept["refresh_token"].as_str().unwrap();
        let refreshed = app.refresh(&reg, refresh).await;
        assert_eq!(refreshed.status(), StatusCode::OK);
        // A sign-in, a code exchange and a refresh on the new master.
        let fresh = app.tokens_for(&reg, "linus").await;
        let refreshed = app
            .refresh(&reg, fresh["refresh_token"].as_str().unwrap())
            .await;
        assert_eq!(refreshed.status(), StatusCode::OK);
        let recovered = Instant::now();
        // A little more traffic on the new master before it stops.
        tokio::time::sleep(Duration::from_millis(300)).await;
        stop.store(true, Ordering::Relaxed);
        (promoted, recovered)
    });

    // Assert
    assert!(
        recovered < promoted + Duration::from_secs(15),
        "{how:?}: everything worked again {:?} after the promotion",
        recovered - promoted
    );
    for answer in &seen {
        let unavailable = answer.status == StatusCode::SERVICE_UNAVAILABLE
            && answer.body.contains("\"temporarily_unavailable\"");
        assert!(
            answer.status == StatusCode::OK || unavailable,
            "{how:?}: {} answered {answer:?}",
            answer.what
        );
        assert!(
            answer.took < STORE_TIMEOUT + Duration::from_secs(1),
            "{how:?}: {answer:?}"
        );
    }
    if let Switch::Killed = how {
        let unavailable = seen.iter().filter(|a| a.status != StatusCode::OK).count();
        assert!(unavailable > 0, "no request met the switch: {seen:?}");
    }
    let last = seen.last().unwrap();
    assert_eq!(last.status, StatusCode::OK, "{how:?}: {last:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_master_killed_under_traffic_gives_prompt_503s_and_all_works_within_15_s_of_promotion() {
    fail_over_under_traffic(Switch::Killed).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_master_demoted_under_traffic_is_left_for_the_new_one_without_a_single_500() {
    fail_over_under_traffic(Switch::Demoted).await;
}

#[tokio::test]
async fn with_appendonly_a_redis_restart_loses_no_refresh_token_and_no_app() {
    // Arrange: a Redis that writes every change to its append-only file before answering.
    let mut redis = RedisServer::start_with(&["--appendonly", "yes", "--appendfsync", "always"]);
    let app =
        spawn_app_configured(Backends::Real, |s| s.store.redis_url = redis.url().into()).await;
    let reg = app.register(CB, false).await;
    let tokens = app.tokens_for(&reg, "alan").await;

    // Act: kill -9 and start again on the same port and directory.
    redis.restart();

    // Assert: the refresh token, the access token and the app registration are all there.
    let refreshed = app
        .refresh(&reg, tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(refreshed.status(), StatusCode::OK);
    let access = tokens["access_token"].as_str().unwrap();
    assert_eq!(app.userinfo(access).await.status(), StatusCode::OK);
    let again = app.tokens_for(&reg, "grace").await;
    let access = again["access_token"].as_str().unwrap();
    assert_eq!(app.userinfo(access).await.status(), StatusCode::OK);
}
