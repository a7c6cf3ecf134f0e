//! Real dependencies started by the tests themselves, on free loopback ports.

pub mod logs;
pub mod node;
pub mod ports;
pub mod redis;
pub mod sentinel;
pub mod slapd;
pub mod streamed;
