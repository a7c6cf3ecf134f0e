//! The grant types of the token endpoint, one module each.

pub mod authorization_code;
pub mod refresh_token;

use crate::events::Refusal;
use crate::oauth::{OAuthError, Refused};

/// The app was disabled or deleted while its request was under way: the store wrote nothing.
fn app_disabled() -> Refused {
    Refused::because(
        Refusal::AppDisabled,
        OAuthError::InvalidClient("this application is disabled".into()),
    )
}
