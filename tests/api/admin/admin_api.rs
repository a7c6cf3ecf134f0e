//! The admin API and the `sso-bridge apps` CLI.

use crate::helpers::*;
use reqwest::StatusCode;
use sso_bridge::domain::ClientId;

#[tokio::test]
async fn only_a_superadmin_gets_an_admin_token() {
    let app = spawn_app(Backends::Embedded).await;
    assert_eq!(
        app.admin_token("ada", "ada-demo").await.status(),
        StatusCode::OK
    );
    assert_eq!(
        app.admin_token("grace", "grace-demo").await.status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.admin_token("ada", "wrong").await.status(),
        StatusCode::UNAUTHORIZED
    );
    let r = app
        .api
        .get(app.url("/admin/api/apps"))
        .bearer_auth("forged")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn only_a_superadmin_gets_an_admin_token_on_ldap() {
    let app = spawn_app(Backends::Real).await;
    assert_eq!(
        app.admin_token("ada", "ada-pw").await.status(),
        StatusCode::OK
    );
    assert_eq!(
        app.admin_token("grace", "grace-pw").await.status(),
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn secrets_are_long_random_shown_once_and_stored_as_digests() {
    let app = spawn_app(Backends::Embedded).await;
    let a = app.register("https://a.example.com/cb", false).await;
    let b = app.register("https://a.example.com/cb", false).await;
    assert_ne!(a.client_id, b.client_id);
    let secret = a.client_secret.unwrap();
    assert!(secret.len() >= 43);
    let stored = app
        .state
        .store
        .client(&ClientId::parse(&a.client_id).unwrap())
        .await
        .unwrap()
        .unwrap();
    let json = serde_json::to_string(&stored).unwrap();
    assert!(!json.contains(&secret));

    let (user, pw) = superadmin(Backends::Embedded);
    let token: serde_json::Value = app.admin_token(user, pw).await.json().await.unwrap();
    let list: serde_json::Value = app
        .api
        .get(app.url("/admin/api/apps"))
        .bearer_auth(token["token"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list["apps"].as_array().unwrap().len(), 2);
    assert!(!list.to_string().contains(&secret));
}

#[tokio::test]
async fn bad_redirect_uris_are_refused_with_a_message_naming_them() {
    let app = spawn_app(Backends::Embedded).await;
    let token: serde_json::Value = app
        .admin_token("ada", "ada-demo")
        .await
        .json()
        .await
        .unwrap();
    for bad in [
        "http://app.example.com/cb",
        "https://app.example.com/cb#frag",
        "javascript:alert(1)",
        "/relative",
    ] {
        let r = app
            .api
            .post(app.url("/admin/api/apps"))
            .bearer_auth(token["token"].as_str().unwrap())
            .json(&serde_json::json!({"name": "x", "redirect_uris": [bad]}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{bad}");
        let body: serde_json::Value = r.json().await.unwrap();
        assert!(
            body["error_description"].as_str().unwrap().contains(bad),
            "{body}"
        );
    }
}

#[tokio::test]
async fn the_cli_registers_an_app_and_prints_json() {
    let app = spawn_app(Backends::Embedded).await;
    let base = app.base.clone();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
            .args([
                "apps",
                "create",
                "--name",
                "CLI App",
                "--redirect-uri",
                "https://cli.example.com/cb",
                "--redirect-uri",
                "http://127.0.0.1:3000/cb",
                "--admin",
                "ada",
                "--server",
                &base,
                "--json",
            ])
            .env("SSO_BRIDGE_ADMIN_PASSWORD", "ada-demo")
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let created: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(created["client_id"].is_string());
    assert!(created["client_secret"].as_str().unwrap().len() >= 43);
    assert_eq!(created["redirect_uris"].as_array().unwrap().len(), 2);

    let base = app.base.clone();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
            .args(["apps", "list", "--admin", "ada", "--server", &base])
            .env("SSO_BRIDGE_ADMIN_PASSWORD", "ada-demo")
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("CLI App") && table.contains(created["client_id"].as_str().unwrap()),
        "{table}"
    );
}

#[tokio::test]
async fn the_cli_names_what_was_wrong() {
    let app = spawn_app(Backends::Embedded).await;
    let base = app.base.clone();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
            .args([
                "apps",
                "create",
                "--name",
                "X",
                "--redirect-uri",
                "http://x.example.com/cb",
                "--admin",
                "grace",
                "--server",
                &base,
                "--json",
            ])
            .env("SSO_BRIDGE_ADMIN_PASSWORD", "grace-demo")
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("superadmin"), "{err}");
}

/// Runs the CLI's `apps list` as ada against `server`; answers its output.
async fn list_apps_at(server: String) -> std::process::Output {
    tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
            .args(["apps", "list", "--admin", "ada", "--server", &server])
            .env("SSO_BRIDGE_ADMIN_PASSWORD", "ada-demo")
            .output()
            .unwrap()
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn the_cli_sends_no_password_in_clear_text_over_the_network() {
    let out = list_apps_at("http://192.0.2.10:8080".into()).await;

    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("clear text") && err.contains("https://"),
        "{err}"
    );
}

#[tokio::test]
async fn the_cli_follows_no_redirect_with_a_password() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    // Where a redirect would take the password: anyone connecting is noted.
    let catcher = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let caught = format!("http://{}/admin/api/session", catcher.local_addr().unwrap());
    let redirector = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = format!("http://{}", redirector.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = redirector.accept().await {
            let mut request = [0u8; 4096];
            let _ = socket.read(&mut request).await;
            let answer = format!(
                "HTTP/1.1 307 Temporary Redirect\r\nLocation: {caught}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
            let _ = socket.write_all(answer.as_bytes()).await;
        }
    });

    let out = list_apps_at(server).await;

    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("redirect") && err.contains("not followed"),
        "{err}"
    );
    let reached =
        tokio::time::timeout(std::time::Duration::from_millis(200), catcher.accept()).await;
    assert!(reached.is_err(), "the password was sent on to the redirect");
}
