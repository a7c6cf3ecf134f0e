//! The browser sign-on part of the store contract, on both backends: sessions, pending
//! authorize requests and remembered consents.

use super::fixtures::{code_record_in, pending_request, session_record, Subject, UNBOUNDED};
use sso_bridge::clock::{Clock, SystemClock};
use sso_bridge::domain::secret::random_id;
use sso_bridge::domain::{ClientId, Digest, ScopeSet};
use sso_bridge::store::{
    CodeRecord, PendingBound, PendingLimits, PendingPut, PendingRequest, Store,
};

on_both_backends!(
    sessions_are_put_read_replaced_and_deleted,
    a_pending_request_is_finished_by_exactly_one_of_many_concurrent_callers,
    a_browser_keeps_its_newest_requests_and_a_full_address_refuses_new_ones,
    a_finished_request_leaves_its_groups_at_once,
    every_pending_request_counts_in_the_load_until_it_ends_and_a_full_load_refuses,
    consents_are_remembered_per_user_and_app,
    the_one_caller_that_ends_a_request_stores_its_code,
);

async fn sessions_are_put_read_replaced_and_deleted(s: Subject) {
    let id = Digest::of(&random_id(32));
    let (first, second) = (
        session_record(s.now(), "ada"),
        session_record(s.now(), "grace"),
    );
    // A pending request under the same text lives in a namespace of its own.
    let pending = pending_request();
    s.store
        .put_pending(id.as_hex(), &pending, 60, &[], UNBOUNDED)
        .await
        .unwrap();

    s.store.put_session(&id, &first, 60).await.unwrap();
    assert_eq!(s.store.session(&id).await.unwrap(), Some(first));
    s.store.put_session(&id, &second, 60).await.unwrap();
    assert_eq!(s.store.session(&id).await.unwrap(), Some(second));

    s.store.delete_session(&id).await.unwrap();
    s.store.delete_session(&id).await.unwrap();
    assert_eq!(s.store.session(&id).await.unwrap(), None);
    assert_eq!(s.store.pending(id.as_hex()).await.unwrap(), Some(pending));
}

async fn a_pending_request_is_finished_by_exactly_one_of_many_concurrent_callers(s: Subject) {
    let id = random_id(24);
    let pending = pending_request();
    s.store
        .put_pending(&id, &pending, 60, &[], UNBOUNDED)
        .await
        .unwrap();
    assert_eq!(s.store.pending(&id).await.unwrap(), Some(pending.clone()));

    let finishers = (0..20).map(|_| {
        let (store, id, pending) = (s.store.clone(), id.clone(), pending.clone());
        tokio::spawn(async move { store.finish_pending(&id, &pending).await })
    });
    let mut winners = 0;
    for finisher in finishers.collect::<Vec<_>>() {
        winners += finisher.await.unwrap().unwrap() as usize;
    }

    assert_eq!(winners, 1);
    assert_eq!(s.store.pending(&id).await.unwrap(), None);
    assert!(!s.store.finish_pending(&id, &pending).await.unwrap());
}

/// Writes a pending request counted in `bounds`; answers its id and record, or how the store
/// refused it.
async fn put(
    store: &dyn Store,
    bounds: &[PendingBound],
    limits: PendingLimits,
) -> (String, PendingRequest, PendingPut) {
    let id = random_id(24);
    let pending = PendingRequest {
        groups: bounds.iter().map(|b| b.group.clone()).collect(),
        admitted_at: Some(SystemClock.now()),
        ..pending_request()
    };
    let put = store
        .put_pending(&id, &pending, 60, bounds, limits)
        .await
        .unwrap();
    (id, pending, put)
}

/// Writes a pending request counted in `bounds`, asserting it is kept.
async fn start(store: &dyn Store, bounds: &[PendingBound]) -> (String, PendingRequest) {
    let (id, pending, put) = put(store, bounds, UNBOUNDED).await;
    assert!(matches!(put, PendingPut::Stored(_)), "{put:?}");
    (id, pending)
}

/// A browser's group: its own oldest request gives way.
fn browser(group: &str, max: u64) -> PendingBound {
    PendingBound {
        group: group.to_owned(),
        max,
        evicts: true,
    }
}

/// A group several people share: full, it refuses.
fn shared(group: &str, max: u64) -> PendingBound {
    PendingBound {
        group: group.to_owned(),
        max,
        evicts: false,
    }
}

async fn live(store: &dyn Store, ids: &[&(String, PendingRequest)]) -> Vec<bool> {
    let mut live = Vec::new();
    for (id, _) in ids {
        live.push(store.pending(id).await.unwrap().is_some());
    }
    live
}

async fn a_browser_keeps_its_newest_requests_and_a_full_address_refuses_new_ones(s: Subject) {
    let (first, address) = (format!("browser:{}", random_id(8)), random_id(8));
    let mut started = Vec::new();
    for _ in 0..5 {
        let bounds = [browser(&first, 3), shared(&address, 10)];
        started.push(start(s.store.as_ref(), &bounds).await);
    }
    let all: Vec<_> = started.iter().collect();
    assert_eq!(
        live(s.store.as_ref(), &all).await,
        [false, false, true, true, true],
        "the browser keeps its three newest"
    );

    // Another browser from the same address: the address's bound of ten counts both browsers,
    // what the first browser's bound ended no longer counts, and past ten nobody's request
    // ends: the new one is refused.
    let other = format!("browser:{}", random_id(8));
    for _ in 0..7 {
        let bounds = [browser(&other, 20), shared(&address, 10)];
        started.push(start(s.store.as_ref(), &bounds).await);
    }
    let bounds = [browser(&other, 20), shared(&address, 10)];
    let (refused, _, put) = put(s.store.as_ref(), &bounds, UNBOUNDED).await;
    assert_eq!(put, PendingPut::GroupFull(address.clone()));
    assert_eq!(s.store.pending(&refused).await.unwrap(), None);
    let all: Vec<_> = started.iter().collect();
    let kept = live(s.store.as_ref(), &all).await;
    assert_eq!(
        kept[2..],
        [true; 10],
        "every waiting request is still there"
    );
}

async fn a_finished_request_leaves_its_groups_at_once(s: Subject) {
    let group = format!("addr:{}", random_id(8));
    // One request waits while far more than the bound start and finish after it, as with
    // honest traffic from one busy address: none is refused and the waiting one stays.
    let waiting = start(s.store.as_ref(), &[shared(&group, 2)]).await;
    for _ in 0..12 {
        let (id, pending) = start(s.store.as_ref(), &[shared(&group, 2)]).await;
        assert!(s.store.finish_pending(&id, &pending).await.unwrap());
    }
    assert!(live(s.store.as_ref(), &[&waiting]).await[0]);
    assert!(s
        .store
        .finish_pending(&waiting.0, &waiting.1)
        .await
        .unwrap());
}

async fn every_pending_request_counts_in_the_load_until_it_ends_and_a_full_load_refuses(
    s: Subject,
) {
    let store = s.store.as_ref();
    let three = PendingLimits {
        requests: 3,
        bytes: u64::MAX / 2,
    };
    let own = format!("browser:{}", random_id(8));
    let mut kept = Vec::new();
    for n in 1..=3 {
        let (id, pending, put) = put(store, &[browser(&own, 2)], three).await;
        let PendingPut::Stored(load) = put else {
            panic!("request {n} refused: {put:?}");
        };
        // The browser's bound of two ended its oldest at the third, which left the load.
        assert_eq!(load.requests, n.min(2), "after {n}");
        kept.push((id, pending));
    }
    // Two live, a third from another browser fits; a fourth does not.
    let other = format!("browser:{}", random_id(8));
    let (_, _, third) = put(store, &[browser(&other, 5)], three).await;
    let PendingPut::Stored(load) = third else {
        panic!("{third:?}");
    };
    assert_eq!(load.requests, 3);
    let (refused, _, fourth) = put(store, &[browser(&other, 5)], three).await;
    assert_eq!(fourth, PendingPut::StoreFull(load));
    assert_eq!(store.pending(&refused).await.unwrap(), None);
    // A finished request leaves room at once.
    let (id, pending) = kept.pop().unwrap();
    assert!(store.finish_pending(&id, &pending).await.unwrap());
    let (_, _, again) = put(store, &[browser(&other, 5)], three).await;
    assert_eq!(again, PendingPut::Stored(load));

    // Bytes count too: room for one more record of this size, not for two.
    let bytes = PendingLimits {
        requests: 100,
        bytes: load.bytes + load.bytes / 3 + load.bytes / 6,
    };
    let (_, _, fits) = put(store, &[browser(&other, 5)], bytes).await;
    assert!(matches!(fits, PendingPut::Stored(_)), "{fits:?}");
    let (_, _, too_big) = put(store, &[browser(&other, 5)], bytes).await;
    assert!(matches!(too_big, PendingPut::StoreFull(_)), "{too_big:?}");
}

async fn consents_are_remembered_per_user_and_app(s: Subject) {
    let (app, other) = (ClientId::generate(), ClientId::generate());
    let scopes = ScopeSet::parse("openid profile").unwrap();
    assert_eq!(s.store.consent("ada", &app).await.unwrap(), None);

    s.store.put_consent("ada", &app, &scopes, 60).await.unwrap();

    assert_eq!(s.store.consent("ada", &app).await.unwrap(), Some(scopes));
    assert_eq!(s.store.consent("ada", &other).await.unwrap(), None);
    assert_eq!(s.store.consent("grace", &app).await.unwrap(), None);
    let wider = ScopeSet::parse("openid profile email").unwrap();
    s.store.put_consent("ada", &app, &wider, 60).await.unwrap();
    assert_eq!(s.store.consent("ada", &app).await.unwrap(), Some(wider));
}

async fn the_one_caller_that_ends_a_request_stores_its_code(s: Subject) {
    let store = s.store.as_ref();
    // With and without an SSO session: the session's index comes before the request's groups.
    for sid in [Some(random_id(16)), None] {
        let group = format!("addr:{}", random_id(8));
        let (id, pending) = start(store, &[shared(&group, 1)]).await;
        let record = CodeRecord {
            sid: sid.clone(),
            ..code_record_in(store, s.now()).await
        };
        let codes: Vec<Digest> = (0..10).map(|_| Digest::of(&random_id(32))).collect();
        let callers = codes.iter().map(|code| {
            let (store, code) = (s.store.clone(), code.clone());
            let (record, id, pending) = (record.clone(), id.clone(), pending.clone());
            tokio::spawn(async move {
                store
                    .put_code_finishing(&code, &record, 60, &id, &pending)
                    .await
            })
        });
        let mut stored = Vec::new();
        for caller in callers.collect::<Vec<_>>() {
            stored.push(caller.await.unwrap().unwrap());
        }
        assert_eq!(stored.iter().filter(|s| **s).count(), 1, "{stored:?}");
        for (code, stored) in codes.iter().zip(&stored) {
            let read = store.code(code).await.unwrap();
            assert_eq!(read.is_some(), *stored);
            if let Some(read) = read {
                assert_eq!((read.record, read.consumed_by), (record.clone(), None));
            }
        }
        let winner = &codes[stored.iter().position(|s| *s).unwrap()];

        // The request left the store and its group, which takes a new one at once.
        assert_eq!(store.pending(&id).await.unwrap(), None);
        let (_, _, again) = put(store, &[shared(&group, 1)], UNBOUNDED).await;
        assert!(matches!(again, PendingPut::Stored(_)), "{again:?}");
        // A request already ended stores no code.
        let late = Digest::of(&random_id(32));
        assert!(!store
            .put_code_finishing(&late, &record, 60, &id, &pending)
            .await
            .unwrap());
        assert_eq!(store.code(&late).await.unwrap(), None);

        // The code is indexed as `put_code` indexes it.
        match sid {
            Some(sid) => {
                store.revoke_session(&sid).await.unwrap();
            }
            None => {
                let sub = record.claims.sub();
                let revoked = store.revoke_user_codes(sub, &record.client_id).await;
                assert_eq!(revoked.unwrap(), 1);
            }
        }
        assert_eq!(store.code(winner).await.unwrap(), None);
    }
}
