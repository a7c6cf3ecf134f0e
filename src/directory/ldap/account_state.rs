//! Account states: what the directory says of an account that cannot sign in now, read from
//! the user's bind (Active Directory's sub-code in the diagnostic message, OpenLDAP's password
//! policy response control, the expired-password control of Netscape-derived servers) and,
//! for lookups, from the entry's attributes (disabled, past its end date).

use super::ber;
use crate::clock::UnixTime;
use crate::directory::{AccountState, Attributes};
use ldap3::controls::RawControl;
use ldap3::LdapResult;

/// The password policy control (draft-behera-ldap-password-policy), request and response.
const PASSWORD_POLICY: &str = "1.3.6.1.4.1.42.2.27.8.5.1";
/// The expired-password control of 389 Directory Server and its kin.
const PASSWORD_EXPIRED: &str = "2.16.840.1.113730.3.4.4";

/// The attributes a lookup reads to tell a disabled, expired or locked account.
pub(super) const ATTRIBUTES: [&str; 4] = [
    "userAccountControl",
    "accountExpires",
    "pwdAccountLockedTime",
    "lockoutTime",
];

/// `userAccountControl` bit ACCOUNTDISABLE.
const ACCOUNT_DISABLE: u64 = 0x2;
/// `pwdAccountLockedTime` of an account locked until an administrator unlocks it: OpenLDAP's
/// way of disabling one.
const LOCKED_FOR_GOOD: &str = "000001010000Z";
/// 100-nanosecond intervals from 1601-01-01 (Windows FILETIME) to the Unix epoch.
const FILETIME_UNIX_EPOCH: u64 = 116_444_736_000_000_000;
const FILETIME_PER_SEC: u64 = 10_000_000;

/// Asks the server for the password policy state with the user's bind; servers without the
/// policy ignore it (it is not critical).
pub(super) fn policy_request() -> RawControl {
    RawControl {
        ctype: PASSWORD_POLICY.to_owned(),
        crit: false,
        val: None,
    }
}

/// The state a bind's answer reports, if any.
pub(super) fn reported(result: &LdapResult) -> Option<AccountState> {
    from_diagnostic(&result.text).or_else(|| from_controls(result))
}

/// Active Directory's sub-code, as in `80090308: LdapErr: DSID-0C0903A9, comment:
/// AcceptSecurityContext error, data 533, v1db1`. `52e` (wrong password) and `525` (no such
/// user) are no state: they are a wrong password.
fn from_diagnostic(text: &str) -> Option<AccountState> {
    let (_, after) = text.split_once("AcceptSecurityContext error, data ")?;
    let code = after
        .split(|c: char| !c.is_ascii_alphanumeric())
        .next()?
        .to_ascii_lowercase();
    match code.as_str() {
        "532" => Some(AccountState::PasswordExpired),
        "533" => Some(AccountState::Disabled),
        "701" => Some(AccountState::Expired),
        "773" => Some(AccountState::MustChangePassword),
        "775" => Some(AccountState::Locked),
        _ => None,
    }
}

fn from_controls(result: &LdapResult) -> Option<AccountState> {
    let raw = |oid: &str| {
        result
            .ctrls
            .iter()
            .map(|control| &control.1)
            .find(|raw| raw.ctype == oid)
    };
    if let Some(state) = raw(PASSWORD_POLICY).and_then(|c| policy_error(c.val.as_deref()?)) {
        return Some(state);
    }
    // Sent on a refused bind, the password is out of date; on an accepted one, it was reset
    // and must be changed before anything else.
    raw(PASSWORD_EXPIRED).map(|_| {
        if result.rc == 0 {
            AccountState::MustChangePassword
        } else {
            AccountState::PasswordExpired
        }
    })
}

/// The `error` of a PasswordPolicyResponseValue: `SEQUENCE { warning [0] ... OPTIONAL,
/// error [1] ENUMERATED OPTIONAL }`.
fn policy_error(value: &[u8]) -> Option<AccountState> {
    let fields = ber::elements(ber::sequence(value)?)?;
    let error = fields.iter().find(|field| field.tag == 0x81)?;
    match ber::unsigned(error.contents)? {
        0 => Some(AccountState::PasswordExpired),
        1 => Some(AccountState::Locked),
        2 => Some(AccountState::MustChangePassword),
        // The others are about changing a password, which sso-bridge never does.
        _ => None,
    }
}

/// Whether an entry read by a lookup may still use what it signed in for: neither disabled
/// (AD `userAccountControl`, OpenLDAP locked for good) nor past its end date at `now`.
pub(super) fn usable(attributes: &Attributes, now: UnixTime) -> bool {
    let first = |name: &str| {
        attributes
            .get(&name.to_ascii_lowercase())
            .and_then(|values| values.first())
            .map(|value| value.trim())
    };
    let disabled = first("userAccountControl")
        .and_then(|v| v.parse::<i64>().ok())
        .is_some_and(|flags| flags as u64 & ACCOUNT_DISABLE != 0)
        || first("pwdAccountLockedTime") == Some(LOCKED_FOR_GOOD);
    let expired = first("accountExpires")
        .and_then(|v| v.parse::<i64>().ok())
        .and_then(expiry)
        .is_some_and(|at| now >= at);
    !disabled && !expired
}

/// Whether an entry read by a lookup is locked out: Active Directory's `lockoutTime` set
/// (not 0), or a `pwdAccountLockedTime` of OpenLDAP's password policy. Read without the
/// lockout's duration, so an account whose lockout has run out but that has not signed in
/// since counts as locked: a passkey sign-in waits for one password sign-in then.
pub(super) fn locked(attributes: &Attributes) -> bool {
    let first = |name: &str| {
        attributes
            .get(&name.to_ascii_lowercase())
            .and_then(|values| values.first())
            .map(|value| value.trim())
    };
    let ad = first("lockoutTime").is_some_and(|v| !v.is_empty() && v != "0");
    let openldap = first("pwdAccountLockedTime").is_some_and(|v| !v.is_empty());
    ad || openldap
}

/// When an `accountExpires` value ends the account, in Unix seconds; `None` for never (0 or
/// the largest value).
fn expiry(filetime: i64) -> Option<UnixTime> {
    if filetime <= 0 || filetime == i64::MAX {
        return None;
    }
    let filetime = filetime as u64;
    Some(filetime.saturating_sub(FILETIME_UNIX_EPOCH) / FILETIME_PER_SEC)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ldap3::controls::Control;

    fn answer(rc: u32, text: &str, controls: Vec<RawControl>) -> LdapResult {
        LdapResult {
            rc,
            matched: String::new(),
            text: text.to_owned(),
            refs: Vec::new(),
            ctrls: controls.into_iter().map(|raw| Control(None, raw)).collect(),
        }
    }

    fn ad(code: &str) -> LdapResult {
        let text = format!(
            "80090308: LdapErr: DSID-0C09030B, comment: AcceptSecurityContext error, data {code}, v893"
        );
        answer(49, &text, Vec::new())
    }

    fn policy(rc: u32, value: &[u8]) -> LdapResult {
        let control = RawControl {
            ctype: PASSWORD_POLICY.into(),
            crit: false,
            val: Some(value.to_vec()),
        };
        answer(rc, "", vec![control])
    }

    #[test]
    fn active_directory_sub_codes_name_the_state_and_a_wrong_password_names_none() {
        assert_eq!(reported(&ad("532")), Some(AccountState::PasswordExpired));
        assert_eq!(reported(&ad("533")), Some(AccountState::Disabled));
        assert_eq!(reported(&ad("701")), Some(AccountState::Expired));
        assert_eq!(reported(&ad("773")), Some(AccountState::MustChangePassword));
        assert_eq!(reported(&ad("775")), Some(AccountState::Locked));
        assert_eq!(reported(&ad("52e")), None);
        assert_eq!(reported(&ad("525")), None);
        assert_eq!(reported(&answer(49, "data 533", Vec::new())), None);
    }

    #[test]
    fn the_password_policy_response_names_the_state_and_a_warning_alone_none() {
        // error [1] accountLocked.
        assert_eq!(
            reported(&policy(49, &[0x30, 0x03, 0x81, 0x01, 0x01])),
            Some(AccountState::Locked)
        );
        assert_eq!(
            reported(&policy(49, &[0x30, 0x03, 0x81, 0x01, 0x00])),
            Some(AccountState::PasswordExpired)
        );
        // A grace-login warning, then error [1] changeAfterReset, on an accepted bind.
        let warned = [0x30, 0x08, 0xa0, 0x03, 0x81, 0x01, 0x02, 0x81, 0x01, 0x02];
        assert_eq!(
            reported(&policy(0, &warned)),
            Some(AccountState::MustChangePassword)
        );
        assert_eq!(
            reported(&policy(0, &[0x30, 0x05, 0xa0, 0x03, 0x80, 0x01, 0x05])),
            None
        );
        assert_eq!(reported(&policy(49, &[0x30, 0x09, 0x81])), None);
    }

    #[test]
    fn the_expired_password_control_means_expired_when_refused_and_reset_when_accepted() {
        let control = || RawControl {
            ctype: PASSWORD_EXPIRED.into(),
            crit: false,
            val: Some(b"0".to_vec()),
        };
        assert_eq!(
            reported(&answer(49, "", vec![control()])),
            Some(AccountState::PasswordExpired)
        );
        assert_eq!(
            reported(&answer(0, "", vec![control()])),
            Some(AccountState::MustChangePassword)
        );
    }

    #[test]
    fn a_disabled_or_ended_account_is_unusable_and_never_expiring_is_fine() {
        let entry = |pairs: &[(&str, &str)]| -> Attributes {
            pairs
                .iter()
                .map(|(k, v)| (k.to_ascii_lowercase(), vec![v.to_string()]))
                .collect()
        };
        // 2024-01-01T00:00:00Z.
        let new_year = 1_704_067_200;
        let filetime = |unix: u64| (unix * FILETIME_PER_SEC + FILETIME_UNIX_EPOCH).to_string();
        assert!(usable(&entry(&[("userAccountControl", "512")]), new_year));
        assert!(!usable(&entry(&[("userAccountControl", "514")]), new_year));
        assert!(!usable(
            &entry(&[("pwdAccountLockedTime", LOCKED_FOR_GOOD)]),
            new_year
        ));
        assert!(usable(
            &entry(&[("pwdAccountLockedTime", "20240101000000Z")]),
            new_year
        ));
        for never in ["0", "9223372036854775807"] {
            assert!(usable(&entry(&[("accountExpires", never)]), new_year));
        }
        let ends = entry(&[("accountExpires", &filetime(new_year))]);
        assert!(usable(&ends, new_year - 1));
        assert!(!usable(&ends, new_year));
    }
}
