//! The second-factor part of the store contract, on both backends: one-time claims, sliding
//! attempt windows, enrolments and recovery codes.

use super::fixtures::Subject;
use sso_bridge::domain::secret::random_id;
use sso_bridge::domain::Digest;
use sso_bridge::store::Namespace;

on_both_backends!(
    a_one_time_claim_is_granted_to_exactly_one_of_many_concurrent_callers,
    attempts_slide_out_of_their_window_and_can_be_taken_back,
    an_enrolment_is_written_read_replaced_and_deleted_with_its_recovery_codes,
);

async fn a_one_time_claim_is_granted_to_exactly_one_of_many_concurrent_callers(s: Subject) {
    let key = random_id(8);
    let calls = (0..20).map(|_| {
        let store = s.store.clone();
        let key = key.clone();
        tokio::spawn(async move { store.put_new(Namespace::OtpUsed, &key, "1", 60).await })
    });
    let mut granted = 0;
    for call in calls {
        granted += usize::from(call.await.unwrap().unwrap());
    }
    assert_eq!(granted, 1);
    assert_eq!(
        s.store
            .get(Namespace::OtpUsed, &key)
            .await
            .unwrap()
            .as_deref(),
        Some("1")
    );
}

async fn attempts_slide_out_of_their_window_and_can_be_taken_back(s: Subject) {
    let key = format!("password:{}", random_id(8));
    let t = s.now();
    for (i, at) in [t, t + 1, t + 2].into_iter().enumerate() {
        let count = s
            .store
            .add_attempt(&key, &format!("a{i}"), at, 10)
            .await
            .unwrap();
        assert_eq!(count, i as u64 + 1);
    }
    // Ten seconds after the first attempt it has left the window; the others are still in.
    assert_eq!(
        s.store.add_attempt(&key, "a3", t + 10, 10).await.unwrap(),
        3
    );
    s.store.remove_attempt(&key, "a3").await.unwrap();
    s.store.remove_attempt(&key, "unknown").await.unwrap();
    assert_eq!(
        s.store.add_attempt(&key, "a4", t + 11, 10).await.unwrap(),
        2
    );
    // Windows are per key.
    let other = format!("addr:{}", random_id(8));
    assert_eq!(
        s.store.add_attempt(&other, "b", t + 11, 10).await.unwrap(),
        1
    );
}

async fn an_enrolment_is_written_read_replaced_and_deleted_with_its_recovery_codes(s: Subject) {
    let sub = format!("user-{}", random_id(6));
    let codes: Vec<Digest> = (0..3).map(|i| Digest::of(&format!("code-{i}"))).collect();
    assert_eq!(s.store.second_factor(&sub).await.unwrap(), None);
    assert!(!s.store.use_recovery_code(&sub, &codes[0]).await.unwrap());

    s.store
        .put_second_factor(&sub, r#"{"v":1}"#, &codes)
        .await
        .unwrap();
    assert_eq!(
        s.store.second_factor(&sub).await.unwrap().as_deref(),
        Some(r#"{"v":1}"#)
    );
    assert_eq!(s.store.recovery_codes_left(&sub).await.unwrap(), 3);
    assert!(s.store.use_recovery_code(&sub, &codes[1]).await.unwrap());
    assert!(!s.store.use_recovery_code(&sub, &codes[1]).await.unwrap());
    assert_eq!(s.store.recovery_codes_left(&sub).await.unwrap(), 2);

    // A new enrolment replaces the record and every old code.
    let fresh = [Digest::of("fresh")];
    s.store
        .put_second_factor(&sub, r#"{"v":2}"#, &fresh)
        .await
        .unwrap();
    assert!(!s.store.use_recovery_code(&sub, &codes[0]).await.unwrap());
    assert_eq!(s.store.recovery_codes_left(&sub).await.unwrap(), 1);

    assert!(s.store.delete_second_factor(&sub).await.unwrap());
    assert!(!s.store.delete_second_factor(&sub).await.unwrap());
    assert_eq!(s.store.second_factor(&sub).await.unwrap(), None);
    assert_eq!(s.store.recovery_codes_left(&sub).await.unwrap(), 0);
}
