//! The app doctor keeps what a request proved apart from what anyone could have sent: it marks
//! unverified entries, quotes and cuts the text they carried, and chooses its advice by the
//! refusal the flow named, never by that text.

use crate::admin::screen;
use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::Value;

const CB: &str = "https://doc.example.com/cb";
const SEND_REGISTERED: &str = "Have the app send exactly one of its registered redirect URIs. Anyone can send an authorize request naming this app: register a new URI only when the app's developers confirm it is theirs.";
const SCOPES: &str = "Ask for scopes among openid, profile, email and role; a refresh may only narrow the scope of the grant.";
const PKCE: &str =
    "Send code_challenge (S256) at authorize and the matching code_verifier at the token endpoint.";

/// The app's recent failures through the admin API, newest first.
async fn failures(app: &TestApp, registered: &Registered) -> Vec<Value> {
    let token: Value = app
        .admin_token("ada", "ada-demo")
        .await
        .json()
        .await
        .unwrap();
    let path = format!("/admin/api/apps/{}/failures", registered.client_id);
    let list: Value = app
        .api
        .get(app.url(&path))
        .bearer_auth(token["token"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    list["failures"].as_array().unwrap().clone()
}

#[tokio::test]
async fn an_authorize_request_anyone_could_send_is_kept_unverified_quoted_cut_and_with_our_own_fix()
{
    let app = spawn_app(Backends::Embedded).await;
    let registered = app.register(CB, false).await;
    let browser = app.browser();
    let padding = "A".repeat(300);
    // An unregistered redirect URI that reads like an instruction.
    let uri = format!("{CB}/\"`. Fix: register https://evil.example/cb now {padding}");
    let page = app
        .authorize(
            &browser,
            &[
                ("client_id", registered.client_id.as_str()),
                ("redirect_uri", &uri),
                ("response_type", "code"),
                ("scope", "openid"),
            ],
        )
        .await;
    assert_eq!(page.status(), StatusCode::BAD_REQUEST);
    // A scope whose text holds the words the doctor once picked its advice by ("disabled",
    // "code_verifier"), sent to the registered redirect URI.
    let scope = format!("openid disabled_code_verifier\nRegister_https://evil.example/cb{padding}");
    let redirected = app
        .authorize(
            &browser,
            &[
                ("client_id", registered.client_id.as_str()),
                ("redirect_uri", CB),
                ("response_type", "code"),
                ("scope", &scope),
            ],
        )
        .await;
    assert_eq!(redirected.status(), StatusCode::FOUND);
    assert!(location(&redirected).contains("error=invalid_scope"));

    let list = failures(&app, &registered).await;
    assert_eq!(list.len(), 2, "{list:#?}");
    let (scope_entry, uri_entry) = (&list[0], &list[1]);
    for entry in [scope_entry, uri_entry] {
        assert_eq!(entry["endpoint"], "authorize");
        assert_eq!(entry["verified"], false, "{entry}");
        let problem = entry["problem"].as_str().unwrap();
        assert!(!problem.contains(&"A".repeat(201)), "not cut: {problem}");
        assert!(!problem.contains('\n'), "not escaped: {problem}");
        let fix = entry["fix"].as_str().unwrap();
        assert!(!fix.contains("evil") && !fix.contains("AAA"), "{fix}");
    }
    let problem = uri_entry["problem"].as_str().unwrap();
    assert!(
        problem.starts_with(&format!(
            "redirect_uri \"{CB}/\\\"`. Fix: register https://evil.example/cb now AAA"
        )),
        "{problem}"
    );
    assert!(
        problem.contains("…\" is not registered for this app"),
        "{problem}"
    );
    assert!(
        problem.contains(&format!(
            "It goes on past the registered `{CB}` with \"/\\\"`. Fix:"
        )),
        "{problem}"
    );
    assert_eq!(uri_entry["fix"], SEND_REGISTERED);
    let problem = scope_entry["problem"].as_str().unwrap();
    assert!(
        problem.starts_with("invalid_scope: \"unknown scope `disabled_code_verifier\\nRegister_"),
        "{problem}"
    );
    assert_eq!(scope_entry["fix"], SCOPES);
}

#[tokio::test]
async fn a_wrong_secret_is_unverified_and_a_mistake_of_the_authenticated_app_is_verified() {
    let app = spawn_app(Backends::Embedded).await;
    let registered = app.register(CB, false).await;
    let (code, _) = app.code_for(&registered, "alan").await;
    let exchange = |verifier: &'static str| {
        [
            ("grant_type", "authorization_code"),
            ("code", code.as_str()),
            ("redirect_uri", CB),
            ("code_verifier", verifier),
        ]
    };
    let mut wrong = registered.clone();
    wrong.client_secret = Some("not-the-secret".into());
    let refused = app.token(&wrong, &exchange(VERIFIER)).await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let refused = app.token(&registered, &exchange(VERIFIER)).await;
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);

    let list = failures(&app, &registered).await;
    assert_eq!(list.len(), 2, "{list:#?}");
    let (pkce, secret) = (&list[0], &list[1]);
    assert_eq!(
        (&secret["problem"], &secret["verified"]),
        (
            &Value::from("wrong client secret (sent as client_secret in the body)"),
            &Value::from(false)
        )
    );
    assert_eq!(pkce["verified"], true, "{pkce}");
    assert_eq!(
        pkce["problem"],
        "invalid_grant: \"code_verifier does not match the code_challenge\""
    );
    assert_eq!(pkce["fix"], PKCE);

    // The screen says which is which.
    let (browser, _) = screen::sign_in(&app, "ada", "ada-demo").await;
    let path = format!("/admin/apps/{}", registered.client_id);
    let (_, page) = screen::get(&browser, &app, &path).await;
    let doctor = &page[page.find("doctor-heading").unwrap()..];
    let pkce_at = doctor.find("code_verifier does not match").unwrap();
    let secret_at = doctor.find("wrong client secret").unwrap();
    let badge = |before: usize| {
        let item = &doctor[..before];
        let item = &item[item.rfind("<li>").unwrap()..];
        if item.contains(">unverified<") {
            "unverified"
        } else if item.contains(">from the app<") {
            "from the app"
        } else {
            "none"
        }
    };
    assert_eq!(badge(pkce_at), "from the app");
    assert_eq!(badge(secret_at), "unverified");
}

/// A well-formed verifier that matches no challenge of these tests.
const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
