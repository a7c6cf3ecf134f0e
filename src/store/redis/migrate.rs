//! The start-up migration: brings what earlier versions stored in other formats to the current
//! one, once, before the node serves, so that every request reads the current format only.
//!
//! | key | type | holds |
//! |---|---|---|
//! | `{p}format` | string | the format the store was brought to ([`FORMAT`]) |
//! | `{p}format:lock` | string, EX | the node bringing it there (a random token) |
//!
//! What it converts (format 1 is whatever the first versions left; format 2 kept grant indexes
//! as sorted sets; 3 is the current one):
//!
//! - the audit log of earlier versions, sorted sets of ids by cursor (`{p}audit:log`,
//!   `{p}audit:by:…`), and the first versions' single sorted set of event JSON (`{p}audit`),
//!   moved into the lists [`MOVE_BATCH`] events per script, newest first, each below every event
//!   already in the lists (`move_indexed_audit.lua`, then `move_earlier_audit.lua`);
//! - the plain-set indexes `{p}issued:<client id>`, `{p}userissued:<sub>` and `{p}usersess:<sub>`,
//!   merged into `{p}client-issued:…`, `{p}user-issued:…` and `{p}user-sessions:…`, and grant
//!   indexes kept as plain sets or sorted sets, turned into lists, the soonest token to expire
//!   first (`migrate_indexes.lua`, one SCAN page per script).
//!
//! Several nodes starting at once: the first to set the lock runs the migration and renews the
//! lock as it goes; the others wait until the format is recorded, or take over when the lock
//! expires (a node that died or stalled midway). The lock names its holder by a random token,
//! and a node renews it or lets it go only while it names that node (`format_lock.lua`): a node
//! that finds its lock taken over stops and waits like the others. Each step is atomic per key
//! and leaves what is already in the current format alone, so a migration taken over, or run
//! twice, brings the same result.
//! Every round trip is bounded by the store timeout: a store that does not answer stops start-up.
//!
//! The step is removed in [`REMOVED_IN`], with the formats it converts: a store still holding
//! them must be brought to the current format by a version before that one first.

use super::audit::LISTS;
use super::{Keys, RedisStore, Request};
use crate::domain::secret::random_id;
use crate::store::codec::decode;
use crate::store::{AuditIndex, AuditRecord, StoreError};
use redis;
use std::time::Duration;

/// The format this version reads and writes.
pub const FORMAT: u64 = 3;

/// The version of sso-bridge that removes this migration: the next minor version after 0.1.0.
pub const REMOVED_IN: &str = "0.2.0";

/// What follows `{p}audit:` in the key of an index in the sorted-set versions.
const SORTED_SETS: &str = "by:";

/// How many events of an earlier version's audit log one script moves, at most.
const MOVE_BATCH: usize = 500;

/// How many keys one SCAN step asks for.
const SCAN_COUNT: usize = 1000;

/// How long the lock outlives the last sign of its holder (seconds): it is renewed after every
/// script, each bounded by the store timeout.
const LOCK_SECS: u64 = 60;

/// How often a node waiting for another's migration looks again.
const WAIT_STEP: Duration = Duration::from_millis(200);

/// What a node does with the lock it holds.
enum Lock {
    /// Keeps it for [`LOCK_SECS`] more.
    Renew,
    /// Records [`FORMAT`] and lets the lock go.
    Done,
}

/// What a migration moved, for the log.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Migrated {
    /// Audit events moved into the lists.
    pub audit_events: u64,
    /// Plain-set indexes merged into their sorted sets.
    pub indexes: u64,
    /// Grant indexes turned into lists.
    pub grants: u64,
}

impl Keys {
    fn format(&self) -> String {
        format!("{}format", self.prefix)
    }

    fn format_lock(&self) -> String {
        format!("{}format:lock", self.prefix)
    }

    /// The first versions' audit log: one sorted set of event JSON by time.
    fn first_audit(&self) -> String {
        format!("{}audit", self.prefix)
    }

    /// A SCAN pattern matching the keys that start with `start`, taken literally.
    fn pattern(&self, start: &str) -> String {
        let mut pattern = String::with_capacity(start.len() + 1);
        for c in start.chars() {
            if matches!(c, '*' | '?' | '[' | ']' | '\\') {
                pattern.push('\\');
            }
            pattern.push(c);
        }
        pattern.push('*');
        pattern
    }
}

impl RedisStore {
    /// Brings the store to [`FORMAT`], or waits for the node doing it; answers what this node
    /// moved (nothing when the store was there already). Run once at start-up, before the node
    /// serves.
    pub async fn migrate(&self) -> Result<Migrated, StoreError> {
        let token = random_id(16);
        let mut waiting = false;
        loop {
            let format: Option<u64> = self.cmd(redis::cmd("GET").arg(self.keys.format())).await?;
            match format {
                Some(format) if format >= FORMAT => return Ok(Migrated::default()),
                _ => {}
            }
            let mut lock = redis::cmd("SET");
            lock.arg(self.keys.format_lock())
                .arg(&token)
                .arg("NX")
                .arg("EX")
                .arg(LOCK_SECS);
            let taken: Option<String> = self.cmd(&lock).await?;
            if taken.is_some() {
                let Some(migrated) = self.migrate_holding_lock(&token).await? else {
                    tracing::warn!(
                        "another node took the format lock over while this one migrated; \
                         waiting for it to finish"
                    );
                    waiting = true;
                    continue;
                };
                self.hold_lock(&token, Lock::Done).await?;
                tracing::info!(
                    format = FORMAT,
                    audit_events = migrated.audit_events,
                    indexes = migrated.indexes,
                    grant_indexes = migrated.grants,
                    removed_in = REMOVED_IN,
                    "brought the store to the current format"
                );
                return Ok(migrated);
            }
            if !waiting {
                waiting = true;
                tracing::info!("waiting for another node to bring the store to the current format");
            }
            tokio::time::sleep(WAIT_STEP).await;
        }
    }

    /// Runs every step while this node holds the lock; `None` when another node took the lock
    /// over meanwhile (this one stalled past its life), which then carries the migration on.
    async fn migrate_holding_lock(&self, token: &str) -> Result<Option<Migrated>, StoreError> {
        let mut migrated = Migrated::default();
        loop {
            let (left, moved) = self.move_indexed_audit().await?;
            migrated.audit_events += moved;
            if !self.hold_lock(token, Lock::Renew).await? {
                return Ok(None);
            }
            if left == 0 {
                break;
            }
        }
        loop {
            let moved = self.move_first_audit().await?;
            migrated.audit_events += moved;
            if !self.hold_lock(token, Lock::Renew).await? {
                return Ok(None);
            }
            if moved == 0 {
                break;
            }
        }
        let Some((indexes, grants)) = self.migrate_indexes(token).await? else {
            return Ok(None);
        };
        migrated.indexes = indexes;
        migrated.grants = grants;
        Ok(Some(migrated))
    }

    /// Renews the lock, or lets it go with the format recorded, while it names this node
    /// (`format_lock.lua`); answers whether it did.
    async fn hold_lock(&self, token: &str, step: Lock) -> Result<bool, StoreError> {
        let mut call = self.scripts.format_lock.key(self.keys.format_lock());
        call.key(self.keys.format()).arg(token);
        match step {
            Lock::Renew => call.arg("renew").arg(LOCK_SECS),
            Lock::Done => call.arg("done").arg(FORMAT),
        };
        let held: i64 = self.call(Request::Script(&call)).await?;
        Ok(held == 1)
    }

    /// Moves the newest events of the sorted-set log into the lists; answers how many are left
    /// there and how many moved.
    async fn move_indexed_audit(&self) -> Result<(u64, u64), StoreError> {
        let keys = &self.keys;
        let mut count = redis::cmd("ZCARD");
        count.arg(keys.audit("log"));
        let before: u64 = self.cmd(&count).await?;
        if before == 0 {
            return Ok((0, 0));
        }
        let mut call = self.scripts.move_indexed_audit.key(keys.audit("log"));
        call.key(keys.audit("seq"))
            .key(keys.audit("filed"))
            .key(keys.audit("earliest"))
            .arg(MOVE_BATCH)
            .arg(keys.audit(SORTED_SETS))
            .arg(keys.audit(LISTS));
        let left: u64 = self.call(Request::Script(&call)).await?;
        Ok((left, before.saturating_sub(left)))
    }

    /// Moves the newest events of the first versions' log into the lists; answers how many of
    /// its members it took (0 once it is empty).
    async fn move_first_audit(&self) -> Result<u64, StoreError> {
        let keys = &self.keys;
        let mut newest = redis::cmd("ZREVRANGE");
        newest.arg(keys.first_audit()).arg(0).arg(MOVE_BATCH - 1);
        let members: Vec<String> = self.cmd(&newest).await?;
        if members.is_empty() {
            return Ok(0);
        }
        let mut call = self.scripts.move_earlier_audit.key(keys.first_audit());
        call.key(keys.audit("seq"))
            .key(keys.audit("events"))
            .key(keys.audit("filed"))
            .key(keys.audit("earliest"));
        for member in &members {
            call.arg(member);
            match decode::<AuditRecord>("audit event", member) {
                Ok(record) => {
                    let indexes = AuditIndex::of(&record);
                    call.arg(&record.id).arg(record.at).arg(indexes.len());
                    for index in &indexes {
                        call.arg(keys.audit_index(index));
                    }
                }
                // Damaged: nothing could show or find it; it is dropped.
                Err(_) => {
                    call.arg("").arg(0).arg(0);
                }
            }
        }
        let _: i64 = self.call(Request::Script(&call)).await?;
        Ok(members.len() as u64)
    }

    /// Walks the store's keys with SCAN and brings the plain-set indexes of each page to the
    /// current format; answers how many indexes were merged and grant indexes converted, or
    /// `None` when another node took the lock over.
    async fn migrate_indexes(&self, token: &str) -> Result<Option<(u64, u64)>, StoreError> {
        let prefix = &self.keys.prefix;
        let earlier = [
            format!("{prefix}issued:"),
            format!("{prefix}userissued:"),
            format!("{prefix}usersess:"),
            format!("{prefix}grant:"),
        ];
        let (mut merged, mut converted) = (0, 0);
        let mut cursor = 0u64;
        loop {
            let mut scan = redis::cmd("SCAN");
            scan.arg(cursor)
                .arg("MATCH")
                .arg(self.keys.pattern(prefix))
                .arg("COUNT")
                .arg(SCAN_COUNT);
            let (next, page): (u64, Vec<String>) = self.cmd(&scan).await?;
            let candidates: Vec<&String> = page
                .iter()
                .filter(|key| earlier.iter().any(|start| key.starts_with(start.as_str())))
                .collect();
            if !candidates.is_empty() {
                let mut call = self.scripts.migrate_indexes.prepare_invoke();
                for key in candidates {
                    call.key(key);
                }
                call.arg(prefix);
                let (m, c): (u64, u64) = self.call(Request::Script(&call)).await?;
                merged += m;
                converted += c;
                if !self.hold_lock(token, Lock::Renew).await? {
                    return Ok(None);
                }
            }
            if next == 0 {
                return Ok(Some((merged, converted)));
            }
            cursor = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Major and minor of a version `x.y.z`.
    fn minor(version: &str) -> (u64, u64) {
        let mut parts = version.split('.').map(|p| p.parse::<u64>().unwrap());
        (parts.next().unwrap(), parts.next().unwrap())
    }

    #[test]
    fn the_step_is_removed_by_the_next_minor_version_and_the_book_says_which() {
        let (major, this) = minor(env!("CARGO_PKG_VERSION"));
        assert_eq!(
            minor(REMOVED_IN),
            (major, this + 1),
            "this version is {}: remove the migration (and the formats it converts) now",
            env!("CARGO_PKG_VERSION")
        );
        let book = include_str!("../../../docs/src/operating/upgrades.md");
        assert!(book.contains(&format!("Version {REMOVED_IN}, the next minor version")));
        assert!(book.contains(&format!("now `{FORMAT}`")));
    }

    #[test]
    fn a_prefix_is_matched_literally() {
        let keys = Keys {
            prefix: "a*b?[c]\\:".into(),
        };
        assert_eq!(keys.pattern(&keys.prefix), "a\\*b\\?\\[c\\]\\\\:*");
    }
}
