//! Several directory servers in `directory.url`: sign-in goes through the first that connects,
//! and comes back to a server once it answers again.

use crate::helpers::*;
use crate::operations::outages::register_directly;
use crate::support::ports::Blackhole;
use crate::support::slapd::Slapd;
use reqwest::StatusCode;
use std::time::{Duration, Instant};

/// Signs `user` in and gets tokens: the whole flow works through the directory.
async fn signs_in(app: &TestApp, reg: &Registered, user: &str) {
    let tokens = app.tokens_for(reg, user).await;
    let access = tokens["access_token"].as_str().unwrap();
    let claims: serde_json::Value = app.userinfo(access).await.json().await.unwrap();
    assert_eq!(claims["sub"], user);
}

#[tokio::test]
async fn sign_in_goes_through_the_other_replica_while_one_is_stopped_and_comes_back() {
    // Arrange: two replicas with the same entries, listed in order.
    let (mut first, mut second) = (Slapd::start(), Slapd::start());
    let app = spawn_app_configured(Backends::Real, |s| {
        s.directory.url = vec![first.url().parse().unwrap(), second.url().parse().unwrap()];
    })
    .await;
    let reg = app
        .register("https://app.example.com/callback", false)
        .await;
    signs_in(&app, &reg, "alan").await;

    // The first is stopped: sign-in goes through the second.
    first.stop();
    signs_in(&app, &reg, "grace").await;

    // The first comes back and the second is stopped: sign-in goes through the first again.
    first.restart();
    second.stop();
    signs_in(&app, &reg, "linus").await;
    assert!(app.state.directory.lookup("hedy").await.unwrap().is_some());
}

#[tokio::test]
async fn a_server_that_never_answers_is_passed_over_within_the_connect_timeout() {
    // Arrange: the first server drops every connection attempt; the second is a real slapd.
    let silent = Blackhole::open();
    let connect_timeout = Duration::from_millis(500);
    let app = spawn_app_configured(Backends::Real, |s| {
        let silent = format!("ldap://127.0.0.1:{}", silent.port());
        s.directory.url = vec![
            silent.parse().unwrap(),
            Slapd::shared().url().parse().unwrap(),
        ];
        s.directory.connect_timeout = connect_timeout;
    })
    .await;
    let reg = register_directly(&app).await;

    // Act: the first sign-in waits for the silent server once, the next does not.
    let first = timed_password_step(&app, &reg, "alan").await;
    let next = timed_password_step(&app, &reg, "grace").await;

    // Assert
    assert!(first >= connect_timeout, "{first:?}");
    assert!(
        first < connect_timeout + Duration::from_secs(1),
        "{first:?}"
    );
    assert!(next < connect_timeout, "{next:?}");
}

/// Submits `user`'s password on a fresh sign-in page; asserts it is accepted and answers how
/// long the submission took.
async fn timed_password_step(app: &TestApp, reg: &Registered, user: &str) -> Duration {
    let browser = app.browser();
    let params = [
        ("client_id", reg.client_id.as_str()),
        ("redirect_uri", reg.redirect_uri.as_str()),
        ("response_type", "code"),
        ("scope", "openid"),
    ];
    let page = app.authorize(&browser, &params).await.text().await.unwrap();
    let password = app.password(user);
    let started = Instant::now();
    let answer = app
        .submit(
            &browser,
            &page,
            &[("username", user), ("password", &password)],
        )
        .await;
    let took = started.elapsed();
    assert_eq!(answer.status(), StatusCode::SEE_OTHER, "{user}");
    took
}
