//! Integration tests: the whole service against a private redis-server and slapd.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod account;
mod admin;
mod directories;
mod helpers;
mod operations;
mod passkeys;
mod protocol;
mod repository;
mod signin;
pub(crate) mod store;
mod support;
