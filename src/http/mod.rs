//! HTTP: the router, the OpenAPI-documented APIs, the probes and metrics, and the headers
//! every response carries.

pub mod cors;
pub mod docs;
pub mod oauth_api;
pub mod oidc_api;
pub mod openapi;
pub mod probes;
pub mod routes;

pub use routes::{metrics_routes, routes};
