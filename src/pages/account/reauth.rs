//! `/account/confirm`: the re-check a change to the second factor asks for when the sign-in
//! is older than [`reauth::FRESH_FOR`](crate::account::reauth::FRESH_FOR). A change's handler
//! calls [`ask`] first; when the person must prove themselves again, they are sent here with
//! the change named in `next`, and once the proof passes the change goes on from here.
//!
//! A change to one passkey carries its id (`passkey`) and new name (`name`) through the
//! re-check, signed for this session (`sig`): a value changed on the way is refused, and the
//! id is looked up among the person's own passkeys again when the change is made.

use super::views::AccountReauthPage;
use super::{passkeys, two_step, Signed, ADD_PASSKEY_PATH, AUTHENTICATOR_PATH, CONFIRM_PATH};
use crate::account::reauth::{self, ReauthError, Reproof};
use crate::domain::Digest;
use crate::events::Place;
use crate::mfa::{passkey, MfaError};
use crate::pages::second_factor::{passkey_refusal, second_factor_prompt};
use crate::signin::Where;
use crate::state::AppState;
use crate::web::errors::PageError;
use crate::web::i18n::{self, Text};
use crate::web::messages;
use crate::web::respond::{self, redirect};
use poem::http::StatusCode;
use poem::web::{Data, Form, Query};
use poem::{handler, Response};
use secrecy::SecretString;
use serde::{Deserialize, Serialize};

/// A change that needs a fresh sign-in, by the name `next` carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// Set up or replace the authenticator app (the set-up page follows).
    Authenticator,
    /// Remove the authenticator app.
    RemoveAuthenticator,
    /// A new set of recovery codes.
    RecoveryCodes,
    /// Add a passkey (the ceremony's page follows).
    AddPasskey,
    /// Rename a passkey.
    RenamePasskey,
    /// Remove a passkey.
    RemovePasskey,
}

impl Change {
    fn as_str(self) -> &'static str {
        match self {
            Change::Authenticator => "authenticator",
            Change::RemoveAuthenticator => "remove_authenticator",
            Change::RecoveryCodes => "recovery_codes",
            Change::AddPasskey => "add_passkey",
            Change::RenamePasskey => "rename_passkey",
            Change::RemovePasskey => "remove_passkey",
        }
    }
}

/// The re-check `signed` owes before `change`, as a redirect to it; `None` while the sign-in
/// is fresh and the change may go ahead.
pub fn ask(state: &AppState, signed: &Signed, change: Change) -> Option<Response> {
    ask_with(state, signed, change, &Pending::default())
}

/// [`ask`] for a change to one passkey, which `pending` names.
pub fn ask_with(
    state: &AppState,
    signed: &Signed,
    change: Change,
    pending: &Pending,
) -> Option<Response> {
    reauth::needed(state, &signed.session)?;
    Some(redirect(
        StatusCode::SEE_OTHER,
        &confirm_url(signed, change, pending),
    ))
}

/// The re-check's address for `change` (and `pending`, signed).
fn confirm_url(signed: &Signed, change: Change, pending: &Pending) -> String {
    let mut to = format!("{CONFIRM_PATH}?next={}", change.as_str());
    if *pending != Pending::default() {
        let sig = pending.sig(signed, change);
        let query = serde_urlencoded::to_string([
            ("passkey", pending.passkey.as_str()),
            ("name", pending.name.as_str()),
            ("sig", sig.as_str()),
        ])
        .unwrap_or_default();
        to = format!("{to}&{query}");
    }
    to
}

/// What a change to one passkey carries through the re-check.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// The passkey's id.
    #[serde(default)]
    pub passkey: String,
    /// Its new name (a rename).
    #[serde(default)]
    pub name: String,
}

impl Pending {
    /// The signature of `self` for `change` in the session of `signed`: only this session's
    /// own pages can make it (its cookie is in it), and it covers every field.
    fn sig(&self, signed: &Signed, change: Change) -> String {
        let text = format!(
            "account-pending\n{}\n{}\n{}\n{}",
            signed.cookie,
            change.as_str(),
            self.passkey,
            self.name
        );
        Digest::of(&text).as_hex().to_owned()
    }

    /// Whether `sig` is this pending change's signature.
    fn signed_by(&self, signed: &Signed, change: Change, sig: &str) -> bool {
        Digest::of(sig).ct_eq(&Digest::of(&self.sig(signed, change)))
    }
}

/// `?next=` of the re-check page, and the pending change it carries.
#[derive(Debug, Deserialize)]
pub struct NextQuery {
    next: Change,
    #[serde(flatten)]
    pending: Pending,
    #[serde(default)]
    sig: String,
}

/// The re-check form. No `Debug`: it holds a password.
#[derive(Deserialize)]
pub struct ConfirmForm {
    #[serde(default)]
    csrf_token: Option<String>,
    next: Change,
    #[serde(flatten)]
    pending: Pending,
    #[serde(default)]
    sig: String,
    #[serde(default)]
    password: Option<SecretString>,
    /// The passkey's answer, put here by `/assets/passkey.js`.
    #[serde(default)]
    credential: Option<String>,
}

/// Where the re-check's passkey ceremony of this browser's session is kept.
fn ceremony_key(signed: &Signed) -> String {
    Digest::of(&format!("account-reauth\n{}", signed.cookie))
        .as_hex()
        .to_owned()
}

async fn page(
    state: &AppState,
    signed: &Signed,
    (next, pending, proof): (Change, &Pending, Reproof),
    error: Option<Text>,
    status: StatusCode,
) -> Result<Response, PageError> {
    i18n::return_to(confirm_url(signed, next, pending));
    let sub = signed.session.claims.sub();
    let passkey = match proof {
        Reproof::Password => None,
        Reproof::Passkey => {
            second_factor_prompt(state, sub, &ceremony_key(signed), CONFIRM_PATH).await?
        }
    };
    let page = AccountReauthPage {
        username: sub.to_owned(),
        csrf_token: signed.csrf_token(),
        next,
        passkey_id: pending.passkey.clone(),
        passkey_name: pending.name.clone(),
        sig: if *pending == Pending::default() {
            String::new()
        } else {
            pending.sig(signed, next)
        },
        password: proof == Reproof::Password,
        passkey,
        error,
    };
    let response = respond::page(&state.templates, status, &page)?;
    Ok(match page.passkey {
        Some(_) => respond::with_own_scripts(response),
        None => response,
    })
}

/// The proof this session gives: a passkey after a passwordless sign-in, unless the person
/// has none left (then their password, which the directory still checks).
async fn proof_of(state: &AppState, signed: &Signed) -> Result<Reproof, PageError> {
    let sub = signed.session.claims.sub();
    Ok(match reauth::how(&signed.session) {
        Reproof::Passkey if passkey::offered(state) => {
            let none = passkey::count(state, sub).await.map_err(MfaError::from)? == 0;
            if none {
                Reproof::Password
            } else {
                Reproof::Passkey
            }
        }
        _ => Reproof::Password,
    })
}

/// The pending change of a query or form, refused when its signature is not this session's.
fn checked(
    signed: &Signed,
    next: Change,
    pending: Pending,
    sig: &str,
) -> Result<Pending, PageError> {
    if pending == Pending::default() || pending.signed_by(signed, next, sig) {
        return Ok(pending);
    }
    Err(PageError::Forged)
}

/// `GET /account/confirm`.
#[handler]
pub async fn show(
    Data(state): Data<&AppState>,
    query: poem::Result<Query<NextQuery>>,
    signed: Signed,
) -> Result<Response, PageError> {
    let Query(query) = query.map_err(|e| PageError::unreadable("address", e))?;
    let pending = checked(&signed, query.next, query.pending, &query.sig)?;
    // A fresh sign-in is asked all the same: the person came here to confirm.
    let proof = proof_of(state, &signed).await?;
    page(
        state,
        &signed,
        (query.next, &pending, proof),
        None,
        StatusCode::OK,
    )
    .await
}

/// `POST /account/confirm`: checks the proof, then makes the change.
#[handler]
pub async fn confirm(
    Data(state): Data<&AppState>,
    form: poem::Result<Form<ConfirmForm>>,
    signed: Signed,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("form", e))?;
    signed.check(form.csrf_token.as_deref())?;
    let pending = checked(&signed, form.next, form.pending, &form.sig)?;
    let proof = proof_of(state, &signed).await?;
    let shown = (form.next, &pending, proof);
    let at = Where {
        place: Place::App,
        client_id: None,
        address: signed.ip,
    };
    let session = (signed.cookie.as_str(), &signed.session);
    let proved = match (proof, form.password, form.credential) {
        (Reproof::Password, Some(password), _) => {
            reauth::with_password(state, at, session, &password).await
        }
        (Reproof::Passkey, _, Some(answer)) => {
            let key = ceremony_key(&signed);
            reauth::with_passkey(state, at, session, (&key, &answer)).await
        }
        _ => {
            let missing = Some(Text::new("signin-missing"));
            return page(state, &signed, shown, missing, StatusCode::BAD_REQUEST).await;
        }
    };
    let wrong = match proof {
        Reproof::Password => "account-reauth-wrong",
        Reproof::Passkey => "passkey-refused",
    };
    let (message, status) = match proved {
        Ok(_) => return go_on(state, &signed, form.next, pending).await,
        Err(ReauthError::Wrong) => (Text::new(wrong), StatusCode::UNAUTHORIZED),
        Err(ReauthError::Unchecked(e)) => {
            // Said as the sign-in's passkey step says it: expired, no answer, or too large.
            let (message, status) =
                passkey_refusal(&e).unwrap_or(("passkey-expired", StatusCode::BAD_REQUEST));
            (Text::new(message), status)
        }
        Err(ReauthError::Locked) => (messages::locked(), StatusCode::TOO_MANY_REQUESTS),
        Err(ReauthError::Unusable(account)) => {
            (messages::account_state(account), StatusCode::FORBIDDEN)
        }
        Err(e) => return Err(e.into()),
    };
    page(state, &signed, shown, Some(message), status).await
}

/// Makes `change` once the person proved themselves again.
async fn go_on(
    state: &AppState,
    signed: &Signed,
    change: Change,
    pending: Pending,
) -> Result<Response, PageError> {
    match change {
        Change::Authenticator => Ok(redirect(StatusCode::SEE_OTHER, AUTHENTICATOR_PATH)),
        Change::RemoveAuthenticator => two_step::remove(state, signed).await,
        Change::RecoveryCodes => two_step::renew(state, signed).await,
        Change::AddPasskey => Ok(redirect(StatusCode::SEE_OTHER, ADD_PASSKEY_PATH)),
        Change::RenamePasskey => passkeys::rename(state, signed, &pending).await,
        Change::RemovePasskey => passkeys::remove(state, signed, &pending).await,
    }
}
