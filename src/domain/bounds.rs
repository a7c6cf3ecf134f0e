//! The longest value each request parameter may have, in bytes (after percent-decoding).
//!
//! Every value a request brings is checked against its maximum before it is kept, stored or
//! sent anywhere, so no caller can make the service hold more than these. The book's input limits
//! page (docs/src/security/input-limits.md) lists them; the request body limits of the web layer
//! are sized to hold a request with every parameter at its maximum.

/// `client_id`: ids are 22 characters; anything longer than this is no id of ours.
pub const CLIENT_ID: usize = 128;
/// `client_secret`: secrets are 43 characters.
pub const CLIENT_SECRET: usize = 512;
/// A redirect URI or post-logout redirect URI, presented or registered.
pub const REDIRECT_URI: usize = 2048;
/// Registered redirect URIs (and, apart, post-logout redirect URIs) of one app.
pub const REDIRECT_URIS: usize = 20;
/// `scope`: the known scopes together are 39 bytes.
pub const SCOPE: usize = 1024;
/// `state`: returned unchanged, and client libraries pack data into it, so it is generous.
pub const STATE: usize = 4096;
/// OpenID Connect `nonce`: echoed in the id_token; as generous as `state`.
pub const NONCE: usize = 4096;
/// OpenID Connect `login_hint`: a username, which is at most 256 characters.
pub const LOGIN_HINT: usize = 512;
/// OpenID Connect `ui_locales`: a few space-separated language tags.
pub const UI_LOCALES: usize = 256;
/// `prompt`: a few space-separated words.
pub const PROMPT: usize = 64;
/// `grant_type`: the supported ones are far shorter.
pub const GRANT_TYPE: usize = 64;
/// PKCE `code_verifier` (RFC 7636 §4.1: 43 to 128 characters). A `code_challenge` is always
/// 43 (S256).
pub const CODE_VERIFIER: usize = 128;
/// A code, an access, refresh or admin token, presented in a form or an `Authorization`
/// header: ours are 43 characters.
pub const TOKEN: usize = 512;
/// `id_token_hint`: an id_token of ours, with a nonce at its maximum.
pub const ID_TOKEN_HINT: usize = 16 * 1024;
/// A password typed into a sign-in form or sent to the admin API.
pub const PASSWORD: usize = 1024;
/// A whole authorize request (the query string, or the body by POST), percent-encoded: every
/// parameter at its maximum fits with room to spare.
pub const AUTHORIZE_REQUEST: usize = 32 * 1024;

/// `value` if it is at most `max` bytes long, else an error naming `name` and the limit.
pub fn check<'v>(name: &str, value: &'v str, max: usize) -> Result<&'v str, String> {
    if value.len() > max {
        return Err(too_long(name, max));
    }
    Ok(value)
}

/// What is said of a value longer than `max` bytes.
pub fn too_long(name: &str, max: usize) -> String {
    format!("{name} is longer than {max} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_of_the_limit_passes_and_one_byte_more_is_named() {
        assert_eq!(
            check("state", &"s".repeat(STATE), STATE).map(str::len),
            Ok(STATE)
        );
        assert_eq!(
            check("state", &"s".repeat(STATE + 1), STATE),
            Err("state is longer than 4096 bytes".to_owned())
        );
    }
}
