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

#[tokio::test]
async fn an_app_registered_without_saying_requires_pkce_from_the_api_and_the_cli() {
    let app = spawn_app(Backends::Embedded).await;
    let admin = Admin::new(&app, Backends::Embedded).await;
    let (status, created) = admin
        .call(
            reqwest::Method::POST,
            "/apps",
            Some(json!({"name": "Wiki", "redirect_uris": ["https://wiki.example.com/cb"]})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["require_pkce"], true);
    // Without a code challenge the app's flow is refused.
    let r = app
        .authorize(
            &app.browser(),
            &[
                ("client_id", created["client_id"].as_str().unwrap()),
                ("redirect_uri", "https://wiki.example.com/cb"),
                ("response_type", "code"),
                ("scope", "openid"),
                ("state", "s"),
            ],
        )
        .await;
    let q = query(&location(&r));
    assert_eq!(q["error"], "invalid_request", "{q:?}");
    assert!(q["error_description"].contains("code_challenge"), "{q:?}");

    let base = app.base.clone();
    let made = tokio::task::spawn_blocking(move || {
        let args = ["apps", "create", "--name", "Dash", "--redirect-uri"];
        let on = crate::admin::audit::cli(
            &base,
            &[&args[..], &["https://dash.example.com/cb"]].concat(),
        );
        let off = crate::admin::audit::cli(
            &base,
            &[
                &args[..],
                &["https://old.example.com/cb", "--require-pkce", "false"],
            ]
            .concat(),
        );
        (on, off)
    })
    .await
    .unwrap();
    assert_eq!(crate::admin::audit::ok_json(&made.0)["require_pkce"], true);
    assert_eq!(crate::admin::audit::ok_json(&made.1)["require_pkce"], false);
}

#[tokio::test]
async fn changes_to_one_app_made_at_the_same_moment_on_two_nodes_all_stay() {
    use sso_bridge::apps::{self, Actor, Changes};
    let a = spawn_app(Backends::Real).await;
    let b = {
        let (url, prefix) = (
            secrecy::ExposeSecret::expose_secret(&a.state.settings.store.redis_url).to_owned(),
            a.state.settings.store.key_prefix.clone(),
        );
        spawn_app_configured(Backends::Real, |s| {
            s.store.redis_url = url.into();
            s.store.key_prefix = prefix;
        })
        .await
    };
    let by = Actor {
        sub: "ada",
        address: None,
    };
    for round in 0..10 {
        let reg = a
            .register(&format!("https://app{round}.example.com/cb"), false)
            .await;
        let id = reg.client_id.as_str();
        // Each node has the app in its copies, as after any request.
        for node in [&a, &b] {
            apps::manage::find(&node.state, id).await.unwrap();
        }
        let name = Changes {
            name: Some(format!("Renamed {round}")),
            ..Changes::default()
        };
        let introspect = Changes {
            may_introspect: Some(true),
            ..Changes::default()
        };
        let logout = Changes {
            post_logout_redirect_uris: Some(vec![format!("https://app{round}.example.com/bye")]),
            ..Changes::default()
        };
        let pkce = Changes {
            require_pkce: Some(true),
            ..Changes::default()
        };
        let (r1, r2, r3, r4) = tokio::join!(
            apps::manage::update(&a.state, by, id, name),
            apps::manage::update(&b.state, by, id, introspect),
            apps::manage::update(&a.state, by, id, logout),
            apps::manage::update(&b.state, by, id, pkce),
        );
        for result in [r1, r2, r3, r4] {
            result.unwrap();
        }

        let stored = a
            .state
            .store
            .clients()
            .await
            .unwrap()
            .into_iter()
            .find(|c| c.client_id.as_str() == id)
            .unwrap();
        assert_eq!(stored.name, format!("Renamed {round}"));
        assert!(stored.may_introspect, "round {round}");
        assert_eq!(stored.post_logout_redirect_uris.len(), 1, "round {round}");
        assert!(stored.require_pkce, "round {round}");
        assert_eq!(stored.revision, 4, "round {round}");
    }
}
