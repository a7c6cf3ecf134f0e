//! The app: `client_id` names a registered, enabled app (RFC 6749 §4.1.2.1: otherwise a page,
//! never a redirect).

use super::{untrusted, AuthorizeError, Params};
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
        .map_err(|m| untrusted("Invalid request", m))?
        .ok_or_else(|| {
            untrusted(
                "Invalid request",
                "The request names no application (client_id is missing).".into(),
            )
        })?;
    let client = match ClientId::parse(client_id) {
        Some(id) => store.client(&id).await?,
        None => None,
    };
    client.filter(|c| c.enabled).ok_or_else(|| {
        untrusted(
            "Unknown application",
            "The application that sent you here is not registered with sign-on, or has been disabled. Contact the team that runs the application.".into(),
        )
    })
}
