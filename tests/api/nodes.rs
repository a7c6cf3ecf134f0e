//! Several nodes on one Redis act as one service: two `sso-bridge serve` processes, the real
//! binary, sharing a Redis server and a directory, each request sent to either of them as a load
//! balancer would.

use crate::helpers::*;
use crate::store::redis_only::raw;
use crate::support::node::{deployment, Node};
use crate::support::redis::RedisServer;
use redis::AsyncCommands;
use reqwest::{Response, StatusCode};
use serde_json::Value;
use std::sync::Arc;

const CB: &str = "https://app.example.com/callback";

/// Two nodes of one deployment on the shared Redis, known by one public address, node A's
/// (forms and redirects point there), with `extra` settings on both.
async fn two_nodes(extra: &[(&'static str, String)]) -> (Arc<RedisServer>, Node, Node) {
    let redis = RedisServer::shared();
    let mut settings = deployment();
    settings.extend_from_slice(extra);
    let a = Node::start(&redis, &settings).await;
    settings.push(("SSO_BRIDGE__SERVER__BASE_URL", a.base.clone()));
    let b = Node::start(&redis, &settings).await;
    (redis, a, b)
}

/// The authorize parameters of `reg`, with `extra` ones.
fn authorize_params<'a>(
    reg: &'a Registered,
    extra: &[(&'a str, &'a str)],
) -> Vec<(&'a str, &'a str)> {
    let mut params = vec![
        ("client_id", reg.client_id.as_str()),
        ("redirect_uri", reg.redirect_uri.as_str()),
        ("response_type", "code"),
        ("scope", "openid profile"),
        ("state", "s"),
    ];
    params.extend_from_slice(extra);
    params
}

#[tokio::test]
async fn two_nodes_on_one_redis_act_as_one_service() {
    let (_redis, a, b) = two_nodes(&[]).await;
    let reg = a.register(CB, false).await;

    // Sign in on A; on B the same browser is signed in already and gets a code at once.
    let browser = a.browser();
    let on_a = Pkce::new();
    let pkce = [
        ("code_challenge", on_a.challenge.as_str()),
        ("code_challenge_method", "S256"),
    ];
    let password = a.password("alan");
    let back = a
        .sign_in_and_approve(&browser, &reg, "alan", &password, &pkce)
        .await;
    let code_from_a = query(&back)["code"].clone();
    let on_b = Pkce::new();
    let pkce = [
        ("code_challenge", on_b.challenge.as_str()),
        ("code_challenge_method", "S256"),
    ];
    let sso = b.authorize(&browser, &authorize_params(&reg, &pkce)).await;
    assert_eq!(sso.status(), StatusCode::FOUND);
    let back = location(&sso);
    assert!(back.starts_with(CB), "{back}");
    let code_from_b = query(&back)["code"].clone();

    // A code issued by A is redeemed on B, and B's on A.
    let from_a = b.exchange(&reg, &code_from_a, &on_a.verifier).await;
    let from_b = a.exchange(&reg, &code_from_b, &on_b.verifier).await;

    // A refresh on A, the next one on B.
    let first = json(a.refresh(&reg, str_of(&from_b, "refresh_token")).await).await;
    let second = json(b.refresh(&reg, str_of(&first, "refresh_token")).await).await;
    let access = str_of(&second, "access_token");
    let claims = json(a.userinfo(access).await).await;
    assert_eq!(claims["sub"], "alan");
    // Every connection of A keeps a copy of the token now.
    for _ in 0..8 {
        assert_eq!(a.userinfo(access).await.status(), StatusCode::OK);
    }

    // A revocation on B is seen on A, by every connection: at once, or within the second a
    // copy lives when a request beats the invalidation.
    let revoked = b.revoke(&reg, access).await;
    assert_eq!(revoked.status(), StatusCode::OK);
    for _ in 0..8 {
        let refused = within_a_cached_copy(StatusCode::UNAUTHORIZED, || a.userinfo(access)).await;
        assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    }

    // The code B redeemed, replayed on A, is refused, and the grant it gave is revoked on B.
    let replay = a
        .token(
            &reg,
            &[
                ("grant_type", "authorization_code"),
                ("code", &code_from_a),
                ("redirect_uri", CB),
                ("code_verifier", &on_a.verifier),
            ],
        )
        .await;
    assert_eq!(replay.status(), StatusCode::BAD_REQUEST);
    let stolen = str_of(&from_a, "access_token");
    assert_eq!(b.userinfo(stolen).await.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn an_app_disabled_through_one_node_is_refused_by_the_other_within_a_second() {
    let (_redis, a, b) = two_nodes(&[]).await;
    let reg = a.register(CB, false).await;
    let tokens = b.tokens_for(&reg, "alan").await;

    // The superadmin disables the app with the CLI, through node A.
    let (id, server) = (reg.client_id.clone(), a.base.clone());
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_sso-bridge"))
            .args(["apps", "disable", "--admin", "ada", "--server", &server])
            // A client id may start with `-`.
            .args(["--json", "--", &id])
            .env("SSO_BRIDGE_ADMIN_PASSWORD", "ada-pw")
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

    // Node B refuses it: its token requests, its tokens and its sign-ins, at once or within
    // the second a copy of a read lives. (Even from a copy, a token request gets nothing: the
    // app's tokens are gone and the issuing scripts check the app.)
    let refresh = str_of(&tokens, "refresh_token");
    let refused = within_a_cached_copy(StatusCode::UNAUTHORIZED, || b.refresh(&reg, refresh)).await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let refused: Value = refused.json().await.unwrap();
    assert_eq!(refused["error"], "invalid_client");
    let access = str_of(&tokens, "access_token");
    let gone = within_a_cached_copy(StatusCode::UNAUTHORIZED, || b.userinfo(access)).await;
    assert_eq!(gone.status(), StatusCode::UNAUTHORIZED);
    let (params, browser) = (authorize_params(&reg, &[]), b.browser());
    let page =
        within_a_cached_copy(StatusCode::BAD_REQUEST, || b.authorize(&browser, &params)).await;
    assert_eq!(page.status(), StatusCode::BAD_REQUEST);
    assert!(page.text().await.unwrap().contains("Unknown application"));
}

#[tokio::test]
async fn both_nodes_publish_the_same_keys_and_agree_on_one_rotation() {
    // A generated key two days old, as an earlier node stored it, due for rotation after one.
    let settings = [
        (SIGNING_KEY_FILE, String::new()),
        ("SSO_BRIDGE__OIDC__SIGNING_ALG", "ES256".into()),
        ("SSO_BRIDGE__OIDC__ROTATE_AFTER_DAYS", "1".into()),
    ];
    let mut settings = [deployment(), settings.to_vec()].concat();
    let prefix = settings
        .iter()
        .find(|(k, _)| *k == "SSO_BRIDGE__STORE__KEY_PREFIX")
        .map(|(_, v)| v.clone())
        .unwrap();
    let redis = RedisServer::shared();
    let two_days_ago = now() - 2 * 86_400;
    let pem = std::fs::read_to_string(fixture("oidc-es256.pem")).unwrap();
    let stored = serde_json::json!({"keys": [
        {"alg": "ES256", "pem": pem, "created_at": two_days_ago, "active_from": two_days_ago}
    ]});
    let mut conn = raw(&redis).await;
    let key = format!("{prefix}oidc:signing-keys");
    let _: () = conn.set(&key, stored.to_string()).await.unwrap();
    let a = Node::start(&redis, &settings).await;
    settings.push(("SSO_BRIDGE__SERVER__BASE_URL", a.base.clone()));
    let b = Node::start(&redis, &settings).await;

    // Both nodes read the keys at the same moment: both find the rotation due.
    let (on_a, on_b) = tokio::join!(a.jwks(), b.jwks());

    assert_eq!(on_a, on_b, "both nodes publish the same keys");
    let published = on_a["keys"].as_array().unwrap();
    let of = |keys: &[Value], alg: &str| keys.iter().filter(|k| k["alg"] == alg).count();
    // The old ES256 key and one new one; and one RS256 key for the apps that ask for it.
    assert_eq!(of(published, "ES256"), 2, "one rotation: {on_a}");
    assert_eq!(of(published, "RS256"), 1, "{on_a}");
    let stored: String = conn.get(&key).await.unwrap();
    let stored: Value = serde_json::from_str(&stored).unwrap();
    let stored = stored["keys"].as_array().unwrap();
    assert_eq!(
        (of(stored, "ES256"), of(stored, "RS256")),
        (2, 1),
        "one list"
    );
    // Both sign with the same key, the old one, until the new one is a minute old.
    let reg = a.register(CB, false).await;
    let signed_on_a = kid(&a.tokens_for(&reg, "alan").await);
    let signed_on_b = kid(&b.tokens_for(&reg, "alan").await);
    assert_eq!(signed_on_a, signed_on_b);
    assert_eq!(published[0]["kid"].as_str(), Some(signed_on_a.as_str()));
}

#[tokio::test]
async fn failed_sign_ins_count_across_nodes() {
    let limits = [
        ("SSO_BRIDGE__LIMITS__PASSWORD_PER_ACCOUNT", "3".to_owned()),
        ("SSO_BRIDGE__LIMITS__WINDOW_SECS", "600".to_owned()),
    ];
    let (_redis, a, b) = two_nodes(&limits).await;
    let reg = a.register(CB, false).await;

    // Three wrong passwords, on pages of either node posted to either, reach the limit.
    for (page_on, post_to) in [(&a, &b), (&b, &a), (&b, &b)] {
        let wrong = password_step(page_on, post_to, &a.base, &reg, "alan", "wrong").await;
        assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    }

    // Now the right password is refused on both.
    let right = a.password("alan");
    for node in [&a, &b] {
        let locked = password_step(node, node, &a.base, &reg, "alan", &right).await;
        assert_eq!(locked.status(), StatusCode::TOO_MANY_REQUESTS);
    }
}

/// Submits `password` on a sign-in page served by `page_on`, posting the form to `post_to`
/// (its action names the public address `public`, which a load balancer may send anywhere).
async fn password_step(
    page_on: &Node,
    post_to: &Node,
    public: &str,
    reg: &Registered,
    user: &str,
    password: &str,
) -> Response {
    let browser = page_on.browser();
    let page = page_on
        .authorize(&browser, &authorize_params(reg, &[]))
        .await;
    let form = Form::parse(&page.text().await.unwrap());
    let action = form.action.replacen(public, &post_to.base, 1);
    let mut body = form.hidden;
    body.extend([
        ("username".to_owned(), user.to_owned()),
        ("password".to_owned(), password.to_owned()),
    ]);
    browser.post(action).form(&body).send().await.unwrap()
}

/// The JSON body of a 200 answer.
async fn json(response: Response) -> Value {
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

fn str_of<'a>(body: &'a Value, field: &str) -> &'a str {
    body[field]
        .as_str()
        .unwrap_or_else(|| panic!("no {field} in {body}"))
}

/// The `kid` of the id_token in a token response.
fn kid(tokens: &Value) -> String {
    let header = jsonwebtoken::decode_header(str_of(tokens, "id_token")).unwrap();
    header.kid.unwrap()
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

#[tokio::test]
async fn two_nodes_on_one_redis_deliver_each_back_channel_logout_once() {
    use crate::support::receiver::{Answer, Receiver};
    use base64::Engine;
    use std::collections::HashSet;
    use std::time::Duration;

    let (_redis, a, b) = two_nodes(&[]).await;
    // Slow answers keep each delivery under way long enough for the other node to poll.
    let receiver = Receiver::start(&[Answer::Slowly(200, Duration::from_millis(300))]).await;
    let reg = a
        .register_with(
            CB,
            serde_json::json!({ "backchannel_logout_uri": receiver.url("/bcl") }),
        )
        .await;
    // Six sessions of alan with tokens of the app, signed in through either node.
    let mut sids = HashSet::new();
    for i in 0..6 {
        let node = if i % 2 == 0 { &a } else { &b };
        let tokens = node.tokens_for(&reg, "alan").await;
        let payload = str_of(&tokens, "id_token").split('.').nth(1).unwrap();
        let claims: Value = serde_json::from_slice(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(payload)
                .unwrap(),
        )
        .unwrap();
        sids.insert(claims["sid"].as_str().unwrap().to_owned());
    }
    assert_eq!(sids.len(), 6);

    let revoked = b
        .api
        .post(b.url("/admin/api/users/alan/revoke"))
        .bearer_auth(b.superadmin_token().await)
        .send()
        .await
        .unwrap();
    assert_eq!(revoked.status(), StatusCode::OK);

    let got = receiver.wait_for(6, Duration::from_secs(20)).await;
    assert_eq!(got.len(), 6);
    // Both nodes poll the queue every second; a few more seconds show nothing is sent twice.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let got = receiver.received();
    let told: HashSet<String> = got
        .iter()
        .map(|r| {
            let payload = r.logout_token.split('.').nth(1).unwrap();
            let claims: Value = serde_json::from_slice(
                &base64::engine::general_purpose::URL_SAFE_NO_PAD
                    .decode(payload)
                    .unwrap(),
            )
            .unwrap();
            claims["sid"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(got.len(), 6, "each logout delivered once");
    assert_eq!(told, sids);
}
