//! The store's Connected Apps lifecycle operations, on both backends: revoking everything of an
//! app, deleting it, the app doctor's failure lists and last-used marks.

use super::fixtures::{any_token_left, client, code_record_in, issuance, Subject};
use sso_bridge::domain::secret::random_id;
use sso_bridge::domain::Digest;
use sso_bridge::store::{DoctorEntry, Redemption, Rotation};

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

on_both_backends!(
    revoking_an_app_deletes_its_codes_and_every_token_family_and_nothing_else,
    a_disabled_or_deleted_app_gets_nothing_from_a_code_or_a_refresh_token,
    a_deleted_client_is_gone_from_reads_and_lists,
    an_apps_failure_list_keeps_only_the_newest,
    an_apps_last_use_is_remembered_until_its_mark_expires,
);

async fn revoking_an_app_deletes_its_codes_and_every_token_family_and_nothing_else(s: Subject) {
    // Two families and an unredeemed code of one app, one family of another app.
    let record = code_record_in(s.store.as_ref(), s.now()).await;
    let (first_code, pending_code) = (Digest::of(&random_id(32)), Digest::of(&random_id(32)));
    s.store.put_code(&first_code, &record, 60).await.unwrap();
    s.store.put_code(&pending_code, &record, 60).await.unwrap();
    let first = issuance(&random_id(8), &record, 3600);
    s.store.redeem_code(&first_code, &first).await.unwrap();
    let rotated = issuance(&first.grant_id, &record, 3600);
    let now = s.now();
    s.store
        .rotate_refresh(&first.refresh_digest, &rotated, "x", now, 10)
        .await
        .unwrap();
    let other_record = code_record_in(s.store.as_ref(), s.now()).await;
    let other_code = Digest::of(&random_id(32));
    s.store
        .put_code(&other_code, &other_record, 60)
        .await
        .unwrap();
    let other = issuance(&random_id(8), &other_record, 3600);
    s.store.redeem_code(&other_code, &other).await.unwrap();

    s.store.revoke_client(&record.client_id).await.unwrap();

    assert!(!any_token_left(&s, &first).await);
    assert!(!any_token_left(&s, &rotated).await);
    assert_eq!(s.store.code(&pending_code).await.unwrap(), None);
    assert!(any_token_left(&s, &other).await);
    assert!(s.store.code(&other_code).await.unwrap().is_some());
    s.store.revoke_client(&record.client_id).await.unwrap();
}

async fn a_deleted_client_is_gone_from_reads_and_lists(s: Subject) {
    let (kept, gone) = (client("Kept"), client("Gone"));
    s.store.put_client(&kept).await.unwrap();
    s.store.put_client(&gone).await.unwrap();

    s.store.delete_client(&gone.client_id).await.unwrap();
    s.store.delete_client(&gone.client_id).await.unwrap();

    assert_eq!(s.store.client(&gone.client_id).await.unwrap(), None);
    let ids: Vec<_> = s
        .store
        .clients()
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.client_id)
        .collect();
    assert_eq!(ids, vec![kept.client_id]);
}

/// An app doctor entry whose problem is `problem`.
fn failure(problem: &str) -> DoctorEntry {
    DoctorEntry {
        at: 1_700_000_000,
        endpoint: "token".into(),
        problem: problem.into(),
        fix: None,
        verified: true,
    }
}

async fn an_apps_failure_list_keeps_only_the_newest(s: Subject) {
    let (app, other) = (client("A"), client("B"));
    for i in 0..7 {
        s.store
            .push_failure(&app.client_id, &failure(&i.to_string()), 5, 3600)
            .await
            .unwrap();
    }
    let problems: Vec<String> = s
        .store
        .failures(&app.client_id)
        .await
        .unwrap()
        .into_iter()
        .map(|f| f.problem)
        .collect();
    assert_eq!(problems, ["6", "5", "4", "3", "2"]);
    let newest = &s.store.failures(&app.client_id).await.unwrap()[0];
    assert!(newest.verified, "{newest:?}");
    assert!(s.store.failures(&other.client_id).await.unwrap().is_empty());

    s.store
        .push_failure(&other.client_id, &failure("x"), 5, s.short_ttl())
        .await
        .unwrap();
    s.outlive(s.short_ttl()).await;
    assert!(s.store.failures(&other.client_id).await.unwrap().is_empty());
}

async fn an_apps_last_use_is_remembered_until_its_mark_expires(s: Subject) {
    let (app, other) = (client("A"), client("B"));
    let ttl = s.short_ttl();
    assert_eq!(s.store.last_used(&app.client_id).await.unwrap(), None);

    s.store
        .mark_used(&app.client_id, 1_700_000_000, ttl)
        .await
        .unwrap();
    s.store
        .mark_used(&app.client_id, 1_700_000_060, ttl)
        .await
        .unwrap();

    let last = s.store.last_used(&app.client_id).await.unwrap();
    assert_eq!(last, Some(1_700_000_060));
    assert_eq!(s.store.last_used(&other.client_id).await.unwrap(), None);
    s.outlive(ttl).await;
    assert_eq!(s.store.last_used(&app.client_id).await.unwrap(), None);
}

async fn a_disabled_or_deleted_app_gets_nothing_from_a_code_or_a_refresh_token(s: Subject) {
    let record = code_record_in(s.store.as_ref(), s.now()).await;
    let (code, later_code) = (Digest::of(&random_id(32)), Digest::of(&random_id(32)));
    s.store.put_code(&code, &record, 60).await.unwrap();
    s.store.put_code(&later_code, &record, 60).await.unwrap();
    let first = issuance(&random_id(8), &record, 3600);
    assert_eq!(
        s.store.redeem_code(&code, &first).await.unwrap(),
        Redemption::Issued
    );
    // Disabled between the app's checks and the write: the write checks again, atomically.
    let mut app = s.store.client(&record.client_id).await.unwrap().unwrap();
    app.enabled = false;
    s.store.put_client(&app).await.unwrap();

    let refused = issuance(&first.grant_id, &record, 3600);
    let now = s.now();
    assert_eq!(
        s.store
            .rotate_refresh(&first.refresh_digest, &refused, "x", now, 10)
            .await
            .unwrap(),
        Rotation::AppDisabled
    );
    let from_code = issuance(&random_id(8), &record, 3600);
    assert_eq!(
        s.store.redeem_code(&later_code, &from_code).await.unwrap(),
        Redemption::AppDisabled
    );
    assert!(!any_token_left(&s, &refused).await);
    assert!(!any_token_left(&s, &from_code).await);
    // Left as they were: neither spent nor revoked by the refusal itself.
    let stored = s.store.refresh_token(&first.refresh_digest).await.unwrap();
    assert_eq!(stored.map(|r| r.rotated_at), Some(None));
    let unspent = s.store.code(&later_code).await.unwrap().unwrap();
    assert_eq!(unspent.consumed_by, None);

    s.store.delete_client(&record.client_id).await.unwrap();
    assert_eq!(
        s.store.redeem_code(&later_code, &from_code).await.unwrap(),
        Redemption::AppDisabled
    );
}
