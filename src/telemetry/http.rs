//! Counts and times every request by the route pattern it matched, never by its path: a path
//! can hold anything a client typed, a pattern is one of the router's few.

use super::Metrics;
use poem::http::Method;
use poem::{Endpoint, IntoResponse, Middleware, PathPattern, Request, Response};
use std::sync::Arc;
use std::time::Instant;

/// The route label of a request no route matched.
pub const UNMATCHED: &str = "unmatched";

/// Records each request's route, method, status and time in [`Metrics`].
pub struct HttpMetrics {
    metrics: Arc<Metrics>,
    unmatched: Arc<str>,
}

impl HttpMetrics {
    /// Records into `metrics`.
    pub fn new(metrics: Arc<Metrics>) -> Self {
        Self {
            metrics,
            unmatched: Arc::from(UNMATCHED),
        }
    }
}

impl<E: Endpoint> Middleware<E> for HttpMetrics {
    type Output = HttpMetricsEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        HttpMetricsEndpoint {
            inner,
            metrics: Arc::clone(&self.metrics),
            unmatched: Arc::clone(&self.unmatched),
        }
    }
}

/// The endpoint [`HttpMetrics`] wraps.
pub struct HttpMetricsEndpoint<E> {
    inner: E,
    metrics: Arc<Metrics>,
    unmatched: Arc<str>,
}

impl<E: Endpoint> Endpoint for HttpMetricsEndpoint<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        let method = method_label(req.method());
        let started = Instant::now();
        // Boxed, like the error pages' route: the middleware outside holds a pointer, not
        // the inner middleware's futures, each of which holds its request by value.
        let answer = Box::pin(self.inner.call(req))
            .await
            .map(IntoResponse::into_response);
        // The router puts the pattern it matched on the answer (the innermost one when routes
        // are nested); a request no route took has none, or the empty pattern of the API
        // nested at the root.
        let (status, pattern) = match &answer {
            Ok(response) => (response.status(), response.data::<PathPattern>()),
            Err(err) => (err.status(), err.data::<PathPattern>()),
        };
        let route = pattern
            .filter(|p| !p.0.is_empty())
            .map(|p| Arc::clone(&p.0))
            .unwrap_or_else(|| Arc::clone(&self.unmatched));
        self.metrics
            .request(route, method, status.as_u16(), started.elapsed());
        answer
    }
}

/// The method as a label from a fixed set.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::HEAD => "HEAD",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}
