//! Group commit of audit appends: every event a request publishes is written before its
//! response leaves, but events that arrive while another batch is being written go to Redis
//! together, in one script, rather than one round trip each.
//!
//! An append queues its event, then either sees it written by another request's batch or gets
//! the writer's turn itself and writes whatever is queued, its own event included. A turn writes
//! one batch and ends, so no request waits for more than the batch in flight and its own.

use crate::store::StoreError;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::oneshot;

/// How many events one script writes at most: bounds the keys and arguments of one call. The
/// script names an event by its place in the batch, in one byte.
const MAX_BATCH: usize = 64;
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

/// One queued event and whom to tell how its batch went.
struct Waiting {
    event: Arc<QueuedEvent>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// The events waiting for the writer, and the writer's turn.
#[derive(Default)]
pub(super) struct AuditQueue {
    waiting: Mutex<Vec<Waiting>>,
    turn: tokio::sync::Mutex<()>,
}

/// What an append waits on: its event's outcome.
pub(super) type Outcome = oneshot::Receiver<Result<(), StoreError>>;

impl AuditQueue {
    /// Queues `event`; the answer says how its batch went.
    pub(super) fn push(&self, event: Arc<QueuedEvent>) -> Outcome {
        let (done, outcome) = oneshot::channel();
        self.lock().push(Waiting { event, done });
        outcome
    }

    /// Waits for the writer's turn (cancel-safe).
    pub(super) async fn turn(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.turn.lock().await
    }

    /// Takes the oldest queued events, at most [`MAX_BATCH`], for the holder of the turn.
    pub(super) fn take(&self) -> Batch {
        let mut waiting = self.lock();
        let count = waiting.len().min(MAX_BATCH);
        Batch(waiting.drain(..count).collect())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Waiting>> {
        // The lock guards a plain push or drain, which cannot leave the list half-changed.
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Events taken to be written together.
pub(super) struct Batch(Vec<Waiting>);

impl Batch {
    pub(super) fn events(&self) -> impl Iterator<Item = &QueuedEvent> {
        self.0.iter().map(|w| w.event.as_ref())
    }

    /// Tells every waiting append how the batch went.
    pub(super) fn finish(self, outcome: &Result<(), StoreError>) {
        for waiting in self.0 {
            // An append that stopped waiting (its request went away) has nobody to tell.
            let _ = waiting
                .done
                .send(outcome.as_ref().map(|_| ()).map_err(shared));
        }
    }
}

/// The same failure, for each append of a batch.
fn shared(error: &StoreError) -> StoreError {
    match error {
        StoreError::Unavailable(cause) => StoreError::Unavailable(cause.clone()),
        StoreError::Corrupt(cause) => StoreError::Corrupt(cause.clone()),
        encoding @ StoreError::Encoding { .. } => StoreError::Corrupt(encoding.to_string()),
    }
}
