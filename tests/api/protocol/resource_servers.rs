//! Introspection answers an app about its own tokens only, unless the app is registered as a
//! resource server (`may_introspect`); the switch through the admin API, the CLI and the screen.

use crate::admin::screen;
use crate::helpers::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

const CB: &str = "https://rs.example.com/cb";

/// Calls the admin API as the superadmin of `backends`.
async fn admin(
    app: &TestApp,
    backends: Backends,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let (user, pw) = superadmin(backends);
    let token: Value = app.admin_token(user, pw).await.json().await.unwrap();
    let mut request = app
        .api
        .request(method, app.url(&format!("/admin/api{path}")))
        .bearer_auth(token["token"].as_str().unwrap());
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    (
        response.status(),
        response.json().await.unwrap_or(Value::Null),
    )
}

/// Registers a confidential app with `extra` fields through the admin API.
async fn register(app: &TestApp, backends: Backends, name: &str, extra: Value) -> Registered {
    let mut body = json!({"name": name, "redirect_uris": [CB]});
    body.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    let (status, created) = admin(app, backends, Method::POST, "/apps", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    Registered {
        client_id: created["client_id"].as_str().unwrap().to_owned(),
        client_secret: created["client_secret"].as_str().map(str::to_owned),
        redirect_uri: CB.to_owned(),
    }
}

/// Makes a registered app a resource server through the admin API.
pub async fn make_resource_server(app: &TestApp, backends: Backends, registered: &Registered) {
    let path = format!("/apps/{}", registered.client_id);
    let body = json!({"may_introspect": true});
    let (status, shown) = admin(app, backends, Method::PATCH, &path, Some(body)).await;
    assert_eq!(
        (status, &shown["may_introspect"]),
        (StatusCode::OK, &Value::Bool(true)),
        "{shown}"
    );
}

/// Introspects `token` as `caller` (client_secret_post).
async fn introspect(app: &TestApp, caller: &Registered, token: &str) -> Value {
    let secret = caller.client_secret.as_deref().unwrap();
    let r = app
        .api
        .post(app.url("/oauth/introspect"))
        .form(&[
            ("token", token),
            ("client_id", &caller.client_id),
            ("client_secret", secret),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    r.json().await.unwrap()
}

async fn only_resource_servers_learn_of_other_apps_tokens(backends: Backends) {
    let app = spawn_app(backends).await;
    let owner = register(&app, backends, "Owner", json!({})).await;
    let other = register(&app, backends, "Other", json!({})).await;
    let api = register(&app, backends, "API", json!({"may_introspect": true})).await;
    let (code, verifier) = app.code_for(&owner, "alan").await;
    let tokens = app.exchange(&owner, &code, &verifier).await;
    let (access, refresh) = (
        tokens["access_token"].as_str().unwrap(),
        tokens["refresh_token"].as_str().unwrap(),
    );

    let own = introspect(&app, &owner, access).await;
    assert_eq!(
        (&own["active"], &own["sub"]),
        (&json!(true), &json!("alan"))
    );
    assert_eq!(introspect(&app, &owner, refresh).await["active"], true);

    for token in [access, refresh] {
        assert_eq!(
            introspect(&app, &other, token).await,
            json!({"active": false})
        );
    }

    let seen = introspect(&app, &api, access).await;
    assert_eq!(seen["active"], true, "{seen}");
    assert_eq!(seen["client_id"], owner.client_id);
    assert_eq!(introspect(&app, &api, refresh).await["active"], true);
}

#[tokio::test]
async fn only_a_resource_server_learns_of_another_apps_tokens_in_memory() {
    only_resource_servers_learn_of_other_apps_tokens(Backends::Embedded).await;
}

#[tokio::test]
async fn only_a_resource_server_learns_of_another_apps_tokens_on_redis_and_ldap() {
    only_resource_servers_learn_of_other_apps_tokens(Backends::Real).await;
}

#[tokio::test]
async fn the_admin_api_sets_shows_and_audits_the_resource_server_switch() {
    let (app, b) = (spawn_app(Backends::Embedded).await, Backends::Embedded);
    let body = json!({"name": "API", "redirect_uris": [CB], "may_introspect": true});
    let (status, created) = admin(&app, b, Method::POST, "/apps", Some(body)).await;
    assert_eq!(
        (status, &created["may_introspect"]),
        (StatusCode::CREATED, &json!(true))
    );
    let path = format!("/apps/{}", created["client_id"].as_str().unwrap());
    let (_, shown) = admin(&app, b, Method::GET, &path, None).await;
    assert_eq!(shown["may_introspect"], true);
    let off = Some(json!({"may_introspect": false}));
    let (_, updated) = admin(&app, b, Method::PATCH, &path, off).await;
    assert_eq!(updated["may_introspect"], false);
    let (_, listed) = admin(&app, b, Method::GET, "/apps", None).await;
    assert_eq!(listed["apps"][0]["may_introspect"], false);

    // A public app has no secret to introspect with.
    let public =
        json!({"name": "N", "redirect_uris": [CB], "public": true, "may_introspect": true});
    let (status, refused) = admin(&app, b, Method::POST, "/apps", Some(public)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        refused["error_description"]
            .as_str()
            .unwrap()
            .contains("public app cannot introspect"),
        "{refused}"
    );

    let query = format!(
        "/audit?client_id={}",
        created["client_id"].as_str().unwrap()
    );
    let (_, log) = admin(&app, b, Method::GET, &query, None).await;
    let details: Vec<&str> = log["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["detail"].as_str().unwrap())
        .collect();
    assert_eq!(
        details,
        [
            "may introspect other apps' tokens → off",
            "registered `API` (confidential; may introspect other apps' tokens)"
        ]
    );
}

fn cli(base: &str, args: &[&str]) -> std::process::Output {
    let mut all = args.to_vec();
    all.extend(["--admin", "ada", "--server", base, "--json"]);
    std::process::Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
        .args(&all)
        .env("SSO_BRIDGE_ADMIN_PASSWORD", "ada-demo")
        .output()
        .unwrap()
}

fn json_of(out: &std::process::Output) -> Value {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[tokio::test]
async fn the_cli_registers_a_resource_server_and_switches_it_off() {
    let app = spawn_app(Backends::Embedded).await;
    let base = app.base.clone();
    tokio::task::spawn_blocking(move || {
        let create = ["apps", "create", "--name", "API", "--redirect-uri", CB];
        let plain = json_of(&cli(&base, &create));
        assert_eq!(plain["may_introspect"], false);
        let created = json_of(&cli(&base, &[&create[..], &["--introspect"]].concat()));
        assert_eq!(created["may_introspect"], true);
        let id = created["client_id"].as_str().unwrap();
        assert_eq!(
            json_of(&cli(&base, &["apps", "show", id]))["may_introspect"],
            true
        );
        let off = cli(&base, &["apps", "update", id, "--introspect", "false"]);
        assert_eq!(json_of(&off)["may_introspect"], false);
        let on = cli(&base, &["apps", "update", id, "--introspect", "true"]);
        assert_eq!(json_of(&on)["may_introspect"], true);

        let public = cli(
            &base,
            &[&create[..], &["--public", "--introspect"]].concat(),
        );
        assert_eq!(public.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&public.stderr);
        assert!(stderr.contains("public app cannot introspect"), "{stderr}");
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn the_screen_registers_a_resource_server_and_switches_it_off() {
    let app = spawn_app(Backends::Embedded).await;
    let (browser, _) = screen::sign_in(&app, "ada", "ada-demo").await;
    let (_, new) = screen::get(&browser, &app, "/admin/apps/new").await;
    assert!(new.contains("name=\"may_introspect\""), "{new}");
    let created = screen::post(
        &browser,
        &app,
        &new,
        "/admin/apps",
        &[
            ("name", "API"),
            ("redirect_uris", CB),
            ("app_type", "confidential"),
            ("may_introspect", "on"),
        ],
    )
    .await;
    assert_eq!(created.status(), StatusCode::CREATED);
    let id = screen::input(&created.text().await.unwrap(), "client_id");
    let stored = |app: &TestApp, id: &str| {
        let (store, id) = (app.state.store.clone(), id.to_owned());
        async move {
            let id = sso_bridge::domain::ClientId::parse(&id).unwrap();
            store.client(&id).await.unwrap().unwrap().may_introspect
        }
    };
    assert!(stored(&app, &id).await);

    let (_, page) = screen::get(&browser, &app, &format!("/admin/apps/{id}")).await;
    assert!(
        page.contains("name=\"may_introspect\" value=\"on\" checked"),
        "{page}"
    );
    let saved = screen::post(
        &browser,
        &app,
        &page,
        &format!("/admin/apps/{id}"),
        &[("name", "API"), ("redirect_uris", CB)],
    )
    .await;
    assert_eq!(location(&saved), format!("/admin/apps/{id}?done=updated"));
    assert!(!stored(&app, &id).await);
    let (_, page) = screen::get(&browser, &app, &format!("/admin/apps/{id}")).await;
    assert!(
        page.contains("name=\"may_introspect\" value=\"on\">"),
        "{page}"
    );
}
