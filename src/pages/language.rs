//! `POST /language`: the language menu at the foot of every page. It remembers the choice in a
//! cookie for a year and sends the browser back to the page it came from, which then shows
//! itself in that language.

use crate::domain::Language;
use crate::state::AppState;
use crate::web::errors::PageError;
use crate::web::i18n::choose::menu_cookie;
use crate::web::i18n::{self, Text, MENU_COOKIE};
use crate::web::respond::{self, redirect};
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::{Data, Form, Query};
use poem::{handler, Response};
use serde::Deserialize;

/// How long the browser keeps the choice: a year.
const KEPT_SECS: u64 = 365 * 24 * 60 * 60;

/// The menu's form: the language picked.
#[derive(Debug, Deserialize)]
pub struct LanguageForm {
    #[serde(default)]
    lang: String,
}

/// The form action's query: the page to go back to (a path of this service).
#[derive(Debug, Deserialize)]
pub struct ReturnQuery {
    #[serde(default, rename = "return")]
    back: String,
}

/// Sets the language cookie and goes back to the page.
#[handler]
pub async fn choose(
    jar: &CookieJar,
    Data(state): Data<&AppState>,
    query: poem::Result<Query<ReturnQuery>>,
    form: poem::Result<Form<LanguageForm>>,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("language menu", e))?;
    let Query(query) = query.map_err(|e| PageError::unreadable("language menu", e))?;
    let picked = form.lang.trim();
    let Some(language) = Language::ALL.into_iter().find(|l| l.code() == picked) else {
        return Err(PageError::BadForm(
            Text::new("error-language-unknown"),
            format!("the language menu sent `{}`", picked.escape_debug()),
        ));
    };
    if !i18n::is_local_path(&query.back) {
        return Err(PageError::BadForm(
            Text::new("error-form-unreadable"),
            "the language menu's return address is not a path of this service".into(),
        ));
    }
    jar.add(respond::cookie(
        &state.settings,
        MENU_COOKIE,
        menu_cookie(language, state.now()),
        Some(KEPT_SECS),
    ));
    let back = respond::url(&state.settings, &query.back);
    Ok(redirect(StatusCode::SEE_OTHER, &back))
}
