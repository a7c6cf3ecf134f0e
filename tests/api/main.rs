//! Integration tests: the whole service against a private redis-server and slapd.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod admin;
mod admin_policy;
mod app_doctor;
mod app_management;
mod architecture;
mod audit;
mod audit_search;
mod authorize;
mod bounds;
mod directory_ldap;
mod helpers;
mod host_cookies;
mod input_limits;
mod interop;
mod leavers;
mod logging;
mod logout;
mod mfa;
mod mfa_admin;
mod mfa_helpers;
mod mfa_policy;
mod oidc;
mod oidc_authorize;
mod oidc_keys;
mod outages;
mod proxies;
mod resource_servers;
mod revocation;
mod screen;
mod service;
mod sign_out_everywhere;
mod store;
mod support;
mod token;
mod userinfo;
