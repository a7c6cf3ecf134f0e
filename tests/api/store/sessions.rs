//! The browser sign-on part of the store contract, on both backends: sessions, pending
//! authorize requests and remembered consents.

use super::fixtures::{pending_request, session_record, Subject};
use sso_bridge::domain::secret::random_id;
use sso_bridge::domain::{ClientId, Digest, ScopeSet};
use sso_bridge::store::{PendingBound, PendingRequest, Store};

on_both_backends!(
    sessions_are_put_read_replaced_and_deleted,
    a_pending_request_is_finished_by_exactly_one_of_many_concurrent_callers,
    a_group_keeps_its_newest_pending_requests_up_to_its_bound,
    a_finished_request_leaves_its_groups_at_once,
    consents_are_remembered_per_user_and_app,
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
        .put_pending(id.as_hex(), &pending, 60, &[])
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
    s.store.put_pending(&id, &pending, 60, &[]).await.unwrap();
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

/// Writes a pending request counted in `bounds`; answers its id and record.
async fn start(store: &dyn Store, bounds: &[PendingBound]) -> (String, PendingRequest) {
    let id = random_id(24);
    let pending = PendingRequest {
        groups: bounds.iter().map(|b| b.group.clone()).collect(),
        ..pending_request()
    };
    store.put_pending(&id, &pending, 60, bounds).await.unwrap();
    (id, pending)
}

fn bound(group: &str, max: u64) -> PendingBound {
    PendingBound {
        group: group.to_owned(),
        max,
    }
}

async fn live(store: &dyn Store, ids: &[&(String, PendingRequest)]) -> Vec<bool> {
    let mut live = Vec::new();
    for (id, _) in ids {
        live.push(store.pending(id).await.unwrap().is_some());
    }
    live
}

async fn a_group_keeps_its_newest_pending_requests_up_to_its_bound(s: Subject) {
    let (browser, address) = (format!("browser:{}", random_id(8)), random_id(8));
    let mut started = Vec::new();
    for _ in 0..5 {
        let bounds = [bound(&browser, 3), bound(&address, 10)];
        started.push(start(s.store.as_ref(), &bounds).await);
    }
    let all: Vec<_> = started.iter().collect();
    assert_eq!(
        live(s.store.as_ref(), &all).await,
        [false, false, true, true, true],
        "the browser keeps its three newest"
    );

    // Another browser from the same address: the address's bound of ten counts both browsers,
    // and what the first browser's bound ended no longer counts.
    let other = format!("browser:{}", random_id(8));
    for _ in 0..8 {
        let bounds = [bound(&other, 20), bound(&address, 10)];
        started.push(start(s.store.as_ref(), &bounds).await);
    }
    let all: Vec<_> = started.iter().collect();
    let kept = live(s.store.as_ref(), &all).await;
    assert_eq!(kept.iter().filter(|l| **l).count(), 10);
    assert_eq!(
        kept[2..],
        [false, true, true, true, true, true, true, true, true, true, true],
        "the address's oldest gave way"
    );
}

async fn a_finished_request_leaves_its_groups_at_once(s: Subject) {
    let group = format!("addr:{}", random_id(8));
    // One request waits while far more than the bound start and finish after it, as with
    // honest traffic from one busy address: the waiting one is never ended for them.
    let waiting = start(s.store.as_ref(), &[bound(&group, 2)]).await;
    for _ in 0..12 {
        let (id, pending) = start(s.store.as_ref(), &[bound(&group, 2)]).await;
        assert!(s.store.finish_pending(&id, &pending).await.unwrap());
    }
    assert!(live(s.store.as_ref(), &[&waiting]).await[0]);
    assert!(s
        .store
        .finish_pending(&waiting.0, &waiting.1)
        .await
        .unwrap());
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
