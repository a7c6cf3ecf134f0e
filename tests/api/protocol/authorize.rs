//! The browser side: `/oauth/authorize`, sign-in, consent, single sign-on.

use crate::helpers::*;
use reqwest::StatusCode;

const CB: &str = "https://app.example.com/callback";

fn params<'a>(app: &'a Registered, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut p = vec![
        ("client_id", app.client_id.as_str()),
        ("redirect_uri", app.redirect_uri.as_str()),
        ("response_type", "code"),
        ("scope", "openid profile"),
        ("state", "s-1"),
    ];
    for (k, v) in extra {
        p.retain(|(name, _)| name != k);
        p.push((k, v));
    }
    p
}

#[tokio::test]
async fn an_unknown_client_gets_an_error_page_and_no_redirect() {
    let app = spawn_app(Backends::Embedded).await;
    let r = app
        .authorize(
            &app.browser(),
            &[
                ("client_id", "nope"),
                ("redirect_uri", CB),
                ("response_type", "code"),
                ("scope", "openid"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.headers().get("location").is_none());
    assert!(r.text().await.unwrap().contains("Unknown application"));
}

#[tokio::test]
async fn a_redirect_uri_off_by_a_trailing_slash_gets_an_error_page_and_no_redirect() {
    let app = spawn_app(Backends::Embedded).await;
    let reg = app.register(CB, false).await;
    let r = app
        .authorize(
            &app.browser(),
            &params(
                &reg,
                &[("redirect_uri", "https://app.example.com/callback/")],
            ),
        )
        .await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.headers().get("location").is_none());
    assert!(r.text().await.unwrap().contains("not registered"));
}

#[tokio::test]
async fn request_errors_go_back_to_the_app_with_the_state() {
    let app = spawn_app(Backends::Embedded).await;
    let reg = app.register(CB, false).await;
    let cases: [(&[(&str, &str)], &str); 7] = [
        (&[("response_type", "")], "invalid_request"),
        (&[("response_type", "token")], "unsupported_response_type"),
        (&[("scope", "openid admin")], "invalid_scope"),
        (&[("scope", "")], "invalid_request"),
        (
            &[
                (
                    "code_challenge",
                    "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
                ),
                ("code_challenge_method", "plain"),
            ],
            "invalid_request",
        ),
        (
            &[
                ("code_challenge", "too-short"),
                ("code_challenge_method", "S256"),
            ],
            "invalid_request",
        ),
        (
            &[(
                "code_challenge",
                "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            )],
            "invalid_request",
        ),
    ];
    for (extra, error) in cases {
        let r = app.authorize(&app.browser(), &params(&reg, extra)).await;
        assert_eq!(r.status(), StatusCode::FOUND, "{extra:?}");
        let loc = location(&r);
        assert!(loc.starts_with(CB), "{loc}");
        let q = query(&loc);
        assert_eq!(q["error"], error, "{extra:?}");
        assert_eq!(q["state"], "s-1");
        assert!(!q.contains_key("code"));
    }
}

#[tokio::test]
async fn a_repeated_parameter_is_invalid_request_and_unknown_ones_are_ignored() {
    let app = spawn_app(Backends::Embedded).await;
    let reg = app.register(CB, false).await;
    let mut p = params(&reg, &[]);
    p.push(("scope", "openid email"));
    let r = app.authorize(&app.browser(), &p).await;
    assert_eq!(query(&location(&r))["error"], "invalid_request");

    let r = app
        .authorize(&app.browser(), &params(&reg, &[("foo", "bar")]))
        .await;
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_repeated_client_id_gets_an_error_page() {
    let app = spawn_app(Backends::Embedded).await;
    let reg = app.register(CB, false).await;
    let mut p = params(&reg, &[]);
    p.push(("client_id", "other"));
    let r = app.authorize(&app.browser(), &p).await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.headers().get("location").is_none());
}

#[tokio::test]
async fn the_sign_in_page_cannot_be_framed_or_cached_and_carries_a_csrf_token() {
    let app = spawn_app(Backends::Embedded).await;
    let reg = app.register(CB, false).await;
    let r = app.authorize(&app.browser(), &params(&reg, &[])).await;
    assert_eq!(r.status(), StatusCode::OK);
    let h = r.headers().clone();
    assert!(h["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("frame-ancestors 'none'"));
    assert_eq!(h["x-frame-options"], "DENY");
    assert_eq!(h["cache-control"], "no-store");
    let cookie = h["set-cookie"].to_str().unwrap().to_owned();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    let page = r.text().await.unwrap();
    let form = Form::parse(&page);
    assert!(form
        .hidden
        .iter()
        .any(|(k, v)| k == "csrf_token" && v.len() >= 40));
    assert!(page.contains("name=\"username\"") && page.contains("name=\"password\""));
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_user_get_the_same_message() {
    let app = spawn_app(Backends::Embedded).await;
    let reg = app.register(CB, false).await;
    let mut bodies = Vec::new();
    for (user, pw) in [("alan", "wrong"), ("nobody", "wrong")] {
        let browser = app.browser();
        let page = app
            .authorize(&browser, &params(&reg, &[]))
            .await
            .text()
            .await
            .unwrap();
        let r = app
            .submit(&browser, &page, &[("username", user), ("password", pw)])
            .await;
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
        let body = r.text().await.unwrap();
        assert!(body.contains("The username or password is incorrect."));
        // The form is shown again, ready for another attempt.
        assert!(body.contains("name=\"password\""));
        bodies.push(body.replace(user, "USER"));
    }
    let strip = |b: &str| {
        let f = Form::parse(b);
        f.hidden
            .iter()
            .fold(b.to_owned(), |acc, (_, v)| acc.replace(v, ""))
    };
    assert_eq!(strip(&bodies[0]), strip(&bodies[1]));
}

#[tokio::test]
async fn an_empty_password_is_refused_with_a_message() {
    let app = spawn_app(Backends::Embedded).await;
    let reg = app.register(CB, false).await;
    let browser = app.browser();
    let page = app
        .authorize(&browser, &params(&reg, &[]))
        .await
        .text()
        .await
        .unwrap();
    let r = app
        .submit(&browser, &page, &[("username", "alan"), ("password", "")])
        .await;
    assert!(r.status().is_client_error());
    assert!(r.text().await.unwrap().contains("incorrect"));
}

#[tokio::test]
async fn approval_returns_a_code_and_the_state_byte_for_byte() {
    let app = spawn_app(Backends::Embedded).await;
    let reg = app.register(CB, false).await;
    let state = "a b&c=d/é<script>\"'%20+";
    let loc = app
        .sign_in_and_approve(
            &app.browser(),
            &reg,
            "alan",
            "alan-demo",
            &[("state", state)],
        )
        .await;
    let q = query(&loc);
    assert_eq!(q["state"], state);
    assert_eq!(q["code"].len(), 43);
}

#[tokio::test]
async fn deny_sends_access_denied_with_the_state() {
    let app = spawn_app(Backends::Embedded).await;
    let reg = app.register(CB, false).await;
    let browser = app.browser();
    let page = app
        .authorize(&browser, &params(&reg, &[]))
        .await
        .text()
        .await
        .unwrap();
    let r = app
        .submit(
            &browser,
            &page,
            &[("username", "alan"), ("password", "alan-demo")],
        )
        .await;
    let consent = browser
        .get(location(&r))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(consent.contains("value=\"approve\"") && consent.contains("value=\"deny\""));
    let r = app
        .submit(&browser, &consent, &[("decision", "deny")])
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let q = query(&location(&r));
    assert_eq!(q["error"], "access_denied");
    assert_eq!(q["state"], "s-1");
}

#[tokio::test]
async fn a_second_authorize_in_the_same_browser_skips_the_password_and_remembered_consent() {
    let app = spawn_app(Backends::Embedded).await;
    let reg = app.register(CB, false).await;
    let browser = app.browser();
    app.sign_in_and_approve(
        &browser,
        &reg,
        "alan",
        "alan-demo",
        &[("scope", "openid profile")],
    )
    .await;
    let r = app
        .authorize(&browser, &params(&reg, &[("state", "again")]))
        .await;
    assert_eq!(r.status(), StatusCode::FOUND);
    let q = query(&location(&r));
    assert_eq!(q["state"], "again");
    assert!(q.contains_key("code"));

    // Wider scopes than approved: consent again, but no password.
    let r = app
        .authorize(
            &browser,
            &params(&reg, &[("scope", "openid profile email role")]),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let page = r.text().await.unwrap();
    assert!(page.contains("value=\"approve\"") && !page.contains("name=\"password\""));
}

#[tokio::test]
async fn sign_in_issues_a_fresh_session_id() {
    let app = spawn_app(Backends::Embedded).await;
    let reg = app.register(CB, false).await;
    let jar = std::sync::Arc::new(reqwest::cookie::Jar::default());
    let base: url::Url = app.base.parse().unwrap();
    jar.add_cookie_str("sso_session=planted-by-attacker; Path=/", &base);
    let browser = reqwest::Client::builder()
        .cookie_provider(jar.clone())
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let page = app
        .authorize(&browser, &params(&reg, &[]))
        .await
        .text()
        .await
        .unwrap();
    let r = app
        .submit(
            &browser,
            &page,
            &[("username", "alan"), ("password", "alan-demo")],
        )
        .await;
    let set = r
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .find(|c| c.starts_with("sso_session="))
        .expect("a session cookie");
    assert!(!set.contains("planted-by-attacker"));
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax"));
}

#[tokio::test]
async fn a_form_post_without_the_right_csrf_token_or_browser_is_refused() {
    let app = spawn_app(Backends::Embedded).await;
    let reg = app.register(CB, false).await;
    let browser = app.browser();
    let page = app
        .authorize(&browser, &params(&reg, &[]))
        .await
        .text()
        .await
        .unwrap();
    let r = app
        .submit(
            &browser,
            &page,
            &[
                ("csrf_token", "forged"),
                ("username", "alan"),
                ("password", "alan-demo"),
            ],
        )
        .await;
    // The forged token is appended after the real one; a repeated field must not pass either.
    assert!(r.status().is_client_error(), "{}", r.status());

    // The same page's form posted from another browser (no flow cookie).
    let other = app.browser();
    let r = app
        .submit(
            &other,
            &page,
            &[("username", "alan"), ("password", "alan-demo")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_full_flow_works_on_slapd_and_redis() {
    let app = spawn_app(Backends::Real).await;
    let reg = app.register(CB, false).await;
    let (code, verifier) = app.code_for(&reg, "linus").await;
    let tokens = app.exchange(&reg, &code, &verifier).await;
    let info: serde_json::Value = app
        .userinfo(tokens["access_token"].as_str().unwrap())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(info["sub"], "linus");
    assert_eq!(info["role"], "manager");
}

#[tokio::test]
async fn ldap_filter_injection_in_the_username_never_signs_anyone_in() {
    let app = spawn_app(Backends::Real).await;
    let reg = app.register(CB, false).await;
    for user in ["*", "ada)(uid=*", "*)(|(uid=*", "ada*"] {
        let browser = app.browser();
        let page = app
            .authorize(&browser, &params(&reg, &[]))
            .await
            .text()
            .await
            .unwrap();
        let r = app
            .submit(
                &browser,
                &page,
                &[("username", user), ("password", "ada-pw")],
            )
            .await;
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED, "{user}");
    }
}
