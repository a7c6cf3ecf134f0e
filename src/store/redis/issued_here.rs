//! The records of the refresh tokens this process issued lately, so that a refresh of one of
//! them reads nothing before its rotation.
//!
//! A refresh token's record is written once, when the token is issued, and never changed: the
//! rotation script, which checks in its atomic step that the token is still live (not rotated,
//! revoked or expired, its app enabled), decides every refresh. A copy of the record can
//! therefore only say what Redis would have said of it, or name a token the rotation then
//! refuses. Each copy is handed out once (a token is refreshed once); a retry within grace, or
//! a token issued by another node, is read from Redis.

use crate::domain::Digest;
use crate::store::RefreshRecord;
use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, PoisonError};

/// How many records are kept at most (a few hundred bytes each): the oldest go first, and a
/// token whose record was dropped is read from Redis.
const CAPACITY: usize = 4096;

/// Records by token digest, oldest first.
#[derive(Default)]
pub(super) struct IssuedHere {
    kept: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    records: HashMap<Digest, RefreshRecord>,
    /// Digests in the order their records were kept; some may have been handed out already.
    order: VecDeque<Digest>,
}

impl IssuedHere {
    /// Keeps the record of a refresh token just issued.
    pub(super) fn keep(&self, token: &Digest, record: &RefreshRecord) {
        let mut kept = self.lock();
        while kept.records.len() >= CAPACITY {
            let Some(oldest) = kept.order.pop_front() else {
                break;
            };
            kept.records.remove(&oldest);
        }
        // Handed-out digests linger in `order` until they reach its front; bound it too.
        if kept.order.len() >= 2 * CAPACITY {
            let Kept { records, order } = &mut *kept;
            order.retain(|digest| records.contains_key(digest));
        }
        kept.records.insert(token.clone(), record.clone());
        kept.order.push_back(token.clone());
    }

    /// The record of `token`, if this process issued it lately and has not handed it out.
    pub(super) fn take(&self, token: &Digest) -> Option<RefreshRecord> {
        self.lock().records.remove(token)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        // The lock guards plain inserts and removals, which cannot leave the maps half-changed.
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{ClientId, ScopeSet};

    fn record(sub: &str) -> RefreshRecord {
        RefreshRecord {
            grant_id: "g".into(),
            client_id: ClientId::generate(),
            sub: sub.into(),
            scopes: ScopeSet::parse("openid").unwrap(),
            auth_time: 1,
            expires_at: 2,
            amr: Vec::new(),
        }
    }

    #[test]
    fn a_record_is_handed_out_once() {
        let here = IssuedHere::default();
        let token = Digest::of("t");
        here.keep(&token, &record("ada"));
        assert_eq!(here.take(&token).map(|r| r.sub), Some("ada".into()));
        assert_eq!(here.take(&token), None);
    }

    #[test]
    fn the_oldest_records_go_first_and_the_order_stays_bounded() {
        let here = IssuedHere::default();
        let digests: Vec<Digest> = (0..3 * CAPACITY)
            .map(|i| Digest::of(&i.to_string()))
            .collect();
        for (i, digest) in digests.iter().enumerate() {
            here.keep(digest, &record("ada"));
            // Half are refreshed at once, as tokens are.
            if i % 2 == 0 {
                assert!(here.take(digest).is_some());
            }
        }
        let kept = here.lock();
        assert!(kept.records.len() <= CAPACITY);
        assert!(kept.order.len() <= 2 * CAPACITY);
        drop(kept);
        assert_eq!(here.take(&digests[1]), None);
        assert!(here.take(&digests[3 * CAPACITY - 1]).is_some());
    }
}
