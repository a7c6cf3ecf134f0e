//! The account page's changes to passkeys: add one (`/account/passkeys/add`, the ceremony's
//! page and its answer), rename one, remove one. Each asks for the re-check first
//! ([`reauth::ask`]) when the sign-in is not fresh; a rename or removal carries its passkey
//! and name through it ([`Pending`]). An id that is not the person's own is refused before
//! anything else, and again when the change is made.

use super::reauth::{self, Change, Pending};
use super::views::AccountPasskeyAddPage;
use super::{two_step, Signed, ADD_PASSKEY_PATH, PATH};
use crate::account::{passkeys, AccountError};
use crate::domain::Digest;
use crate::mfa::passkey::{self, PasskeyError};
use crate::mfa::MfaError;
use crate::pages::second_factor::passkey_refusal;
use crate::pages::views::PasskeyPrompt;
use crate::state::AppState;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::respond::{self, redirect};
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::{Data, Form};
use poem::{handler, Response};
use serde::Deserialize;

/// The add form: a name and the authenticator's answer.
#[derive(Deserialize)]
pub struct AddForm {
    #[serde(default)]
    csrf_token: Option<String>,
    #[serde(default)]
    name: String,
    /// The authenticator's answer, JSON, put here by `/assets/passkey.js`.
    #[serde(default)]
    credential: String,
}

/// The rename and remove forms: the passkey, and a new name for a rename.
#[derive(Debug, Deserialize)]
pub struct ChangeForm {
    #[serde(default)]
    csrf_token: Option<String>,
    #[serde(default)]
    passkey: String,
    #[serde(default)]
    name: String,
}

/// Where the add ceremony of this browser's session is kept.
fn ceremony_key(signed: &Signed) -> String {
    Digest::of(&format!("account-add-passkey\n{}", signed.cookie))
        .as_hex()
        .to_owned()
}

/// The ceremony's page, with a new challenge for each showing; the re-check instead when the
/// sign-in is not fresh. Every way to a new ceremony comes through here, the form's refusals
/// included, so a stale session can never be handed one.
async fn add_page(
    state: &AppState,
    signed: &Signed,
    error: Option<Text>,
    status: StatusCode,
) -> Result<Response, PageError> {
    if let Some(confirm_first) = reauth::ask(state, signed, Change::AddPasskey) {
        return Ok(confirm_first);
    }
    i18n::return_to(ADD_PASSKEY_PATH);
    let sub = signed.session.claims.sub();
    let display = signed.session.claims.get("name").unwrap_or(sub);
    let key = ceremony_key(signed);
    let options = match passkey::start_registration(state, sub, display, &key).await {
        Ok(options) => options,
        Err(e @ (PasskeyError::Full | PasskeyError::NotOffered)) => {
            let to = match e {
                PasskeyError::Full => format!("{PATH}?done=passkey_full"),
                _ => PATH.to_owned(),
            };
            return Ok(redirect(StatusCode::SEE_OTHER, &to));
        }
        Err(e) => return Err(MfaError::from(e).into()),
    };
    let page = AccountPasskeyAddPage {
        username: sub.to_owned(),
        csrf_token: signed.csrf_token(),
        passkey: PasskeyPrompt {
            action: respond::url(&state.settings, ADD_PASSKEY_PATH),
            options,
        },
        error,
    };
    Ok(respond::with_own_scripts(respond::page(
        &state.templates,
        status,
        &page,
    )?))
}

/// `GET /account/passkeys/add`: the ceremony's page.
#[handler]
pub async fn add_show(Data(state): Data<&AppState>, signed: Signed) -> Result<Response, PageError> {
    add_page(state, &signed, None, StatusCode::OK).await
}

/// `POST /account/passkeys/add`: the authenticator's answer, stored under the name given. The
/// ceremony exists only if its page was shown after a fresh sign-in, so the answer needs no
/// re-check of its own; a refused answer gets a new ceremony only through [`add_page`].
#[handler]
pub async fn add(
    jar: &CookieJar,
    Data(state): Data<&AppState>,
    form: poem::Result<Form<AddForm>>,
    signed: Signed,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("passkey form", e))?;
    signed.check(form.csrf_token.as_deref())?;
    let sub = signed.session.claims.sub();
    let key = ceremony_key(&signed);
    let added = match passkey::parse_name(&form.name) {
        Ok(name) => passkey::finish_registration(state, sub, &key, &name, &form.credential).await,
        Err(e) => Err(e),
    };
    match added {
        Ok((_, user_verified)) => {
            // The new key signed its registration: a second factor passed in this session,
            // without which the page would now ask for one.
            two_step::elevate(state, jar, &signed, passkey::methods(user_verified)).await?;
            Ok(redirect(
                StatusCode::SEE_OTHER,
                &format!("{PATH}?done=passkey_added"),
            ))
        }
        Err(e) => match passkey_refusal(&e) {
            Some(_) if matches!(e, PasskeyError::NoCeremony) => {
                let expired = Some(Text::new("passkey-expired"));
                add_page(state, &signed, expired, StatusCode::BAD_REQUEST).await
            }
            Some((message, status)) => {
                add_page(state, &signed, Some(Text::new(message)), status).await
            }
            None => Err(MfaError::from(e).into()),
        },
    }
}

/// `POST /account/passkeys/rename`.
#[handler]
pub async fn rename_form(
    Data(state): Data<&AppState>,
    form: poem::Result<Form<ChangeForm>>,
    signed: Signed,
) -> Result<Response, PageError> {
    let pending = own_change(state, &signed, form).await?;
    // A name that cannot be stored is said now, not after the re-check.
    passkey::parse_name(&pending.name).map_err(AccountError::from)?;
    if let Some(confirm_first) = reauth::ask_with(state, &signed, Change::RenamePasskey, &pending) {
        return Ok(confirm_first);
    }
    rename(state, &signed, &pending).await
}

/// `POST /account/passkeys/remove`.
#[handler]
pub async fn remove_form(
    Data(state): Data<&AppState>,
    form: poem::Result<Form<ChangeForm>>,
    signed: Signed,
) -> Result<Response, PageError> {
    let mut pending = own_change(state, &signed, form).await?;
    pending.name.clear();
    if let Some(confirm_first) = reauth::ask_with(state, &signed, Change::RemovePasskey, &pending) {
        return Ok(confirm_first);
    }
    remove(state, &signed, &pending).await
}

/// A rename or removal form, its token checked and its passkey the person's own.
async fn own_change(
    state: &AppState,
    signed: &Signed,
    form: poem::Result<Form<ChangeForm>>,
) -> Result<Pending, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("passkey form", e))?;
    signed.check(form.csrf_token.as_deref())?;
    passkeys::own(state, signed.session.claims.sub(), &form.passkey).await?;
    Ok(Pending {
        passkey: form.passkey,
        name: form.name,
    })
}

/// Renames the passkey of `pending`.
pub(super) async fn rename(
    state: &AppState,
    signed: &Signed,
    pending: &Pending,
) -> Result<Response, PageError> {
    passkeys::rename(state, signed.person(), &pending.passkey, &pending.name).await?;
    Ok(redirect(
        StatusCode::SEE_OTHER,
        &format!("{PATH}?done=passkey_renamed"),
    ))
}

/// Removes the passkey of `pending`, or says why it stays.
pub(super) async fn remove(
    state: &AppState,
    signed: &Signed,
    pending: &Pending,
) -> Result<Response, PageError> {
    let claims = &signed.session.claims;
    let done = match passkeys::remove(state, signed.person(), claims, &pending.passkey).await {
        Ok(()) => "passkey_removed",
        Err(AccountError::Required) => "passkey_required",
        Err(e) => return Err(e.into()),
    };
    Ok(redirect(
        StatusCode::SEE_OTHER,
        &format!("{PATH}?done={done}"),
    ))
}
