//! Real dependencies started by the tests themselves, on free loopback ports (and, for the
//! Samba domain controller, a free loopback address).

pub mod logs;
pub mod metrics;
pub mod node;
pub mod ports;
pub mod prerequisites;
pub mod receiver;
pub mod redis;
pub mod samba;
pub mod samba_accounts;
pub mod sentinel;
pub mod slapd;
pub mod slapd_admin;
pub mod streamed;
