//! `/account/login/passkey`: the account sign-in answered with a passkey, as the second step
//! after the password (the sign-in pages' second-factor ceremony) or, when `mfa.passwordless`
//! is on, alone.

use super::{finish, show, show_otp, LOGIN};
use crate::domain::Digest;
use crate::events::Place;
use crate::mfa::{passkey, MfaError};
use crate::pages::second_factor::passkey_refusal;
use crate::signin::{self, CodeError, PasskeySignInError, Where, AMR_PWD};
use crate::state::AppState;
use crate::web::device::Browser;
use crate::web::errors::PageError;
use crate::web::i18n::Text;
use crate::web::messages;
use poem::http::StatusCode;
use poem::web::cookie::CookieJar;
use poem::web::{Data, Form};
use poem::{handler, Response};
use serde::Deserialize;

/// Where the passkey ceremony of the sign-in under `login` is kept.
pub(super) fn passkey_key(login: &str) -> String {
    Digest::of(&format!("account-login-passkey\n{login}"))
        .as_hex()
        .to_owned()
}

/// The passkey form of the second step.
#[derive(Deserialize)]
pub struct PasskeyStepForm {
    #[serde(default)]
    csrf_token: String,
    /// The authenticator's answer, JSON, put here by `/assets/passkey.js`.
    #[serde(default)]
    credential: String,
}

/// `POST /account/login/passkey`: the second step answered with a passkey, checked as at the
/// sign-in pages (the same ceremony, under the same attempt limits).
#[handler]
pub async fn passkey_step(
    jar: &CookieJar,
    browser: Browser,
    Data(state): Data<&AppState>,
    form: poem::Result<Form<PasskeyStepForm>>,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| PageError::unreadable("passkey form", e))?;
    let login = LOGIN.check(&state.settings, jar, &form.csrf_token)?;
    let at = Where {
        place: Place::App,
        client_id: None,
        address: browser.ip,
    };
    let key = Digest::of(&login);
    let ceremony = passkey_key(&login);
    let Some(halfway) = state.store.halfway_sign_in(&key).await? else {
        return passwordless(state, jar, (&ceremony, &form.credential), at, browser).await;
    };
    let sub = halfway.claims.sub().to_owned();
    let (message, status) =
        match signin::check_passkey(state, at, &sub, &ceremony, &form.credential).await {
            Ok(verified) => {
                state.store.delete_halfway_sign_in(&key).await?;
                let mut amr = vec![AMR_PWD.to_owned()];
                amr.extend(
                    passkey::methods(verified.user_verified)
                        .iter()
                        .map(|m| (*m).to_owned()),
                );
                let signed_in = (halfway.claims, amr, halfway.signed_in_as);
                return finish(state, jar, signed_in, at, browser).await;
            }
            Err(CodeError::Locked) => {
                state.store.delete_halfway_sign_in(&key).await?;
                let locked = Some(messages::locked());
                return show(state, jar, &sub, locked, StatusCode::TOO_MANY_REQUESTS).await;
            }
            Err(CodeError::Wrong | CodeError::Replayed) => {
                ("passkey-refused", StatusCode::UNAUTHORIZED)
            }
            Err(CodeError::Unchecked(MfaError::Passkey(e))) => match passkey_refusal(&e) {
                Some(refusal) => refusal,
                None => return Err(MfaError::Passkey(e).into()),
            },
            Err(CodeError::Unchecked(e)) => return Err(e.into()),
        };
    show_otp(state, (&login, &sub), Some(Text::new(message)), status).await
}

/// "Sign in with a passkey": the passkey alone, checked as at the sign-in pages.
async fn passwordless(
    state: &AppState,
    jar: &CookieJar,
    (ceremony, answer): (&str, &str),
    at: Where<'_>,
    browser: Browser,
) -> Result<Response, PageError> {
    if !state.settings.mfa.passwordless {
        let message = Some(Text::new("signin-expired"));
        return show(state, jar, "", message, StatusCode::BAD_REQUEST).await;
    }
    let (message, status) = match signin::check_passwordless(state, at, ceremony, answer).await {
        Ok((passed, verified)) => {
            // With user verification the passkey stands for both factors: no `pwd`.
            let amr = passkey::methods(verified.user_verified)
                .iter()
                .map(|m| (*m).to_owned())
                .collect();
            // No password was typed: a re-check asks for the passkey.
            return finish(state, jar, (passed.claims, amr, None), at, browser).await;
        }
        Err(PasskeySignInError::Passkey(e)) => match passkey_refusal(&e) {
            Some((_, StatusCode::UNAUTHORIZED)) => (
                Text::new("signin-passkey-refused"),
                StatusCode::UNAUTHORIZED,
            ),
            Some((message, status)) => (Text::new(message), status),
            None => return Err(MfaError::Passkey(e).into()),
        },
        Err(PasskeySignInError::Gone) => (
            Text::new("signin-passkey-account-unusable"),
            StatusCode::FORBIDDEN,
        ),
        Err(PasskeySignInError::Unusable(account)) => {
            (messages::account_state(account), StatusCode::FORBIDDEN)
        }
        Err(PasskeySignInError::Locked(_)) => (messages::locked(), StatusCode::TOO_MANY_REQUESTS),
        Err(PasskeySignInError::NoSubject(dn)) => {
            return Err(PageError::UnusableAccount(format!(
                "{dn} has no subject attribute"
            )))
        }
    };
    show(state, jar, "", Some(message), status).await
}
