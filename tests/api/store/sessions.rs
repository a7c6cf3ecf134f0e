//! The browser sign-on part of the store contract, on both backends: sessions, pending
//! authorize requests and remembered consents.

use super::fixtures::{pending_request, session_record, Subject};
use sso_bridge::domain::secret::random_id;
use sso_bridge::domain::{ClientId, Digest, ScopeSet};

on_both_backends!(
    sessions_are_put_read_replaced_and_deleted,
    a_pending_request_is_finished_by_exactly_one_of_many_concurrent_callers,
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
        .put_pending(id.as_hex(), &pending, 60)
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
    s.store.put_pending(&id, &pending, 60).await.unwrap();
    assert_eq!(s.store.pending(&id).await.unwrap(), Some(pending));

    let finishers = (0..20).map(|_| {
        let (store, id) = (s.store.clone(), id.clone());
        tokio::spawn(async move { store.finish_pending(&id).await })
    });
    let mut winners = 0;
    for finisher in finishers.collect::<Vec<_>>() {
        winners += finisher.await.unwrap().unwrap() as usize;
    }

    assert_eq!(winners, 1);
    assert_eq!(s.store.pending(&id).await.unwrap(), None);
    assert!(!s.store.finish_pending(&id).await.unwrap());
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
