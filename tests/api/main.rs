//! Integration tests: the whole service against a private redis-server and slapd.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod admin;
mod app_management;
mod architecture;
mod audit;
mod audit_search;
mod authorize;
mod directory_ldap;
mod helpers;
mod interop;
mod logout;
mod mfa;
mod mfa_admin;
mod mfa_helpers;
mod mfa_policy;
mod oidc;
mod oidc_authorize;
mod oidc_keys;
mod outages;
mod revocation;
mod screen;
mod service;
mod store;
mod support;
mod token;
mod userinfo;
