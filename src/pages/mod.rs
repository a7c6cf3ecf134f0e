//! Server-rendered pages: sign-in, consent, sign-out and error pages, and their templates.

pub mod authorize;
pub mod consent;
pub mod enrol;
pub mod errors;
pub mod logout;
pub mod render;
pub mod second_factor;
pub mod signin;
pub mod views;
