//! The token grants: a code exchanged once (with PKCE), refresh tokens rotated with reuse
//! detection, and a person who left the directory refused at refresh.

use super::{refusal, TestContext, VERIFIER};
use crate::events::{Event, Grant, Revocation};
use crate::session;

fn revoked(events: &[Event]) -> Vec<Revocation> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::GrantRevoked { reason, .. } => Some(*reason),
            _ => None,
        })
        .collect()
}

fn issued(events: &[Event]) -> Vec<(String, Grant)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TokensIssued { sub, grant, .. } => Some((sub.clone(), *grant)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_code_issued_at_a_sign_in_is_exchanged_with_its_pkce_verifier_for_tokens() {
    let cx = TestContext::new();
    let app = cx.register_app("Wiki").await;
    let (_, session) = cx.signed_in(&app, "alan", "alan-demo").await;
    let code = cx.code(&app, &session, VERIFIER).await;
    cx.take_events();

    let tokens = cx.exchange(&app, &code, VERIFIER).await.unwrap();

    assert!(cx.access_works(&tokens.access_token).await);
    assert!(tokens.id_token.is_some());
    assert_eq!(tokens.scope, "openid profile");
    assert_eq!(
        issued(&cx.take_events()),
        [("alan".to_owned(), Grant::AuthorizationCode)]
    );
}

#[tokio::test]
async fn a_code_presented_with_another_verifier_is_refused() {
    let cx = TestContext::new();
    let app = cx.register_app("Wiki").await;
    let (_, session) = cx.signed_in(&app, "alan", "alan-demo").await;
    let code = cx.code(&app, &session, VERIFIER).await;

    let other = "another-pkce-verifier-long-enough-to-be-one-of-rfc-7636";
    let refused = cx.exchange(&app, &code, other).await;

    assert_eq!(refusal(refused), "invalid_grant");
    assert!(issued(&cx.take_events()).is_empty());
}

#[tokio::test]
async fn a_code_exchanged_a_second_time_is_refused_and_its_grant_revoked() {
    let cx = TestContext::new();
    let app = cx.register_app("Wiki").await;
    let (_, session) = cx.signed_in(&app, "alan", "alan-demo").await;
    let code = cx.code(&app, &session, VERIFIER).await;
    let first = cx.exchange(&app, &code, VERIFIER).await.unwrap();
    cx.take_events();

    let second = cx.exchange(&app, &code, VERIFIER).await;

    assert_eq!(refusal(second), "invalid_grant");
    assert!(!cx.access_works(&first.access_token).await);
    let refresh = cx.refresh(&app, &first.refresh_token).await;
    assert_eq!(refusal(refresh), "invalid_grant");
    assert_eq!(revoked(&cx.take_events()), [Revocation::CodeReplayed]);
}

#[tokio::test]
async fn a_refresh_rotates_the_refresh_token_and_gives_a_working_access_token() {
    let cx = TestContext::new();
    let app = cx.register_app("Wiki").await;
    let (tokens, _) = cx.tokens(&app, "alan").await;
    cx.take_events();

    let next = cx.refresh(&app, &tokens.refresh_token).await.unwrap();

    assert_ne!(next.refresh_token, tokens.refresh_token);
    assert!(cx.access_works(&next.access_token).await);
    assert!(next.id_token.is_some());
    assert_eq!(
        issued(&cx.take_events()),
        [("alan".to_owned(), Grant::RefreshToken)]
    );
}

#[tokio::test]
async fn a_rotated_refresh_token_retried_within_the_grace_gets_the_same_successor() {
    let cx = TestContext::new();
    let app = cx.register_app("Wiki").await;
    let (tokens, _) = cx.tokens(&app, "alan").await;
    let next = cx.refresh(&app, &tokens.refresh_token).await.unwrap();
    cx.take_events();

    // A second short of the grace: the wall clock under the offset may tick meanwhile.
    cx.advance(cx.settings().tokens.refresh_grace.as_secs() - 1);
    let retried = cx.refresh(&app, &tokens.refresh_token).await.unwrap();

    assert_eq!(retried.refresh_token, next.refresh_token);
    assert_eq!(retried.access_token, next.access_token);
    assert!(cx.access_works(&next.access_token).await);
    assert!(revoked(&cx.take_events()).is_empty());
}

#[tokio::test]
async fn a_rotated_refresh_token_used_again_after_the_grace_revokes_the_grant() {
    let cx = TestContext::new();
    let app = cx.register_app("Wiki").await;
    let (tokens, _) = cx.tokens(&app, "alan").await;
    let next = cx.refresh(&app, &tokens.refresh_token).await.unwrap();
    cx.take_events();

    cx.advance_past(cx.settings().tokens.refresh_grace);
    let reused = cx.refresh(&app, &tokens.refresh_token).await;

    assert_eq!(refusal(reused), "invalid_grant");
    assert!(!cx.access_works(&next.access_token).await);
    let successor = cx.refresh(&app, &next.refresh_token).await;
    assert_eq!(refusal(successor), "invalid_grant");
    assert_eq!(revoked(&cx.take_events()), [Revocation::RefreshReused]);
}

#[tokio::test]
async fn a_person_gone_from_the_directory_at_refresh_loses_the_grant_and_their_sessions() {
    let cx = TestContext::new();
    let app = cx.register_app("Wiki").await;
    let (tokens, cookie) = cx.tokens(&app, "alan").await;
    let (other_browser, _) = cx.signed_in(&app, "alan", "alan-demo").await;
    cx.take_events();

    cx.leaves("alan");
    let refused = cx.refresh(&app, &tokens.refresh_token).await;

    assert_eq!(refusal(refused), "invalid_grant");
    assert!(!cx.access_works(&tokens.access_token).await);
    for browser in [cookie, other_browser] {
        assert!(session::load(&cx, Some(&browser)).await.unwrap().is_none());
    }
    assert_eq!(revoked(&cx.take_events()), [Revocation::UserGone]);
}
