//! The grant types of the token endpoint, one module each.

pub mod authorization_code;
pub mod refresh_token;
