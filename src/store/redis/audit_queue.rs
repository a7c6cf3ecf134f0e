//! Group commit of audit appends (see `group_commit.rs`): every event a request publishes is
//! written before its response leaves, but the events of requests that arrive together go to
//! Redis together, in one script, rather than one round trip each. An append waits for its
//! turn one store timeout at most, and its own write as long again: a store that does not
//! answer costs each request that much, not one timeout per batch queued ahead.

use super::group_commit::{self, GroupCommit};
use crate::store::StoreError;
use std::sync::Arc;

/// How many events one script writes at most: bounds the keys and arguments of one call. The
/// script names an event by its place in the batch, in one byte.
pub(super) const MAX_BATCH: usize = 64;
const _: () = assert!(MAX_BATCH <= u8::MAX as usize);

/// An audit event ready for the append script.
pub(super) struct QueuedEvent {
    pub(super) id: String,
    pub(super) json: String,
    /// Full keys of the indexes it is filed under.
    pub(super) indexes: Vec<String>,
    /// Where it is filed, as kept in `{p}audit:filed`: `{"at": time, "ix": [index keys]}`.
    pub(super) filing: String,
    /// Its time.
    pub(super) at: u64,
    /// Oldest time the log keeps (the event's time less the retention).
    pub(super) oldest: u64,
    /// How many events the log keeps.
    pub(super) keep: usize,
}

/// The events waiting for the writer, and the writer's turn.
pub(super) type AuditQueue = GroupCommit<Arc<QueuedEvent>, Result<(), StoreError>>;

/// A new queue.
pub(super) fn queue() -> AuditQueue {
    GroupCommit::new(MAX_BATCH)
}

/// Events taken to be written together.
pub(super) type Batch = group_commit::Batch<Arc<QueuedEvent>, Result<(), StoreError>>;

impl Batch {
    pub(super) fn events(&self) -> impl Iterator<Item = &QueuedEvent> {
        self.items().map(Arc::as_ref)
    }

    /// Tells every waiting append how the batch went.
    pub(super) fn finish(self, outcome: &Result<(), StoreError>) {
        self.answer_all(|| outcome.as_ref().map(|_| ()).map_err(group_commit::shared));
    }
}
