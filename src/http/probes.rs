//! What load balancers and monitoring ask: liveness (`/healthz`, never touches the network),
//! readiness (`/readyz`, the store and the directory answer) and the metrics (`/metrics`).

use crate::state::AppState;
use crate::telemetry::metrics::CONTENT_TYPE;
use poem::http::{header, StatusCode};
use poem::web::Data;
use poem::{handler, Response};
use std::future::Future;
use std::time::Duration;

/// Where the liveness check is.
pub const HEALTH_PATH: &str = "/healthz";
/// Where the readiness check is.
pub const READY_PATH: &str = "/readyz";
/// Where the metrics are.
pub const METRICS_PATH: &str = "/metrics";

/// Alive: the process answers HTTP. Nothing else is looked at, so a slow directory never gets
/// a node restarted.
#[handler]
pub fn health() -> &'static str {
    "ok"
}

/// Ready: the store and the directory both answer within their own timeouts, checked at the
/// same time. 503 names what is down; why is logged, not sent (it may name internal hosts).
#[handler]
pub async fn ready(Data(state): Data<&AppState>) -> Response {
    let store_budget = state.settings.store.timeout;
    let directory = &state.settings.directory;
    // A backstop above the directory's own steps: a pooled connection may have to be opened
    // and bound before the search.
    let directory_budget = directory.connect_timeout + 2 * directory.operation_timeout;
    let (store, directory) = tokio::join!(
        probe("store", store_budget, state.store.ping()),
        probe("directory", directory_budget, state.directory.check()),
    );
    let up = store && directory;
    let word = |ok: bool| if ok { "ok" } else { "unavailable" };
    let body = serde_json::json!({
        "status": word(up),
        "store": word(store),
        "directory": word(directory),
    });
    let status = if up {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    Response::builder()
        .status(status)
        .content_type("application/json")
        .header(header::CACHE_CONTROL, "no-store")
        .body(body.to_string())
}

/// Whether `check` answered Ok within `budget`; logs why not.
async fn probe<E: std::fmt::Display>(
    what: &'static str,
    budget: Duration,
    check: impl Future<Output = Result<(), E>>,
) -> bool {
    match tokio::time::timeout(budget, check).await {
        Ok(Ok(())) => true,
        Ok(Err(err)) => {
            tracing::warn!(backend = what, error = %err, "not ready");
            false
        }
        Err(_) => {
            tracing::warn!(
                backend = what,
                budget_ms = budget.as_millis() as u64,
                "not ready: no answer in time"
            );
            false
        }
    }
}

/// The metrics in the OpenMetrics text format, which Prometheus scrapes.
#[handler]
pub fn metrics(Data(state): Data<&AppState>) -> Response {
    match state
        .metrics
        .scrape(state.store.pool(), state.directory.pool())
    {
        Ok(text) => Response::builder()
            .content_type(CONTENT_TYPE)
            .header(header::CACHE_CONTROL, "no-store")
            .body(text),
        Err(err) => {
            tracing::error!(error = %err, "metrics could not be written");
            StatusCode::INTERNAL_SERVER_ERROR.into()
        }
    }
}
