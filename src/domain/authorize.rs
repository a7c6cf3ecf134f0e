//! An authorize request as validated and kept while the user signs in and approves: the
//! OAuth 2.0 parameters and the OpenID Connect ones (Core §3.1.2.1: `nonce`, `prompt`,
//! `max_age`, `login_hint`, `ui_locales`) with what they change in the browser flow.
//!
//! Validation against the registered app is `oauth::authorize`'s job; the request lives here
//! because the flows that read it (oauth, oidc, session) and the store that keeps it pending
//! all share it.

use super::{ClientId, ScopeSet};
use crate::clock::UnixTime;
use crate::domain::bounds::{self, check};
use serde::{Deserialize, Serialize};

/// A validated authorization request, kept while the user signs in and approves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthorizationRequest {
    /// The app.
    pub client_id: ClientId,
    /// The exact registered redirect URI the request named.
    pub redirect_uri: String,
    /// Requested scopes (always with `openid`).
    pub scopes: ScopeSet,
    /// Returned unchanged with the code or error.
    pub state: Option<String>,
    /// PKCE S256 challenge.
    pub code_challenge: Option<String>,
    /// OpenID Connect parameters (`nonce`, `prompt`, `max_age`, `login_hint`, `ui_locales`).
    #[serde(default)]
    pub oidc: OidcParams,
}

/// The OpenID Connect parameters of an authorize request.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OidcParams {
    /// Echoed in the id_token, binding it to the app's browser session.
    pub nonce: Option<String>,
    /// `prompt=none`: never show a page; answer `login_required` / `consent_required`.
    pub prompt_none: bool,
    /// `prompt=login`: ask for the password even in a signed-in browser.
    pub prompt_login: bool,
    /// `prompt=consent`: show the consent page even when the app was approved before.
    pub prompt_consent: bool,
    /// Longest time since the password sign-in the app accepts, in seconds.
    pub max_age: Option<u64>,
    /// Username to pre-fill on the sign-in page.
    pub login_hint: Option<String>,
    /// The app's preferred languages for the pages of this sign-in (space-separated language
    /// tags, as sent). Absent in requests kept before languages existed.
    #[serde(default)]
    pub ui_locales: Option<String>,
}

impl OidcParams {
    /// Reads the parameters; `one` answers a parameter's single non-empty value, or an error
    /// when it is repeated. Errors are `invalid_request` descriptions.
    pub fn parse<'q>(
        one: impl Fn(&str) -> Result<Option<&'q str>, String>,
    ) -> Result<Self, String> {
        // Longer values are refused as malformed, never cut short.
        let bounded = |name: &str, max: usize| -> Result<Option<&'q str>, String> {
            one(name)?.map(|v| check(name, v, max)).transpose()
        };
        let mut params = OidcParams {
            nonce: bounded("nonce", bounds::NONCE)?.map(str::to_owned),
            login_hint: bounded("login_hint", bounds::LOGIN_HINT)?.map(str::to_owned),
            ui_locales: bounded("ui_locales", bounds::UI_LOCALES)?.map(str::to_owned),
            ..Self::default()
        };
        if let Some(prompt) = bounded("prompt", bounds::PROMPT)? {
            params.set_prompt(prompt)?;
        }
        if let Some(raw) = one("max_age")? {
            let secs = raw
                .parse::<u64>()
                .map_err(|_| "max_age must be a non-negative number of seconds".to_owned())?;
            params.max_age = Some(secs);
            // OpenID Connect Core §3.1.2.1: max_age=0 is prompt=login, so a session signed in
            // within the same second does not pass for a fresh sign-in.
            params.prompt_login |= secs == 0;
        }
        Ok(params)
    }

    /// Reads a space-separated `prompt` (Core §3.1.2.1); `select_account` is accepted and
    /// means nothing here, as a browser holds one sign-in at a time.
    fn set_prompt(&mut self, prompt: &str) -> Result<(), String> {
        for value in prompt.split(' ').filter(|v| !v.is_empty()) {
            match value {
                "none" => self.prompt_none = true,
                "login" => self.prompt_login = true,
                "consent" => self.prompt_consent = true,
                "select_account" => {}
                other => {
                    return Err(format!(
                        "prompt `{other}` is not supported; use none, login or consent"
                    ))
                }
            }
        }
        if self.prompt_none && (self.prompt_login || self.prompt_consent) {
            return Err("prompt=none cannot be combined with other prompt values".into());
        }
        Ok(())
    }

    /// Whether a browser session signed in at `auth_time` may stand in for the password now.
    pub fn session_usable(&self, auth_time: UnixTime, now: UnixTime) -> bool {
        !self.prompt_login && self.recent_enough(auth_time, now)
    }

    /// Whether a sign-in made at `auth_time` is recent enough for `max_age`.
    pub fn recent_enough(&self, auth_time: UnixTime, now: UnixTime) -> bool {
        self.max_age
            .is_none_or(|max| now <= auth_time.saturating_add(max))
    }

    /// Whether a remembered approval may stand in for the consent page.
    pub fn remembered_consent_usable(&self) -> bool {
        !self.prompt_consent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn parse(pairs: &[(&'static str, &'static str)]) -> Result<OidcParams, String> {
        let map: HashMap<&str, &str> = pairs.iter().copied().collect();
        OidcParams::parse(|name| Ok(map.get(name).copied()))
    }

    #[test]
    fn prompt_values_combine_except_none() {
        let p = parse(&[("prompt", "login consent")]).unwrap();
        assert!(p.prompt_login && p.prompt_consent && !p.prompt_none);
        assert!(parse(&[("prompt", "none login")]).is_err());
        assert!(parse(&[("prompt", "sideways")]).is_err());
    }

    #[test]
    fn a_nonce_may_be_four_kilobytes_and_no_more() {
        let nonce = "n".repeat(bounds::NONCE);
        let p = OidcParams::parse(|name| Ok((name == "nonce").then_some(nonce.as_str()))).unwrap();
        assert_eq!(p.nonce.as_deref(), Some(nonce.as_str()));
        let longer = "n".repeat(bounds::NONCE + 1);
        let err =
            OidcParams::parse(|name| Ok((name == "nonce").then_some(longer.as_str()))).unwrap_err();
        assert_eq!(err, "nonce is longer than 4096 bytes");
    }

    #[test]
    fn max_age_limits_how_old_a_session_may_be() {
        let p = parse(&[("max_age", "60")]).unwrap();
        assert!(p.session_usable(1000, 1060));
        assert!(!p.session_usable(1000, 1061));
        assert!(parse(&[("max_age", "-1")]).is_err());
        assert!(!parse(&[("prompt", "login")])
            .unwrap()
            .session_usable(1000, 1000));
    }

    #[test]
    fn ui_locales_are_kept_as_sent_and_read_from_older_records_as_absent() {
        let p = parse(&[("ui_locales", "fr-CA de")]).unwrap();
        assert_eq!(p.ui_locales.as_deref(), Some("fr-CA de"));
        let long = "de ".repeat(100);
        assert!(
            OidcParams::parse(|name| Ok((name == "ui_locales").then_some(long.as_str()))).is_err()
        );
        let older: OidcParams = serde_json::from_str(
            r#"{"nonce":null,"prompt_none":false,"prompt_login":false,"prompt_consent":false,"max_age":null,"login_hint":null}"#,
        )
        .unwrap();
        assert_eq!(older.ui_locales, None);
    }

    #[test]
    fn max_age_zero_asks_for_a_fresh_sign_in_even_within_the_second() {
        let p = parse(&[("max_age", "0")]).unwrap();
        assert!(p.prompt_login);
        assert!(!p.session_usable(1000, 1000));
    }
}
