//! OpenID Connect Back-Channel Logout 1.0: the session's public id in the id_tokens, a logout
//! token to every app that got tokens in a session when it ends (whatever ended it), the grants
//! revoked with it, and delivery: never in the way of the request, retried on a 5xx, a timeout
//! or a refused connection, not on a 4xx, and kept in the store for any node to deliver.

use crate::admin::screen;
use crate::helpers::*;
use crate::support::metrics::{count, scrape};
use crate::support::ports::Reserved;
use crate::support::receiver::{Answer, Received, Receiver};
use crate::support::slapd::Slapd;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{DecodingKey, Validation};
use reqwest::header::SET_COOKIE;
use reqwest::{Client, StatusCode};
use serde_json::Value;
use sso_bridge::domain::Digest;
use std::collections::HashSet;
use std::time::{Duration, Instant};

const CB: &str = "https://app.example.com/callback";
const KEN: &str = "uid=ken,ou=people,dc=example,dc=com";
const EVENT: &str = "http://schemas.openid.net/event/backchannel-logout";
/// Long enough for a logout to be claimed (the queue is looked at every second) and sent.
const SOON: Duration = Duration::from_secs(10);

/// Registers an app whose back-channel logouts go to `receiver` (with a query string, which
/// is kept).
async fn app_told_at(app: &Service, receiver: &Receiver, redirect_uri: &str) -> Registered {
    let uri = receiver.url("/backchannel-logout?tenant=7");
    app.register_with(
        redirect_uri,
        serde_json::json!({ "public": false, "backchannel_logout_uri": uri }),
    )
    .await
}

/// Checks a logout token as an app must (Back-Channel Logout 1.0 §2.6) with the keys `app`
/// publishes; answers its claims.
async fn verified(app: &Service, received: &Received, client_id: &str) -> Value {
    assert_eq!(received.content_type, "application/x-www-form-urlencoded");
    assert_eq!(received.target, "/backchannel-logout?tenant=7");
    let token = &received.logout_token;
    let header = jsonwebtoken::decode_header(token).unwrap();
    assert_eq!(header.typ.as_deref(), Some("logout+jwt"));
    let jwks: JwkSet = serde_json::from_value(app.jwks().await).unwrap();
    let jwk = jwks.find(header.kid.as_deref().unwrap()).unwrap();
    let mut validation = Validation::new(header.alg);
    validation.set_audience(&[client_id]);
    validation.set_issuer(&[app.base.as_str()]);
    validation.set_required_spec_claims(&["iss", "aud", "exp", "iat", "sub"]);
    let claims =
        jsonwebtoken::decode::<Value>(token, &DecodingKey::from_jwk(jwk).unwrap(), &validation)
            .expect("a logout token signed with a published key")
            .claims;
    assert_eq!(claims["events"], serde_json::json!({ EVENT: {} }));
    assert!(claims.get("nonce").is_none());
    assert!(claims["jti"].as_str().is_some_and(|j| j.len() >= 16));
    let (iat, exp) = (
        claims["iat"].as_u64().unwrap(),
        claims["exp"].as_u64().unwrap(),
    );
    assert!(exp > iat && exp - iat <= 120, "iat {iat}, exp {exp}");
    claims
}

/// The claims of a JWT, read without checking.
fn payload(token: &str) -> Value {
    use base64::Engine;
    let payload = token.split('.').nth(1).unwrap();
    let json = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .unwrap();
    serde_json::from_slice(&json).unwrap()
}

/// The claims of an id_token, read without checking (the OpenID Connect tests check them).
fn id_claims(tokens: &Value) -> Value {
    payload(tokens["id_token"].as_str().unwrap())
}

/// In `browser`, signs `user` in to `reg` (or single sign-on, once signed in) and exchanges the
/// code: the tokens.
async fn tokens_in(app: &Service, browser: &Client, reg: &Registered, user: &str) -> Value {
    tokens_asking(app, browser, reg, user, &[]).await
}

/// [`tokens_in`], the authorization request carrying `asked` as well (`prompt=login`, ...).
async fn tokens_asking(
    app: &Service,
    browser: &Client,
    reg: &Registered,
    user: &str,
    asked: &[(&str, &str)],
) -> Value {
    let pkce = Pkce::new();
    let extra = [
        ("code_challenge", pkce.challenge.as_str()),
        ("code_challenge_method", "S256"),
    ];
    let mut params = vec![
        ("client_id", reg.client_id.as_str()),
        ("redirect_uri", reg.redirect_uri.as_str()),
        ("response_type", "code"),
        ("scope", "openid profile"),
        ("state", "s"),
    ];
    params.extend_from_slice(&extra);
    params.extend_from_slice(asked);
    let first = app.authorize(browser, &params).await;
    let location = if first.status() == StatusCode::FOUND {
        location(&first)
    } else {
        let page = first.text().await.unwrap();
        if page.contains("name=\"password\"") {
            let pw = app.password(user);
            let after = app
                .submit(browser, &page, &[("username", user), ("password", &pw)])
                .await;
            let next = location(&after);
            if next.starts_with(&reg.redirect_uri) {
                next
            } else {
                let consent = browser
                    .get(&next)
                    .send()
                    .await
                    .unwrap()
                    .text()
                    .await
                    .unwrap();
                location(
                    &app.submit(browser, &consent, &[("decision", "approve")])
                        .await,
                )
            }
        } else {
            location(&app.submit(browser, &page, &[("decision", "approve")]).await)
        }
    };
    let code = query(&location)["code"].clone();
    app.exchange(reg, &code, &pkce.verifier).await
}

/// Has a superadmin sign `user` out everywhere through the admin API; answers what it says.
async fn signed_out_everywhere(app: &Service, user: &str) -> Value {
    let r = app
        .api
        .post(app.url(&format!("/admin/api/users/{user}/revoke")))
        .bearer_auth(app.superadmin_token().await)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    r.json().await.unwrap()
}

async fn signed_in(app: &Service, browser: &Client, reg: &Registered) -> bool {
    let r = app
        .authorize(
            browser,
            &[
                ("client_id", reg.client_id.as_str()),
                ("redirect_uri", reg.redirect_uri.as_str()),
                ("response_type", "code"),
                ("scope", "openid"),
                ("prompt", "none"),
                ("code_challenge", &Pkce::new().challenge),
                ("code_challenge_method", "S256"),
            ],
        )
        .await;
    !query(&location(&r)).contains_key("error")
}

/// The audit log's back-channel logout entries of `reg`, newest first.
async fn audited(app: &Service, reg: &Registered) -> Vec<Value> {
    let token = app.superadmin_token().await;
    let log: Value = app
        .api
        .get(app.url(&format!(
            "/admin/api/audit?action=backchannel_logout&client_id={}",
            reg.client_id
        )))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    log["events"].as_array().unwrap().clone()
}

/// Waits until the audit log holds `n` back-channel logout entries of `reg`.
async fn audited_at_least(app: &Service, reg: &Registered, n: usize) -> Vec<Value> {
    let deadline = Instant::now() + SOON;
    loop {
        let events = audited(app, reg).await;
        if events.len() >= n || Instant::now() > deadline {
            return events;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn doctor(app: &Service, reg: &Registered) -> Vec<Value> {
    let token = app.superadmin_token().await;
    let list: Value = app
        .api
        .get(app.url(&format!("/admin/api/apps/{}/failures", reg.client_id)))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    list["failures"].as_array().unwrap().clone()
}

#[tokio::test]
async fn id_tokens_name_their_session_by_a_public_id_the_same_for_every_app_of_it() {
    let app = spawn_app(Backends::Embedded).await;
    let (one, two) = (
        app.register(CB, false).await,
        app.register("https://two.example.com/cb", false).await,
    );
    // Signed in by hand, to see the session cookie.
    let browser = app.browser();
    let pkce = Pkce::new();
    let page = app
        .authorize(
            &browser,
            &[
                ("client_id", one.client_id.as_str()),
                ("redirect_uri", CB),
                ("response_type", "code"),
                ("scope", "openid"),
                ("code_challenge", &pkce.challenge),
                ("code_challenge_method", "S256"),
            ],
        )
        .await
        .text()
        .await
        .unwrap();
    let pw = app.password("alan");
    let after = app
        .submit(&browser, &page, &[("username", "alan"), ("password", &pw)])
        .await;
    let cookie = after
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .map(|v| v.to_str().unwrap())
        .find_map(|c| c.split(';').next()?.split_once("sso_session="))
        .map(|(_, v)| v.to_owned())
        .expect("the session cookie");
    let consent = browser
        .get(location(&after))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let back = location(
        &app.submit(&browser, &consent, &[("decision", "approve")])
            .await,
    );
    let first = app
        .exchange(&one, &query(&back)["code"], &pkce.verifier)
        .await;
    let sid = id_claims(&first)["sid"].as_str().unwrap().to_owned();

    assert_ne!(sid, cookie);
    assert_ne!(sid, Digest::of(&cookie).as_hex());
    assert!(!cookie.contains(&sid) && !Digest::of(&cookie).as_hex().contains(&sid));
    // Another app in the same session: the same sid; a refresh keeps it.
    let second = tokens_in(&app, &browser, &two, "alan").await;
    assert_eq!(id_claims(&second)["sid"], sid.as_str());
    let refreshed: Value = app
        .refresh(&two, second["refresh_token"].as_str().unwrap())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(id_claims(&refreshed)["sid"], sid.as_str());
    // Another browser, another session.
    let elsewhere = tokens_in(&app, &app.browser(), &one, "alan").await;
    assert_ne!(id_claims(&elsewhere)["sid"], sid.as_str());
}

#[tokio::test]
async fn an_rp_initiated_logout_tells_each_app_of_the_session_once_and_revokes_its_grants() {
    let app = spawn_app(Backends::Embedded).await;
    // The app that asks answers slowly: the person's sign-out does not wait for it.
    let (slow, quick) = (
        Receiver::start(&[Answer::Slowly(200, Duration::from_secs(3))]).await,
        Receiver::start(&[Answer::Status(204)]).await,
    );
    let asking = app_told_at(&app, &slow, CB).await;
    let other = app_told_at(&app, &quick, "https://other.example.com/cb").await;
    let untold = app.register("https://untold.example.com/cb", false).await;
    let browser = app.browser();
    let asking_tokens = tokens_in(&app, &browser, &asking, "alan").await;
    let other_tokens = tokens_in(&app, &browser, &other, "alan").await;
    let untold_tokens = tokens_in(&app, &browser, &untold, "alan").await;
    // The same person in another browser: another session, left alone.
    let elsewhere = tokens_in(&app, &app.browser(), &asking, "alan").await;
    let sid = id_claims(&asking_tokens)["sid"]
        .as_str()
        .unwrap()
        .to_owned();

    let started = Instant::now();
    let hint = asking_tokens["id_token"].as_str().unwrap();
    let out = browser
        .get(app.url("/oauth/logout"))
        .query(&[("id_token_hint", hint)])
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), StatusCode::OK);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );

    for (receiver, reg) in [(&slow, &asking), (&quick, &other)] {
        let got = receiver.wait_for(1, SOON).await;
        assert_eq!(got.len(), 1, "one logout for {}", reg.client_id);
        let claims = verified(&app, &got[0], &reg.client_id).await;
        assert_eq!(claims["sub"], "alan");
        assert_eq!(claims["sid"], sid.as_str());
    }
    // Every grant of the session is revoked, the untold app's too; the other session's is not.
    for tokens in [&asking_tokens, &other_tokens, &untold_tokens] {
        let access = tokens["access_token"].as_str().unwrap();
        assert_eq!(
            app.userinfo(access).await.status(),
            StatusCode::UNAUTHORIZED
        );
    }
    let refused = app
        .refresh(&other, other_tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    let access = elsewhere["access_token"].as_str().unwrap();
    assert_eq!(app.userinfo(access).await.status(), StatusCode::OK);
    assert!(!signed_in(&app, &browser, &asking).await);

    // Delivered, audited as such; nothing more is sent.
    let events = audited_at_least(&app, &asking, 1).await;
    assert_eq!(events[0]["success"], true, "{events:?}");
    assert!(events[0]["detail"].as_str().unwrap().contains("delivered"));
    assert_eq!(events[0]["actor"], "alan");
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(slow.received().len() + quick.received().len(), 2);
}

#[tokio::test]
async fn someone_else_signing_in_on_the_same_browser_ends_the_session_they_replace() {
    let app = spawn_app(Backends::Embedded).await;
    let receiver = Receiver::start(&[Answer::Status(204)]).await;
    let reg = app_told_at(&app, &receiver, CB).await;
    let browser = app.browser();
    let alans = tokens_in(&app, &browser, &reg, "alan").await;
    let alans_sid = id_claims(&alans)["sid"].as_str().unwrap().to_owned();

    let kens = tokens_asking(&app, &browser, &reg, "ken", &[("prompt", "login")]).await;
    // The sign-in page was shown again, and ken signed in on it.
    assert_eq!(id_claims(&kens)["sub"], "ken");

    // The app is told alan's session ended, and his tokens stop working: the browser is
    // ken's now.
    let got = receiver.wait_for(1, SOON).await;
    assert_eq!(got.len(), 1);
    let claims = verified(&app, &got[0], &reg.client_id).await;
    assert_eq!(claims["sub"], "alan");
    assert_eq!(claims["sid"], alans_sid.as_str());
    let access = alans["access_token"].as_str().unwrap();
    assert_eq!(
        app.userinfo(access).await.status(),
        StatusCode::UNAUTHORIZED
    );
    let refused = app
        .refresh(&reg, alans["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    let access = kens["access_token"].as_str().unwrap();
    assert_eq!(app.userinfo(access).await.status(), StatusCode::OK);

    // Ken signing in again on it keeps what his apps hold, and the app is told nothing.
    let again = tokens_asking(&app, &browser, &reg, "ken", &[("prompt", "login")]).await;
    assert_eq!(id_claims(&again)["sub"], "ken");
    assert_ne!(again["access_token"], kens["access_token"]);
    assert_eq!(app.userinfo(access).await.status(), StatusCode::OK);
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(receiver.received().len(), 1);
}

#[tokio::test]
async fn signing_out_of_the_admin_screen_tells_the_apps_of_that_session() {
    let app = spawn_app(Backends::Embedded).await;
    let receiver = Receiver::start(&[Answer::Status(200)]).await;
    let reg = app_told_at(&app, &receiver, CB).await;
    let (user, pw) = app.superadmin();
    let (browser, _) = screen::sign_in(&app, user, pw).await;
    let tokens = tokens_in(&app, &browser, &reg, user).await;
    let sid = id_claims(&tokens)["sid"].as_str().unwrap().to_owned();

    let (_, page) = screen::get(&browser, &app, "/admin/apps").await;
    let out = screen::post(&browser, &app, &page, "/admin/logout", &[]).await;
    assert_eq!(out.status(), StatusCode::SEE_OTHER);

    let got = receiver.wait_for(1, SOON).await;
    assert_eq!(got.len(), 1);
    let claims = verified(&app, &got[0], &reg.client_id).await;
    assert_eq!(
        (claims["sub"].as_str(), claims["sid"].as_str()),
        (Some(user), Some(sid.as_str()))
    );
    let access = tokens["access_token"].as_str().unwrap();
    assert_eq!(
        app.userinfo(access).await.status(),
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn signing_a_person_out_everywhere_tells_the_apps_of_each_of_their_sessions() {
    let app = spawn_app(Backends::Real).await;
    let receiver = Receiver::start(&[Answer::Status(200)]).await;
    let reg = app_told_at(&app, &receiver, CB).await;
    let laptop = tokens_in(&app, &app.browser(), &reg, "alan").await;
    let phone = tokens_in(&app, &app.browser(), &reg, "alan").await;
    // Someone else's session is no business of this.
    tokens_in(&app, &app.browser(), &reg, "ken").await;

    let body = signed_out_everywhere(&app, "alan").await;
    assert_eq!(body["sessions_ended"], 2);
    assert_eq!(body["grants_revoked"], 2);

    let got = receiver.wait_for(2, SOON).await;
    assert_eq!(got.len(), 2);
    let mut sids = HashSet::new();
    for received in &got {
        let claims = verified(&app, received, &reg.client_id).await;
        assert_eq!(claims["sub"], "alan");
        sids.insert(claims["sid"].as_str().unwrap().to_owned());
    }
    let expected: HashSet<String> = [&laptop, &phone]
        .iter()
        .map(|t| id_claims(t)["sid"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(sids, expected);
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(receiver.received().len(), 2);
}

#[tokio::test]
async fn signing_a_person_out_everywhere_tells_an_app_whose_grant_outlived_its_session() {
    let app = spawn_app_with(
        Backends::Embedded,
        &[("SSO_BRIDGE__SESSION__TTL_SECS", "600".into())],
    )
    .await;
    let receiver = Receiver::start(&[Answer::Status(200)]).await;
    let reg = app_told_at(&app, &receiver, CB).await;
    let tokens = tokens_in(&app, &app.browser(), &reg, "alan").await;
    let sid = id_claims(&tokens)["sid"].as_str().unwrap().to_owned();
    // The session is over; the grant, refreshed since, is not.
    app.clock.advance(900);
    let refreshed = app
        .refresh(&reg, tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(refreshed.status(), StatusCode::OK);
    let refreshed: Value = refreshed.json().await.unwrap();

    let body = signed_out_everywhere(&app, "alan").await;
    assert_eq!(body["sessions_ended"], 0);
    assert_eq!(body["grants_revoked"], 1);

    let got = receiver.wait_for(1, SOON).await;
    assert_eq!(got.len(), 1);
    let claims = verified(&app, &got[0], &reg.client_id).await;
    assert_eq!(claims["sub"], "alan");
    assert_eq!(claims["sid"], sid.as_str());
    let refused = app
        .refresh(&reg, refreshed["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(receiver.received().len(), 1);
}

/// An app on a private `slapd`, its sessions confirmed by the directory after `recheck` s.
async fn app_on(slapd: &Slapd, recheck: &str) -> TestApp {
    spawn_app_with(
        Backends::Real,
        &[
            ("SSO_BRIDGE__DIRECTORY__URL", slapd.url()),
            (
                "SSO_BRIDGE__SESSION__DIRECTORY_RECHECK_SECS",
                recheck.into(),
            ),
        ],
    )
    .await
}

#[tokio::test]
async fn a_leaver_found_at_the_directory_recheck_is_signed_out_of_the_apps() {
    let slapd = Slapd::start();
    let app = app_on(&slapd, "0").await;
    let receiver = Receiver::start(&[Answer::Status(200)]).await;
    let reg = app_told_at(&app, &receiver, CB).await;
    let browser = app.browser();
    let tokens = tokens_in(&app, &browser, &reg, "ken").await;

    slapd.delete(KEN);
    // The next single sign-on confirms ken with the directory, and finds him gone.
    assert!(!signed_in(&app, &browser, &reg).await);

    let got = receiver.wait_for(1, SOON).await;
    assert_eq!(got.len(), 1);
    let claims = verified(&app, &got[0], &reg.client_id).await;
    assert_eq!(claims["sub"], "ken");
    assert_eq!(claims["sid"], id_claims(&tokens)["sid"]);
    let access = tokens["access_token"].as_str().unwrap();
    assert_eq!(
        app.userinfo(access).await.status(),
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn a_leaver_found_at_a_refresh_is_signed_out_of_the_apps_once() {
    let slapd = Slapd::start();
    let app = app_on(&slapd, "3600").await;
    let receiver = Receiver::start(&[Answer::Status(200)]).await;
    let reg = app_told_at(&app, &receiver, CB).await;
    let tokens = tokens_in(&app, &app.browser(), &reg, "ken").await;

    slapd.delete(KEN);
    let refused = app
        .refresh(&reg, tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);

    // Ending the session tells the app; the refused grant, from that same session, adds none.
    let got = receiver.wait_for(1, SOON).await;
    assert_eq!(got.len(), 1);
    let claims = verified(&app, &got[0], &reg.client_id).await;
    assert_eq!(claims["sid"], id_claims(&tokens)["sid"]);
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(receiver.received().len(), 1);
}

#[tokio::test]
async fn a_grant_ended_while_its_session_lives_tells_its_app_with_the_sessions_id() {
    let app = spawn_app(Backends::Embedded).await;
    let receiver = Receiver::start(&[Answer::Status(200)]).await;
    let reg = app_told_at(&app, &receiver, CB).await;
    let tokens = tokens_in(&app, &app.browser(), &reg, "alan").await;
    let sid = id_claims(&tokens)["sid"].as_str().unwrap().to_owned();
    let id = sso_bridge::domain::ClientId::parse(&reg.client_id).unwrap();
    let untold = app.register("https://untold.example.com/cb", false).await;
    let untold = sso_bridge::domain::ClientId::parse(&untold.client_id).unwrap();

    // What the flows call when a refresh is refused for access, or access is removed.
    let queued = sso_bridge::backchannel::grant_ended(&app.state, &id, "alan", Some(&sid))
        .await
        .unwrap();
    assert!(queued);
    let not_queued = sso_bridge::backchannel::grant_ended(&app.state, &untold, "alan", None)
        .await
        .unwrap();
    assert!(
        !not_queued,
        "an app without a back-channel logout URI is not queued one"
    );

    let got = receiver.wait_for(1, SOON).await;
    assert_eq!(got.len(), 1);
    let claims = verified(&app, &got[0], &reg.client_id).await;
    assert_eq!(
        (claims["sub"].as_str(), claims["sid"].as_str()),
        (Some("alan"), Some(sid.as_str()))
    );
}

#[tokio::test]
async fn a_refresh_refused_for_access_tells_the_app_and_leaves_the_session() {
    let app = spawn_app(Backends::Embedded).await;
    let receiver = Receiver::start(&[Answer::Status(200)]).await;
    let reg = app_told_at(&app, &receiver, CB).await;
    let browser = app.browser();
    let tokens = tokens_in(&app, &browser, &reg, "alan").await;
    let changed = app
        .api
        .patch(app.url(&format!("/admin/api/apps/{}", reg.client_id)))
        .bearer_auth(app.superadmin_token().await)
        .json(&serde_json::json!({ "allowed_roles": ["ceo"] }))
        .send()
        .await
        .unwrap();
    assert_eq!(changed.status(), StatusCode::OK);

    let refused = app
        .refresh(&reg, tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);

    let got = receiver.wait_for(1, SOON).await;
    assert_eq!(got.len(), 1);
    let claims = verified(&app, &got[0], &reg.client_id).await;
    assert_eq!(claims["sid"], id_claims(&tokens)["sid"]);
    assert_eq!(claims["sub"], "alan");
    let open = app.register("https://wiki.example.com/cb", false).await;
    let r = app
        .authorize(
            &browser,
            &[
                ("client_id", open.client_id.as_str()),
                ("redirect_uri", open.redirect_uri.as_str()),
                ("response_type", "code"),
                ("scope", "openid"),
            ],
        )
        .await;
    let page = r.text().await.unwrap();
    assert!(
        !page.contains("name=\"password\""),
        "still signed in to single sign-on"
    );
}

/// Signs alan in to `reg` in a fresh browser and out again with an id_token hint: one logout
/// queued for `reg`.
async fn sign_in_and_out(app: &Service, reg: &Registered) -> Value {
    let browser = app.browser();
    let tokens = tokens_in(app, &browser, reg, "alan").await;
    let out = browser
        .get(app.url("/oauth/logout"))
        .query(&[("id_token_hint", tokens["id_token"].as_str().unwrap())])
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), StatusCode::OK);
    tokens
}

#[tokio::test]
async fn a_5xx_is_tried_again_after_a_backoff_and_every_outcome_is_audited_counted_and_explained() {
    let app = spawn_app(Backends::Embedded).await;
    let receiver = Receiver::start(&[Answer::Status(500), Answer::Status(200)]).await;
    let reg = app_told_at(&app, &receiver, CB).await;

    sign_in_and_out(&app, &reg).await;

    let got = receiver.wait_for(2, SOON).await;
    assert_eq!(got.len(), 2);
    assert!(
        got[1].at - got[0].at >= Duration::from_millis(900),
        "the second attempt waited {:?}",
        got[1].at - got[0].at
    );
    for received in &got {
        verified(&app, received, &reg.client_id).await;
    }
    let jtis: HashSet<String> = got
        .iter()
        .map(|r| payload(&r.logout_token)["jti"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(jtis.len(), 2, "each attempt is a token of its own");

    let events = audited_at_least(&app, &reg, 2).await;
    assert_eq!(events.len(), 2, "{events:#?}");
    assert_eq!(events[0]["success"], true);
    assert_eq!(events[1]["success"], false);
    let failed = events[1]["detail"].as_str().unwrap();
    assert!(
        failed.contains("attempt 1 failed")
            && failed.contains("HTTP 500")
            && failed.contains("tried again in 1 s"),
        "{failed}"
    );
    let problems = doctor(&app, &reg).await;
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert_eq!(problems[0]["endpoint"], "backchannel_logout");
    assert!(problems[0]["problem"]
        .as_str()
        .unwrap()
        .contains("HTTP 500"));
    assert!(problems[0]["fix"].as_str().unwrap().contains("2xx"));

    let (m, _) = scrape(&app.api, &app.url("/metrics")).await;
    let logouts = "sso_bridge_backchannel_logouts_total";
    assert_eq!(count(&m, logouts, &[("outcome", "queued")]), 1.0);
    assert_eq!(count(&m, logouts, &[("outcome", "retrying")]), 1.0);
    assert_eq!(count(&m, logouts, &[("outcome", "delivered")]), 1.0);
    assert_eq!(count(&m, logouts, &[("outcome", "refused")]), 0.0);
}

#[tokio::test]
async fn a_4xx_is_not_tried_again() {
    let app = spawn_app(Backends::Embedded).await;
    let receiver = Receiver::start(&[Answer::Status(400), Answer::Status(200)]).await;
    let reg = app_told_at(&app, &receiver, CB).await;

    sign_in_and_out(&app, &reg).await;

    assert_eq!(receiver.wait_for(1, SOON).await.len(), 1);
    let events = audited_at_least(&app, &reg, 1).await;
    let refused = events[0]["detail"].as_str().unwrap();
    assert!(
        refused.contains("refused") && refused.contains("HTTP 400"),
        "{refused}"
    );
    assert!(
        refused.contains("invalid_request"),
        "what the app said: {refused}"
    );
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(receiver.received().len(), 1);
    let problems = doctor(&app, &reg).await;
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0]["fix"].as_str().unwrap().contains("logout+jwt"));
    let (user, pw) = app.superadmin();
    let (browser, _) = screen::sign_in(&app, user, pw).await;
    let (_, shown) = screen::get(&browser, &app, &format!("/admin/apps/{}", reg.client_id)).await;
    assert!(shown.contains("backchannel_logout"), "{shown}");
    assert!(shown.contains("sent by sso-bridge"), "{shown}");
    let (m, _) = scrape(&app.api, &app.url("/metrics")).await;
    let logouts = "sso_bridge_backchannel_logouts_total";
    assert_eq!(count(&m, logouts, &[("outcome", "refused")]), 1.0);
}

#[tokio::test]
async fn retrying_stops_about_two_minutes_after_the_logout_was_queued() {
    let app = spawn_app(Backends::Embedded).await;
    let receiver = Receiver::start(&[Answer::Status(503)]).await;
    let reg = app_told_at(&app, &receiver, CB).await;

    sign_in_and_out(&app, &reg).await;
    assert_eq!(receiver.wait_for(1, SOON).await.len(), 1);
    // Once the failed attempt is noted (and the next one due a second later), two minutes
    // pass.
    let events = audited_at_least(&app, &reg, 1).await;
    assert!(events[0]["detail"]
        .as_str()
        .unwrap()
        .contains("tried again in 1 s"));
    app.clock.advance(121);

    assert_eq!(receiver.wait_for(2, SOON).await.len(), 2);
    let events = audited_at_least(&app, &reg, 2).await;
    let last = events[0]["detail"].as_str().unwrap();
    assert!(
        last.contains("given up after 2 attempts") && last.contains("HTTP 503"),
        "{last}"
    );
    app.clock.advance(3600);
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(receiver.received().len(), 2);
    let (m, _) = scrape(&app.api, &app.url("/metrics")).await;
    let logouts = "sso_bridge_backchannel_logouts_total";
    assert_eq!(count(&m, logouts, &[("outcome", "gave_up")]), 1.0);
}

#[tokio::test]
async fn a_refused_connection_and_an_answer_that_never_comes_are_tried_again() {
    let app = spawn_app(Backends::Embedded).await;
    // Nothing listens there yet, and no other test can listen there meanwhile.
    let held = Reserved::hold();
    let uri = format!(
        "http://127.0.0.1:{}/backchannel-logout?tenant=7",
        held.port()
    );
    let reg = app
        .register_with(CB, serde_json::json!({ "backchannel_logout_uri": uri }))
        .await;

    sign_in_and_out(&app, &reg).await;
    let events = audited_at_least(&app, &reg, 1).await;
    let refused = events[0]["detail"].as_str().unwrap();
    assert!(
        refused.contains("attempt 1 failed: no connection"),
        "{refused}"
    );

    // Now it listens, but the first request it gets is never answered.
    let port = held.release();
    let receiver = Receiver::start_on(port, &[Answer::Hang, Answer::Status(200)]).await;
    let got = receiver.wait_for(2, Duration::from_secs(20)).await;
    assert_eq!(got.len(), 2);
    let timed_out = got[1].at - got[0].at;
    assert!(timed_out >= Duration::from_secs(5), "{timed_out:?}");
    let events = audited_at_least(&app, &reg, 3).await;
    let details: Vec<&str> = events
        .iter()
        .map(|e| e["detail"].as_str().unwrap())
        .collect();
    assert!(details[0].contains("delivered"), "{details:#?}");
    assert!(details[1].contains("no answer within 5 s"), "{details:#?}");
}

#[tokio::test]
async fn what_is_queued_is_delivered_by_whichever_node_runs_next_even_what_a_stopped_node_had_claimed(
) {
    use sso_bridge::clock::{Clock, SystemClock};
    use sso_bridge::store::redis::RedisStore;
    use sso_bridge::store::{ClientStore, LogoutJob, LogoutQueue};

    // The store as the nodes of a stopped deployment left it: an app, a logout queued and not
    // sent, and one claimed by a node that stopped while sending it.
    let redis = crate::support::redis::RedisServer::shared();
    let prefix = format!(
        "bcl{}:",
        sso_bridge::domain::secret::random_id(6).to_lowercase()
    );
    let env = [("SSO_BRIDGE__STORE__KEY_PREFIX", prefix.clone())];
    let settings = settings(Backends::Real, 0, Some(&redis), &env);
    let store = RedisStore::new(&settings.store).unwrap();
    let receiver = Receiver::start(&[Answer::Status(200)]).await;
    let mut record = crate::store::fixtures::client("Left behind");
    record.backchannel_logout_uri = Some(receiver.url("/backchannel-logout?tenant=7"));
    store.put_client(&record).await.unwrap();
    let now = SystemClock.now();
    let job = |sid: &str| LogoutJob {
        id: sso_bridge::domain::secret::random_id(16),
        client_id: record.client_id.clone(),
        sub: "alan".into(),
        sid: Some(sid.into()),
        queued_at: now,
        attempts: 0,
    };
    store.put_logout(&job("queued"), now, 3600).await.unwrap();
    store.put_logout(&job("claimed"), now, 3600).await.unwrap();
    let claimed = store.claim_logouts(now, 60, 1).await.unwrap();
    assert_eq!(claimed.len(), 1);
    let claimed_sid = claimed[0].sid.clone().unwrap();

    let app = spawn_app_with(Backends::Real, &env).await;

    let got = receiver.wait_for(1, SOON).await;
    assert_eq!(got.len(), 1);
    let first = verified(&app, &got[0], record.client_id.as_str()).await;
    assert_ne!(first["sid"], claimed_sid.as_str());
    // The stopped node's claim runs out: the logout it held is sent too.
    app.clock.advance(61);
    let got = receiver.wait_for(2, SOON).await;
    assert_eq!(got.len(), 2);
    let second = verified(&app, &got[1], record.client_id.as_str()).await;
    assert_eq!(second["sid"], claimed_sid.as_str());
}
