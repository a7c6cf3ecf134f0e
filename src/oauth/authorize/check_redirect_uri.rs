//! The return address: `redirect_uri` is one the app registered, matched exactly (a public
//! app's loopback address on any port, RFC 8252 §7.3); otherwise a page, never a redirect.

use super::{untrusted, AuthorizeError, Params, Untrusted};
use crate::domain::bounds;
use crate::domain::ClientRecord;

/// The redirect URI, known-good for `client`.
pub(super) fn check(client: &ClientRecord, params: &Params) -> Result<String, AuthorizeError> {
    let redirect_uri = params
        .bounded("redirect_uri", bounds::REDIRECT_URI)
        .map_err(|m| untrusted(Untrusted::Malformed(m)))?
        .ok_or_else(|| untrusted(Untrusted::NoRedirectUri))?;
    if !client.allows_redirect(redirect_uri) {
        return Err(untrusted(Untrusted::UnregisteredRedirectUri {
            received: redirect_uri.to_owned(),
        }));
    }
    Ok(redirect_uri.to_owned())
}
