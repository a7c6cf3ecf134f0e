//! How much of a backend's connection pool is in use, as the store and the directory report it
//! to the metrics.

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
