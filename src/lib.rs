//! sso-bridge: a single sign-on identity provider for internal apps, fronting an LDAP directory.
//!
//! The binary in `main.rs` only dispatches the command line; everything lives here so tests can
//! build the whole application in-process.

pub mod account;
pub mod admin;
pub mod allocator;
pub mod apps;
pub mod audit;
pub mod backchannel;
pub mod cli;
pub mod clock;
pub mod config;
pub mod directory;
pub mod domain;
pub mod events;
pub mod http;
pub mod mfa;
pub mod oauth;
pub mod oidc;
pub mod pages;
pub mod session;
pub mod signin;
pub mod startup;
pub mod state;
pub mod store;
pub mod telemetry;
#[cfg(test)]
mod testing;
pub mod web;
