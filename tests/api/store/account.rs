//! What a person's account page reads and changes, on both backends: their sessions, their
//! approvals, their grants and when each app was used for them, never anyone else's.

use super::fixtures::{code_record_in, issuance, session_record, Subject};
use sso_bridge::domain::secret::random_id;
use sso_bridge::domain::{Claims, ClientId, Digest, ScopeSet};
use sso_bridge::store::*;
use std::collections::BTreeMap;

on_both_backends!(
    a_persons_sessions_are_listed_with_their_keys_and_only_theirs,
    approvals_are_listed_for_the_apps_asked_about_and_forgotten_one_by_one,
    a_persons_live_grants_are_listed_with_their_newest_refresh_token,
    an_apps_use_keeps_its_first_time_and_is_forgotten_per_person,
);

async fn a_persons_sessions_are_listed_with_their_keys_and_only_theirs(s: Subject) {
    let (one, two, alans) = (Digest::of("one"), Digest::of("two"), Digest::of("alan's"));
    let ken = session_record(s.now(), "ken");
    let ken_too = SessionRecord {
        device: Some(Device {
            user_agent: Some("Firefox/128.0".into()),
            address: Some("192.0.2.7".into()),
        }),
        ..session_record(s.now(), "ken")
    };
    s.store.put_session(&one, &ken, 600).await.unwrap();
    s.store.put_session(&two, &ken_too, 600).await.unwrap();
    s.store
        .put_session(&alans, &session_record(s.now(), "alan"), 600)
        .await
        .unwrap();
    s.store.delete_session(&one).await.unwrap();

    let listed = s.store.user_sessions("ken").await.unwrap();

    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].0.as_hex(), two.as_hex());
    assert_eq!(listed[0].1, ken_too);
    assert!(s.store.user_sessions("nobody").await.unwrap().is_empty());
}

async fn approvals_are_listed_for_the_apps_asked_about_and_forgotten_one_by_one(s: Subject) {
    let (a, b, c) = (
        ClientId::generate(),
        ClientId::generate(),
        ClientId::generate(),
    );
    let scopes = ScopeSet::parse("openid email").unwrap();
    s.store.put_consent("ken", &a, &scopes, 600).await.unwrap();
    s.store.put_consent("ken", &b, &scopes, 600).await.unwrap();
    s.store.put_consent("alan", &c, &scopes, 600).await.unwrap();

    let asked = [a.clone(), b.clone(), c.clone()];
    let mut listed = s.store.consents("ken", &asked).await.unwrap();
    listed.sort_by(|x, y| x.0.as_str().cmp(y.0.as_str()));
    let mut expected = vec![(a.clone(), scopes.clone()), (b.clone(), scopes.clone())];
    expected.sort_by(|x, y| x.0.as_str().cmp(y.0.as_str()));
    assert_eq!(listed, expected);

    assert!(s.store.delete_consent("ken", &a).await.unwrap());
    assert!(!s.store.delete_consent("ken", &a).await.unwrap());
    assert!(!s.store.delete_consent("ken", &c).await.unwrap());
    assert_eq!(
        s.store.consents("ken", &asked).await.unwrap(),
        vec![(b, scopes.clone())]
    );
    assert_eq!(s.store.consent("alan", &c).await.unwrap(), Some(scopes));
    assert!(s.store.consents("ken", &[]).await.unwrap().is_empty());
}

/// Redeems a fresh code of `sub` for a fresh app under the grant `grant`.
async fn grant_of(s: &Subject, sub: &str, grant: &str) -> Issuance {
    let mut record = code_record_in(s.store.as_ref(), s.now()).await;
    record.claims = Claims::new(BTreeMap::from([("sub".to_string(), sub.to_string())])).unwrap();
    record.sid = Some(random_id(16));
    let code = Digest::of(&random_id(32));
    s.store.put_code(&code, &record, 60).await.unwrap();
    let issue = issuance(grant, &record, 3600);
    assert_eq!(
        s.store.redeem_code(&code, &issue).await.unwrap(),
        Redemption::Issued
    );
    issue
}

async fn a_persons_live_grants_are_listed_with_their_newest_refresh_token(s: Subject) {
    let first = grant_of(&s, "ken", "g-ken-1").await;
    let second = grant_of(&s, "ken", "g-ken-2").await;
    grant_of(&s, "alan", "g-alan").await;
    let mut rotated = issuance("g-ken-1", &code_like(&first), 3600);
    rotated.refresh.scopes = ScopeSet::parse("openid").unwrap();
    let rotation = s
        .store
        .rotate_refresh(&first.refresh_digest, &rotated, "sealed", s.now(), 5)
        .await
        .unwrap();
    assert_eq!(rotation, Rotation::Rotated);
    s.store.revoke_grant("g-ken-2").await.unwrap();

    let listed = s.store.user_grants("ken").await.unwrap();

    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0].grant_id, "g-ken-1");
    assert_eq!(listed[0].refresh, rotated.refresh, "the newest token");
    assert_ne!(listed[0].refresh.client_id, second.refresh.client_id);
    assert!(s.store.user_grants("nobody").await.unwrap().is_empty());
}

/// The code record `issue` was made from, near enough to make another issuance of its grant.
fn code_like(issue: &Issuance) -> CodeRecord {
    CodeRecord {
        client_id: issue.access.client_id.clone(),
        redirect_uri: "https://app.example.com/callback".into(),
        scopes: issue.refresh.scopes.clone(),
        claims: issue.access.claims.clone(),
        code_challenge: None,
        auth_time: issue.refresh.auth_time,
        expires_at: issue.refresh.auth_time + 60,
        nonce: None,
        amr: issue.refresh.amr.clone(),
        sid: issue.refresh.sid.clone(),
    }
}

async fn an_apps_use_keeps_its_first_time_and_is_forgotten_per_person(s: Subject) {
    let (app, other) = (ClientId::generate(), ClientId::generate());
    s.store.mark_app_use("ken", &app, 1_000, 600).await.unwrap();
    s.store.mark_app_use("ken", &app, 2_000, 600).await.unwrap();
    s.store
        .mark_app_use("alan", &app, 1_500, 600)
        .await
        .unwrap();

    let asked = [app.clone(), other.clone()];
    let used = s.store.app_uses("ken", &asked).await.unwrap();
    assert_eq!(
        used,
        vec![(
            app.clone(),
            AppUse {
                first: 1_000,
                last: 2_000
            }
        )]
    );

    s.store.forget_app_use("ken", &app).await.unwrap();
    assert!(s.store.app_uses("ken", &asked).await.unwrap().is_empty());
    assert_eq!(s.store.app_uses("alan", &asked).await.unwrap().len(), 1);
}
