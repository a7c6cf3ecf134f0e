//! Administration: the superadmin's API, screen and CLI client for Connected Apps.

pub mod api;
pub mod client;
pub mod guard;
pub mod mfa_api;
pub mod screen;
pub mod users;
