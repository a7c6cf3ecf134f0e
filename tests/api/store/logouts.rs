//! Back-channel logout on both backends: what an SSO session gave is found and revoked when it
//! ends, and the queue of logouts hands each job to one claimer at a time.

use super::fixtures::{any_token_left, code_record, issuance, register, session_record, Subject};
use sso_bridge::clock::UnixTime;
use sso_bridge::domain::secret::random_id;
use sso_bridge::domain::{ClientId, Digest};
use sso_bridge::store::{CodeRecord, Issuance, LogoutJob, Redemption};
use std::collections::HashSet;
use std::sync::Arc;

on_both_backends!(
    ending_a_session_revokes_every_grant_begun_in_it_and_answers_each_app_once,
    a_code_of_a_session_not_yet_redeemed_ends_with_the_session,
    a_grant_refreshed_after_its_session_began_is_still_found_when_it_ends,
    ending_a_users_sessions_answers_their_public_ids,
    a_queued_logout_is_claimed_when_due_and_hidden_from_other_claims_while_leased,
    a_logout_put_back_is_claimed_again_at_its_new_time_with_its_attempts,
    of_concurrent_claims_each_logout_goes_to_one,
    a_logout_is_forgotten_after_its_lifetime,
);

/// A code of `ada` for `client`, issued in the session `sid`.
fn code_in(now: UnixTime, client: &ClientId, sid: &str) -> CodeRecord {
    let mut record = code_record(now);
    record.client_id = client.clone();
    record.sid = Some(sid.to_owned());
    record
}

/// Stores and redeems a code of `ada` for `client` in the session `sid`: the grant it began.
async fn grant_in(s: &Subject, client: &ClientId, sid: &str) -> Issuance {
    let code = Digest::of(&random_id(32));
    let record = code_in(s.now(), client, sid);
    s.store.put_code(&code, &record, 60).await.unwrap();
    let issue = issuance(&random_id(8), &record, 3600);
    assert_eq!(issue.refresh.sid.as_deref(), Some(sid));
    let redeemed = s.store.redeem_code(&code, &issue).await.unwrap();
    assert_eq!(redeemed, Redemption::Issued);
    issue
}

async fn registered(s: &Subject) -> ClientId {
    let id = ClientId::generate();
    register(s.store.as_ref(), &id).await;
    id
}

async fn ending_a_session_revokes_every_grant_begun_in_it_and_answers_each_app_once(s: Subject) {
    let (payroll, wiki) = (registered(&s).await, registered(&s).await);
    let (sid, other_sid) = (random_id(16), random_id(16));
    let first = grant_in(&s, &payroll, &sid).await;
    let second = grant_in(&s, &payroll, &sid).await;
    let third = grant_in(&s, &wiki, &sid).await;
    let elsewhere = grant_in(&s, &payroll, &other_sid).await;
    let mut outside = code_record(s.now());
    outside.client_id = wiki.clone();
    let unindexed = {
        let code = Digest::of(&random_id(32));
        s.store.put_code(&code, &outside, 60).await.unwrap();
        let issue = issuance(&random_id(8), &outside, 3600);
        s.store.redeem_code(&code, &issue).await.unwrap();
        issue
    };

    let apps: HashSet<ClientId> = s
        .store
        .revoke_session(&sid)
        .await
        .unwrap()
        .into_iter()
        .collect();

    assert_eq!(apps, HashSet::from([payroll.clone(), wiki.clone()]));
    for gone in [&first, &second, &third] {
        assert!(!any_token_left(&s, gone).await);
    }
    assert!(any_token_left(&s, &elsewhere).await);
    assert!(any_token_left(&s, &unindexed).await);
    // Once: a second end of the same session (another node) finds nothing more.
    assert!(s.store.revoke_session(&sid).await.unwrap().is_empty());
    assert!(s
        .store
        .revoke_session("never-was")
        .await
        .unwrap()
        .is_empty());
}

async fn a_code_of_a_session_not_yet_redeemed_ends_with_the_session(s: Subject) {
    let app = registered(&s).await;
    let sid = random_id(16);
    let code = Digest::of(&random_id(32));
    let record = code_in(s.now(), &app, &sid);
    s.store.put_code(&code, &record, 60).await.unwrap();

    // No tokens were had in the session: no app is answered, but the code is gone.
    assert!(s.store.revoke_session(&sid).await.unwrap().is_empty());
    assert_eq!(s.store.code(&code).await.unwrap(), None);
    let late = issuance(&random_id(8), &record, 3600);
    assert_eq!(
        s.store.redeem_code(&code, &late).await.unwrap(),
        Redemption::NotFound
    );
    assert!(!any_token_left(&s, &late).await);
}

async fn a_grant_refreshed_after_its_session_began_is_still_found_when_it_ends(s: Subject) {
    let app = registered(&s).await;
    let sid = random_id(16);
    let first = grant_in(&s, &app, &sid).await;
    let rotated = issuance(&first.grant_id, &code_in(s.now(), &app, &sid), 3600);
    let now = s.now();
    s.store
        .rotate_refresh(&first.refresh_digest, &rotated, "sealed", now, 10)
        .await
        .unwrap();
    assert!(any_token_left(&s, &rotated).await);

    assert_eq!(s.store.revoke_session(&sid).await.unwrap(), [app]);
    assert!(!any_token_left(&s, &first).await);
    assert!(!any_token_left(&s, &rotated).await);
}

async fn ending_a_users_sessions_answers_their_public_ids(s: Subject) {
    let (laptop, phone) = (Digest::of(&random_id(32)), Digest::of(&random_id(32)));
    let on_laptop = session_record(s.now(), "ada");
    let on_phone = session_record(s.now(), "ada");
    let mut earlier = session_record(s.now(), "ada");
    earlier.sid = None;
    let before = Digest::of(&random_id(32));
    s.store
        .put_session(&laptop, &on_laptop, 3600)
        .await
        .unwrap();
    s.store.put_session(&phone, &on_phone, 3600).await.unwrap();
    s.store.put_session(&before, &earlier, 3600).await.unwrap();

    let ended = s.store.end_sessions("ada").await.unwrap();

    assert_eq!(ended.count, 3);
    let sids: HashSet<String> = ended.sids.into_iter().collect();
    assert_eq!(
        sids,
        HashSet::from([on_laptop.sid.unwrap(), on_phone.sid.unwrap()])
    );
}

/// A job for a fresh app, queued at `now`.
fn job(now: UnixTime) -> LogoutJob {
    LogoutJob {
        id: random_id(16),
        client_id: ClientId::generate(),
        sub: "ada".into(),
        sid: Some(random_id(16)),
        queued_at: now,
        attempts: 0,
    }
}

async fn a_queued_logout_is_claimed_when_due_and_hidden_from_other_claims_while_leased(s: Subject) {
    let now = s.now();
    let (later, soon) = (job(now), job(now));
    s.store.put_logout(&later, now + 10, 3600).await.unwrap();
    s.store.put_logout(&soon, now + 5, 3600).await.unwrap();

    assert!(s.store.claim_logouts(now, 60, 16).await.unwrap().is_empty());
    // Earliest first, and no more than asked.
    let first = s.store.claim_logouts(now + 10, 60, 1).await.unwrap();
    assert_eq!(first, std::slice::from_ref(&soon));
    let next = s.store.claim_logouts(now + 10, 60, 16).await.unwrap();
    assert_eq!(next, std::slice::from_ref(&later));
    // Both claimed: hidden until their lease ends, then due again.
    assert!(s
        .store
        .claim_logouts(now + 69, 60, 16)
        .await
        .unwrap()
        .is_empty());
    let again = s.store.claim_logouts(now + 70, 60, 16).await.unwrap();
    assert_eq!(again.len(), 2);

    s.store.delete_logout(&soon.id).await.unwrap();
    s.store.delete_logout(&soon.id).await.unwrap();
    assert_eq!(
        s.store.claim_logouts(now + 1000, 60, 16).await.unwrap(),
        [later]
    );
}

async fn a_logout_put_back_is_claimed_again_at_its_new_time_with_its_attempts(s: Subject) {
    let now = s.now();
    let mut queued = job(now);
    s.store.put_logout(&queued, now, 3600).await.unwrap();
    assert_eq!(s.store.claim_logouts(now, 60, 16).await.unwrap().len(), 1);

    queued.attempts = 1;
    s.store.put_logout(&queued, now + 2, 3600).await.unwrap();

    assert!(s
        .store
        .claim_logouts(now + 1, 60, 16)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        s.store.claim_logouts(now + 2, 60, 16).await.unwrap(),
        [queued]
    );
}

async fn of_concurrent_claims_each_logout_goes_to_one(s: Subject) {
    let now = s.now();
    let mut queued = HashSet::new();
    for _ in 0..40 {
        let j = job(now);
        s.store.put_logout(&j, now, 3600).await.unwrap();
        queued.insert(j.id);
    }
    let store = Arc::clone(&s.store);
    let claims = (0..8).map(|_| {
        let store = Arc::clone(&store);
        tokio::spawn(async move { store.claim_logouts(now, 60, 16).await.unwrap() })
    });
    let mut claimed = Vec::new();
    for claim in claims {
        claimed.extend(claim.await.unwrap().into_iter().map(|j| j.id));
    }
    let distinct: HashSet<String> = claimed.iter().cloned().collect();
    assert_eq!(claimed.len(), distinct.len(), "a logout claimed twice");
    assert_eq!(distinct, queued);
}

async fn a_logout_is_forgotten_after_its_lifetime(s: Subject) {
    let now = s.now();
    let ttl = s.short_ttl();
    let queued = job(now);
    s.store.put_logout(&queued, now, ttl).await.unwrap();

    s.outlive(ttl).await;

    assert!(s
        .store
        .claim_logouts(s.now(), 60, 16)
        .await
        .unwrap()
        .is_empty());
}
