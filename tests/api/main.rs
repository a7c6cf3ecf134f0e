//! Integration tests: the whole service against a private redis-server and slapd.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod directory_ldap;
mod store;
mod support;
