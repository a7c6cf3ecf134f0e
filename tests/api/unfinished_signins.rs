//! Unfinished sign-ins: anyone can open the sign-in page without an account, so what is kept
//! for unanswered pages is bounded per browser, per address and in all, while any number of
//! sign-ins that finish go through; a flood ends only the flooding browser's own requests,
//! never a neighbour's; and the process's memory stays flat under a flood of requests.

use crate::helpers::*;
use crate::support::metrics::{count, scrape};
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
async fn one_address_cannot_fill_the_store_and_its_flood_ends_no_colleagues_sign_in() {
    for backends in [Backends::Embedded, Backends::Real] {
        let app = spawn_app_with(
            backends,
            &[("SSO_BRIDGE__SESSION__REQUESTS_PER_ADDRESS", "50".into())],
        )
        .await;
        let reg = app.register(CB, false).await;
        // A colleague behind the same office address opens the sign-in page first...
        let colleague = app.browser();
        let waiting = sign_in_page(&app, &colleague, &reg).await;
        // ...then a script opens a thousand from new browsers (no cookie), as a flood would.
        let mut statuses = Vec::new();
        for _ in 0..1000 {
            statuses.push(app.authorize(&app.browser(), &params(&reg)).await.status());
        }

        let kept = statuses.iter().filter(|s| **s == StatusCode::OK).count();
        let refused = statuses
            .iter()
            .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
            .count();
        assert_eq!((kept, refused), (49, 951), "{backends:?}");
        if backends == Backends::Real {
            assert_eq!(app.stored_keys("authreq:").await, 50);
        }
        let page = app.authorize(&app.browser(), &params(&reg)).await;
        assert_eq!(page.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(page.headers()["retry-after"], "60");
        let text = page.text().await.unwrap();
        assert!(text.contains("Too many sign-ins"), "{text}");
        // The colleague's sign-in was not ended for the flood.
        let password = app.password("alan");
        let r = app
            .submit(
                &colleague,
                &waiting,
                &[("username", "alan"), ("password", &password)],
            )
            .await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{backends:?}");
    }
}

#[tokio::test]
async fn past_the_bound_on_all_unfinished_sign_ins_new_ones_wait_and_none_is_lost() {
    for backends in [Backends::Embedded, Backends::Real] {
        let (logs, _guard) = crate::support::logs::capture();
        let app = spawn_app_with(
            backends,
            &[
                ("SSO_BRIDGE__SESSION__REQUESTS_TOTAL", "30".into()),
                ("SSO_BRIDGE__SERVER__TRUSTED_PROXIES", "127.0.0.1".into()),
            ],
        )
        .await;
        let reg = app.register(CB, false).await;
        // Thirty people in thirty places open the sign-in page and leave it open.
        let mut open = Vec::new();
        for n in 0..30 {
            let browser = from_address(&format!("198.51.100.{n}"));
            open.push((sign_in_page(&app, &browser, &reg).await, browser));
        }
        // Everyone after them is told to come back later, calmly.
        for n in 0..5 {
            let browser = from_address(&format!("203.0.113.{n}"));
            let page = app.authorize(&browser, &params(&reg)).await;
            assert_eq!(
                page.status(),
                StatusCode::SERVICE_UNAVAILABLE,
                "{backends:?}"
            );
            assert_eq!(page.headers()["retry-after"], "60");
            let text = page.text().await.unwrap();
            assert!(text.contains("Sign-on is busy"), "{text}");
        }
        let (metrics, text) = scrape(&app.api, &app.url("/metrics")).await;
        assert_eq!(
            count(&metrics, "sso_bridge_pending_sign_ins", &[]),
            30.0,
            "{text}"
        );
        assert!(
            logs.text().contains("unfinished sign-ins near their bound"),
            "a warning from 80%"
        );
        // Nobody's waiting sign-in was lost; each one that finishes makes room.
        let password = app.password("alan");
        let (page, browser) = &open[0];
        let r = app
            .submit(
                browser,
                page,
                &[("username", "alan"), ("password", &password)],
            )
            .await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{backends:?}");
        let consent = browser.get(location(&r)).send().await.unwrap();
        let consent = consent.text().await.unwrap();
        let done = app
            .submit(browser, &consent, &[("decision", "approve")])
            .await;
        assert!(location(&done).starts_with(CB));
        let late = from_address("203.0.113.99");
        assert_eq!(
            app.authorize(&late, &params(&reg)).await.status(),
            StatusCode::OK,
            "{backends:?}"
        );
    }
}

#[tokio::test]
async fn state_and_nonce_of_two_kilobytes_each_still_sign_in() {
    for backends in [Backends::Embedded, Backends::Real] {
        let app = spawn_app(backends).await;
        let reg = app.register(CB, false).await;
        let (state, nonce) = ("s".repeat(2048), "n".repeat(2048));
        let password = app.password("alan");
        let location = app
            .sign_in_and_approve(
                &app.browser(),
                &reg,
                "alan",
                &password,
                &[("state", &state), ("nonce", &nonce)],
            )
            .await;
        assert_eq!(query(&location)["state"], state, "{backends:?}");
    }
}

/// A browser behind the trusted proxy, at `address`.
fn from_address(address: &str) -> Client {
    crate::proxies::browser_with("x-forwarded-for", address)
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
                // Past the address's bound, new ones are refused; the memory test wants both.
                let status = r.status();
                assert!(
                    status == StatusCode::OK || status == StatusCode::TOO_MANY_REQUESTS,
                    "{status}"
                );
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
    // Warm up: the allocator's and the runtime's working set, before the baseline. The baseline
    // is the high-water mark so far, not the resident size of the moment, which the allocator
    // may have just lowered by returning pages: the growth measured is the flood's own.
    flood_of_sign_in_pages(&node, &client_id, 200).await;
    let baseline = node.memory_kib("VmHWM");

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
    eprintln!("resident: peak {baseline} KiB after warm-up, {peak} KiB after the flood");
    assert!(
        growth_mib < 24,
        "the peak grew {growth_mib} MiB over {baseline} KiB"
    );
}
