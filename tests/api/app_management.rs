//! The whole life of a connected app through the admin API and the CLI: edit, rotate, disable,
//! enable, delete with revocation; the audit log; the app doctor.

use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// An admin API session of the superadmin.
struct Admin<'a> {
    app: &'a TestApp,
    token: String,
}

impl<'a> Admin<'a> {
    async fn new(app: &'a TestApp, backends: Backends) -> Admin<'a> {
        let (user, pw) = superadmin(backends);
        let token: Value = app.admin_token(user, pw).await.json().await.unwrap();
        Admin {
            app,
            token: token["token"].as_str().unwrap().to_owned(),
        }
    }

    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut request = self
            .app
            .api
            .request(method, self.app.url(&format!("/admin/api{path}")))
            .bearer_auth(&self.token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.unwrap();
        let status = response.status();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn post(&self, path: &str) -> (StatusCode, Value) {
        self.call(reqwest::Method::POST, path, None).await
    }
}

async fn the_whole_life_of_an_app_takes_effect_at_once(backends: Backends) {
    let app = spawn_app(backends).await;
    let admin = Admin::new(&app, backends).await;
    let mut registered = app.register("https://life.example.com/cb", false).await;
    let id = registered.client_id.clone();
    let issued = app.tokens_for(&registered, "alan").await;

    // Edit: a new name and a second redirect URI.
    let (status, edited) = admin
        .call(
            reqwest::Method::PATCH,
            &format!("/apps/{id}"),
            Some(json!({"name": "Life", "redirect_uris": ["https://life.example.com/cb", "https://life.example.com/cb2"]})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{edited}");
    assert_eq!(edited["name"], "Life");
    assert_eq!(edited["redirect_uris"].as_array().unwrap().len(), 2);

    // Rotate: the old secret stops working, the new one works.
    let (status, rotated) = admin.post(&format!("/apps/{id}/secret")).await;
    assert_eq!(status, StatusCode::OK);
    let old = registered.clone();
    registered.client_secret = rotated["client_secret"].as_str().map(str::to_owned);
    assert_ne!(registered.client_secret, old.client_secret);
    let refresh = [
        ("grant_type", "refresh_token"),
        ("refresh_token", issued["refresh_token"].as_str().unwrap()),
    ];
    assert_eq!(
        app.token(&old, &refresh).await.status(),
        StatusCode::UNAUTHORIZED
    );
    let refreshed: Value = app.token(&registered, &refresh).await.json().await.unwrap();
    let access = refreshed["access_token"].as_str().unwrap().to_owned();
    assert_eq!(app.userinfo(&access).await.status(), StatusCode::OK);

    // Disable: live tokens stop working, token requests get invalid_client.
    let (status, disabled) = admin.post(&format!("/apps/{id}/disable")).await;
    assert_eq!(
        (status, disabled["enabled"].clone()),
        (StatusCode::OK, json!(false))
    );
    assert_eq!(
        app.userinfo(&access).await.status(),
        StatusCode::UNAUTHORIZED
    );
    let refresh = [
        ("grant_type", "refresh_token"),
        (
            "refresh_token",
            refreshed["refresh_token"].as_str().unwrap(),
        ),
    ];
    let refused = app.token(&registered, &refresh).await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"], "invalid_client");

    // Enable: a new sign-in works again.
    let (status, _) = admin.post(&format!("/apps/{id}/enable")).await;
    assert_eq!(status, StatusCode::OK);
    let again = app.tokens_for(&registered, "alan").await;
    let access = again["access_token"].as_str().unwrap();
    assert_eq!(app.userinfo(access).await.status(), StatusCode::OK);

    // Delete: its tokens are revoked and it is gone.
    let (status, _) = admin
        .call(reqwest::Method::DELETE, &format!("/apps/{id}"), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(
        app.userinfo(access).await.status(),
        StatusCode::UNAUTHORIZED
    );
    let (status, body) = admin
        .call(reqwest::Method::GET, &format!("/apps/{id}"), None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error_description"].as_str().unwrap().contains(&id));
}

#[tokio::test]
async fn the_whole_life_of_an_app_takes_effect_at_once_in_memory() {
    the_whole_life_of_an_app_takes_effect_at_once(Backends::Embedded).await;
}

#[tokio::test]
async fn the_whole_life_of_an_app_takes_effect_at_once_on_redis_and_ldap() {
    the_whole_life_of_an_app_takes_effect_at_once(Backends::Real).await;
}

#[tokio::test]
async fn deleting_an_app_revokes_a_code_not_yet_exchanged() {
    let app = spawn_app(Backends::Real).await;
    let admin = Admin::new(&app, Backends::Real).await;
    let registered = app.register("https://code.example.com/cb", false).await;
    let (code, verifier) = app.code_for(&registered, "alan").await;

    let path = format!("/apps/{}", registered.client_id);
    admin.call(reqwest::Method::DELETE, &path, None).await;
    // Registering it again under the same id is impossible, so look in the store directly.
    let digest = sso_bridge::domain::Digest::of(&code);
    assert_eq!(app.state.store.code(&digest).await.unwrap(), None);
    let response = app
        .token(
            &registered,
            &[
                ("grant_type", "authorization_code"),
                ("code", &code),
                ("redirect_uri", &registered.redirect_uri),
                ("code_verifier", &verifier),
            ],
        )
        .await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn bad_edits_are_refused_with_a_message_per_uri_and_unknown_apps_are_not_found() {
    let app = spawn_app(Backends::Embedded).await;
    let admin = Admin::new(&app, Backends::Embedded).await;
    let registered = app.register("https://e.example.com/cb", true).await;
    let path = format!("/apps/{}", registered.client_id);
    let body = json!({"redirect_uris": ["http://e.example.com/cb", "https://e.example.com/x#y"]});
    let (status, error) = admin.call(reqwest::Method::PATCH, &path, Some(body)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let text = error["error_description"].as_str().unwrap();
    assert!(
        text.contains("http://e.example.com/cb") && text.contains("#y"),
        "{text}"
    );

    let (status, error) = admin.post(&format!("{path}/secret")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error["error_description"]
        .as_str()
        .unwrap()
        .contains("public"));
    let (status, _) = admin.post("/apps/nope/disable").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
