//! The current time, passed in so that expiry can be tested without waiting.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds since the Unix epoch.
pub type UnixTime = u64;

/// Where the service reads the time from.
pub trait Clock: Send + Sync + 'static {
    /// Now, in seconds since the Unix epoch.
    fn now(&self) -> UnixTime;
}

/// The wall clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> UnixTime {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0)
    }
}

/// The wall clock shifted by an adjustable offset: lets tests move time forward.
#[derive(Debug, Default, Clone)]
pub struct OffsetClock {
    offset: Arc<AtomicI64>,
}

impl OffsetClock {
    /// Moves this clock (and every clone of it) forward by `secs`.
    pub fn advance(&self, secs: i64) {
        self.offset.fetch_add(secs, Ordering::SeqCst);
    }
}

impl Clock for OffsetClock {
    fn now(&self) -> UnixTime {
        let base = SystemClock.now() as i64;
        (base + self.offset.load(Ordering::SeqCst)).max(0) as UnixTime
    }
}

/// A context that can tell the time: what a flow's context declares when it needs the clock.
pub trait HasClock {
    /// The clock.
    fn clock(&self) -> &dyn Clock;

    /// Now, in Unix seconds.
    fn now(&self) -> UnixTime {
        self.clock().now()
    }
}
