//! Codes, access and refresh tokens in the memory store: the token maps, the index of each
//! grant's tokens (for revoking a family), of each client's codes and grants (for revoking
//! everything of an app), of each user's (for revoking everything of a person) and of each SSO
//! session's (for revoking what a session gave when it ends).

use super::{live, MemoryStore, Timed};
use crate::clock::UnixTime;
use crate::domain::{ClientId, ClientRecord, Digest};
use crate::store::{
    AccessRecord, CodeRecord, GrantStore, Issuance, PendingRequest, Redemption, RefreshRecord,
    Rotation, SessionStore, StoreError, StoredCode, StoredRefresh, UserGrant,
};
use async_trait::async_trait;
use std::collections::{HashMap, HashSet};

/// Whether the app of `issue` is registered and enabled, checked under the same lock as the
/// write it allows (as the Redis scripts check it).
fn allowed(clients: &HashMap<ClientId, ClientRecord>, issue: &Issuance) -> bool {
    clients
        .get(&issue.access.client_id)
        .is_some_and(|c| c.enabled)
}

/// A refresh token with its rotation state.
struct RefreshEntry {
    record: RefreshRecord,
    rotated_at: Option<UnixTime>,
    sealed: Option<String>,
}

/// One token of a grant's index.
#[derive(Clone, PartialEq, Eq, Hash)]
enum TokenRef {
    Access(Digest),
    Refresh(Digest),
}

/// Something issued to a client or a user that [`Grants::revoke_client`] or
/// [`Grants::revoke_user`] must find.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Issued {
    Code(Digest),
    Grant(String),
}

/// The token maps and their indexes.
#[derive(Default)]
pub(super) struct Grants {
    codes: HashMap<Digest, Timed<StoredCode>>,
    access: HashMap<Digest, Timed<AccessRecord>>,
    refresh: HashMap<Digest, Timed<RefreshEntry>>,
    /// The tokens of each grant.
    families: HashMap<String, Timed<HashSet<TokenRef>>>,
    /// Codes and grants of each client.
    issued: HashMap<ClientId, HashSet<Issued>>,
    /// Codes and grants of each user, by `sub`.
    by_user: HashMap<String, HashSet<Issued>>,
    /// Codes not yet redeemed and grants of each SSO session, by its public id, with the app
    /// each was issued to.
    by_session: HashMap<String, Timed<HashMap<Issued, ClientId>>>,
}

impl Grants {
    pub(super) fn purge(&mut self, now: UnixTime) {
        self.codes.retain(|_, e| e.live(now));
        self.access.retain(|_, e| e.live(now));
        self.refresh.retain(|_, e| e.live(now));
        self.families.retain(|_, e| e.live(now));
        // Forget index entries whose token is already gone, so a long-lived grant that is
        // refreshed often does not accumulate dead references.
        let (access, refresh) = (&self.access, &self.refresh);
        for family in self.families.values_mut() {
            family.value.retain(|t| match t {
                TokenRef::Access(d) => access.contains_key(d),
                TokenRef::Refresh(d) => refresh.contains_key(d),
            });
        }
        let (codes, families) = (&self.codes, &self.families);
        let still_there = |i: &Issued| match i {
            Issued::Code(d) => codes.contains_key(d),
            Issued::Grant(g) => families.contains_key(g),
        };
        for issued in self.issued.values_mut().chain(self.by_user.values_mut()) {
            issued.retain(still_there);
        }
        self.issued.retain(|_, i| !i.is_empty());
        self.by_user.retain(|_, i| !i.is_empty());
        self.by_session.retain(|_, e| e.live(now));
    }

    /// Notes that `issued` was issued to `client` in the session `sid`, and keeps the
    /// session's index at least `ttl` more seconds.
    fn index_session(
        &mut self,
        sid: &str,
        issued: Issued,
        client: &ClientId,
        ttl: u64,
        now: UnixTime,
    ) {
        let entry = self
            .by_session
            .entry(sid.to_owned())
            .or_insert_with(|| Timed::new(HashMap::new(), now, 0));
        if !entry.live(now) {
            entry.value.clear();
        }
        entry.expires_at = entry.expires_at.max(now.saturating_add(ttl));
        entry.value.insert(issued, client.clone());
    }

    /// Notes that `issued` belongs to `client` and to the user `sub`.
    fn index(&mut self, client: &ClientId, sub: &str, issued: Issued) {
        self.by_user
            .entry(sub.to_owned())
            .or_default()
            .insert(issued.clone());
        self.issued
            .entry(client.clone())
            .or_default()
            .insert(issued);
    }

    /// Writes the tokens of an issuance and indexes them under their grant.
    fn issue(&mut self, issue: &Issuance, now: UnixTime) {
        let access = Timed::new(issue.access.clone(), now, issue.access_ttl);
        self.access.insert(issue.access_digest.clone(), access);
        let refresh = RefreshEntry {
            record: issue.refresh.clone(),
            rotated_at: None,
            sealed: None,
        };
        let refresh = Timed::new(refresh, now, issue.refresh_ttl);
        self.refresh.insert(issue.refresh_digest.clone(), refresh);

        let keep_until = now.saturating_add(issue.access_ttl.max(issue.refresh_ttl));
        let family = self
            .families
            .entry(issue.grant_id.clone())
            .or_insert_with(|| Timed::new(HashSet::new(), now, 0));
        if !family.live(now) {
            // An expired index only names tokens that have expired too.
            family.value.clear();
        }
        // The index must outlive every token in it; it is never shortened.
        family.expires_at = family.expires_at.max(keep_until);
        family
            .value
            .insert(TokenRef::Access(issue.access_digest.clone()));
        family
            .value
            .insert(TokenRef::Refresh(issue.refresh_digest.clone()));
        let client = issue.access.client_id.clone();
        let grant = Issued::Grant(issue.grant_id.clone());
        if let Some(sid) = &issue.refresh.sid {
            let keep = issue.access_ttl.max(issue.refresh_ttl);
            self.index_session(sid, grant.clone(), &client, keep, now);
        }
        self.index(&client, &issue.refresh.sub, grant);
    }

    /// Deletes a grant's tokens; answers when its index would have expired, if it was there.
    fn revoke(&mut self, grant_id: &str) -> Option<UnixTime> {
        let family = self.families.remove(grant_id)?;
        let expires_at = family.expires_at;
        for token in family.value {
            match token {
                TokenRef::Access(d) => {
                    self.access.remove(&d);
                }
                TokenRef::Refresh(d) => {
                    self.refresh.remove(&d);
                }
            }
        }
        Some(expires_at)
    }

    /// Deletes every code and grant of a client.
    fn revoke_client(&mut self, client: &ClientId) {
        let Some(issued) = self.issued.remove(client) else {
            return;
        };
        for item in issued {
            match item {
                Issued::Code(d) => {
                    self.codes.remove(&d);
                }
                Issued::Grant(g) => {
                    self.revoke(&g);
                }
            }
        }
    }

    /// Deletes every grant and code not yet redeemed of a session; answers the apps that got
    /// tokens in it, each once.
    fn revoke_session(&mut self, sid: &str, now: UnixTime) -> Vec<ClientId> {
        let Some(issued) = self.by_session.remove(sid).filter(|e| e.live(now)) else {
            return Vec::new();
        };
        let mut apps: Vec<ClientId> = Vec::new();
        for (item, client) in issued.value {
            match item {
                Issued::Code(d) => {
                    self.codes.remove(&d);
                }
                Issued::Grant(g) => {
                    self.revoke(&g);
                    if !apps.contains(&client) {
                        apps.push(client);
                    }
                }
            }
        }
        apps
    }

    /// The live grants of a user, each with its newest refresh token still kept.
    fn of_user(&self, sub: &str, now: UnixTime) -> Vec<UserGrant> {
        let Some(issued) = self.by_user.get(sub) else {
            return Vec::new();
        };
        let grants = issued.iter().filter_map(|item| match item {
            Issued::Grant(g) => Some(g),
            Issued::Code(_) => None,
        });
        grants
            .filter_map(|grant_id| {
                let family = self.families.get(grant_id).filter(|f| f.live(now))?;
                let newest = family
                    .value
                    .iter()
                    .filter_map(|token| match token {
                        TokenRef::Refresh(d) => self.refresh.get(d).filter(|r| r.live(now)),
                        TokenRef::Access(_) => None,
                    })
                    // A rotated token can expire as late as its successor (both issued in the
                    // same second): the one not yet rotated is the newest.
                    .max_by_key(|r| (r.value.rotated_at.is_none(), r.expires_at))?;
                Some(UserGrant {
                    grant_id: grant_id.clone(),
                    refresh: newest.value.record.clone(),
                })
            })
            .collect()
    }

    /// Deletes the codes of `sub` for `client` not redeemed yet; answers how many were live. A
    /// redeemed code is kept, so that a replay of it still revokes its grant.
    fn revoke_user_codes(&mut self, sub: &str, client: &ClientId, now: UnixTime) -> u64 {
        let (Some(theirs), Some(apps)) = (self.by_user.get_mut(sub), self.issued.get_mut(client))
        else {
            return 0;
        };
        let codes = &mut self.codes;
        let mut revoked = 0;
        theirs.retain(|item| {
            let Issued::Code(digest) = item else {
                return true;
            };
            let unredeemed = codes
                .get(digest)
                .is_some_and(|code| code.value.consumed_by.is_none());
            if !apps.contains(item) || !unredeemed {
                return true;
            }
            apps.remove(item);
            if codes.remove(digest).is_some_and(|code| code.live(now)) {
                revoked += 1;
            }
            false
        });
        revoked
    }

    /// Deletes every code and grant of a user; answers how many grants were live.
    fn revoke_user(&mut self, sub: &str, now: UnixTime) -> u64 {
        let Some(issued) = self.by_user.remove(sub) else {
            return 0;
        };
        let mut revoked = 0;
        for item in issued {
            match item {
                Issued::Code(d) => {
                    self.codes.remove(&d);
                }
                Issued::Grant(g) => {
                    revoked += u64::from(self.revoke(&g).is_some_and(|end| now < end));
                }
            }
        }
        revoked
    }
}

#[async_trait]
impl GrantStore for MemoryStore {
    async fn put_code(
        &self,
        code: &Digest,
        record: &CodeRecord,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let (mut state, now) = self.lock();
        let stored = StoredCode {
            record: record.clone(),
            consumed_by: None,
        };
        let grants = &mut state.grants;
        grants
            .codes
            .insert(code.clone(), Timed::new(stored, now, ttl));
        let sub = record.claims.sub();
        grants.index(&record.client_id, sub, Issued::Code(code.clone()));
        if let Some(sid) = &record.sid {
            let issued = Issued::Code(code.clone());
            grants.index_session(sid, issued, &record.client_id, ttl, now);
        }
        Ok(())
    }

    async fn put_code_finishing(
        &self,
        code: &Digest,
        record: &CodeRecord,
        ttl: u64,
        id: &str,
        pending: &PendingRequest,
    ) -> Result<bool, StoreError> {
        // Two steps are as good as one here: the code is fresh, so no one can read it before
        // it is stored.
        if !SessionStore::finish_pending(self, id, pending).await? {
            return Ok(false);
        }
        self.put_code(code, record, ttl).await?;
        Ok(true)
    }

    async fn code(&self, code: &Digest) -> Result<Option<StoredCode>, StoreError> {
        let (mut state, now) = self.lock();
        Ok(live(&mut state.grants.codes, code, now).map(|c| c.clone()))
    }

    async fn redeem_code(&self, code: &Digest, issue: &Issuance) -> Result<Redemption, StoreError> {
        let (mut state, now) = self.lock();
        let state = &mut *state;
        let grants = &mut state.grants;
        let Some(stored) = live(&mut grants.codes, code, now) else {
            return Ok(Redemption::NotFound);
        };
        if let Some(grant) = stored.consumed_by.clone() {
            grants.revoke(&grant);
            return Ok(Redemption::Replayed);
        }
        if !allowed(&state.clients, issue) {
            return Ok(Redemption::AppDisabled);
        }
        // Only the consumption mark changes: the entry keeps its expiry.
        stored.consumed_by = Some(issue.grant_id.clone());
        if let Some(index) = stored
            .record
            .sid
            .as_ref()
            .and_then(|sid| grants.by_session.get_mut(sid))
        {
            // Redeemed, the code issues nothing more: its grant stands for it.
            index.value.remove(&Issued::Code(code.clone()));
        }
        grants.issue(issue, now);
        Ok(Redemption::Issued)
    }

    async fn access_token(&self, token: &Digest) -> Result<Option<AccessRecord>, StoreError> {
        let (mut state, now) = self.lock();
        Ok(live(&mut state.grants.access, token, now).map(|a| a.clone()))
    }

    async fn refresh_token(&self, token: &Digest) -> Result<Option<StoredRefresh>, StoreError> {
        let (mut state, now) = self.lock();
        Ok(
            live(&mut state.grants.refresh, token, now).map(|r| StoredRefresh {
                record: r.record.clone(),
                rotated_at: r.rotated_at,
            }),
        )
    }

    async fn rotate_refresh(
        &self,
        old: &Digest,
        issue: &Issuance,
        sealed_successor: &str,
        now: UnixTime,
        grace: u64,
    ) -> Result<Rotation, StoreError> {
        let (mut state, clock_now) = self.lock();
        let state = &mut *state;
        let grants = &mut state.grants;
        let Some(entry) = live(&mut grants.refresh, old, clock_now) else {
            return Ok(Rotation::NotFound);
        };
        match (entry.rotated_at, entry.sealed.clone()) {
            (None, _) if !allowed(&state.clients, issue) => Ok(Rotation::AppDisabled),
            (None, _) => {
                entry.rotated_at = Some(now);
                entry.sealed = Some(sealed_successor.to_owned());
                grants.issue(issue, clock_now);
                Ok(Rotation::Rotated)
            }
            // A rotation timestamped after `now` (another node's clock running ahead) counts as
            // within the grace window rather than as theft.
            (Some(at), Some(sealed)) if now.saturating_sub(at) <= grace => {
                Ok(Rotation::Grace(sealed))
            }
            (Some(_), _) => {
                let grant = entry.record.grant_id.clone();
                grants.revoke(&grant);
                grants.refresh.remove(old);
                Ok(Rotation::Reused)
            }
        }
    }

    async fn revoke_grant(&self, grant_id: &str) -> Result<(), StoreError> {
        self.lock().0.grants.revoke(grant_id);
        Ok(())
    }

    async fn revoke_client(&self, id: &ClientId) -> Result<(), StoreError> {
        self.lock().0.grants.revoke_client(id);
        Ok(())
    }

    async fn revoke_user(&self, sub: &str) -> Result<u64, StoreError> {
        let (mut state, now) = self.lock();
        Ok(state.grants.revoke_user(sub, now))
    }

    async fn revoke_user_codes(&self, sub: &str, client: &ClientId) -> Result<u64, StoreError> {
        let (mut state, now) = self.lock();
        Ok(state.grants.revoke_user_codes(sub, client, now))
    }

    async fn revoke_session(&self, sid: &str) -> Result<Vec<ClientId>, StoreError> {
        let (mut state, now) = self.lock();
        Ok(state.grants.revoke_session(sid, now))
    }

    async fn user_grants(&self, sub: &str) -> Result<Vec<UserGrant>, StoreError> {
        let (state, now) = self.lock();
        Ok(state.grants.of_user(sub, now))
    }
}
