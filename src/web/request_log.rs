//! One log line per request: method, path, status, latency and the client's address as
//! [`ClientAddr`] resolved it.
//!
//! The query string is never logged: it carries authorization codes, `id_token_hint`s and
//! whatever a client put there by mistake (an `access_token`, a `client_secret`). Neither is
//! any forwarding header: a client writes those as it likes.

use super::address::ClientAddr;
use poem::{Endpoint, IntoResponse, Middleware, Request, Response};
use std::time::Instant;
use tracing::Instrument;

/// Logs every request once it is answered, in a `request` span that the handler's own log
/// lines share.
pub struct RequestLog;

impl<E: Endpoint> Middleware<E> for RequestLog {
    type Output = RequestLogEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        RequestLogEndpoint { inner }
    }
}

/// The endpoint [`RequestLog`] wraps.
pub struct RequestLogEndpoint<E> {
    inner: E,
}

impl<E: Endpoint> Endpoint for RequestLogEndpoint<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        // Written out only when the span is recorded: at the default level it is not.
        let client = Shown(ClientAddr::of(&req));
        let span = tracing::info_span!(
            "request",
            method = %req.method(),
            // Outside the router, which rewrites the URI of nested routes: this is the whole path.
            path = req.uri().path(),
            client = %client,
        );
        async move {
            let started = Instant::now();
            // Boxed, like the metrics' inner call: the middleware outside holds a pointer, not
            // the futures inside, each of which holds its request by value.
            let answer = Box::pin(self.inner.call(req))
                .await
                .map(IntoResponse::into_response);
            let status = match &answer {
                Ok(response) => response.status(),
                Err(err) => err.status(),
            };
            // Whole microseconds: finer is noise.
            let latency_ms = started.elapsed().as_micros() as f64 / 1000.0;
            tracing::info!(status = status.as_u16(), latency_ms, "response");
            answer
        }
        .instrument(span)
        .await
    }
}

/// A client address as the request log shows it: `-` for none.
struct Shown(ClientAddr);

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.ip() {
            Some(addr) => addr.fmt(f),
            None => f.write_str("-"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::TrustedProxies;
    use crate::web::address::ClientAddresses;
    use poem::http::StatusCode;
    use poem::{handler, EndpointExt};
    use std::sync::{Arc, Mutex};

    /// Log output collected in memory.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[handler]
    fn teapot() -> StatusCode {
        StatusCode::IM_A_TEAPOT
    }

    /// Sends `req` through the request log and the address middleware; answers the log.
    async fn logged(req: Request) -> String {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish();
        let _guard = tracing::subscriber::set_default(subscriber);
        let trusted = TrustedProxies::new(vec!["127.0.0.1/32".parse().unwrap()]);
        let app = teapot.with(RequestLog).with(ClientAddresses::new(trusted));
        let response = app.call(req).await.unwrap();
        assert_eq!(response.status(), StatusCode::IM_A_TEAPOT);
        let bytes = captured.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }

    #[tokio::test]
    async fn a_request_is_logged_with_its_path_status_and_client_but_not_its_query() {
        let req = Request::builder()
            .uri_str("/oauth/authorize?code=SECRET&access_token=SECRET2&password=SECRET3")
            .header("x-forwarded-for", "203.0.113.7")
            .finish();
        let log = logged(req).await;
        assert!(log.contains("path=\"/oauth/authorize\""), "{log}");
        assert!(log.contains("method=GET"), "{log}");
        assert!(log.contains("status=418"), "{log}");
        assert!(log.contains("latency_ms="), "{log}");
        assert!(!log.contains("SECRET"), "{log}");
        // No peer address in a request built by hand, so no header is believed either.
        assert!(log.contains("client=-"), "{log}");
        assert!(!log.contains("203.0.113.7"), "{log}");
    }
}
