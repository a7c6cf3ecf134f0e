//! What the event listeners keep in Redis, one round trip each.
//!
//! | key | type | holds |
//! |---|---|---|
//! | `{p}audit:seq` | list | every audit event as `<cursor> <id>`, in cursor order |
//! | `{p}audit:events` | hash | event id → event JSON |
//! | `{p}audit:filed` | hash | event id → `{"at": time, "ix": [its index keys]}` |
//! | `{p}audit:cursor`, `{p}audit:earliest` | string | the highest and lowest cursors given out |
//! | `{p}audit:ix:actor:<lowercased actor>` | list | the actor's events, like the log |
//! | `{p}audit:ix:app:<client id>` | list | the app's events, like the log |
//! | `{p}audit:ix:action:<action>` | list | the action's events, like the log |
//! | `{p}audit:ix:failures` | list | failed events, like the log |
//! | `{p}failures:<client id>` | list, EXPIRE | the client's recent failed requests (JSON) |
//! | `{p}lastused:<client id>` | string, EX | when the client last obtained tokens (Unix time) |
//!
//! Appending an event files it in the log and its indexes and forgets what retention and
//! `audit.max_events` no longer keep, everywhere at once: one script (`append_audit.lua`), which
//! writes every event queued meanwhile by other requests of this process in the same call
//! (`audit_queue.rs`). Cursors only grow, so the log and every index are lists in cursor order:
//! an append pushes at their tail, forgetting trims their head, and neither costs more as the
//! log grows. A search walks the shortest of the lists it needs, from a cursor found by binary
//! search, and checks the others in each event's filing (`audit_events.lua`), a bounded number
//! of entries per step.
//!
//! The logs of earlier versions are moved into the lists at start-up (`migrate.rs`).

use super::audit_queue::{Batch, QueuedEvent};
use super::{Keys, RedisStore, Request};
use crate::domain::ClientId;
use crate::store::codec::{decode, encode};
use crate::store::usage::AuditBackend;
use crate::store::{
    AuditFrom, AuditIndex, AuditPage, AuditRecord, DoctorEntry, LoggedEvent, StoreError,
};
use async_trait::async_trait;
use redis;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::oneshot::error::TryRecvError;
use tokio::time::Instant;

/// Where an event is filed, as `{p}audit:filed` keeps it: its time (for retention) and its
/// index keys (to take it out of them when it is forgotten, and to check a search's other
/// indexes).
#[derive(serde::Serialize)]
struct Filing<'a> {
    at: u64,
    ix: &'a [String],
}

/// How many members of a sorted set one step of a walk looks at, at most: a search for
/// something rare costs one bounded script per step, never one long one.
const WALK_BUDGET: usize = 1000;

/// What follows `{p}audit:` in the key of an index.
pub(super) const LISTS: &str = "ix:";

impl Keys {
    pub(super) fn audit(&self, part: &str) -> String {
        format!("{}audit:{part}", self.prefix)
    }

    pub(super) fn audit_index(&self, index: &AuditIndex) -> String {
        let name = match index {
            AuditIndex::Actor(name) => format!("actor:{name}"),
            AuditIndex::App(client) => format!("app:{client}"),
            AuditIndex::Action(action) => format!("action:{}", action.as_str()),
            AuditIndex::Failures => "failures".to_owned(),
        };
        self.audit(&format!("{LISTS}{name}"))
    }

    fn failures(&self, client: &ClientId) -> String {
        format!("{}failures:{}", self.prefix, client.as_str())
    }
}

#[async_trait]
impl AuditBackend for RedisStore {
    async fn append_audit(
        &self,
        record: &AuditRecord,
        retention: u64,
        keep: usize,
    ) -> Result<(), StoreError> {
        let keys = &self.keys;
        let indexes: Vec<String> = AuditIndex::of(record)
            .iter()
            .map(|index| keys.audit_index(index))
            .collect();
        let filing = Filing {
            at: record.at,
            ix: &indexes,
        };
        let event = Arc::new(QueuedEvent {
            id: record.id.clone(),
            json: encode("audit event", record)?,
            filing: encode("audit filing", &filing)?,
            at: record.at,
            indexes,
            oldest: record.at.saturating_sub(retention),
            keep,
        });
        // A batch whose writer went away before telling how it went (its request was dropped)
        // is queued again: appending an event again files the same id once. Waiting for the
        // writer's turn is bounded by the store timeout, and the call this request writes is
        // bounded by it too: behind a server that does not answer, an append waits at most
        // twice that, not once for every batch queued ahead of it.
        let deadline = Instant::now() + self.timeout;
        for _ in 0..3 {
            let mut outcome = self.audit_queue.push(Arc::clone(&event));
            loop {
                tokio::select! {
                    biased;
                    done = &mut outcome => match done {
                        Ok(result) => return result,
                        Err(_) => break,
                    },
                    // Before the turn: past its deadline, a request writes no other batch.
                    () = tokio::time::sleep_until(deadline) => return Err(self.timed_out()),
                    turn = self.audit_queue.turn() => {
                        match outcome.try_recv() {
                            Ok(result) => return result,
                            Err(TryRecvError::Closed) => break,
                            Err(TryRecvError::Empty) => {}
                        }
                        // The appends of requests ready now join this batch.
                        tokio::task::yield_now().await;
                        let batch = self.audit_queue.take();
                        let written = self.write_audit(&batch).await;
                        batch.finish(&written);
                        drop(turn);
                    }
                }
            }
        }
        Err(StoreError::Unavailable(
            "the audit event's batch was abandoned by its writer three times".into(),
        ))
    }

    async fn audit_events(
        &self,
        under: &[AuditIndex],
        from: AuditFrom,
        limit: usize,
    ) -> Result<AuditPage, StoreError> {
        if limit == 0 {
            return Ok(AuditPage::default());
        }
        let (way, cursor) = match from {
            AuditFrom::Newest => ("older", "+inf".to_owned()),
            AuditFrom::Before(c) => ("older", c.to_string()),
            AuditFrom::After(c) => ("newer", c.to_string()),
        };
        let mut call = self.scripts.audit_events.key(self.keys.audit("events"));
        call.key(self.keys.audit("filed"));
        if under.is_empty() {
            call.key(self.keys.audit("seq"));
        }
        for index in under {
            call.key(self.keys.audit_index(index));
        }
        call.arg(way).arg(cursor).arg(limit).arg(WALK_BUDGET);
        let reply: Vec<String> = self.call(Request::Script(&call)).await?;
        page(&reply)
    }

    async fn push_failure(
        &self,
        id: &ClientId,
        entry: &DoctorEntry,
        keep: usize,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let event = encode("app doctor entry", entry)?;
        let key = self.keys.failures(id);
        let mut pipe = redis::pipe();
        pipe.atomic()
            .cmd("LPUSH")
            .arg(&key)
            .arg(&event)
            .ignore()
            .cmd("LTRIM")
            .arg(&key)
            .arg(0)
            .arg(keep.saturating_sub(1))
            .ignore()
            .cmd("EXPIRE")
            .arg(&key)
            .arg(ttl)
            .ignore();
        self.call(Request::Pipe(&pipe)).await
    }

    async fn failures(&self, id: &ClientId) -> Result<Vec<DoctorEntry>, StoreError> {
        let mut cmd = redis::cmd("LRANGE");
        cmd.arg(self.keys.failures(id)).arg(0).arg(-1);
        let entries: Vec<String> = self.cmd(&cmd).await?;
        Ok(entries
            .iter()
            .filter_map(|e| decode("app doctor entry", e).ok())
            .collect())
    }
}

impl RedisStore {
    /// Appends a batch of queued events in one script (see `audit_queue.rs`).
    async fn write_audit(&self, batch: &Batch) -> Result<(), StoreError> {
        let keys = &self.keys;
        let mut call = self.scripts.append_audit.key(keys.audit("seq"));
        call.key(keys.audit("events"))
            .key(keys.audit("filed"))
            .key(keys.audit("cursor"));
        // Each index once, however many events of the batch it files: the script writes it once,
        // with the events it files named by their places in the batch (1, 2, ...), one byte each.
        let mut indexes: Vec<(&str, Vec<u8>)> = Vec::new();
        let (mut newest, mut oldest, mut keep, mut count) = (0, 0, usize::MAX, 0u8);
        for event in batch.events() {
            count += 1;
            for index in &event.indexes {
                match indexes.iter_mut().find(|(key, _)| *key == index.as_str()) {
                    Some((_, places)) => places.push(count),
                    None => indexes.push((index, vec![count])),
                }
            }
            newest = newest.max(event.at);
            oldest = oldest.max(event.oldest);
            keep = keep.min(event.keep);
        }
        for (index, _) in &indexes {
            call.key(*index);
        }
        let sweep = self.audit_swept.fetch_max(newest, Ordering::Relaxed) < newest
            || self.audit_behind.load(Ordering::Relaxed);
        call.arg(oldest).arg(keep).arg(u8::from(sweep)).arg(count);
        for event in batch.events() {
            call.arg(&event.id).arg(&event.json).arg(&event.filing);
        }
        for (_, places) in &indexes {
            call.arg(places.as_slice());
        }
        let behind: i64 = self.call(Request::Script(&call)).await?;
        self.audit_behind.store(behind == 1, Ordering::Relaxed);
        Ok(())
    }
}

/// Reads the walk script's reply: where to go on, then cursor and event pairs.
fn page(reply: &[String]) -> Result<AuditPage, StoreError> {
    let cursor = |text: &str| {
        text.parse::<i64>()
            .map_err(|_| StoreError::Corrupt(format!("audit cursor `{text}`")))
    };
    let (next, pairs) = reply
        .split_first()
        .ok_or_else(|| StoreError::Corrupt("empty audit walk reply".into()))?;
    let next = match next.as_str() {
        "" => None,
        text => Some(cursor(text)?),
    };
    let events = pairs
        .chunks_exact(2)
        .map(|pair| {
            Ok(LoggedEvent {
                cursor: cursor(&pair[0])?,
                record: decode("audit event", &pair[1])?,
            })
        })
        .collect::<Result<_, StoreError>>()?;
    Ok(AuditPage { events, next })
}
