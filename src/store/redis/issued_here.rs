//! The records of the refresh tokens and codes this process issued lately, so that a refresh
//! or a code exchange of one of them reads nothing before the script that decides it.
//!
//! A refresh token's record, and a code's, is written once, when it is issued, and never
//! changed: the rotation and redemption scripts, which check in their atomic step that the
//! token or code is still live (not rotated, consumed, revoked or expired, its app enabled),
//! decide every refresh and exchange. A copy of the record can therefore only say what Redis
//! would have said of it, or name a token or code the script then refuses. Each copy is handed
//! out once (a token is refreshed once, a code exchanged once); a retry, a replay, or a token or
//! code issued by another node, is read from Redis.

use crate::domain::Digest;
use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, PoisonError};

/// How many refresh token records are kept at most (a few hundred bytes each): the oldest go
/// first, and a token whose record was dropped is read from Redis.
pub(super) const REFRESH_TOKENS: usize = 4096;
/// How many code records are kept at most (a code's record holds its user's claims, up to a
/// few kilobytes). A code is exchanged within seconds of its issue, so the codes of the last
/// thousand sign-ins are all an app can still be about to exchange on a busy node.
pub(super) const CODES: usize = 1024;

/// Records by digest, oldest first.
pub(super) struct IssuedHere<R> {
    capacity: usize,
    kept: Mutex<Kept<R>>,
}

struct Kept<R> {
    records: HashMap<Digest, R>,
    /// Digests in the order their records were kept; some may have been handed out already.
    order: VecDeque<Digest>,
}

impl<R: Clone> IssuedHere<R> {
    /// Keeps `capacity` records at most.
    pub(super) fn new(capacity: usize) -> Self {
        Self {
            capacity,
            kept: Mutex::new(Kept {
                records: HashMap::new(),
                order: VecDeque::new(),
            }),
        }
    }

    /// Keeps the record of a token or code just issued.
    pub(super) fn keep(&self, digest: &Digest, record: &R) {
        let mut kept = self.lock();
        while kept.records.len() >= self.capacity {
            let Some(oldest) = kept.order.pop_front() else {
                break;
            };
            kept.records.remove(&oldest);
        }
        // Handed-out digests linger in `order` until they reach its front; bound it too.
        if kept.order.len() >= 2 * self.capacity {
            let Kept { records, order } = &mut *kept;
            order.retain(|digest| records.contains_key(digest));
        }
        kept.records.insert(digest.clone(), record.clone());
        kept.order.push_back(digest.clone());
    }

    /// The record of `digest`, if this process issued it lately and has not handed it out.
    pub(super) fn take(&self, digest: &Digest) -> Option<R> {
        self.lock().records.remove(digest)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept<R>> {
        // The lock guards plain inserts and removals, which cannot leave the maps half-changed.
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{ClientId, ScopeSet};
    use crate::store::RefreshRecord;

    const CAPACITY: usize = REFRESH_TOKENS;

    fn record(sub: &str) -> RefreshRecord {
        RefreshRecord {
            grant_id: "g".into(),
            client_id: ClientId::generate(),
            sub: sub.into(),
            scopes: ScopeSet::parse("openid").unwrap(),
            auth_time: 1,
            expires_at: 2,
            amr: Vec::new(),
            sid: None,
        }
    }

    #[test]
    fn a_record_is_handed_out_once() {
        let here = IssuedHere::new(CAPACITY);
        let token = Digest::of("t");
        here.keep(&token, &record("ada"));
        assert_eq!(here.take(&token).map(|r| r.sub), Some("ada".into()));
        assert_eq!(here.take(&token), None);
    }

    #[test]
    fn the_oldest_records_go_first_and_the_order_stays_bounded() {
        let here = IssuedHere::new(CAPACITY);
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
