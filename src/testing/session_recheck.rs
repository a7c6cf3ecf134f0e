//! The session's directory re-check: trusted for `session.directory_recheck_secs`, then
//! confirmed by the directory again, and a person gone from it signed out.

use super::TestContext;
use crate::clock::HasClock;
use crate::session;

#[tokio::test]
async fn within_the_recheck_bound_a_session_is_trusted_without_asking_the_directory() {
    let cx = TestContext::new();
    let app = cx.register_app("Wiki").await;
    let (cookie, session) = cx.signed_in(&app, "alan", "alan-demo").await;
    let bound = cx.settings().session.directory_recheck;

    cx.leaves("alan");
    // A second short of the bound: the wall clock under the offset may tick meanwhile.
    cx.advance(bound.as_secs() - 1);
    let current = session::current(&cx, Some(&cookie)).await.unwrap();

    let current = current.expect("the session is still trusted");
    assert_eq!(current.claims.sub(), "alan");
    assert_eq!(current.checked_at, session.checked_at);
}

#[tokio::test]
async fn after_the_recheck_bound_a_person_still_in_the_directory_is_confirmed_again() {
    let cx = TestContext::new();
    let app = cx.register_app("Wiki").await;
    let (cookie, _) = cx.signed_in(&app, "alan", "alan-demo").await;

    cx.advance_past(cx.settings().session.directory_recheck);
    let current = session::current(&cx, Some(&cookie)).await.unwrap();

    let current = current.expect("the session goes on");
    assert_eq!(current.checked_at, Some(cx.now()));
    let stored = session::load(&cx, Some(&cookie)).await.unwrap().unwrap();
    assert_eq!(stored.checked_at, current.checked_at);
}

#[tokio::test]
async fn after_the_recheck_bound_a_person_gone_from_the_directory_is_signed_out_everywhere() {
    let cx = TestContext::new();
    let app = cx.register_app("Wiki").await;
    let (cookie, _) = cx.signed_in(&app, "alan", "alan-demo").await;
    let (other_browser, _) = cx.signed_in(&app, "alan", "alan-demo").await;

    cx.leaves("alan");
    cx.advance_past(cx.settings().session.directory_recheck);
    let current = session::current(&cx, Some(&cookie)).await.unwrap();

    assert!(current.is_none());
    for browser in [cookie, other_browser] {
        assert!(session::load(&cx, Some(&browser)).await.unwrap().is_none());
    }
}
