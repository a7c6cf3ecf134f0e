//! Refreshes that arrive at once, against real Redis and slapd: their directory lookups and
//! their rotations may go out together, and each answers as it would alone.

use crate::helpers::*;
use crate::support::slapd::Slapd;
use reqwest::StatusCode;
use serde_json::Value;

const CB: &str = "https://app.example.com/callback";
const KEN: &str = "uid=ken,ou=people,dc=example,dc=com";

/// Refreshes every token at once: each answer's status and body.
async fn refresh_all(app: &TestApp, reg: &Registered, tokens: &[&str]) -> Vec<(StatusCode, Value)> {
    futures::future::join_all(tokens.iter().map(|token| async move {
        let response = app.refresh(reg, token).await;
        (response.status(), response.json().await.unwrap())
    }))
    .await
}

fn field<'a>(answer: &'a (StatusCode, Value), name: &str) -> &'a str {
    answer.1[name].as_str().unwrap_or_default()
}

#[tokio::test]
async fn refreshes_sent_at_once_each_answer_as_they_would_alone() {
    let slapd = Slapd::start();
    let app = spawn_app_with(
        Backends::Real,
        &[("SSO_BRIDGE__DIRECTORY__URL", slapd.url())],
    )
    .await;
    let reg = app.register(CB, false).await;
    let mut tokens = Vec::new();
    for user in ["grace", "alan", "alan", "linus", "ken"] {
        let issued = app.tokens_for(&reg, user).await;
        tokens.push(issued["refresh_token"].as_str().unwrap().to_owned());
    }
    // Ken leaves; alan's second grant is revoked by its app.
    slapd.delete(KEN);
    assert_eq!(app.revoke(&reg, &tokens[2]).await.status(), StatusCode::OK);

    // Every token at once, and grace's twice: a client that retries a refresh.
    let mut sent: Vec<&str> = tokens.iter().map(String::as_str).collect();
    sent.push(&tokens[0]);
    let answers = refresh_all(&app, &reg, &sent).await;

    let statuses: Vec<StatusCode> = answers.iter().map(|a| a.0).collect();
    let (ok, refused) = (StatusCode::OK, StatusCode::BAD_REQUEST);
    assert_eq!(statuses, [ok, ok, refused, ok, refused, ok], "{answers:?}");
    assert_eq!(field(&answers[2], "error"), "invalid_grant");
    assert_eq!(field(&answers[4], "error"), "invalid_grant");
    // The retry got the successor its twin got; every other refresh a successor of its own.
    assert_eq!(
        field(&answers[5], "refresh_token"),
        field(&answers[0], "refresh_token")
    );
    let mut successors: Vec<&str> = [0, 1, 3]
        .iter()
        .map(|&i| field(&answers[i], "refresh_token"))
        .collect();
    successors.sort_unstable();
    successors.dedup();
    assert_eq!(successors.len(), 3);
    assert!(successors
        .iter()
        .all(|s| !s.is_empty() && !sent.contains(s)));

    // Past the grace window (10 s), grace's first token comes back beside alan's refresh:
    // the reuse is refused and revokes grace's grant, alan's refresh goes through.
    app.clock.advance(11);
    let later = refresh_all(
        &app,
        &reg,
        &[&tokens[0], field(&answers[1], "refresh_token")],
    )
    .await;
    assert_eq!((later[0].0, later[1].0), (refused, ok), "{later:?}");
    assert_eq!(field(&later[0], "error"), "invalid_grant");
    let successor = app.refresh(&reg, field(&answers[0], "refresh_token")).await;
    assert_eq!(successor.status(), refused);
}
