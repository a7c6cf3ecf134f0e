//! The second-factor part of the store contract, on both backends: used time steps, lockout
//! notes, sliding attempt windows, set-ups, enrolments and recovery codes.

use super::fixtures::Subject;
use sso_bridge::domain::secret::random_id;
use sso_bridge::domain::Digest;
use sso_bridge::store::{AttemptCount, EnrolmentRecord, IN_FLIGHT_SECS};

on_both_backends!(
    a_time_step_is_spent_by_exactly_one_of_many_concurrent_callers,
    a_lockout_is_noted_once_per_window,
    attempts_slide_out_of_their_window_and_can_be_taken_back,
    an_attempt_is_in_flight_until_it_fails_or_is_taken_back,
    one_attempt_counts_in_each_of_its_windows_and_is_taken_back_from_all,
    a_setup_is_kept_per_user_and_holder_until_it_expires_or_is_deleted,
    an_enrolment_is_written_read_replaced_and_deleted_with_its_recovery_codes,
);

async fn a_time_step_is_spent_by_exactly_one_of_many_concurrent_callers(s: Subject) {
    let sub = random_id(8);
    let calls = (0..20).map(|_| {
        let (store, sub) = (s.store.clone(), sub.clone());
        tokio::spawn(async move { store.spend_otp_step(&sub, "tag1", 42, 60).await })
    });
    let mut granted = 0;
    for call in calls.collect::<Vec<_>>() {
        granted += usize::from(call.await.unwrap().unwrap());
    }
    assert_eq!(granted, 1);
    assert!(!s.store.spend_otp_step(&sub, "tag1", 42, 60).await.unwrap());
    // Another step, or the same step of another authenticator, is still unused.
    assert!(s.store.spend_otp_step(&sub, "tag1", 43, 60).await.unwrap());
    assert!(s.store.spend_otp_step(&sub, "tag2", 42, 60).await.unwrap());
}

async fn a_lockout_is_noted_once_per_window(s: Subject) {
    let (key, ttl) = (format!("password:{}", random_id(8)), s.short_ttl());
    assert!(s.store.note_lockout(&key, ttl).await.unwrap());
    assert!(!s.store.note_lockout(&key, ttl).await.unwrap());
    assert!(s.store.note_lockout("addr:192.0.2.1", ttl).await.unwrap());

    s.outlive(ttl).await;

    assert!(s.store.note_lockout(&key, ttl).await.unwrap());
}

/// What a window holds: `failed` failures, `in_flight` attempts in flight.
fn held(failed: u64, in_flight: u64) -> AttemptCount {
    AttemptCount { failed, in_flight }
}

async fn attempts_slide_out_of_their_window_and_can_be_taken_back(s: Subject) {
    let key = format!("password:{}", random_id(8));
    let keys = std::slice::from_ref(&key);
    let window = |key: &str, length| vec![(key.to_owned(), length)];
    let t = s.now();
    for (i, at) in [t, t + 1, t + 2].into_iter().enumerate() {
        let id = format!("a{i}");
        let count = s.store.add_attempt(&window(&key, 10), &id, at).await;
        assert_eq!(count.unwrap(), vec![held(i as u64, 1)]);
        s.store.fail_attempt(keys, &id, at).await.unwrap();
    }
    // Ten seconds after the first failure it has left the window; the others are still in.
    let count = s.store.add_attempt(&window(&key, 10), "a3", t + 10).await;
    assert_eq!(count.unwrap(), vec![held(2, 1)]);
    s.store.remove_attempt(keys, "a3").await.unwrap();
    s.store.remove_attempt(keys, "unknown").await.unwrap();
    let count = s.store.add_attempt(&window(&key, 10), "a4", t + 11).await;
    assert_eq!(count.unwrap(), vec![held(1, 1)], "a3 was taken back");
    // Windows are per key.
    let other = format!("addr:{}", random_id(8));
    let count = s.store.add_attempt(&window(&other, 10), "b", t + 11).await;
    assert_eq!(count.unwrap(), vec![held(0, 1)]);
    // Emptied, a window starts again.
    s.store.clear_attempts(&key).await.unwrap();
    let count = s.store.add_attempt(&window(&key, 10), "a5", t + 12).await;
    assert_eq!(count.unwrap(), vec![held(0, 1)]);
}

async fn an_attempt_is_in_flight_until_it_fails_or_is_taken_back(s: Subject) {
    let key = format!("password:{}", random_id(8));
    let keys = std::slice::from_ref(&key);
    let window = vec![(key.clone(), 600)];
    let t = s.now();
    for i in 0..3 {
        let count = s.store.add_attempt(&window, &format!("p{i}"), t).await;
        assert_eq!(count.unwrap(), vec![held(0, i + 1)]);
    }
    // One fails a little later and counts as a failure from then on; one succeeds.
    s.store.fail_attempt(keys, "p0", t + 1).await.unwrap();
    s.store.remove_attempt(keys, "p1").await.unwrap();
    let count = s.store.add_attempt(&window, "p3", t + 2).await;
    assert_eq!(count.unwrap(), vec![held(1, 2)]);
    // An attempt left in flight (its node stopped) stops counting after IN_FLIGHT_SECS,
    // while the failure stays for its window.
    let later = t + 2 + IN_FLIGHT_SECS;
    let count = s.store.add_attempt(&window, "p4", later).await;
    assert_eq!(count.unwrap(), vec![held(1, 1)]);
    // Failing an attempt in a window that is gone brings nothing back.
    let gone = format!("password:{}", random_id(8));
    s.store
        .fail_attempt(std::slice::from_ref(&gone), "x", t)
        .await
        .unwrap();
    let count = s.store.add_attempt(&[(gone, 600)], "y", t).await;
    assert_eq!(count.unwrap(), vec![held(0, 1)]);
}

async fn one_attempt_counts_in_each_of_its_windows_and_is_taken_back_from_all(s: Subject) {
    let account = format!("password:{}", random_id(8));
    let address = format!("addr:{}", random_id(8));
    let both_keys = [account.clone(), address.clone()];
    let t = s.now();
    let both = vec![(account.clone(), 10), (address.clone(), 30)];
    let count = s
        .store
        .add_attempt(&[(address.clone(), 30)], "early", t)
        .await;
    assert_eq!(count.unwrap(), vec![held(0, 1)]);
    s.store
        .fail_attempt(std::slice::from_ref(&address), "early", t)
        .await
        .unwrap();
    // Each window counts in its own length: at t + 20 the address's 30 seconds still hold
    // the early failure.
    let count = s.store.add_attempt(&both, "x", t + 20).await;
    assert_eq!(count.unwrap(), vec![held(0, 1), held(1, 1)]);
    s.store.fail_attempt(&both_keys, "x", t + 20).await.unwrap();
    let count = s.store.add_attempt(&both, "y", t + 21).await;
    assert_eq!(count.unwrap(), vec![held(1, 1), held(2, 1)]);
    s.store.remove_attempt(&both_keys, "y").await.unwrap();
    let count = s.store.add_attempt(&both, "z", t + 22).await;
    assert_eq!(count.unwrap(), vec![held(1, 1), held(2, 1)]);
    let none = s.store.add_attempt(&[], "none", t + 22).await.unwrap();
    assert!(none.is_empty());
    s.store.remove_attempt(&[], "none").await.unwrap();
    s.store.fail_attempt(&[], "none", t + 22).await.unwrap();
}

async fn a_setup_is_kept_per_user_and_holder_until_it_expires_or_is_deleted(s: Subject) {
    let sub = format!("user-{}", random_id(6));
    let ttl = s.short_ttl();
    assert_eq!(s.store.setup(&sub, "browser").await.unwrap(), None);
    s.store
        .put_setup(&sub, "browser", "sealed-1", ttl)
        .await
        .unwrap();
    s.store
        .put_setup(&sub, "api", "sealed-2", ttl + 3600)
        .await
        .unwrap();

    assert_eq!(
        s.store.setup(&sub, "browser").await.unwrap().as_deref(),
        Some("sealed-1")
    );
    assert_eq!(
        s.store.setup("someone else", "browser").await.unwrap(),
        None
    );
    s.store.delete_setup(&sub, "api").await.unwrap();
    s.store.delete_setup(&sub, "api").await.unwrap();
    assert_eq!(s.store.setup(&sub, "api").await.unwrap(), None);

    s.outlive(ttl).await;

    assert_eq!(s.store.setup(&sub, "browser").await.unwrap(), None);
}

async fn an_enrolment_is_written_read_replaced_and_deleted_with_its_recovery_codes(s: Subject) {
    let sub = format!("user-{}", random_id(6));
    let enrolment = |sealed: &str| EnrolmentRecord {
        sealed_secret: sealed.into(),
        enrolled_at: s.now(),
    };
    let codes: Vec<Digest> = (0..3).map(|i| Digest::of(&format!("code-{i}"))).collect();
    assert_eq!(s.store.second_factor(&sub).await.unwrap(), None);
    assert!(!s.store.use_recovery_code(&sub, &codes[0]).await.unwrap());

    s.store
        .put_second_factor(&sub, &enrolment("v1"), &codes)
        .await
        .unwrap();
    assert_eq!(
        s.store.second_factor(&sub).await.unwrap(),
        Some(enrolment("v1"))
    );
    assert_eq!(s.store.recovery_codes_left(&sub).await.unwrap(), 3);
    assert!(s.store.use_recovery_code(&sub, &codes[1]).await.unwrap());
    assert!(!s.store.use_recovery_code(&sub, &codes[1]).await.unwrap());
    assert_eq!(s.store.recovery_codes_left(&sub).await.unwrap(), 2);

    // A new enrolment replaces the record and every old code.
    let fresh = [Digest::of("fresh")];
    s.store
        .put_second_factor(&sub, &enrolment("v2"), &fresh)
        .await
        .unwrap();
    assert_eq!(
        s.store.second_factor(&sub).await.unwrap(),
        Some(enrolment("v2"))
    );
    assert!(!s.store.use_recovery_code(&sub, &codes[0]).await.unwrap());
    assert_eq!(s.store.recovery_codes_left(&sub).await.unwrap(), 1);

    assert!(s.store.delete_second_factor(&sub).await.unwrap());
    assert!(!s.store.delete_second_factor(&sub).await.unwrap());
    assert_eq!(s.store.second_factor(&sub).await.unwrap(), None);
    assert_eq!(s.store.recovery_codes_left(&sub).await.unwrap(), 0);
}
