//! The store contract, held against both backends: every test in this file runs once on
//! `MemoryStore` and once on `RedisStore` (a private redis-server, a random key prefix per test).

pub(crate) mod fixtures;
mod lifecycle;
pub(crate) mod redis_only;
mod rotations_together;

use fixtures::{
    any_token_left, client, code_record_in, issuance, pending_request, redeemed, session_record,
    Subject, UNBOUNDED,
};
use sso_bridge::domain::secret::random_id;
use sso_bridge::domain::{ClientId, Digest};
use sso_bridge::store::*;
use std::sync::Arc;

/// Instantiates every listed test once per backend.
macro_rules! on_both_backends {
    ($($test:ident),* $(,)?) => {
        mod memory {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() { super::$test(super::Subject::memory()).await })*
        }
        mod redis {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() { super::$test(super::Subject::redis()).await })*
        }
    };
}

// Declared after the macro, which they use.
mod account;
mod admin;
mod audit;
mod leavers;
mod logouts;
mod passkeys;
mod second_factor;
mod sessions;

on_both_backends!(
    the_store_answers_a_ping,
    sessions_codes_and_tokens_disappear_when_their_ttl_runs_out,
    clients_are_stored_read_listed_and_replaced,
    a_fresh_code_reads_back_unconsumed,
    a_redeemed_code_is_marked_with_the_grant_it_issued,
    a_replayed_code_revokes_the_tokens_it_issued,
    of_twenty_concurrent_redemptions_of_one_code_exactly_one_is_issued,
    an_unknown_code_is_not_found_and_nothing_is_written,
    an_active_refresh_token_rotates_into_a_new_pair,
    a_retry_within_the_grace_window_gets_the_same_sealed_successor,
    reusing_a_rotated_token_after_the_grace_window_revokes_the_whole_family,
    revoking_a_grant_deletes_its_tokens_and_only_those,
    rotating_an_unknown_refresh_token_is_not_found,
    // OpenID Connect
    of_many_nodes_storing_a_first_signing_key_at_once_all_get_the_same_one,
    a_signing_key_set_is_replaced_only_if_it_is_still_the_one_read,
);

async fn the_store_answers_a_ping(s: Subject) {
    s.store.ping().await.unwrap();
}

async fn sessions_codes_and_tokens_disappear_when_their_ttl_runs_out(s: Subject) {
    let ttl = s.short_ttl();
    let (short, long) = (Digest::of("short"), Digest::of("long"));
    let session = session_record(s.now(), "ada");
    s.store.put_session(&short, &session, ttl).await.unwrap();
    s.store
        .put_session(&long, &session, ttl + 3600)
        .await
        .unwrap();
    s.store
        .put_pending("short", &pending_request(), ttl, &[], UNBOUNDED)
        .await
        .unwrap();
    let code = Digest::of(&random_id(32));
    let record = code_record_in(s.store.as_ref(), s.now()).await;
    s.store.put_code(&code, &record, ttl).await.unwrap();
    let issue = issuance("g-short", &record, ttl);
    assert_eq!(
        s.store.redeem_code(&code, &issue).await.unwrap(),
        Redemption::Issued
    );

    s.outlive(ttl).await;

    assert_eq!(s.store.session(&short).await.unwrap(), None);
    assert_eq!(s.store.pending("short").await.unwrap(), None);
    assert!(!s
        .store
        .finish_pending("short", &pending_request())
        .await
        .unwrap());
    assert!(s.store.session(&long).await.unwrap().is_some());
    // The consumed code kept its original expiry: it is gone now, so a late replay is not found.
    assert_eq!(s.store.code(&code).await.unwrap(), None);
    assert_eq!(
        s.store.redeem_code(&code, &issue).await.unwrap(),
        Redemption::NotFound
    );
    assert!(!any_token_left(&s, &issue).await);
}

async fn clients_are_stored_read_listed_and_replaced(s: Subject) {
    let (mut a, b) = (client("Payroll"), client("Wiki"));
    s.store.put_client(&a).await.unwrap();
    s.store.put_client(&b).await.unwrap();
    a.enabled = false;
    s.store.put_client(&a).await.unwrap();

    assert_eq!(s.store.client(&a.client_id).await.unwrap(), Some(a.clone()));
    assert_eq!(s.store.client(&ClientId::generate()).await.unwrap(), None);
    let mut all = s.store.clients().await.unwrap();
    all.sort_by(|x, y| x.name.cmp(&y.name));
    assert_eq!(all, vec![a, b]);
}

async fn a_fresh_code_reads_back_unconsumed(s: Subject) {
    let code = Digest::of(&random_id(32));
    let record = code_record_in(s.store.as_ref(), s.now()).await;
    s.store.put_code(&code, &record, 60).await.unwrap();
    let stored = s.store.code(&code).await.unwrap().unwrap();
    assert_eq!((stored.record, stored.consumed_by), (record, None));
    assert_eq!(
        s.store.code(&Digest::of("never issued")).await.unwrap(),
        None
    );
}

async fn a_redeemed_code_is_marked_with_the_grant_it_issued(s: Subject) {
    let (code, issue) = redeemed(&s, "g1").await;

    let stored = s.store.code(&code).await.unwrap().unwrap();
    assert_eq!(stored.consumed_by.as_deref(), Some("g1"));
    let access = s.store.access_token(&issue.access_digest).await.unwrap();
    assert_eq!(access, Some(issue.access.clone()));
    let refresh = s.store.refresh_token(&issue.refresh_digest).await.unwrap();
    let expected = StoredRefresh {
        record: issue.refresh.clone(),
        rotated_at: None,
    };
    assert_eq!(refresh, Some(expected));
}

async fn a_replayed_code_revokes_the_tokens_it_issued(s: Subject) {
    let (code, first) = redeemed(&s, "g1").await;
    let record = s.store.code(&code).await.unwrap().unwrap().record;
    let second = issuance("g2", &record, 3600);

    assert_eq!(
        s.store.redeem_code(&code, &second).await.unwrap(),
        Redemption::Replayed
    );

    assert_eq!(
        s.store.access_token(&first.access_digest).await.unwrap(),
        None
    );
    assert!(!any_token_left(&s, &first).await);
    assert!(
        !any_token_left(&s, &second).await,
        "a replay writes nothing"
    );
    assert_eq!(
        s.store.redeem_code(&code, &second).await.unwrap(),
        Redemption::Replayed
    );
}

async fn of_twenty_concurrent_redemptions_of_one_code_exactly_one_is_issued(s: Subject) {
    let code = Digest::of(&random_id(32));
    let record = code_record_in(s.store.as_ref(), s.now()).await;
    s.store.put_code(&code, &record, 60).await.unwrap();
    let barrier = Arc::new(tokio::sync::Barrier::new(20));
    let tasks: Vec<_> = (0..20)
        .map(|i| {
            let (store, code, barrier) = (s.store.clone(), code.clone(), barrier.clone());
            let issue = issuance(&format!("g{i}"), &record, 3600);
            tokio::spawn(async move {
                barrier.wait().await;
                store.redeem_code(&code, &issue).await.unwrap()
            })
        })
        .collect();
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.push(task.await.unwrap());
    }
    let issued = outcomes
        .iter()
        .filter(|o| **o == Redemption::Issued)
        .count();
    let replayed = outcomes
        .iter()
        .filter(|o| **o == Redemption::Replayed)
        .count();
    assert_eq!((issued, replayed), (1, 19));
}

async fn an_unknown_code_is_not_found_and_nothing_is_written(s: Subject) {
    let issue = issuance("g1", &code_record_in(s.store.as_ref(), s.now()).await, 3600);
    let code = Digest::of("never issued");
    assert_eq!(
        s.store.redeem_code(&code, &issue).await.unwrap(),
        Redemption::NotFound
    );
    assert!(!any_token_left(&s, &issue).await);
    assert_eq!(s.store.code(&code).await.unwrap(), None);
}

async fn an_active_refresh_token_rotates_into_a_new_pair(s: Subject) {
    let (code, first) = redeemed(&s, "g1").await;
    let record = s.store.code(&code).await.unwrap().unwrap().record;
    let next = issuance("g1", &record, 3600);
    let now = s.now();

    let outcome = s
        .store
        .rotate_refresh(&first.refresh_digest, &next, "sealed-1", now, 10);

    assert_eq!(outcome.await.unwrap(), Rotation::Rotated);
    let old = s
        .store
        .refresh_token(&first.refresh_digest)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(old.rotated_at, Some(now));
    assert_eq!(
        s.store.access_token(&next.access_digest).await.unwrap(),
        Some(next.access.clone())
    );
    let new = s
        .store
        .refresh_token(&next.refresh_digest)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((new.record, new.rotated_at), (next.refresh, None));
    assert!(s
        .store
        .access_token(&first.access_digest)
        .await
        .unwrap()
        .is_some());
}

async fn a_retry_within_the_grace_window_gets_the_same_sealed_successor(s: Subject) {
    let (code, first) = redeemed(&s, "g1").await;
    let record = s.store.code(&code).await.unwrap().unwrap().record;
    let (next, retry) = (issuance("g1", &record, 3600), issuance("g1", &record, 3600));
    let (old, now) = (&first.refresh_digest, s.now());
    let rotated = s
        .store
        .rotate_refresh(old, &next, "sealed-1", now, 10)
        .await
        .unwrap();
    assert_eq!(rotated, Rotation::Rotated);

    let again = s
        .store
        .rotate_refresh(old, &retry, "sealed-2", now + 10, 10)
        .await
        .unwrap();

    assert_eq!(again, Rotation::Grace("sealed-1".into()));
    assert!(
        !any_token_left(&s, &retry).await,
        "a grace answer writes nothing"
    );
    assert!(any_token_left(&s, &next).await);
}

async fn reusing_a_rotated_token_after_the_grace_window_revokes_the_whole_family(s: Subject) {
    let (code, first) = redeemed(&s, "g1").await;
    let (_, unrelated) = redeemed(&s, "g-other").await;
    let record = s.store.code(&code).await.unwrap().unwrap().record;
    let (next, thief) = (issuance("g1", &record, 3600), issuance("g1", &record, 3600));
    let (old, now) = (&first.refresh_digest, s.now());
    let rotated = s
        .store
        .rotate_refresh(old, &next, "sealed-1", now, 10)
        .await
        .unwrap();
    assert_eq!(rotated, Rotation::Rotated);

    let reuse = s
        .store
        .rotate_refresh(old, &thief, "sealed-2", now + 11, 10)
        .await
        .unwrap();

    assert_eq!(reuse, Rotation::Reused);
    for issue in [&first, &next, &thief] {
        assert!(!any_token_left(&s, issue).await);
    }
    let later = issuance("g1", &record, 3600);
    let successor = s
        .store
        .rotate_refresh(&next.refresh_digest, &later, "x", now + 12, 10);
    assert_eq!(successor.await.unwrap(), Rotation::NotFound);
    assert!(any_token_left(&s, &unrelated).await);
}

async fn revoking_a_grant_deletes_its_tokens_and_only_those(s: Subject) {
    let (code, first) = redeemed(&s, "g1").await;
    let (_, other) = redeemed(&s, "g2").await;
    let record = s.store.code(&code).await.unwrap().unwrap().record;
    let next = issuance("g1", &record, 3600);
    let rotated = s
        .store
        .rotate_refresh(&first.refresh_digest, &next, "s", s.now(), 10);
    assert_eq!(rotated.await.unwrap(), Rotation::Rotated);

    s.store.revoke_grant("g1").await.unwrap();

    assert!(!any_token_left(&s, &first).await);
    assert!(!any_token_left(&s, &next).await);
    assert!(any_token_left(&s, &other).await);
    s.store.revoke_grant("g1").await.unwrap();
    s.store.revoke_grant("never-issued").await.unwrap();
}

async fn rotating_an_unknown_refresh_token_is_not_found(s: Subject) {
    let issue = issuance("g1", &code_record_in(s.store.as_ref(), s.now()).await, 3600);
    let unknown = Digest::of("never issued");
    let outcome = s
        .store
        .rotate_refresh(&unknown, &issue, "sealed", s.now(), 10);
    assert_eq!(outcome.await.unwrap(), Rotation::NotFound);
    assert!(!any_token_left(&s, &issue).await);
}

// --- OpenID Connect signing keys ---------------------------------------------------------------

async fn of_many_nodes_storing_a_first_signing_key_at_once_all_get_the_same_one(s: Subject) {
    assert_eq!(s.store.signing_keys().await.unwrap(), None);
    let nodes = (0..10).map(|i| {
        let store = s.store.clone();
        tokio::spawn(async move { store.signing_keys_or_insert(&format!("key-{i}")).await })
    });
    let mut answers = Vec::new();
    for node in nodes.collect::<Vec<_>>() {
        answers.push(node.await.unwrap().unwrap());
    }
    answers.dedup();
    assert_eq!(answers.len(), 1, "every node got the winner: {answers:?}");
    let stored = s.store.signing_keys().await.unwrap();
    assert_eq!(stored.as_deref(), Some(answers[0].as_str()));
    let later = s.store.signing_keys_or_insert("late").await.unwrap();
    assert_eq!(later, answers[0]);
}

async fn a_signing_key_set_is_replaced_only_if_it_is_still_the_one_read(s: Subject) {
    assert!(
        !s.store.replace_signing_keys("v1", "v2").await.unwrap(),
        "nothing stored yet"
    );
    s.store.signing_keys_or_insert("v1").await.unwrap();
    let racers = (0..10).map(|i| {
        let store = s.store.clone();
        tokio::spawn(async move { store.replace_signing_keys("v1", &format!("v2-{i}")).await })
    });
    let mut winners = 0;
    for racer in racers.collect::<Vec<_>>() {
        winners += racer.await.unwrap().unwrap() as usize;
    }
    assert_eq!(winners, 1);
    let stored = s.store.signing_keys().await.unwrap().unwrap();
    assert!(stored.starts_with("v2-"), "{stored}");
}
