//! `/metrics`: what a Prometheus scrape sees after real traffic, read with a Prometheus
//! text-format parser, and nothing in it that names a person or holds a secret.

use crate::helpers::*;
use crate::signin::mfa_admin::enrol_by_api;
use crate::signin::mfa_helpers::policy;
use crate::support::metrics::{count, scrape, value};
use reqwest::StatusCode;

const CB: &str = "https://app.example.com/callback";

#[tokio::test]
async fn a_scrape_counts_sign_ins_tokens_refreshes_revocations_and_replays_without_naming_anyone() {
    let app = spawn_app(Backends::Real).await;
    let reg = app.register(CB, false).await;
    let tokens = app.tokens_for(&reg, "alan").await;
    let refresh = tokens["refresh_token"].as_str().unwrap();
    let refreshed: serde_json::Value = app.refresh(&reg, refresh).await.json().await.unwrap();
    let revoked = app
        .revoke(&reg, refreshed["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(revoked.status(), StatusCode::OK);
    let (code, verifier) = app.code_for(&reg, "alan").await;
    let replayed = app.exchange(&reg, &code, &verifier).await;
    let form = [
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", CB),
        ("code_verifier", verifier.as_str()),
    ];
    assert_eq!(
        app.token(&reg, &form).await.status(),
        StatusCode::BAD_REQUEST
    );
    app.api
        .get(app.url("/no-such-page/alan?code=SECRET-in-a-path"))
        .send()
        .await
        .unwrap();

    let (m, text) = scrape(&app.api, &app.url("/metrics")).await;

    let app_sign_ins = [("place", "app"), ("outcome", "succeeded")];
    assert_eq!(count(&m, "sso_bridge_sign_ins_total", &app_sign_ins), 2.0);
    let admin_sign_ins = [("place", "admin"), ("outcome", "succeeded")];
    assert_eq!(count(&m, "sso_bridge_sign_ins_total", &admin_sign_ins), 1.0);
    let issued = "sso_bridge_tokens_issued_total";
    assert_eq!(count(&m, issued, &[("grant", "authorization_code")]), 2.0);
    assert_eq!(count(&m, issued, &[("grant", "refresh_token")]), 1.0);
    let revocations = "sso_bridge_grants_revoked_total";
    assert_eq!(count(&m, revocations, &[("reason", "by_app")]), 1.0);
    assert_eq!(count(&m, revocations, &[("reason", "code_replayed")]), 1.0);
    let replays = "sso_bridge_replays_detected_total";
    assert_eq!(count(&m, replays, &[("kind", "authorization_code")]), 1.0);
    assert_eq!(count(&m, replays, &[("kind", "refresh_token")]), 0.0);
    let refusals = "sso_bridge_token_refusals_total";
    assert_eq!(count(&m, refusals, &[("error", "invalid_grant")]), 1.0);

    // Requests by route pattern: four token requests answered 200, one 400.
    let token_ok = [
        ("route", "/oauth/token"),
        ("method", "POST"),
        ("status", "200"),
    ];
    assert_eq!(count(&m, "sso_bridge_http_requests_total", &token_ok), 3.0);
    let token_refused = [("route", "/oauth/token"), ("status", "400")];
    assert_eq!(
        count(&m, "sso_bridge_http_requests_total", &token_refused),
        1.0
    );
    let token_route = [("route", "/oauth/token"), ("method", "POST")];
    let latency = "sso_bridge_http_request_duration_seconds_count";
    assert_eq!(count(&m, latency, &token_route), 4.0);
    let unmatched = [("route", "unmatched"), ("status", "404")];
    assert_eq!(count(&m, "sso_bridge_http_requests_total", &unmatched), 1.0);

    // The backends, timed by operation, and their pools.
    let store_ops = "sso_bridge_store_operation_duration_seconds_count";
    assert_eq!(count(&m, store_ops, &[("operation", "redeem_code")]), 2.0);
    assert!(count(&m, store_ops, &[("operation", "rotate_refresh")]) >= 1.0);
    let directory_ops = "sso_bridge_directory_operation_duration_seconds_count";
    assert_eq!(
        count(&m, directory_ops, &[("operation", "authenticate")]),
        3.0
    );
    assert_eq!(count(&m, "sso_bridge_store_errors_total", &[]), 0.0);
    let pool = "sso_bridge_pool_connections";
    let store_max = value(&m, pool, &[("pool", "store"), ("state", "max")]);
    assert_eq!(store_max, Some(app.state.settings.store.pool_size as f64));
    let directory_max = value(&m, pool, &[("pool", "directory"), ("state", "max")]);
    let directory_pool = app.state.settings.directory.pool_size as f64;
    assert_eq!(directory_max, Some(directory_pool));
    assert!(value(&m, pool, &[("pool", "store"), ("state", "in_use")]).is_some());

    // Nobody's name, no app's identity, no token, code or secret.
    let secrets = [
        "alan",
        "ada",
        reg.client_id.as_str(),
        reg.client_secret.as_deref().unwrap(),
        tokens["access_token"].as_str().unwrap(),
        refresh,
        refreshed["refresh_token"].as_str().unwrap(),
        replayed["access_token"].as_str().unwrap(),
        code.as_str(),
        verifier.as_str(),
        "SECRET",
        "no-such-page",
    ];
    for secret in secrets {
        assert!(!text.contains(secret), "{secret} in the scrape:\n{text}");
    }
}

#[tokio::test]
async fn second_factor_checks_are_counted_by_outcome() {
    let app = spawn_app_with(Backends::Embedded, &policy("superadmin")).await;
    let (user, password) = app.superadmin();
    let (_, recovery) = enrol_by_api(&app, user, password).await;
    let sign_in = |otp: &str| {
        let body = serde_json::json!({"username": user, "password": password, "otp": otp});
        app.api
            .post(app.url("/admin/api/session"))
            .json(&body)
            .send()
    };
    assert_eq!(
        sign_in("000000").await.unwrap().status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        sign_in(&recovery[0]).await.unwrap().status(),
        StatusCode::OK
    );

    let (m, _) = scrape(&app.api, &app.url("/metrics")).await;
    let checks = "sso_bridge_second_factor_checks_total";
    assert_eq!(count(&m, checks, &[("outcome", "wrong")]), 1.0);
    assert_eq!(count(&m, checks, &[("outcome", "recovery_code")]), 1.0);
    assert_eq!(count(&m, checks, &[("outcome", "replayed")]), 0.0);
}

#[tokio::test]
async fn with_an_address_of_their_own_the_metrics_are_only_there() {
    let app = spawn_app_configured(Backends::Embedded, |s| {
        s.server.metrics_listen = Some("127.0.0.1:0".parse().unwrap());
    })
    .await;
    let public = app.api.get(app.url("/metrics")).send().await.unwrap();
    assert_eq!(public.status(), StatusCode::NOT_FOUND);
    assert_eq!(
        app.api
            .get(app.url("/healthz"))
            .send()
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );

    let own = format!("http://127.0.0.1:{}", app.metrics_port.unwrap());
    let (m, _) = scrape(&app.api, &format!("{own}/metrics")).await;
    let public_scrape = [("route", "unmatched"), ("status", "404")];
    assert_eq!(
        count(&m, "sso_bridge_http_requests_total", &public_scrape),
        1.0
    );
    let elsewhere = app.api.get(format!("{own}/healthz")).send().await.unwrap();
    assert_eq!(elsewhere.status(), StatusCode::NOT_FOUND);
}
