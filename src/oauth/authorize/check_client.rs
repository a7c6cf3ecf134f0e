//! The app: `client_id` names a registered, enabled app (RFC 6749 §4.1.2.1: otherwise a page,
//! never a redirect).

use super::{untrusted, AuthorizeError, Params, Untrusted};
use crate::domain::bounds;
use crate::domain::{ClientId, ClientRecord};
use crate::store::ClientStore;

/// The app the request names.
pub(super) async fn check(
    store: &dyn ClientStore,
    params: &Params,
) -> Result<ClientRecord, AuthorizeError> {
    let client_id = params
        .bounded("client_id", bounds::CLIENT_ID)
        .map_err(|m| untrusted(Untrusted::Malformed(m)))?
        .ok_or_else(|| untrusted(Untrusted::NoClient))?;
    let client = match ClientId::parse(client_id) {
        Some(id) => store.client(&id).await?,
        None => None,
    };
    client
        .filter(|c| c.enabled)
        .ok_or_else(|| untrusted(Untrusted::UnknownClient))
}
