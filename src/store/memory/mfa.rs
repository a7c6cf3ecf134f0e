//! The second-factor and attempt-limit maps of the in-memory store.

use super::{live, State, Timed};
use crate::clock::UnixTime;
use crate::domain::Digest;
use crate::store::Namespace;
use std::collections::{HashMap, HashSet};

/// A user's enrolment and unspent recovery-code digests.
pub(super) struct Enrolment {
    record: String,
    recovery: HashSet<Digest>,
}

/// Second-factor state kept beside the other maps.
#[derive(Default)]
pub(super) struct MfaMaps {
    /// Sliding windows: attempt id and time, the whole window expiring with its newest entry.
    attempts: HashMap<String, Timed<Vec<(UnixTime, String)>>>,
    enrolments: HashMap<String, Enrolment>,
}

impl MfaMaps {
    pub(super) fn purge(&mut self, now: UnixTime) {
        self.attempts.retain(|_, e| e.live(now));
    }
}

impl State {
    pub(super) fn put_new(
        &mut self,
        ns: Namespace,
        key: &str,
        value: &str,
        ttl: u64,
        now: UnixTime,
    ) -> bool {
        let key = (ns, key.to_owned());
        if live(&mut self.records, &key, now).is_some() {
            return false;
        }
        self.records
            .insert(key, Timed::new(value.to_owned(), now, ttl));
        true
    }

    pub(super) fn add_attempt(&mut self, key: &str, id: &str, now: UnixTime, window: u64) -> u64 {
        let entry = self
            .mfa
            .attempts
            .entry(key.to_owned())
            .or_insert_with(|| Timed::new(Vec::new(), now, window));
        entry
            .value
            .retain(|(at, _)| at.saturating_add(window) > now);
        entry.value.push((now, id.to_owned()));
        entry.expires_at = now.saturating_add(window);
        entry.value.len() as u64
    }

    pub(super) fn remove_attempt(&mut self, key: &str, id: &str) {
        if let Some(entry) = self.mfa.attempts.get_mut(key) {
            entry.value.retain(|(_, other)| other != id);
        }
    }

    pub(super) fn put_second_factor(&mut self, sub: &str, record: &str, recovery: &[Digest]) {
        let enrolment = Enrolment {
            record: record.to_owned(),
            recovery: recovery.iter().cloned().collect(),
        };
        self.mfa.enrolments.insert(sub.to_owned(), enrolment);
    }

    pub(super) fn second_factor(&self, sub: &str) -> Option<String> {
        self.mfa.enrolments.get(sub).map(|e| e.record.clone())
    }

    pub(super) fn use_recovery_code(&mut self, sub: &str, code: &Digest) -> bool {
        self.mfa
            .enrolments
            .get_mut(sub)
            .is_some_and(|e| e.recovery.remove(code))
    }

    pub(super) fn recovery_codes_left(&self, sub: &str) -> u64 {
        self.mfa
            .enrolments
            .get(sub)
            .map_or(0, |e| e.recovery.len() as u64)
    }

    pub(super) fn delete_second_factor(&mut self, sub: &str) -> bool {
        self.mfa.enrolments.remove(sub).is_some()
    }
}
