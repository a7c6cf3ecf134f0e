//! `POST /oauth/login`: the directory sign-in form.

use super::flow::{FlowFields, FlowForm, Resumed, Step};
use super::second_factor::{self, ceremony_key, passkey_refusal, PasskeyForm};
use super::views::{HelpLink, PasskeyPrompt, SignInPage};
use crate::config::DirectorySettings;
use crate::directory::AccountState;
use crate::domain::username::UsernameError;
use crate::events::Place;
use crate::mfa::passkey;
use crate::session::pending::PendingRequest;
use crate::session::SESSION_COOKIE;
use crate::signin::{self, PasskeySignInError, PasswordError, Where, AMR_PWD};
use crate::state::AppState;
use crate::store::Device;
use crate::web::device::Browser;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::messages;
use crate::web::respond::{self, redirect};
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::Data;
use poem::{handler, Response};
use secrecy::SecretString;
use serde::Deserialize;

/// Path of the sign-in form's action.
pub const PATH: &str = "/oauth/login";
/// Path of the passwordless form's action ("Sign in with a passkey").
pub const PASSKEY_PATH: &str = "/oauth/login/passkey";

/// The sign-in form. No `Debug`: it holds a password.
#[derive(Deserialize)]
pub struct SignInForm {
    #[serde(default)]
    request_id: String,
    #[serde(default)]
    csrf_token: Option<String>,
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: Option<SecretString>,
}

impl FlowFields for SignInForm {
    fn flow_fields(&self) -> (&str, Option<&str>) {
        (&self.request_id, self.csrf_token.as_deref())
    }
}

impl Step for SignInForm {
    type Form = Self;
    const NAME: &'static str = "sign-in form";
}

/// "Sign in with a passkey".
pub enum PasskeySignIn {}

impl Step for PasskeySignIn {
    type Form = PasskeyForm;
    const NAME: &'static str = "passkey sign-in form";
}

/// Renders the sign-in page.
pub async fn signin_page(
    state: &AppState,
    app_name: &str,
    request_id: &str,
    csrf_token: &str,
    username: &str,
    error: Option<Text>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let page = SignInPage {
        passkey: passwordless_prompt(state, request_id).await?,
        ..view(state, app_name, request_id, csrf_token, username, error)
    };
    render(state, status, &page)
}

/// The page, allowed its passkey script when it offers a passkey.
fn render(state: &AppState, status: StatusCode, page: &SignInPage) -> Result<Response, PageError> {
    let response = respond::page(&state.templates, status, page)?;
    Ok(match page.passkey {
        Some(_) => respond::with_own_scripts(response),
        None => response,
    })
}

/// "Sign in with a passkey" for request `request_id`, with a new challenge, when
/// `mfa.passwordless` is on and passkeys are offered.
async fn passwordless_prompt(
    state: &AppState,
    request_id: &str,
) -> Result<Option<PasskeyPrompt>, PageError> {
    if !state.settings.mfa.passwordless || !passkey::offered(state) {
        return Ok(None);
    }
    let options = passkey::start_passwordless(state, &ceremony_key(request_id)).await?;
    Ok(Some(PasskeyPrompt {
        action: respond::url(&state.settings, PASSKEY_PATH),
        options,
    }))
}

/// The sign-in page's content, without a help link.
fn view(
    state: &AppState,
    app_name: &str,
    request_id: &str,
    csrf_token: &str,
    username: &str,
    error: Option<Text>,
) -> SignInPage {
    // The page shows again as the same request's page: the consent address shows the sign-in
    // form to a browser that is not signed in.
    i18n::return_to(format!(
        "{}?request_id={}",
        super::consent::PATH,
        url_encoded(request_id)
    ));
    SignInPage {
        app_name: app_name.to_owned(),
        action: respond::url(&state.settings, PATH),
        request_id: request_id.to_owned(),
        csrf_token: csrf_token.to_owned(),
        username: username.to_owned(),
        error,
        help: None,
        passkey: None,
    }
}

fn url_encoded(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

/// The link offered to someone the directory will not let in: where to change the password
/// when that is what stands in the way (else the help desk), the help desk otherwise.
fn help_for(directory: &DirectorySettings, account: AccountState) -> Option<HelpLink> {
    let link = |text: &'static str, url: &url::Url| HelpLink {
        text: Text::new(text),
        url: url.to_string(),
    };
    let help_desk = directory
        .help_url
        .as_ref()
        .map(|url| link("help-desk-link", url));
    match account {
        AccountState::PasswordExpired | AccountState::MustChangePassword => directory
            .password_change_url
            .as_ref()
            .map(|url| link("change-password-link", url))
            .or(help_desk),
        AccountState::Disabled | AccountState::Expired | AccountState::Locked => help_desk,
    }
}

/// Checks the password with the directory and starts the SSO session.
#[handler]
pub async fn login(
    jar: &CookieJar,
    Browser {
        device,
        ip: address,
    }: Browser,
    Data(state): Data<&AppState>,
    FlowForm { flow, form }: FlowForm<SignInForm, Resumed>,
) -> Result<Response, PageError> {
    let Resumed {
        request_id,
        pending,
        client,
    } = &flow;
    let username = form.username.trim();
    let again = |message: &'static str, status| {
        signin_page(
            state,
            &client.name,
            request_id,
            &pending.csrf_token,
            username,
            Some(Text::new(message)),
            status,
        )
    };
    let Some(password) = form.password.filter(|_| !username.is_empty()) else {
        return again("signin-missing", StatusCode::BAD_REQUEST).await;
    };
    let at = Where {
        place: Place::App,
        client_id: Some(&client.client_id),
        address,
    };
    let passed = match signin::check_password(state, at, username, &password).await {
        Ok(passed) => passed,
        Err(PasswordError::Name(UsernameError::Empty)) => {
            return again("signin-missing", StatusCode::BAD_REQUEST).await
        }
        Err(PasswordError::Name(UsernameError::TooLong)) => {
            return again("signin-username-too-long", StatusCode::BAD_REQUEST).await
        }
        Err(PasswordError::Name(UsernameError::ControlCharacter)) => {
            return again("signin-username-control", StatusCode::BAD_REQUEST).await
        }
        Err(PasswordError::Locked) => return again("locked", StatusCode::TOO_MANY_REQUESTS).await,
        Err(PasswordError::Invalid) => {
            return again("signin-wrong", StatusCode::UNAUTHORIZED).await
        }
        Err(PasswordError::Unusable(account)) => {
            let page = SignInPage {
                help: help_for(&state.settings.directory, account),
                ..view(
                    state,
                    &client.name,
                    request_id,
                    &pending.csrf_token,
                    username,
                    Some(messages::account_state(account)),
                )
            };
            return respond::page(&state.templates, StatusCode::FORBIDDEN, &page);
        }
        Err(PasswordError::NoSubject(dn)) => {
            return Err(PageError::UnusableAccount(format!(
                "{dn} has no subject attribute"
            )))
        }
        Err(PasswordError::Unavailable(e)) => return Err(e.into()),
    };
    let name = Some(passed.name.clone());
    let amr = vec![AMR_PWD.to_owned()];
    signed_in(
        state,
        jar,
        at,
        (&passed, amr, name),
        device,
        (request_id, pending),
    )
    .await
}

/// Signs in with a passkey alone ("Sign in with a passkey"): both factors at once.
#[handler]
pub async fn login_passkey(
    jar: &CookieJar,
    Browser {
        device,
        ip: address,
    }: Browser,
    Data(state): Data<&AppState>,
    FlowForm { flow, form }: FlowForm<PasskeySignIn, Resumed>,
) -> Result<Response, PageError> {
    let Resumed {
        request_id,
        pending,
        client,
    } = &flow;
    if !state.settings.mfa.passwordless {
        return Err(PageError::Expired);
    }
    let at = Where {
        place: Place::App,
        client_id: Some(&client.client_id),
        address,
    };
    let key = ceremony_key(request_id);
    let refused = |message: Text, status| {
        signin_page(
            state,
            &client.name,
            request_id,
            &pending.csrf_token,
            "",
            Some(message),
            status,
        )
    };
    let (passed, verified) =
        match signin::check_passwordless(state, at, &key, &form.credential).await {
            Ok(passed) => passed,
            Err(PasskeySignInError::Passkey(e)) => match passkey_refusal(&e) {
                Some((_, StatusCode::UNAUTHORIZED)) => {
                    let message = Text::new("signin-passkey-refused");
                    return refused(message, StatusCode::UNAUTHORIZED).await;
                }
                Some((message, status)) => return refused(Text::new(message), status).await,
                None => return Err(e.into()),
            },
            Err(PasskeySignInError::Gone) => {
                let message = Text::new("signin-passkey-account-unusable");
                return refused(message, StatusCode::FORBIDDEN).await;
            }
            Err(PasskeySignInError::Unusable(account)) => {
                return refused(messages::account_state(account), StatusCode::FORBIDDEN).await
            }
            Err(PasskeySignInError::Locked(_)) => {
                return refused(messages::locked(), StatusCode::TOO_MANY_REQUESTS).await
            }
            Err(PasskeySignInError::NoSubject(dn)) => {
                return Err(PageError::UnusableAccount(format!(
                    "{dn} has no subject attribute"
                )))
            }
        };
    // The passkey with user verification stands for both factors: no password in the `amr`.
    let amr: Vec<String> = passkey::methods(verified.user_verified)
        .iter()
        .map(|m| (*m).to_owned())
        .collect();
    // No password was typed: a re-check asks for the passkey.
    signed_in(
        state,
        jar,
        at,
        (&passed, amr, None),
        device,
        (request_id, pending),
    )
    .await
}

/// Files the successful sign-in at `at` and starts the SSO session of someone who passed it
/// with the methods `amr` (`name`: the name a password was checked under), sets its cookie, and
/// goes on: to the second factor when the policy or the person's own enrolment owes one, else
/// towards the code.
async fn signed_in(
    state: &AppState,
    jar: &CookieJar,
    at: Where<'_>,
    (passed, amr, name): (&signin::Passed, Vec<String>, Option<String>),
    device: Device,
    (request_id, pending): (&str, &PendingRequest),
) -> Result<Response, PageError> {
    let replaced = respond::cookie_value(&state.settings, jar, SESSION_COOKIE);
    // The sign-in is filed and the session written while what decides the next step is read:
    // they go to the store together, one wait instead of four.
    let ((), started, due, approved) = tokio::join!(
        signin::succeeded(state, at, passed.claims.sub()),
        signin::start_session(
            state,
            replaced.as_deref(),
            passed.claims.clone(),
            amr.clone(),
            device,
            name,
        ),
        crate::mfa::due(state, &passed.claims, &amr, Some(&passed.user)),
        second_factor::approved(state, pending, passed.claims.sub()),
    );
    let (session_id, session) = started?;
    jar.add(respond::cookie(
        &state.settings,
        SESSION_COOKIE,
        session_id,
        Some(state.settings.session.ttl.as_secs()),
    ));
    if let Some(next) = second_factor::location(state, due?, request_id) {
        return Ok(redirect(StatusCode::SEE_OTHER, &next));
    }
    second_factor::proceed_approved(state, request_id, pending, &session, approved?).await
}
