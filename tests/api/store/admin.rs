//! The admin part of the store contract, on both backends: admin API tokens, admin screen
//! sign-ins and sign-ins waiting for their second factor.

use super::fixtures::{session_record, Subject};
use sso_bridge::domain::secret::random_id;
use sso_bridge::domain::Digest;
use sso_bridge::store::{AdminSession, HalfwaySignIn, ScreenSignIn};

on_both_backends!(
    admin_records_read_back_each_under_its_own_name,
    admin_records_disappear_when_their_ttl_runs_out,
    an_admin_token_is_deleted_and_only_that_one,
    every_admin_record_of_a_superadmin_ends_together_and_nobody_elses,
);

fn token(sub: &str) -> AdminSession {
    AdminSession {
        sub: sub.into(),
        expires_at: 1_700_000_600,
        amr: vec!["pwd".into(), "otp".into()],
        checked_at: Some(1_700_000_000),
    }
}

fn screen(sub: &str) -> ScreenSignIn {
    ScreenSignIn {
        sub: sub.into(),
        user: format!("{sub} (display name)"),
        csrf_token: random_id(32),
    }
}

async fn admin_records_read_back_each_under_its_own_name(s: Subject) {
    // One digest names a token, a screen sign-in, a half-way sign-in and a session: all apart.
    let key = Digest::of(&random_id(32));
    let halfway = HalfwaySignIn {
        claims: session_record(s.now(), "root").claims,
        signed_in_as: Some("Root".into()),
    };
    assert_eq!(s.store.admin_token(&key).await.unwrap(), None);
    s.store
        .put_admin_token(&key, &token("root"), 60)
        .await
        .unwrap();
    s.store
        .put_screen_sign_in(&key, &screen("root"), 60)
        .await
        .unwrap();
    s.store
        .put_halfway_sign_in(&key, &halfway, 60)
        .await
        .unwrap();
    let session = session_record(s.now(), "root");
    s.store.put_session(&key, &session, 60).await.unwrap();

    assert_eq!(
        s.store.admin_token(&key).await.unwrap(),
        Some(token("root"))
    );
    let replaced = screen("root");
    s.store
        .put_screen_sign_in(&key, &replaced, 60)
        .await
        .unwrap();
    assert_eq!(s.store.screen_sign_in(&key).await.unwrap(), Some(replaced));
    assert_eq!(s.store.halfway_sign_in(&key).await.unwrap(), Some(halfway));

    s.store.delete_halfway_sign_in(&key).await.unwrap();
    s.store.delete_screen_sign_in(&key).await.unwrap();
    s.store.delete_screen_sign_in(&key).await.unwrap();
    assert_eq!(s.store.halfway_sign_in(&key).await.unwrap(), None);
    assert_eq!(s.store.screen_sign_in(&key).await.unwrap(), None);
    assert!(s.store.admin_token(&key).await.unwrap().is_some());
    assert_eq!(s.store.session(&key).await.unwrap(), Some(session));
}

async fn admin_records_disappear_when_their_ttl_runs_out(s: Subject) {
    let (short, long) = (Digest::of(&random_id(32)), Digest::of(&random_id(32)));
    let ttl = s.short_ttl();
    s.store
        .put_admin_token(&short, &token("a"), ttl)
        .await
        .unwrap();
    s.store
        .put_screen_sign_in(&short, &screen("a"), ttl)
        .await
        .unwrap();
    s.store
        .put_screen_sign_in(&long, &screen("b"), ttl + 3600)
        .await
        .unwrap();

    s.outlive(ttl).await;

    assert_eq!(s.store.admin_token(&short).await.unwrap(), None);
    assert_eq!(s.store.screen_sign_in(&short).await.unwrap(), None);
    assert!(s.store.screen_sign_in(&long).await.unwrap().is_some());
}

async fn an_admin_token_is_deleted_and_only_that_one(s: Subject) {
    let (gone, kept) = (Digest::of(&random_id(32)), Digest::of(&random_id(32)));
    s.store
        .put_admin_token(&gone, &token("a"), 60)
        .await
        .unwrap();
    s.store
        .put_admin_token(&kept, &token("a"), 60)
        .await
        .unwrap();
    s.store
        .put_session(&gone, &session_record(s.now(), "a"), 60)
        .await
        .unwrap();

    s.store.delete_admin_token(&gone).await.unwrap();
    s.store.delete_admin_token(&gone).await.unwrap();

    assert_eq!(s.store.admin_token(&gone).await.unwrap(), None);
    assert_eq!(s.store.admin_token(&kept).await.unwrap(), Some(token("a")));
    assert!(s.store.session(&gone).await.unwrap().is_some());
}

async fn every_admin_record_of_a_superadmin_ends_together_and_nobody_elses(s: Subject) {
    let keys: Vec<Digest> = (0..5).map(|_| Digest::of(&random_id(32))).collect();
    let halfway = HalfwaySignIn {
        claims: session_record(s.now(), "root").claims,
        signed_in_as: Some("Root".into()),
    };
    let store = &s.store;
    store
        .put_admin_token(&keys[0], &token("root"), 60)
        .await
        .unwrap();
    store
        .put_admin_token(&keys[1], &token("root"), 600)
        .await
        .unwrap();
    store
        .put_screen_sign_in(&keys[2], &screen("root"), 60)
        .await
        .unwrap();
    store
        .put_halfway_sign_in(&keys[3], &halfway, 60)
        .await
        .unwrap();
    store
        .put_admin_token(&keys[4], &token("other"), 60)
        .await
        .unwrap();
    // One that was ended on its own already is not counted again.
    store.delete_admin_token(&keys[0]).await.unwrap();

    assert_eq!(store.end_admin_sessions("root").await.unwrap(), 3);

    assert_eq!(store.admin_token(&keys[1]).await.unwrap(), None);
    assert_eq!(store.screen_sign_in(&keys[2]).await.unwrap(), None);
    assert_eq!(store.halfway_sign_in(&keys[3]).await.unwrap(), None);
    assert_eq!(
        store.admin_token(&keys[4]).await.unwrap(),
        Some(token("other"))
    );
    assert_eq!(store.end_admin_sessions("root").await.unwrap(), 0);
    assert_eq!(store.end_admin_sessions("nobody").await.unwrap(), 0);
    // A token issued after is a new one.
    store
        .put_admin_token(&keys[1], &token("root"), 60)
        .await
        .unwrap();
    assert!(store.admin_token(&keys[1]).await.unwrap().is_some());
}
