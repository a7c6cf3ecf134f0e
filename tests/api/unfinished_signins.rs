//! Unfinished sign-ins: anyone can open the sign-in page without an account, so what is kept
//! for unanswered pages is bounded per browser and per address, while any number of sign-ins
//! that finish go through; and the process's memory stays flat under a flood of requests.

use crate::helpers::*;
use crate::support::node::Node;
use crate::support::streamed::{self, Framing};
use futures::stream::{self, StreamExt};
use reqwest::{Client, StatusCode};
use sso_bridge::domain::bounds;

const CB: &str = "https://app.example.com/callback";

fn params(reg: &Registered) -> Vec<(&str, &str)> {
    vec![
        ("client_id", reg.client_id.as_str()),
        ("redirect_uri", reg.redirect_uri.as_str()),
        ("response_type", "code"),
        ("scope", "openid"),
        ("state", "s"),
    ]
}

/// The sign-in page of a new authorize request in `browser`.
async fn sign_in_page(app: &TestApp, browser: &Client, reg: &Registered) -> String {
    let page = app.authorize(browser, &params(reg)).await;
    assert_eq!(page.status(), StatusCode::OK);
    page.text().await.unwrap()
}

#[tokio::test]
async fn a_browser_keeps_its_newest_twenty_sign_in_pages_and_an_older_one_says_it_expired() {
    for backends in [Backends::Embedded, Backends::Real] {
        let app = spawn_app(backends).await;
        let reg = app.register(CB, false).await;
        let browser = app.browser();
        let mut pages = Vec::new();
        for _ in 0..21 {
            pages.push(sign_in_page(&app, &browser, &reg).await);
        }
        let password = app.password("alan");
        let fields = [("username", "alan"), ("password", password.as_str())];

        let oldest = app.submit(&browser, &pages[0], &fields).await;
        assert_eq!(oldest.status(), StatusCode::BAD_REQUEST, "{backends:?}");
        assert!(oldest.text().await.unwrap().contains("has expired"));
        let second = app.submit(&browser, &pages[1], &fields).await;
        assert_eq!(second.status(), StatusCode::SEE_OTHER, "{backends:?}");
        if backends == Backends::Real {
            // The one signed in waits for consent: still twenty.
            assert_eq!(app.stored_keys("authreq:").await, 20);
        }
    }
}

#[tokio::test]
async fn one_address_cannot_fill_the_store_with_unfinished_sign_ins() {
    let app = spawn_app_with(
        Backends::Real,
        &[("SSO_BRIDGE__SESSION__REQUESTS_PER_ADDRESS", "50".into())],
    )
    .await;
    let reg = app.register(CB, false).await;
    let first_browser = app.browser();
    let first = sign_in_page(&app, &first_browser, &reg).await;
    // New browsers each time (no cookie), as a script would: only the address bound holds.
    for _ in 0..120 {
        sign_in_page(&app, &app.browser(), &reg).await;
    }

    assert_eq!(app.stored_keys("authreq:").await, 50);
    assert_eq!(
        app.stored_keys("pendby:").await,
        51,
        "one group per browser kept, and the address"
    );
    let password = app.password("alan");
    let r = app
        .submit(
            &first_browser,
            &first,
            &[("username", "alan"), ("password", &password)],
        )
        .await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST, "the oldest gave way");
}

#[tokio::test]
async fn three_hundred_sign_ins_from_one_address_all_go_through_with_fifty_at_a_time() {
    // Far more sign-ins than the address's bound: finished ones leave room at once, so only
    // what waits at the same moment counts.
    let app = spawn_app_with(
        Backends::Real,
        &[("SSO_BRIDGE__SESSION__REQUESTS_PER_ADDRESS", "60".into())],
    )
    .await;
    let reg = app.register(CB, false).await;
    // Several people, as behind a proxy: each account's own limit counts its attempts in
    // flight, and no one signs in fifty times at once.
    let users = [
        "alan", "grace", "linus", "hedy", "ken", "barbara", "margaret", "ada",
    ];
    let codes: Vec<String> = stream::iter(0..300)
        .map(|i| {
            let app = &app;
            let reg = &reg;
            async move {
                let user = users[i % users.len()];
                let password = app.password(user);
                let location = app
                    .sign_in_and_approve(&app.browser(), reg, user, &password, &[])
                    .await;
                query(&location)["code"].clone()
            }
        })
        .buffer_unordered(50)
        .collect()
        .await;

    assert_eq!(codes.len(), 300);
    assert_eq!(app.stored_keys("authreq:").await, 0);
}

/// Authorize GETs with every parameter at its maximum, from new browsers, 32 at a time.
async fn flood_of_sign_in_pages(node: &Node, client_id: &str, count: usize) {
    let state = "s".repeat(bounds::STATE);
    let nonce = "n".repeat(bounds::NONCE);
    let hint = "h".repeat(bounds::LOGIN_HINT);
    let redirect = format!("{CB}?{}", "r".repeat(bounds::REDIRECT_URI - CB.len() - 1));
    let url = reqwest::Url::parse_with_params(
        &node.url("/oauth/authorize"),
        [
            ("client_id", client_id),
            ("redirect_uri", &redirect),
            ("response_type", "code"),
            ("scope", "openid profile email"),
            ("state", &state),
            ("nonce", &nonce),
            ("login_hint", &hint),
        ],
    )
    .unwrap();
    let client = Client::new();
    stream::iter(0..count)
        .for_each_concurrent(32, |_| {
            let (client, url) = (&client, url.clone());
            async move {
                let r = client.get(url).send().await.unwrap();
                assert_eq!(r.status(), StatusCode::OK);
                r.bytes().await.unwrap();
            }
        })
        .await;
}

#[tokio::test]
async fn memory_stays_flat_under_huge_bodies_and_a_flood_of_unfinished_sign_ins() {
    // The embedded default keeps pending requests in the process itself: the harder case.
    let node = Node::embedded(&[]).await;
    let redirect = format!("{CB}?{}", "r".repeat(bounds::REDIRECT_URI - CB.len() - 1));
    let app = node.register(&redirect, false).await;
    let client_id = app.client_id;
    // Warm up: the allocator's and the runtime's working set, before the baseline.
    flood_of_sign_in_pages(&node, &client_id, 200).await;
    let baseline = node.memory_kib("VmRSS");

    for path in [
        "/oauth/token",
        "/oauth/login",
        "/oauth/revoke",
        "/admin/api/session",
    ] {
        let content_type = if path.starts_with("/admin") {
            "application/json"
        } else {
            "application/x-www-form-urlencoded"
        };
        for _ in 0..3 {
            let answer = streamed::post(
                node.addr(),
                path,
                content_type,
                100 << 20,
                Framing::Declared,
            )
            .await;
            assert_eq!(answer.status, 413, "{path}");
        }
    }
    // Six times the address's bound of 1,000, each as large as the limits allow.
    flood_of_sign_in_pages(&node, &client_id, 6000).await;

    let peak = node.memory_kib("VmHWM");
    let growth_mib = peak.saturating_sub(baseline) / 1024;
    eprintln!("resident: {baseline} KiB after warm-up, peak {peak} KiB");
    assert!(
        growth_mib < 24,
        "the peak grew {growth_mib} MiB over {baseline} KiB"
    );
}
