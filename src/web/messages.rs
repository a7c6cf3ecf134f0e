//! Wording that more than one page shows, so the sign-in pages and the admin screen put the
//! same situation in the same words: catalog messages (see [`i18n`](super::i18n)).

use super::i18n::Text;

/// Message of a lockout (the same for every account, known or not).
pub fn locked() -> Text {
    Text::new("locked")
}

/// What the sign-in pages say to someone whose password the directory accepted (or whose
/// account it reports locked) but whom it will not let in now, and what to do about it.
pub fn account_state(state: crate::directory::AccountState) -> Text {
    use crate::directory::AccountState;
    Text::new(match state {
        AccountState::Disabled => "account-disabled",
        AccountState::Expired => "account-expired",
        AccountState::Locked => "account-locked",
        AccountState::PasswordExpired => "account-password-expired",
        AccountState::MustChangePassword => "account-must-change-password",
    })
}

/// The same in English, for the admin API's `error_description` (the APIs are not pages: they
/// answer in English whatever the caller's language).
pub fn account_state_english(state: crate::directory::AccountState) -> &'static str {
    use crate::directory::AccountState;
    match state {
        AccountState::Disabled => {
            "Your account is disabled. The help desk can tell you why and turn it back on."
        }
        AccountState::Expired => "Your account has expired. Ask the help desk to extend it.",
        AccountState::Locked => {
            "Your account is locked, usually after too many wrong passwords. Wait a while and \
             try again, or ask the help desk to unlock it."
        }
        AccountState::PasswordExpired => {
            "Your password has expired. Change it, then sign in with the new password."
        }
        AccountState::MustChangePassword => {
            "You must change your password before you can sign in. Change it, then sign in \
             with the new password."
        }
    }
}
