//! Helpers of the second-factor tests: an authenticator computing RFC 6238 codes from what
//! the enrolment page shows, and the steps of the browser flow.

use crate::helpers::*;
use reqwest::{Client, StatusCode};
use sso_bridge::apps::{self, NewApp};
use totp_rs::{Algorithm, Secret, TOTP};

pub const CB: &str = "https://app.example.com/callback";

/// Settings putting `roles` under the policy.
pub fn policy(roles: &str) -> Vec<(&'static str, String)> {
    vec![("SSO_BRIDGE__MFA__REQUIRED_ROLES", roles.to_owned())]
}

/// Registers an app straight through the service (the admin API would need ada's factor).
pub async fn register_direct(app: &TestApp) -> Registered {
    register_direct_with(app, |_| {}).await
}

/// [`register_direct`], with the registration changed by `change` first.
pub async fn register_direct_with(app: &TestApp, change: impl FnOnce(&mut NewApp)) -> Registered {
    let mut new = NewApp {
        name: "Payroll".into(),
        redirect_uris: vec![CB.into()],
        public: false,
        require_pkce: false,
        post_logout_redirect_uris: Vec::new(),
        may_introspect: false,
        id_token_signed_response_alg: None,
        ..NewApp::default()
    };
    change(&mut new);
    let (record, secret) = apps::manage::create(
        &app.state,
        apps::Actor {
            sub: "ada",
            address: None,
        },
        new,
    )
    .await
    .unwrap();
    Registered {
        client_id: record.client_id.to_string(),
        client_secret: secret.map(|s| s.expose().to_owned()),
        redirect_uri: CB.into(),
    }
}

/// An authenticator app, computing RFC 6238 codes from the secret the enrolment page shows.
pub struct Authenticator(TOTP);

impl Authenticator {
    pub fn from_secret(base32: &str) -> Self {
        let bytes = Secret::Encoded(base32.replace(' ', "")).to_bytes().unwrap();
        Self(TOTP::new(Algorithm::SHA1, 6, 1, 30, bytes, None, "test".into()).unwrap())
    }

    pub fn from_page(page: &str) -> Self {
        Self::from_secret(&between(page, "id=\"totp-secret\">", "</code>"))
    }

    /// The code an app shows at `time`.
    pub fn code_at(&self, time: u64) -> String {
        self.0.generate(time)
    }

    /// The code an app shows now, on the service's clock.
    pub fn code(&self, app: &TestApp) -> String {
        self.code_at(app.state.now())
    }
}

/// The text between `start` and the next `end`.
pub fn between(page: &str, start: &str, end: &str) -> String {
    let from = page
        .find(start)
        .unwrap_or_else(|| panic!("{start} in {page}"))
        + start.len();
    let to = page[from..].find(end).unwrap() + from;
    page[from..to].to_owned()
}

/// The recovery codes listed on a page.
pub fn recovery_codes(page: &str) -> Vec<String> {
    let list = between(page, "id=\"recovery-codes\">", "</ul>");
    list.split("<code>")
        .skip(1)
        .map(|c| c.split("</code>").next().unwrap().to_owned())
        .collect()
}

pub fn params(reg: &Registered) -> Vec<(&str, &str)> {
    vec![
        ("client_id", reg.client_id.as_str()),
        ("redirect_uri", reg.redirect_uri.as_str()),
        ("response_type", "code"),
        ("scope", "openid profile"),
        ("state", "s-1"),
    ]
}

/// Signs in with a password; answers the response to the form post.
pub async fn password_step(
    app: &TestApp,
    browser: &Client,
    reg: &Registered,
    user: &str,
    password: &str,
) -> reqwest::Response {
    let page = app
        .authorize(browser, &params(reg))
        .await
        .text()
        .await
        .unwrap();
    app.submit(
        browser,
        &page,
        &[("username", user), ("password", password)],
    )
    .await
}

/// Follows a redirect within the service; answers the page.
pub async fn follow(browser: &Client, response: &reqwest::Response) -> (StatusCode, String) {
    let r = browser.get(location(response)).send().await.unwrap();
    (r.status(), r.text().await.unwrap())
}

/// Walks `user` through enrolment; answers the authenticator and the recovery codes, with
/// the browser sitting on the consent page's request.
pub async fn enrol(
    app: &TestApp,
    browser: &Client,
    reg: &Registered,
    user: &str,
    password: &str,
) -> (Authenticator, Vec<String>, String) {
    let after = password_step(app, browser, reg, user, password).await;
    assert_eq!(after.status(), StatusCode::SEE_OTHER);
    assert!(
        location(&after).contains("/oauth/second-factor/enrol?"),
        "{}",
        location(&after)
    );
    let (status, page) = follow(browser, &after).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("data:image/svg+xml;base64,"),
        "QR code on the page"
    );
    let auth = Authenticator::from_page(&page);
    let done = app
        .submit(browser, &page, &[("otp", &auth.code(app))])
        .await;
    assert_eq!(done.status(), StatusCode::OK);
    let codes_page = done.text().await.unwrap();
    let codes = recovery_codes(&codes_page);
    (auth, codes, codes_page)
}
