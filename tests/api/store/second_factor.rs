//! The second-factor part of the store contract, on both backends: used time steps, lockout
//! notes, sliding attempt windows, set-ups, enrolments and recovery codes.

use super::fixtures::Subject;
use sso_bridge::domain::secret::random_id;
use sso_bridge::domain::Digest;
use sso_bridge::store::EnrolmentRecord;

on_both_backends!(
    a_time_step_is_spent_by_exactly_one_of_many_concurrent_callers,
    a_lockout_is_noted_once_per_window,
    attempts_slide_out_of_their_window_and_can_be_taken_back,
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

async fn attempts_slide_out_of_their_window_and_can_be_taken_back(s: Subject) {
    let key = format!("password:{}", random_id(8));
    let window = |key: &str, length| vec![(key.to_owned(), length)];
    let t = s.now();
    for (i, at) in [t, t + 1, t + 2].into_iter().enumerate() {
        let count = s
            .store
            .add_attempt(&window(&key, 10), &format!("a{i}"), at)
            .await
            .unwrap();
        assert_eq!(count, vec![i as u64 + 1]);
    }
    // Ten seconds after the first attempt it has left the window; the others are still in.
    assert_eq!(
        s.store
            .add_attempt(&window(&key, 10), "a3", t + 10)
            .await
            .unwrap(),
        vec![3]
    );
    s.store
        .remove_attempt(std::slice::from_ref(&key), "a3")
        .await
        .unwrap();
    s.store
        .remove_attempt(std::slice::from_ref(&key), "unknown")
        .await
        .unwrap();
    assert_eq!(
        s.store
            .add_attempt(&window(&key, 10), "a4", t + 11)
            .await
            .unwrap(),
        vec![2]
    );
    // Windows are per key.
    let other = format!("addr:{}", random_id(8));
    assert_eq!(
        s.store
            .add_attempt(&window(&other, 10), "b", t + 11)
            .await
            .unwrap(),
        vec![1]
    );
}

async fn one_attempt_counts_in_each_of_its_windows_and_is_taken_back_from_all(s: Subject) {
    let account = format!("password:{}", random_id(8));
    let address = format!("addr:{}", random_id(8));
    let t = s.now();
    let both = vec![(account.clone(), 10), (address.clone(), 30)];
    assert_eq!(
        s.store
            .add_attempt(&[(address.clone(), 30)], "early", t)
            .await
            .unwrap(),
        vec![1]
    );
    // Each window counts in its own length: at t + 20 the address's 30 seconds still hold
    // the early attempt.
    assert_eq!(
        s.store.add_attempt(&both, "x", t + 20).await.unwrap(),
        vec![1, 2]
    );
    assert_eq!(
        s.store.add_attempt(&both, "y", t + 21).await.unwrap(),
        vec![2, 3]
    );
    s.store
        .remove_attempt(&[account.clone(), address.clone()], "y")
        .await
        .unwrap();
    assert_eq!(
        s.store.add_attempt(&both, "z", t + 22).await.unwrap(),
        vec![2, 3]
    );
    let none: Vec<u64> = s.store.add_attempt(&[], "none", t + 22).await.unwrap();
    assert!(none.is_empty());
    s.store.remove_attempt(&[], "none").await.unwrap();
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
