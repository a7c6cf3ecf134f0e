//! Everything of one person at once, on both backends: ending a user's SSO sessions and
//! revoking every code and token issued to them, for every app (sign-out everywhere); and the
//! codes of one app, when the person takes it back on their account page.

use super::fixtures::{any_token_left, code_record, issuance, register, session_record, Subject};
use sso_bridge::clock::UnixTime;
use sso_bridge::domain::secret::random_id;
use sso_bridge::domain::{Claims, ClientId, Digest};
use sso_bridge::store::{CodeRecord, EndedSessions, Issuance, Redemption};
use std::collections::BTreeMap;

on_both_backends!(
    ending_a_users_sessions_ends_every_one_of_theirs_and_no_one_elses,
    a_session_id_written_again_for_someone_else_is_not_ended_with_the_first_user,
    revoking_a_user_deletes_their_codes_and_tokens_for_every_app_and_nothing_else,
    revoking_a_users_codes_for_one_app_leaves_its_grants_their_other_apps_and_other_people,
);

/// A code of `sub` for `client`.
fn code_of(now: UnixTime, sub: &str, client: &ClientId) -> CodeRecord {
    let mut record = code_record(now);
    record.client_id = client.clone();
    let claims = BTreeMap::from([("sub".to_string(), sub.to_string())]);
    record.claims = Claims::new(claims).unwrap();
    record
}

/// Stores and redeems a code of `sub` for `client`: the grant it started.
async fn grant_of(s: &Subject, sub: &str, client: &ClientId) -> Issuance {
    let code = Digest::of(&random_id(32));
    let record = code_of(s.now(), sub, client);
    s.store.put_code(&code, &record, 60).await.unwrap();
    let issue = issuance(&random_id(8), &record, 3600);
    let redeemed = s.store.redeem_code(&code, &issue).await.unwrap();
    assert_eq!(redeemed, Redemption::Issued);
    issue
}

async fn ending_a_users_sessions_ends_every_one_of_theirs_and_no_one_elses(s: Subject) {
    let (laptop, phone, other) = (
        Digest::of(&random_id(32)),
        Digest::of(&random_id(32)),
        Digest::of(&random_id(32)),
    );
    let ada = session_record(s.now(), "ada");
    s.store.put_session(&laptop, &ada, 3600).await.unwrap();
    s.store.put_session(&phone, &ada, 3600).await.unwrap();
    // Written again (a directory re-check does that): still one session.
    s.store.put_session(&phone, &ada, 3000).await.unwrap();
    let grace = session_record(s.now(), "grace");
    s.store.put_session(&other, &grace, 3600).await.unwrap();

    let ended = s.store.end_sessions("ada").await.unwrap();
    assert_eq!(ended.count, 2);
    // Both records name the same public id here: each session's is answered.
    assert_eq!(
        ended.sids,
        [ada.sid.clone().unwrap(), ada.sid.clone().unwrap()]
    );

    assert_eq!(s.store.session(&laptop).await.unwrap(), None);
    assert_eq!(s.store.session(&phone).await.unwrap(), None);
    assert_eq!(s.store.session(&other).await.unwrap(), Some(grace));
    assert_eq!(s.store.end_sessions("ada").await.unwrap().count, 0);
    assert_eq!(s.store.end_sessions("nobody").await.unwrap().count, 0);
}

async fn a_session_id_written_again_for_someone_else_is_not_ended_with_the_first_user(s: Subject) {
    let id = Digest::of(&random_id(32));
    s.store
        .put_session(&id, &session_record(s.now(), "ada"), 3600)
        .await
        .unwrap();
    let grace = session_record(s.now(), "grace");
    s.store.put_session(&id, &grace, 3600).await.unwrap();

    assert_eq!(
        s.store.end_sessions("ada").await.unwrap(),
        EndedSessions::default()
    );

    assert_eq!(s.store.session(&id).await.unwrap(), Some(grace));
}

async fn revoking_a_user_deletes_their_codes_and_tokens_for_every_app_and_nothing_else(s: Subject) {
    let (payroll, wiki) = (ClientId::generate(), ClientId::generate());
    register(s.store.as_ref(), &payroll).await;
    register(s.store.as_ref(), &wiki).await;
    let first = grant_of(&s, "ada", &payroll).await;
    let rotated = issuance(&first.grant_id, &code_of(s.now(), "ada", &payroll), 3600);
    let now = s.now();
    s.store
        .rotate_refresh(&first.refresh_digest, &rotated, "x", now, 10)
        .await
        .unwrap();
    let second = grant_of(&s, "ada", &wiki).await;
    let unredeemed = Digest::of(&random_id(32));
    let record = code_of(s.now(), "ada", &wiki);
    s.store.put_code(&unredeemed, &record, 60).await.unwrap();
    let others = grant_of(&s, "grace", &payroll).await;
    let others_code = Digest::of(&random_id(32));
    let record = code_of(s.now(), "grace", &wiki);
    s.store.put_code(&others_code, &record, 60).await.unwrap();

    assert_eq!(s.store.revoke_user("ada").await.unwrap(), 2);

    assert!(!any_token_left(&s, &first).await);
    assert!(!any_token_left(&s, &rotated).await);
    assert!(!any_token_left(&s, &second).await);
    assert_eq!(s.store.code(&unredeemed).await.unwrap(), None);
    // The store that issued the code may still hand out its copy for an exchange; the
    // redemption refuses it all the same.
    s.store.code_to_redeem(&unredeemed).await.unwrap();
    let late = issuance(&random_id(8), &code_of(s.now(), "ada", &wiki), 3600);
    let redeemed = s.store.redeem_code(&unredeemed, &late).await.unwrap();
    assert_eq!(redeemed, Redemption::NotFound);
    assert!(!any_token_left(&s, &late).await);
    assert!(any_token_left(&s, &others).await);
    assert!(s.store.code(&others_code).await.unwrap().is_some());
    assert_eq!(s.store.revoke_user("ada").await.unwrap(), 0);
}

async fn revoking_a_users_codes_for_one_app_leaves_its_grants_their_other_apps_and_other_people(
    s: Subject,
) {
    let (payroll, wiki) = (ClientId::generate(), ClientId::generate());
    register(s.store.as_ref(), &payroll).await;
    register(s.store.as_ref(), &wiki).await;
    let granted = grant_of(&s, "ada", &payroll).await;
    let put = |sub: &'static str, client: &ClientId| {
        let record = code_of(s.now(), sub, client);
        let store = std::sync::Arc::clone(&s.store);
        async move {
            let code = Digest::of(&random_id(32));
            store.put_code(&code, &record, 60).await.unwrap();
            code
        }
    };
    let (first, second) = (put("ada", &payroll).await, put("ada", &payroll).await);
    let wikis = put("ada", &wiki).await;
    let graces = put("grace", &payroll).await;
    // Exchanged already: kept, so that a replay still revokes what it started.
    let exchanged = put("ada", &payroll).await;
    let record = code_of(s.now(), "ada", &payroll);
    let started = issuance(&random_id(8), &record, 3600);
    s.store.code_to_redeem(&exchanged).await.unwrap();
    let redeemed = s.store.redeem_code(&exchanged, &started).await.unwrap();
    assert_eq!(redeemed, Redemption::Issued);

    assert_eq!(s.store.revoke_user_codes("ada", &payroll).await.unwrap(), 2);

    for gone in [&first, &second] {
        assert_eq!(s.store.code(gone).await.unwrap(), None);
        s.store.code_to_redeem(gone).await.unwrap();
        let late = issuance(&random_id(8), &code_of(s.now(), "ada", &payroll), 3600);
        let redeemed = s.store.redeem_code(gone, &late).await.unwrap();
        assert_eq!(redeemed, Redemption::NotFound);
        assert!(!any_token_left(&s, &late).await);
    }
    assert!(s.store.code(&wikis).await.unwrap().is_some());
    assert!(s.store.code(&graces).await.unwrap().is_some());
    assert!(any_token_left(&s, &granted).await);
    assert!(any_token_left(&s, &started).await);
    let replay = issuance(&random_id(8), &code_of(s.now(), "ada", &payroll), 3600);
    let replayed = s.store.redeem_code(&exchanged, &replay).await.unwrap();
    assert_eq!(replayed, Redemption::Replayed);
    assert!(!any_token_left(&s, &started).await);
    assert_eq!(s.store.revoke_user_codes("ada", &payroll).await.unwrap(), 0);
    assert_eq!(
        s.store.revoke_user_codes("nobody", &payroll).await.unwrap(),
        0
    );
}
