//! How much of a backend's connection pool is in use, as the store and the directory report it
//! to the metrics.

use std::sync::atomic::{AtomicUsize, Ordering};

/// A connection pool at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolUsage {
    /// Connections open, idle or lent out.
    pub open: usize,
    /// Connections lent out to a request right now.
    pub in_use: usize,
    /// The most connections the pool opens.
    pub max: usize,
}

impl PoolUsage {
    /// From deadpool's status: what is open and not available is lent out.
    pub fn of(status: deadpool::Status) -> Self {
        Self {
            open: status.size,
            in_use: status.size.saturating_sub(status.available),
            max: status.max_size,
        }
    }
}

/// Requests under way on connections that each carry many at once (multiplexed Redis
/// connections, shared LDAP search connections): what such a pool has "in use".
#[derive(Debug, Default)]
pub struct InFlight(AtomicUsize);

impl InFlight {
    /// Counts a request until the guard is dropped.
    pub fn enter(&self) -> Counted<'_> {
        self.0.fetch_add(1, Ordering::Relaxed);
        Counted(&self.0)
    }

    /// Requests under way now.
    pub fn now(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }
}

/// A request counted in an [`InFlight`], until dropped.
pub struct Counted<'a>(&'a AtomicUsize);

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}
