//! The audit log and the app doctor, through the admin API; the CLI's lifecycle commands.

use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::Value;

async fn audit(app: &TestApp, backends: Backends, query: &str) -> Value {
    let (user, pw) = superadmin(backends);
    let token: Value = app.admin_token(user, pw).await.json().await.unwrap();
    let response = app
        .api
        .get(app.url(&format!("/admin/api/audit{query}")))
        .bearer_auth(token["token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

fn actions(log: &Value) -> Vec<String> {
    log["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap().to_owned())
        .collect()
}

async fn sign_ins_admin_actions_and_tokens_are_audited_without_any_secret(backends: Backends) {
    let app = spawn_app(backends).await;
    let registered = app.register("https://audit.example.com/cb", false).await;
    let (code, verifier) = app.code_for(&registered, "alan").await;
    let issued = app.exchange(&registered, &code, &verifier).await;
    let browser = app.browser();
    let page = app
        .authorize(
            &browser,
            &[
                ("client_id", registered.client_id.as_str()),
                ("redirect_uri", registered.redirect_uri.as_str()),
                ("response_type", "code"),
                ("scope", "openid"),
                ("code_challenge", &Pkce::new().challenge),
                ("code_challenge_method", "S256"),
            ],
        )
        .await
        .text()
        .await
        .unwrap();
    let refused = app
        .submit(
            &browser,
            &page,
            &[("username", "alan"), ("password", "wrong")],
        )
        .await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);

    let log = audit(&app, backends, "").await;

    let text = log.to_string();
    for secret in [
        registered.client_secret.as_deref().unwrap(),
        issued["access_token"].as_str().unwrap(),
        issued["refresh_token"].as_str().unwrap(),
        code.as_str(),
        &password(backends, "alan"),
    ] {
        assert!(
            !text.contains(secret),
            "a secret leaked into the audit log: {text}"
        );
    }
    let seen = actions(&log);
    for action in ["admin_sign_in", "app_created", "sign_in", "token_issued"] {
        assert!(
            seen.iter().any(|a| a == action),
            "{action} missing from {seen:?}"
        );
    }
    let failed = audit(&app, backends, "?action=sign_in&failures_only=true").await;
    let events = failed["events"].as_array().unwrap();
    assert_eq!(events.len(), 1, "{failed}");
    assert_eq!(events[0]["actor"], "alan");
    assert_eq!(events[0]["client_id"], registered.client_id.as_str());
    assert_eq!(events[0]["address"], "127.0.0.1");
    assert_eq!(events[0]["detail"], "wrong username or password");
}

#[tokio::test]
async fn sign_ins_admin_actions_and_tokens_are_audited_without_any_secret_in_memory() {
    sign_ins_admin_actions_and_tokens_are_audited_without_any_secret(Backends::Embedded).await;
}

#[tokio::test]
async fn sign_ins_admin_actions_and_tokens_are_audited_without_any_secret_on_redis_and_ldap() {
    sign_ins_admin_actions_and_tokens_are_audited_without_any_secret(Backends::Real).await;
}

#[tokio::test]
async fn an_unknown_audit_action_is_refused_with_the_known_ones() {
    let app = spawn_app(Backends::Embedded).await;
    let token: Value = app
        .admin_token("ada", "ada-demo")
        .await
        .json()
        .await
        .unwrap();
    let response = app
        .api
        .get(app.url("/admin/api/audit?action=coffee"))
        .bearer_auth(token["token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body: Value = response.json().await.unwrap();
    assert!(
        body["error_description"]
            .as_str()
            .unwrap()
            .contains("app_deleted"),
        "{body}"
    );
}

#[tokio::test]
async fn the_app_doctor_names_a_trailing_slash_a_wrong_secret_and_a_replayed_code() {
    let app = spawn_app(Backends::Embedded).await;
    let registered = app.register("https://doc.example.com/cb", false).await;
    let browser = app.browser();
    let page = app
        .authorize(
            &browser,
            &[
                ("client_id", registered.client_id.as_str()),
                ("redirect_uri", "https://doc.example.com/cb/"),
                ("response_type", "code"),
                ("scope", "openid"),
            ],
        )
        .await;
    assert_eq!(page.status(), StatusCode::BAD_REQUEST);
    let mut wrong = registered.clone();
    wrong.client_secret = Some("not-the-secret".into());
    let (code, verifier) = app.code_for(&registered, "alan").await;
    let exchange = [
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", registered.redirect_uri.as_str()),
        ("code_verifier", verifier.as_str()),
    ];
    assert_eq!(
        app.token(&wrong, &exchange).await.status(),
        StatusCode::UNAUTHORIZED
    );
    app.exchange(&registered, &code, &verifier).await;
    assert_eq!(
        app.token(&registered, &exchange).await.status(),
        StatusCode::BAD_REQUEST
    );

    let token: Value = app
        .admin_token("ada", "ada-demo")
        .await
        .json()
        .await
        .unwrap();
    let failures: Value = app
        .api
        .get(app.url(&format!(
            "/admin/api/apps/{}/failures",
            registered.client_id
        )))
        .bearer_auth(token["token"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let list = failures["failures"].as_array().unwrap();
    assert_eq!(list.len(), 3, "{failures}");
    assert!(
        list[0]["problem"]
            .as_str()
            .unwrap()
            .contains("already been used"),
        "{failures}"
    );
    assert_eq!(
        list[1]["problem"],
        "wrong client secret (sent as client_secret in the body)"
    );
    let problem = list[2]["problem"].as_str().unwrap();
    assert!(
        problem.contains("\"https://doc.example.com/cb/\""),
        "{problem}"
    );
    assert!(problem.contains("trailing slash"), "{failures}");
    assert!(!failures.to_string().contains(&code));
}

/// Runs the CLI as ada against `base`, with `--json`.
pub(crate) fn cli(base: &str, args: &[&str]) -> std::process::Output {
    let mut all = args.to_vec();
    all.extend(["--admin", "ada", "--server", base, "--json"]);
    std::process::Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
        .args(&all)
        .env("SSO_BRIDGE_ADMIN_PASSWORD", "ada-demo")
        .output()
        .unwrap()
}

/// The JSON a successful CLI run printed.
pub(crate) fn ok_json(out: &std::process::Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[tokio::test]
async fn the_cli_runs_the_whole_life_of_an_app() {
    let app = spawn_app(Backends::Embedded).await;
    let base = app.base.clone();
    let log = tokio::task::spawn_blocking(move || {
        let created = ok_json(&cli(
            &base,
            &[
                "apps",
                "create",
                "--name",
                "Life",
                "--redirect-uri",
                "https://cli.example.com/cb",
            ],
        ));
        let id = created["client_id"].as_str().unwrap().to_owned();
        let updated = ok_json(&cli(
            &base,
            &[
                "apps",
                "update",
                &id,
                "--name",
                "Life 2",
                "--require-pkce",
                "true",
            ],
        ));
        assert_eq!(
            (updated["name"].as_str(), updated["require_pkce"].as_bool()),
            (Some("Life 2"), Some(true))
        );
        let rotated = ok_json(&cli(&base, &["apps", "rotate-secret", &id]));
        assert_ne!(rotated["client_secret"], created["client_secret"]);
        assert_eq!(
            ok_json(&cli(&base, &["apps", "disable", &id]))["enabled"],
            false
        );
        assert_eq!(
            ok_json(&cli(&base, &["apps", "enable", &id]))["enabled"],
            true
        );
        let shown = ok_json(&cli(&base, &["apps", "show", &id]));
        assert!(shown["recent_failures"].as_array().unwrap().is_empty());
        let refused = cli(&base, &["apps", "delete", &id]);
        assert!(!refused.status.success());
        assert!(String::from_utf8_lossy(&refused.stderr).contains("--yes"));
        ok_json(&cli(&base, &["apps", "delete", &id, "--yes"]));
        let gone = cli(&base, &["apps", "show", &id]);
        assert!(String::from_utf8_lossy(&gone.stderr)
            .contains(&format!("no app with client_id `{id}`")));
        id
    })
    .await
    .unwrap();
    let events = audit(&app, Backends::Embedded, &format!("?client_id={log}")).await;
    assert_eq!(
        actions(&events),
        [
            "app_deleted",
            "app_enabled",
            "app_disabled",
            "secret_rotated",
            "app_updated",
            "app_created"
        ]
    );
}

/// Sends `user`'s wrong password to `endpoint`; answers the status code.
async fn wrong_password_at(app: &TestApp, endpoint: &str, user: &str) -> StatusCode {
    let wrong = "not-the-password";
    let credentials = serde_json::json!({"username": user, "password": wrong});
    let api = |path: &str, body: Value| app.api.post(app.url(path)).json(&body).send();
    let response = match endpoint {
        "app sign-in page" => {
            let registered = app.register("https://audit.example.com/cb", false).await;
            let browser = app.browser();
            let page = app
                .authorize(
                    &browser,
                    &[
                        ("client_id", registered.client_id.as_str()),
                        ("redirect_uri", registered.redirect_uri.as_str()),
                        ("response_type", "code"),
                        ("scope", "openid"),
                        ("code_challenge", &Pkce::new().challenge),
                        ("code_challenge_method", "S256"),
                    ],
                )
                .await;
            let page = page.text().await.unwrap();
            let fields = [("username", user), ("password", wrong)];
            app.submit(&browser, &page, &fields).await
        }
        "admin screen sign-in" => {
            let browser = app.browser();
            let page = browser.get(app.url("/admin/login")).send().await.unwrap();
            let form = Form::parse(&page.text().await.unwrap());
            let mut body = form.hidden;
            body.extend(
                [("username", user), ("password", wrong)].map(|(k, v)| (k.into(), v.into())),
            );
            let post = browser.post(app.url(&form.action)).form(&body);
            post.send().await.unwrap()
        }
        "admin API sign-in" => api("/admin/api/session", credentials).await.unwrap(),
        "second-factor set-up API" => api("/admin/api/second-factor/setup", credentials)
            .await
            .unwrap(),
        "second-factor confirmation API" => {
            let mut body = credentials;
            body["otp"] = "123456".into();
            body["setup_id"] = "any".into();
            api("/admin/api/second-factor/confirm", body).await.unwrap()
        }
        other => panic!("no endpoint {other}"),
    };
    response.status()
}

#[tokio::test]
async fn a_wrong_password_is_audited_exactly_once_at_every_endpoint_that_checks_one() {
    let app = spawn_app(Backends::Embedded).await;
    // One account per endpoint, so that each one's events stand apart.
    let endpoints = [
        ("app sign-in page", "alan", "sign_in", ""),
        ("admin screen sign-in", "grace", "admin_sign_in", ""),
        ("admin API sign-in", "hedy", "admin_sign_in", ""),
        (
            "second-factor set-up API",
            "ken",
            "sign_in",
            " (second-factor set-up)",
        ),
        (
            "second-factor confirmation API",
            "linus",
            "sign_in",
            " (second-factor set-up)",
        ),
    ];

    for (endpoint, user, _, _) in endpoints {
        let status = wrong_password_at(&app, endpoint, user).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{endpoint}");
    }

    let log = audit(&app, Backends::Embedded, "?failures_only=true&limit=1000").await;
    for (endpoint, user, action, place) in endpoints {
        let failed: Vec<&Value> = log["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["actor"] == user)
            .collect();
        assert_eq!(failed.len(), 1, "{endpoint}: {failed:?}");
        assert_eq!(failed[0]["action"], action, "{endpoint}");
        let detail = format!("wrong username or password{place}");
        assert_eq!(failed[0]["detail"], detail.as_str(), "{endpoint}");
        assert_eq!(failed[0]["address"], "127.0.0.1", "{endpoint}");
    }
}
