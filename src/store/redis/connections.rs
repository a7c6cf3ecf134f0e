//! The Redis connections every request shares: a few multiplexed connections, each carrying
//! many requests at once, opened on first use and replaced when found broken.
//!
//! A multiplexed connection pipelines the requests of every task that holds it, so a busy
//! request costs the server its own command and nothing else: no checkout ping, no `UNWATCH`,
//! and fewer reads and writes on both sides, as concurrent requests share them. Only a
//! connection left idle for [`IDLE_CHECK`] is pinged before it is lent again, so that one
//! that died quietly (a Redis restart at night, a firewall dropping idle connections) costs a
//! ping rather than a failed request. Nothing here uses `WATCH` or blocking commands, which a
//! shared connection could not carry; a MULTI/EXEC transaction goes out as one pipeline, so it
//! is never interleaved.

use super::connect::Target;
use crate::domain::pool::{Counted, InFlight};
use redis::aio::MultiplexedConnection;
use redis::PushKind;
use redis::RedisError;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a connection may go unused before it is checked with a ping when next lent.
const IDLE_CHECK: Duration = Duration::from_secs(5);

/// The shared connections.
pub(super) struct Connections {
    target: Target,
    slots: Box<[Slot]>,
    next: AtomicUsize,
    /// When the connections were set up: the origin of each slot's `used_at`.
    epoch: Instant,
    /// Requests under way (a multiplexed connection carries many: this is what is "in use").
    in_flight: InFlight,
}

/// One connection place: the open connection, if any, and which opening it came from.
#[derive(Default)]
struct Slot {
    open: Mutex<Option<Opened>>,
    /// Held while a connection is being opened, so that concurrent requests wait for that one
    /// instead of each opening their own.
    opening: tokio::sync::Mutex<()>,
    openings: AtomicU64,
    /// When the slot's connection was last lent, in milliseconds since the epoch.
    used_at: AtomicU64,
}

#[derive(Clone)]
struct Opened {
    generation: u64,
    connection: MultiplexedConnection,
    /// Set by the client library the moment the connection closes (the server went away), so
    /// that it is not lent again.
    closed: Arc<AtomicBool>,
}

/// A connection lent to one request.
pub(super) struct Lease {
    slot: usize,
    generation: u64,
    pub(super) connection: MultiplexedConnection,
}

impl Connections {
    /// `size` connections to `target`, opened when first needed.
    pub(super) fn new(target: Target, size: usize) -> Self {
        Self {
            target,
            slots: (0..size.max(1)).map(|_| Slot::default()).collect(),
            next: AtomicUsize::new(0),
            epoch: Instant::now(),
            in_flight: InFlight::default(),
        }
    }

    /// A connection, taking the slots in turn; opens one if the slot has none, or if the one
    /// it has sat idle and no longer answers.
    pub(super) async fn get(&self) -> Result<Lease, RedisError> {
        let index = self.next.fetch_add(1, Ordering::Relaxed) % self.slots.len();
        let slot = &self.slots[index];
        let now = self.millis();
        let idle = now.saturating_sub(slot.used_at.swap(now, Ordering::Relaxed));
        if let Some(opened) = slot.current() {
            let lease = Lease::of(index, opened);
            if idle < IDLE_CHECK.as_millis() as u64 {
                return Ok(lease);
            }
            let mut conn = lease.connection.clone();
            if redis::cmd("PING")
                .query_async::<()>(&mut conn)
                .await
                .is_ok()
            {
                return Ok(lease);
            }
            self.discard(&lease);
        }
        let _opening = slot.opening.lock().await;
        if let Some(opened) = slot.current() {
            return Ok(Lease::of(index, opened));
        }
        let closed = Arc::new(AtomicBool::new(false));
        let watch = {
            let closed = Arc::clone(&closed);
            move |push: redis::PushInfo| {
                if push.kind == PushKind::Disconnection {
                    closed.store(true, Ordering::Relaxed);
                }
                Ok::<(), std::convert::Infallible>(())
            }
        };
        let connection = self.target.connect(watch).await?;
        let opened = Opened {
            generation: slot.openings.fetch_add(1, Ordering::Relaxed) + 1,
            connection,
            closed,
        };
        *slot.lock() = Some(opened.clone());
        Ok(Lease::of(index, opened))
    }

    /// Drops the connection `lease` came from, unless it was replaced already, so that the
    /// next request on its slot opens a fresh one.
    pub(super) fn discard(&self, lease: &Lease) {
        let mut open = self.slots[lease.slot].lock();
        if open
            .as_ref()
            .is_some_and(|o| o.generation == lease.generation)
        {
            *open = None;
        }
    }

    /// Drops every connection: the server went away (it restarted, or failed over), so the
    /// others are as dead as the one that said so, and each would otherwise fail a request of
    /// its own before being replaced.
    pub(super) fn discard_all(&self) {
        for slot in self.slots.iter() {
            *slot.lock() = None;
        }
    }

    /// Connections open now, requests on them right now, and how many connections there may be.
    pub(super) fn usage(&self) -> crate::domain::PoolUsage {
        crate::domain::PoolUsage {
            open: self.slots.iter().filter(|s| s.current().is_some()).count(),
            in_use: self.in_flight.now(),
            max: self.slots.len(),
        }
    }

    /// Counts a request on the connections until the guard is dropped.
    pub(super) fn in_flight(&self) -> Counted<'_> {
        self.in_flight.enter()
    }

    fn millis(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

impl Slot {
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Opened>> {
        // The slot holds a plain value that a panic cannot leave half-written.
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The slot's connection, unless it has closed.
    fn current(&self) -> Option<Opened> {
        let mut open = self.lock();
        if open
            .as_ref()
            .is_some_and(|o| o.closed.load(Ordering::Relaxed))
        {
            *open = None;
        }
        open.clone()
    }
}

impl Lease {
    fn of(slot: usize, opened: Opened) -> Self {
        Self {
            slot,
            generation: opened.generation,
            connection: opened.connection,
        }
    }
}
