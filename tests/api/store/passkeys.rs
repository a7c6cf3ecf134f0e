//! The passkey part of the store contract, on both backends: passkeys filed per person and
//! found by credential id, each id registered once, changes and removals only by the owner;
//! ceremony states taken once.

use super::fixtures::Subject;
use sso_bridge::domain::secret::random_id;
use sso_bridge::store::{PasskeyAdded, PasskeyRecord};

on_both_backends!(
    passkeys_are_added_listed_oldest_first_and_found_by_credential_id,
    a_credential_id_is_registered_once_and_a_person_holds_at_most_the_limit,
    only_the_owner_changes_or_removes_a_passkey,
    removing_every_passkey_of_a_person_frees_their_credential_ids,
    a_ceremony_state_is_taken_once_and_expires,
);

fn passkey(name: &str, created_at: u64) -> PasskeyRecord {
    PasskeyRecord {
        id: random_id(32),
        name: name.into(),
        user_handle: random_id(16),
        credential: r#"{"public":"key"}"#.into(),
        created_at,
        last_used_at: None,
    }
}

async fn passkeys_are_added_listed_oldest_first_and_found_by_credential_id(s: Subject) {
    let sub = random_id(8);
    let (newer, older) = (passkey("Phone", 200), passkey("Laptop", 100));
    for record in [&newer, &older] {
        let added = s.store.add_passkey(&sub, record, 10).await.unwrap();
        assert_eq!(added, PasskeyAdded::Added);
    }

    assert_eq!(
        s.store.passkeys(&sub).await.unwrap(),
        vec![older.clone(), newer.clone()]
    );
    assert_eq!(
        s.store.passkey_owner(&older.id).await.unwrap(),
        Some(sub.clone())
    );
    assert_eq!(s.store.passkey_owner(&random_id(32)).await.unwrap(), None);
    assert!(s.store.passkeys(&random_id(8)).await.unwrap().is_empty());
}

async fn a_credential_id_is_registered_once_and_a_person_holds_at_most_the_limit(s: Subject) {
    let (ada, grace) = (random_id(8), random_id(8));
    let first = passkey("Key", 1);
    s.store.add_passkey(&ada, &first, 2).await.unwrap();

    assert_eq!(
        s.store.add_passkey(&grace, &first, 2).await.unwrap(),
        PasskeyAdded::Taken
    );
    assert_eq!(
        s.store.add_passkey(&ada, &first, 2).await.unwrap(),
        PasskeyAdded::Taken
    );
    let second = passkey("Phone", 2);
    assert_eq!(
        s.store.add_passkey(&ada, &second, 2).await.unwrap(),
        PasskeyAdded::Added
    );
    let third = passkey("Laptop", 3);
    assert_eq!(
        s.store.add_passkey(&ada, &third, 2).await.unwrap(),
        PasskeyAdded::Full
    );
    assert_eq!(s.store.passkey_owner(&third.id).await.unwrap(), None);
    assert!(s.store.passkeys(&grace).await.unwrap().is_empty());
}

async fn only_the_owner_changes_or_removes_a_passkey(s: Subject) {
    let (ada, grace) = (random_id(8), random_id(8));
    let mut record = passkey("Key", 1);
    s.store.add_passkey(&ada, &record, 10).await.unwrap();
    record.name = "Renamed".into();
    record.last_used_at = Some(5);

    assert!(!s.store.update_passkey(&grace, &record).await.unwrap());
    assert!(!s.store.delete_passkey(&grace, &record.id).await.unwrap());
    assert!(s.store.update_passkey(&ada, &record).await.unwrap());
    assert_eq!(s.store.passkeys(&ada).await.unwrap(), vec![record.clone()]);
    assert!(s.store.delete_passkey(&ada, &record.id).await.unwrap());
    assert!(!s.store.delete_passkey(&ada, &record.id).await.unwrap());
    assert!(!s.store.update_passkey(&ada, &record).await.unwrap());
    assert!(s.store.passkeys(&ada).await.unwrap().is_empty());
    assert_eq!(s.store.passkey_owner(&record.id).await.unwrap(), None);
}

async fn removing_every_passkey_of_a_person_frees_their_credential_ids(s: Subject) {
    let (ada, grace) = (random_id(8), random_id(8));
    let (a, b, g) = (passkey("A", 1), passkey("B", 2), passkey("G", 3));
    s.store.add_passkey(&ada, &a, 10).await.unwrap();
    s.store.add_passkey(&ada, &b, 10).await.unwrap();
    s.store.add_passkey(&grace, &g, 10).await.unwrap();

    assert_eq!(s.store.delete_passkeys(&ada).await.unwrap(), 2);

    assert!(s.store.passkeys(&ada).await.unwrap().is_empty());
    assert_eq!(s.store.passkey_owner(&a.id).await.unwrap(), None);
    assert_eq!(
        s.store.passkey_owner(&g.id).await.unwrap(),
        Some(grace.clone())
    );
    assert_eq!(s.store.delete_passkeys(&ada).await.unwrap(), 0);
    assert_eq!(
        s.store.add_passkey(&grace, &a, 10).await.unwrap(),
        PasskeyAdded::Added
    );
}

async fn a_ceremony_state_is_taken_once_and_expires(s: Subject) {
    let (key, ttl) = (format!("flow:{}", random_id(8)), s.short_ttl());
    // Long enough that a stalled machine still finds it; the short one is for the expiry below.
    s.store.put_ceremony(&key, "first", 60).await.unwrap();
    s.store.put_ceremony(&key, "second", 60).await.unwrap();

    let takers = (0..10).map(|_| {
        let (store, key) = (s.store.clone(), key.clone());
        tokio::spawn(async move { store.take_ceremony(&key).await.unwrap() })
    });
    let mut taken = Vec::new();
    for taker in takers.collect::<Vec<_>>() {
        taken.extend(taker.await.unwrap());
    }
    assert_eq!(taken, ["second"]);

    s.store.put_ceremony(&key, "third", ttl).await.unwrap();
    s.outlive(ttl).await;
    assert_eq!(s.store.take_ceremony(&key).await.unwrap(), None);
}
