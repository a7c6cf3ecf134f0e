//! Administration: the superadmin's API for Connected Apps.

pub mod api;
pub mod apps;
pub mod client;
pub mod guard;
pub mod mfa_api;
