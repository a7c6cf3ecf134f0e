//! Server-rendered pages: sign-in, consent and error pages, and their templates.

pub mod authorize;
pub mod consent;
pub mod errors;
pub mod render;
pub mod respond;
pub mod signin;
pub mod views;
