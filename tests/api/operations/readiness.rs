//! Liveness and readiness: `/healthz` never looks past the process, `/readyz` answers 200 only
//! while the store and the directory both answer, and names the one that does not.

use crate::helpers::*;
use crate::support::redis::RedisServer;
use crate::support::slapd::Slapd;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

async fn get(app: &TestApp, path: &str) -> (StatusCode, String) {
    let r = app.api.get(app.url(path)).send().await.unwrap();
    (r.status(), r.text().await.unwrap())
}

async fn readiness(app: &TestApp) -> (StatusCode, Value) {
    let (status, body) = get(app, "/readyz").await;
    (status, serde_json::from_str(&body).unwrap())
}

#[tokio::test]
async fn the_embedded_setup_is_ready_at_once() {
    let app = spawn_app(Backends::Embedded).await;
    let (status, body) = readiness(&app).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body,
        json!({"status": "ok", "store": "ok", "directory": "ok"})
    );
}

#[tokio::test]
async fn redis_and_ldap_that_answer_make_the_node_ready() {
    let app = spawn_app(Backends::Real).await;
    let (status, body) = readiness(&app).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body,
        json!({"status": "ok", "store": "ok", "directory": "ok"})
    );
}

#[tokio::test]
async fn a_stopped_redis_makes_the_node_unready_naming_the_store_while_it_stays_alive() {
    let mut redis = RedisServer::start();
    let app =
        spawn_app_configured(Backends::Real, |s| s.store.redis_url = redis.url().into()).await;
    assert_eq!(readiness(&app).await.0, StatusCode::OK);

    redis.stop();
    let started = Instant::now();
    let (status, body) = readiness(&app).await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        body,
        json!({"status": "unavailable", "store": "unavailable", "directory": "ok"})
    );
    assert!(!body.to_string().contains(&redis.port().to_string()));
    assert_eq!(get(&app, "/healthz").await, (StatusCode::OK, "ok".into()));

    redis.restart();
    assert_eq!(readiness(&app).await.0, StatusCode::OK);
}

#[tokio::test]
async fn a_stopped_directory_makes_the_node_unready_naming_the_directory() {
    let mut slapd = Slapd::start();
    let app = spawn_app_configured(Backends::Real, |s| {
        s.directory.url = vec![slapd.url().parse().unwrap()];
    })
    .await;
    assert_eq!(readiness(&app).await.0, StatusCode::OK);

    slapd.stop();
    let (status, body) = readiness(&app).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        body,
        json!({"status": "unavailable", "store": "ok", "directory": "unavailable"})
    );
    assert_eq!(get(&app, "/healthz").await, (StatusCode::OK, "ok".into()));

    slapd.restart();
    assert_eq!(readiness(&app).await.0, StatusCode::OK);
}

#[tokio::test]
async fn a_directory_that_hangs_makes_the_node_unready_within_its_timeouts() {
    let slapd = Slapd::start();
    let app = spawn_app_configured(Backends::Real, |s| {
        s.directory.url = vec![slapd.url().parse().unwrap()];
    })
    .await;
    assert_eq!(readiness(&app).await.0, StatusCode::OK);

    slapd.suspend();
    let started = Instant::now();
    let (status, body) = readiness(&app).await;
    let took = started.elapsed();
    slapd.resume();
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(body["directory"], "unavailable");
    // connect 1 s + 2 × operation 1.5 s at most.
    assert!(took < Duration::from_secs(5), "{took:?}");
}
