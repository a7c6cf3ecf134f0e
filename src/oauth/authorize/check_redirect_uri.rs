//! The return address: `redirect_uri` is one the app registered, matched exactly (a public
//! app's loopback address on any port, RFC 8252 §7.3); otherwise a page, never a redirect.

use super::{untrusted, AuthorizeError, Params};
use crate::domain::bounds;
use crate::domain::ClientRecord;

/// The redirect URI, known-good for `client`.
pub(super) fn check(client: &ClientRecord, params: &Params) -> Result<String, AuthorizeError> {
    let redirect_uri = params
        .bounded("redirect_uri", bounds::REDIRECT_URI)
        .map_err(|m| untrusted("Invalid request", m))?
        .ok_or_else(|| {
            untrusted(
                "Invalid request",
                "The request names no return address (redirect_uri is missing).".into(),
            )
        })?;
    if !client.allows_redirect(redirect_uri) {
        return Err(untrusted(
            "Unregistered return address",
            format!(
                "The application asked to send you back to an address that is not registered for it. Nothing was sent there. The application's developers should register the exact callback URL (received: {redirect_uri})."
            ),
        ));
    }
    Ok(redirect_uri.to_owned())
}
