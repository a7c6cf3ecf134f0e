//! The address a request came from, as limits, the audit log and the app doctor see it.

/// The peer address of a request (the proxy's, behind a proxy).
pub fn client_address(req: &poem::Request) -> Option<String> {
    req.remote_addr()
        .as_socket_addr()
        .map(|a| a.ip().to_string())
}
