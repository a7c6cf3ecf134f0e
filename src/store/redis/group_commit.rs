//! Group commit: requests that each need a write of the same kind queue it, and one of them
//! writes whatever is queued in one script call, its own write included, while the others wait
//! for their answer. Under load a busy node sends one call where it would send dozens, and
//! Redis pays once for what a call costs whatever it carries (reading it, starting the script,
//! reading the clock, checking the app).
//!
//! A request queues its write, then either hears its answer from another request's call or
//! gets the writer's turn itself: it lets the requests that are ready at the same moment run
//! first (one turn of the runtime, no timer), so that their writes join, then writes the queue.
//! A turn writes one call and ends, so no request waits for more than the call in flight and
//! its own. Audit appends (`audit.rs`) and refresh token rotations (`grants.rs`) go this way.

use crate::store::StoreError;
use std::sync::{Mutex, PoisonError};
use tokio::sync::oneshot;

/// Writes waiting for the writer, and the writer's turn.
pub(super) struct GroupCommit<T, R> {
    waiting: Mutex<Vec<Waiting<T, R>>>,
    turn: tokio::sync::Mutex<()>,
    /// How many writes one call carries at most.
    most: usize,
}

/// One queued write and whom to tell how it went.
struct Waiting<T, R> {
    item: T,
    done: oneshot::Sender<R>,
}

impl<T, R> GroupCommit<T, R> {
    /// A queue whose calls carry `most` writes at most.
    pub(super) fn new(most: usize) -> Self {
        Self {
            waiting: Mutex::new(Vec::new()),
            turn: tokio::sync::Mutex::new(()),
            most: most.max(1),
        }
    }

    /// Queues `item`; the answer comes once its call is written.
    pub(super) fn push(&self, item: T) -> oneshot::Receiver<R> {
        let (done, outcome) = oneshot::channel();
        self.lock().push(Waiting { item, done });
        outcome
    }

    /// Waits for the writer's turn (cancel-safe).
    pub(super) async fn turn(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.turn.lock().await
    }

    /// Takes the oldest queued writes, as many as one call carries, for the holder of the turn.
    pub(super) fn take(&self) -> Batch<T, R> {
        let mut waiting = self.lock();
        let count = waiting.len().min(self.most);
        Batch(waiting.drain(..count).collect())
    }

    /// As [`GroupCommit::take`], leaving out the writes nobody waits for any more (their
    /// request went away or gave up): a write that must not happen unseen, as a rotation
    /// whose new tokens nobody would receive, is made only for a request still waiting.
    pub(super) fn take_awaited(&self) -> Batch<T, R> {
        let mut waiting = self.lock();
        waiting.retain(|w| !w.done.is_closed());
        let count = waiting.len().min(self.most);
        Batch(waiting.drain(..count).collect())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Waiting<T, R>>> {
        // The lock guards a plain push or drain, which cannot leave the list half-changed.
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Writes taken to go out in one call.
pub(super) struct Batch<T, R>(Vec<Waiting<T, R>>);

impl<T, R> Batch<T, R> {
    /// The writes, in the order they were queued.
    pub(super) fn items(&self) -> impl Iterator<Item = &T> {
        self.0.iter().map(|w| &w.item)
    }

    /// How many writes the batch holds.
    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    /// Tells each waiting request its own answer, in the order of [`Batch::items`].
    pub(super) fn answer(self, answers: impl IntoIterator<Item = R>) {
        for (waiting, answer) in self.0.into_iter().zip(answers) {
            // A request that stopped waiting (it went away) has nobody to tell.
            let _ = waiting.done.send(answer);
        }
    }

    /// Tells every waiting request the same answer.
    pub(super) fn answer_all(self, answer: impl Fn() -> R) {
        for waiting in self.0 {
            let _ = waiting.done.send(answer());
        }
    }
}

/// The same failure, for each write of a batch.
pub(super) fn shared(error: &StoreError) -> StoreError {
    match error {
        StoreError::Unavailable(cause) => StoreError::Unavailable(cause.clone()),
        StoreError::Corrupt(cause) => StoreError::Corrupt(cause.clone()),
        encoding @ StoreError::Encoding { .. } => StoreError::Corrupt(encoding.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_takes_the_oldest_writes_up_to_its_bound_and_answers_each_in_order() {
        let queue: GroupCommit<u32, u32> = GroupCommit::new(2);
        let mut outcomes: Vec<_> = (1..=3).map(|i| queue.push(i)).collect();
        let batch = queue.take();
        assert_eq!(batch.items().copied().collect::<Vec<_>>(), vec![1, 2]);
        batch.answer(vec![10, 20]);
        assert_eq!(outcomes[0].try_recv(), Ok(10));
        assert_eq!(outcomes[1].try_recv(), Ok(20));
        assert!(outcomes[2].try_recv().is_err());
        let rest = queue.take();
        assert_eq!(rest.len(), 1);
        rest.answer_all(|| 7);
        assert_eq!(outcomes[2].try_recv(), Ok(7));
    }

    #[test]
    fn a_write_nobody_waits_for_is_left_out_of_an_awaited_batch() {
        let queue: GroupCommit<u32, u32> = GroupCommit::new(2);
        let first = queue.push(1);
        drop(queue.push(2));
        let third = queue.push(3);
        let batch = queue.take_awaited();
        assert_eq!(batch.items().copied().collect::<Vec<_>>(), vec![1, 3]);
        drop((first, third));
        assert_eq!(queue.take_awaited().len(), 0);
    }
}
