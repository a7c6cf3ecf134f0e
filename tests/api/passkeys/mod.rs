//! Passkeys against the running service, with a software authenticator answering as a
//! browser would: registration, the second factor (and its `amr`), passwordless sign-in, and
//! the refusals (a replayed challenge, another origin, another person's passkey, a cloned
//! authenticator, an IP-address base URL).

mod account;
mod admin;
mod authenticator;
mod passwordless;
mod second_factor;

use crate::helpers::*;
use crate::signin::mfa_helpers::*;
use authenticator::{passkey_form, SoftAuthenticator};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use reqwest::{Client, Response, StatusCode};
use serde_json::Value;
use sso_bridge::mfa::passkey;

/// A software authenticator in a browser at `app`'s origin.
fn authenticator(app: &TestApp) -> SoftAuthenticator {
    SoftAuthenticator::new(&app.base)
}

/// Adds a passkey named `name` for `sub` through the registration ceremony.
async fn add_passkey(app: &TestApp, auth: &mut SoftAuthenticator, sub: &str, name: &str) {
    let key = format!("test:{sub}");
    let options = passkey::start_registration(&app.state, sub, sub, &key)
        .await
        .unwrap();
    let answer = auth.register(&serde_json::from_str(&options).unwrap());
    passkey::finish_registration(&app.state, sub, &key, name, &answer)
        .await
        .unwrap();
}

/// Posts `answer` in the passkey form of `page`.
async fn post_passkey(browser: &Client, page: &str, answer: &str) -> Response {
    let (_, form) = passkey_form(page).expect("a passkey form");
    let mut body: Vec<(String, String)> = form.hidden.into_iter().collect();
    body.retain(|(name, _)| name != "credential");
    body.push(("credential".into(), answer.into()));
    browser.post(form.action).form(&body).send().await.unwrap()
}

/// From a response on the way to the app (consent, or the redirect), the code it gets.
async fn code_after(app: &TestApp, browser: &Client, response: Response) -> String {
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let mut next = location(&response);
    if !next.starts_with(CB) {
        assert!(next.contains("/oauth/consent?"), "{next}");
        let consent = browser
            .get(&next)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let done = app
            .submit(browser, &consent, &[("decision", "approve")])
            .await;
        next = location(&done);
    }
    query(&next).get("code").cloned().expect("a code")
}

/// The `amr` of the id_token a code gets.
async fn amr_for(app: &TestApp, reg: &Registered, code: &str) -> Value {
    let tokens: Value = app
        .token(
            reg,
            &[
                ("grant_type", "authorization_code"),
                ("code", code),
                ("redirect_uri", CB),
            ],
        )
        .await
        .json()
        .await
        .unwrap();
    let id_token = tokens["id_token"].as_str().expect("an id_token");
    let payload = id_token.split('.').nth(1).unwrap();
    let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
    claims["amr"].clone()
}
