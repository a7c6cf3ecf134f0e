//! Real dependencies started by the tests themselves, on free loopback ports.

pub mod logs;
pub mod metrics;
pub mod ports;
pub mod redis;
pub mod serve;
pub mod slapd;
pub mod streamed;
