//! The pages' language: `ui_locales` for its sign-in, else the language menu's cookie, else
//! `Accept-Language` by q-value, else `server.default_language`; `<html lang>` and
//! `Content-Language` say which. The APIs stay in English.

use crate::helpers::*;
use reqwest::header::{ACCEPT_LANGUAGE, CONTENT_LANGUAGE, SET_COOKIE};
use reqwest::{Client, Response, StatusCode};

const CB: &str = "https://app.example.com/callback";
const B: Backends = Backends::Embedded;

fn params<'a>(reg: &'a Registered, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut p = vec![
        ("client_id", reg.client_id.as_str()),
        ("redirect_uri", reg.redirect_uri.as_str()),
        ("response_type", "code"),
        ("scope", "openid email"),
        ("state", "st-1"),
    ];
    p.extend_from_slice(extra);
    p
}

/// The authorize page for `reg` with `extra` parameters, sent with `accept` as the browser's
/// Accept-Language.
async fn authorize(
    app: &TestApp,
    browser: &Client,
    reg: &Registered,
    extra: &[(&str, &str)],
    accept: Option<&str>,
) -> Response {
    let mut request = browser
        .get(app.url("/oauth/authorize"))
        .query(&params(reg, extra));
    if let Some(accept) = accept {
        request = request.header(ACCEPT_LANGUAGE, accept);
    }
    request.send().await.unwrap()
}

/// The language a page is in, by `Content-Language` and by `<html lang>` (which must agree),
/// and its body.
async fn language(response: Response) -> (String, String) {
    let header = response
        .headers()
        .get(CONTENT_LANGUAGE)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let body = response.text().await.unwrap();
    assert!(
        body.contains(&format!(r#"<html lang="{header}">"#)),
        "Content-Language {header:?} and <html lang> disagree: {body}"
    );
    (header, body)
}

/// The language menu's form action on `page`.
fn menu_action(page: &str) -> String {
    let needle = r#"<form class="language-menu" method="post" action=""#;
    let start = page.find(needle).expect("a language menu") + needle.len();
    let end = start + page[start..].find('"').unwrap();
    unescape(&page[start..end])
}

/// Picks `lang` from `page`'s menu; answers the menu's response.
async fn pick(browser: &Client, page: &str, lang: &str) -> Response {
    browser
        .post(menu_action(page))
        .form(&[("lang", lang)])
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn pages_are_english_unless_something_chooses_and_say_so() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let r = authorize(&app, &app.browser(), &reg, &[], None).await;
    assert_eq!(r.status(), StatusCode::OK);
    let (lang, page) = language(r).await;
    assert_eq!(lang, "en");
    assert!(page.contains("<h1>Sign in</h1>"), "{page}");
    assert!(menu_action(&page).starts_with(&format!("{}/language?return=", app.base)));
    for code in ["en", "de", "fr", "es"] {
        assert!(
            page.contains(&format!(r#"<option value="{code}" lang="{code}""#)),
            "{page}"
        );
    }
}

#[tokio::test]
async fn accept_language_chooses_by_q_value() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let browser = app.browser();
    for (accept, want, heading) in [
        ("nl, fr;q=0.8, de;q=0.9", "de", "<h1>Anmelden</h1>"),
        ("es-MX", "es", "<h1>Iniciar sesión</h1>"),
        ("fr-CA, en;q=0.5", "fr", "<h1>Connexion</h1>"),
        ("de;q=0, nl, *", "en", "<h1>Sign in</h1>"),
    ] {
        let (lang, page) = language(authorize(&app, &browser, &reg, &[], Some(accept)).await).await;
        assert_eq!(lang, want, "Accept-Language: {accept}");
        assert!(page.contains(heading), "{accept}: {page}");
    }
}

#[tokio::test]
async fn the_default_language_setting_applies_when_nothing_else_chooses() {
    let app = spawn_app_with(B, &[("SSO_BRIDGE__SERVER__DEFAULT_LANGUAGE", "fr".into())]).await;
    let reg = app.register(CB, false).await;
    let browser = app.browser();
    let (lang, _) = language(authorize(&app, &browser, &reg, &[], None).await).await;
    assert_eq!(lang, "fr");
    let (lang, _) = language(authorize(&app, &browser, &reg, &[], Some("nl, ja")).await).await;
    assert_eq!(lang, "fr");
    let (lang, _) = language(authorize(&app, &browser, &reg, &[], Some("es")).await).await;
    assert_eq!(lang, "es");
}

#[tokio::test]
async fn the_menu_beats_the_browser_and_ui_locales_beat_the_menu_for_their_sign_in() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let browser = app.browser();
    let (_, page) = language(authorize(&app, &browser, &reg, &[], Some("de")).await).await;

    // The menu: a cookie for a year, and back to the page, which shows itself in Spanish.
    let picked = pick(&browser, &page, "es").await;
    assert_eq!(picked.status(), StatusCode::SEE_OTHER);
    let cookie = picked
        .headers()
        .get(SET_COOKIE)
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    assert!(cookie.starts_with("sso_lang=es."), "{cookie}");
    assert!(
        cookie.contains("Max-Age=31536000") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
    let back = location(&picked);
    assert!(
        back.starts_with(&format!("{}/oauth/consent?request_id=", app.base)),
        "{back}"
    );
    let (lang, again) = language(browser.get(&back).send().await.unwrap()).await;
    assert_eq!(lang, "es");
    assert!(again.contains("<h1>Iniciar sesión</h1>"), "{again}");

    // The cookie outranks Accept-Language on every later page.
    let (lang, _) = language(authorize(&app, &browser, &reg, &[], Some("de")).await).await;
    assert_eq!(lang, "es");

    // ui_locales outranks the cookie, for its sign-in: the page, and the page a refused
    // password shows, which comes from the kept request.
    let asked = authorize(
        &app,
        &browser,
        &reg,
        &[("ui_locales", "nl fr-CA")],
        Some("de"),
    )
    .await;
    let (lang, page) = language(asked).await;
    assert_eq!(lang, "fr");
    let refused = app
        .submit(
            &browser,
            &page,
            &[("username", "alan"), ("password", "wrong")],
        )
        .await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let (lang, refused) = language(refused).await;
    assert_eq!(lang, "fr");
    assert!(
        refused.contains("Le nom d’utilisateur ou le mot de passe est incorrect."),
        "{refused}"
    );

    // A sign-in without ui_locales is the person's again.
    let (lang, _) = language(authorize(&app, &browser, &reg, &[], None).await).await;
    assert_eq!(lang, "es");
}

#[tokio::test]
async fn a_pick_from_the_menu_during_a_sign_in_wins_over_its_ui_locales() {
    let app = spawn_app(B).await;
    let reg = app.register(CB, false).await;
    let browser = app.browser();
    let (lang, page) =
        language(authorize(&app, &browser, &reg, &[("ui_locales", "fr")], None).await).await;
    assert_eq!(lang, "fr");
    // The menu's cookie is stamped to the second: let it be later than the sign-in's start.
    app.clock.advance(2);
    let picked = pick(&browser, &page, "de").await;
    let (lang, page) = language(browser.get(location(&picked)).send().await.unwrap()).await;
    assert_eq!(lang, "de");
    // And the rest of that sign-in follows the pick: the consent page is German.
    let after = app
        .submit(
            &browser,
            &page,
            &[("username", "alan"), ("password", &app.password("alan"))],
        )
        .await;
    assert_eq!(after.status(), StatusCode::SEE_OTHER);
    let (lang, consent) = language(browser.get(location(&after)).send().await.unwrap()).await;
    assert_eq!(lang, "de");
    assert!(
        consent.contains(r#"value="approve">Erlauben</button>"#),
        "{consent}"
    );
}

#[tokio::test]
async fn the_menu_takes_only_its_languages_and_returns_only_to_this_service() {
    let app = spawn_app(B).await;
    let browser = app.browser();
    let post = |ret: &'static str, lang: &'static str| {
        let browser = browser.clone();
        let url = format!("{}/language?return={ret}", app.base);
        async move {
            browser
                .post(url)
                .form(&[("lang", lang)])
                .send()
                .await
                .unwrap()
        }
    };
    for (ret, lang) in [
        ("%2Fadmin%2Flogin", "nl"),
        ("%2F%2Fevil.example%2F", "de"),
        ("https%3A%2F%2Fevil.example%2F", "de"),
        ("", "de"),
    ] {
        let r = post(ret, lang).await;
        assert_eq!(
            r.status(),
            StatusCode::BAD_REQUEST,
            "return={ret} lang={lang}"
        );
        assert!(r.headers().get(SET_COOKIE).is_none());
        assert!(r.headers().get("location").is_none());
    }
    let ok = post("%2Fadmin%2Flogin", "de").await;
    assert_eq!(ok.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&ok), format!("{}/admin/login", app.base));
    let (lang, page) = language(browser.get(location(&ok)).send().await.unwrap()).await;
    assert_eq!(lang, "de");
    assert!(
        page.contains("Verwaltung von Identität &amp; SSO"),
        "{page}"
    );
}

#[tokio::test]
async fn error_pages_speak_the_language_and_have_no_form() {
    let app = spawn_app(B).await;
    let r = app
        .api
        .get(app.url("/oauth/authorize?client_id=nobody&redirect_uri=https%3A%2F%2Fx"))
        .header(ACCEPT_LANGUAGE, "es")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let (lang, page) = language(r).await;
    assert_eq!(lang, "es");
    assert!(page.contains("<h1>Aplicación desconocida</h1>"), "{page}");
    assert!(!page.contains("<form"), "{page}");
}

#[tokio::test]
async fn the_apis_stay_english_and_discovery_lists_the_languages() {
    let app = spawn_app(B).await;
    let token = |accept: &'static str| {
        let client = app.api.clone();
        let url = app.url("/oauth/token");
        async move {
            client
                .post(url)
                .header(ACCEPT_LANGUAGE, accept)
                .form(&[("grant_type", "password")])
                .send()
                .await
                .unwrap()
        }
    };
    let german = token("de").await;
    assert!(german.headers().get(CONTENT_LANGUAGE).is_none());
    let german: serde_json::Value = german.json().await.unwrap();
    let english: serde_json::Value = token("en").await.json().await.unwrap();
    assert_eq!(german, english);
    let discovery = app.get_json("/.well-known/openid-configuration").await;
    assert_eq!(
        discovery["ui_locales_supported"],
        serde_json::json!(["en", "de", "fr", "es"])
    );
}
