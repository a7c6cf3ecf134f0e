//! App management: register, update, rotate the secret, disable, delete; changes made at the
//! same moment all kept, and every change published.

use super::{new_app, refusal, TestContext, ADA};
use crate::apps::manage::{self, Changes};
use crate::apps::{Actor, AppError, NewApp};
use crate::domain::audit::Action;
use crate::events::Event;
use crate::oauth::client_auth;

/// The app changes published, as (action, by, detail).
fn changes(events: &[Event]) -> Vec<(Action, String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::AppChanged {
                action, by, detail, ..
            } => Some((*action, by.clone(), detail.clone())),
            _ => None,
        })
        .collect()
}

fn actions(events: &[Event]) -> Vec<Action> {
    changes(events).into_iter().map(|(a, _, _)| a).collect()
}

#[tokio::test]
async fn a_confidential_app_is_registered_with_a_secret_shown_once_and_pkce_required() {
    let cx = TestContext::new();

    let (app, secret) = manage::create(&cx, ADA, new_app("Wiki")).await.unwrap();

    assert!(app.require_pkce);
    assert!(app.enabled);
    let secret = secret.expect("a confidential app gets a secret");
    assert_eq!(app.secret_digest, Some(secret.digest()));
    assert_eq!(
        manage::find(&cx, app.client_id.as_str()).await.unwrap(),
        app
    );
    assert_eq!(
        changes(&cx.take_events()),
        [(
            Action::AppCreated,
            "ada".to_owned(),
            "registered `Wiki` (confidential)".to_owned()
        )]
    );
}

#[tokio::test]
async fn a_public_app_requires_pkce_even_when_registered_without_it() {
    let cx = TestContext::new();
    let public = NewApp {
        public: true,
        require_pkce: false,
        ..new_app("Phone")
    };

    let (app, secret) = manage::create(&cx, ADA, public).await.unwrap();

    assert!(app.require_pkce);
    assert!(secret.is_none());
}

#[tokio::test]
async fn an_update_changes_what_it_names_and_publishes_what_changed() {
    let cx = TestContext::new();
    let app = cx.register_app("Wiki").await;
    let id = app.record.client_id.as_str();
    cx.take_events();

    let changed = Changes {
        name: Some("Team wiki".into()),
        ..Changes::default()
    };
    let updated = manage::update(&cx, ADA, id, changed).await.unwrap();

    assert_eq!(updated.name, "Team wiki");
    assert_eq!(updated.redirect_uris, app.record.redirect_uris);
    assert_eq!(manage::find(&cx, id).await.unwrap(), updated);
    assert_eq!(
        changes(&cx.take_events()),
        [(
            Action::AppUpdated,
            "ada".to_owned(),
            "name `Wiki` → `Team wiki`".to_owned()
        )]
    );
}

#[tokio::test]
async fn rotating_the_secret_lets_the_new_one_in_and_not_the_old_one() {
    let cx = TestContext::new();
    let mut app = cx.register_app("Wiki").await;
    let old = app.credentials();
    cx.take_events();

    let (_, secret) = manage::rotate_secret(&cx, ADA, app.record.client_id.as_str())
        .await
        .unwrap();
    app.secret = secret;

    let refused = client_auth::authenticate(&cx, old).await.unwrap_err();
    assert_eq!(refused.error.code(), "invalid_client");
    assert!(client_auth::authenticate(&cx, app.credentials())
        .await
        .is_ok());
    assert_eq!(actions(&cx.take_events()), [Action::SecretRotated]);
}

#[tokio::test]
async fn disabling_an_app_revokes_its_tokens_and_refuses_it_at_the_token_endpoint() {
    let cx = TestContext::new();
    let app = cx.register_app("Wiki").await;
    let (tokens, _) = cx.tokens(&app, "alan").await;
    cx.take_events();

    manage::set_enabled(&cx, ADA, app.record.client_id.as_str(), false)
        .await
        .unwrap();

    assert!(!cx.access_works(&tokens.access_token).await);
    let refresh = cx.refresh(&app, &tokens.refresh_token).await;
    assert_eq!(refusal(refresh), "invalid_client");
    assert_eq!(actions(&cx.take_events()), [Action::AppDisabled]);
}

#[tokio::test]
async fn deleting_an_app_revokes_its_tokens_and_forgets_it() {
    let cx = TestContext::new();
    let app = cx.register_app("Wiki").await;
    let id = app.record.client_id.as_str();
    let (tokens, _) = cx.tokens(&app, "alan").await;
    cx.take_events();

    manage::delete(&cx, ADA, id).await.unwrap();

    assert!(!cx.access_works(&tokens.access_token).await);
    assert!(matches!(
        manage::find(&cx, id).await,
        Err(AppError::NotFound(_))
    ));
    assert_eq!(actions(&cx.take_events()), [Action::AppDeleted]);
}

#[tokio::test]
async fn two_changes_to_one_app_made_at_the_same_moment_are_both_kept() {
    let cx = TestContext::new();
    let app = cx.register_app("Wiki").await;
    let id = app.record.client_id.as_str();
    let rename = Changes {
        name: Some("Team wiki".into()),
        ..Changes::default()
    };
    let introspect = Changes {
        may_introspect: Some(true),
        ..Changes::default()
    };
    cx.take_events();

    let (a, b) = tokio::join!(
        manage::update(&cx, ADA, id, rename),
        manage::update(&cx, ADA, id, introspect),
    );
    a.unwrap();
    b.unwrap();

    let stored = manage::find(&cx, id).await.unwrap();
    assert_eq!(stored.name, "Team wiki");
    assert!(stored.may_introspect);
    assert_eq!(stored.revision, 2);
    let published = actions(&cx.take_events());
    assert_eq!(published, [Action::AppUpdated, Action::AppUpdated]);
}

#[tokio::test]
async fn every_step_of_an_apps_life_is_published_with_who_made_it_and_from_where() {
    let cx = TestContext::new();
    let grace = Actor {
        sub: "grace",
        address: Some("192.0.2.7"),
    };

    let (app, _) = manage::create(&cx, grace, new_app("Wiki")).await.unwrap();
    let id = app.client_id.as_str();
    let changed = Changes {
        require_pkce: Some(false),
        ..Changes::default()
    };
    manage::update(&cx, grace, id, changed).await.unwrap();
    manage::rotate_secret(&cx, grace, id).await.unwrap();
    manage::set_enabled(&cx, grace, id, false).await.unwrap();
    manage::set_enabled(&cx, grace, id, true).await.unwrap();
    manage::delete(&cx, grace, id).await.unwrap();

    let events = cx.take_events();
    assert_eq!(
        actions(&events),
        [
            Action::AppCreated,
            Action::AppUpdated,
            Action::SecretRotated,
            Action::AppDisabled,
            Action::AppEnabled,
            Action::AppDeleted,
        ]
    );
    let by_grace_from_her_address = events.iter().all(|e| {
        matches!(e, Event::AppChanged { by, address, client_id, .. }
            if by == "grace" && address.as_deref() == Some("192.0.2.7") && client_id == &app.client_id)
    });
    assert!(by_grace_from_her_address, "{events:?}");
}
