//! Outcomes the flows publish and other parts listen to: the audit log, the app doctor, the
//! apps' "last used" marks and the metrics.
//!
//! A flow says what happened and moves on; it does not know who listens. Listeners are called in
//! turn, awaited before [`Events::publish`] returns, so an event is written before the response
//! that caused it leaves. A listener never fails the request: it logs its own errors.

use crate::domain::audit::Action;
use crate::domain::ClientId;
use async_trait::async_trait;
use std::sync::Arc;

/// Something that happened, in the words of the flow that saw it. Never holds a secret: no
/// password, code, token or client secret has a field here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Tokens were handed to an app.
    TokensIssued {
        /// The app.
        client_id: ClientId,
        /// The user.
        sub: String,
        /// How: a code exchange or a refresh.
        grant: Grant,
        /// Scopes of the access token.
        scope: String,
        /// The caller's address.
        address: Option<String>,
    },
    /// Every token of a grant was revoked.
    GrantRevoked {
        /// The app.
        client_id: ClientId,
        /// The user.
        sub: String,
        /// Why.
        reason: Revocation,
        /// The caller's address, when a request caused it.
        address: Option<String>,
    },
    /// The token endpoint refused a request (a client error, not an outage).
    TokenRefused {
        /// The client id as sent, which may name no app.
        client_id: Option<String>,
        /// Whether the credentials came in an `Authorization: Basic` header.
        via_basic: bool,
        /// Whether the request proved it came from the app: it authenticated with the app's
        /// secret. Anyone can send the rest, naming any client id.
        verified: bool,
        /// Why, as the flow that refused it knows.
        reason: Refusal,
        /// The OAuth error code sent back.
        error: &'static str,
        /// The description sent back (it may hold text the request sent).
        description: String,
    },
    /// The authorize endpoint refused a request. Anyone can send one, naming any client id:
    /// nothing in it is proven to come from the app.
    AuthorizeRefused {
        /// The client id as sent, which may name no app.
        client_id: Option<String>,
        /// The redirect URI as sent.
        redirect_uri: Option<String>,
        /// Why, as the flow that refused it knows.
        reason: Refusal,
        /// The OAuth error code and description sent back to the app, when one was (the
        /// description may hold text the request sent).
        error: Option<(&'static str, String)>,
    },
    /// A person signed in with a password, or failed to.
    SignIn {
        /// At the sign-in page of an app's flow, the admin screen or API, or the second-factor
        /// set-up of the admin API.
        place: Place,
        /// The subject on success; the name as typed on failure.
        who: String,
        /// The app whose flow it was.
        client_id: Option<ClientId>,
        /// The caller's address.
        address: Option<String>,
        /// How it went.
        outcome: SignInOutcome,
    },
    /// A second-factor code was refused (wrong, or already used).
    SecondFactorRefused {
        /// The user.
        sub: String,
        /// The app whose flow it was.
        client_id: Option<ClientId>,
        /// The caller's address.
        address: Option<String>,
        /// Why, in plain words.
        reason: String,
    },
    /// A second-factor code was checked, whatever the outcome (the page, the admin screen and
    /// the admin API all check through one function).
    SecondFactorChecked {
        /// The user.
        sub: String,
        /// How it went.
        outcome: SecondFactorOutcome,
    },
    /// A user set up a second factor.
    SecondFactorEnrolled {
        /// The user.
        sub: String,
        /// Whether it replaced an authenticator they had (which stopped working with it).
        replaced: bool,
    },
    /// A person added a passkey.
    PasskeyAdded {
        /// The person.
        sub: String,
        /// The name they gave it.
        name: String,
    },
    /// A person removed one of their passkeys.
    PasskeyRemoved {
        /// The person.
        sub: String,
        /// Its name.
        name: String,
    },
    /// A user signed in with a recovery code.
    RecoveryCodeUsed {
        /// The user.
        sub: String,
        /// How many unspent codes are left.
        left: u64,
    },
    /// Attempts for an account or address were refused for the first time in a window.
    Lockout {
        /// The account as typed.
        account: String,
        /// The caller's address.
        address: Option<String>,
        /// Which counter is over its limit (`password:<account>`, `addr:<ip>`,
        /// `addr:<ipv6 network>/64`...).
        counter: String,
        /// The kind of that counter: `account`, `ipv4`, `ipv6_64` or `ipv6_48`.
        group: &'static str,
    },
    /// A person was refused an app: it is only for some roles or groups, and they hold none.
    AccessDenied {
        /// The person.
        sub: String,
        /// The app.
        client_id: ClientId,
        /// The caller's address.
        address: Option<String>,
        /// Where: `sign-in` (after the sign-in), `single sign-on` or `refresh`.
        at: &'static str,
    },
    /// A person signed out of a browser: of single sign-on (RP-initiated logout), or of the
    /// admin screen.
    SignedOut {
        /// The user.
        sub: String,
        /// Where: the sign-on pages (`App`) or the admin screen (`Admin`).
        place: Place,
        /// The app that asked for the logout, when one did.
        client_id: Option<ClientId>,
        /// The caller's address.
        address: Option<String>,
    },
    /// A superadmin signed a person out everywhere: every session, grant and admin sign-in.
    SignedOutEverywhere {
        /// The superadmin.
        by: String,
        /// Where the request came from.
        address: Option<String>,
        /// The person, by subject.
        sub: String,
        /// SSO sessions ended.
        sessions: u64,
        /// Grants revoked.
        grants: u64,
        /// Admin tokens and admin sign-ins ended.
        admin_sessions: u64,
    },
    /// A superadmin removed a person's second factor (and so their admin sign-ins).
    SecondFactorReset {
        /// The superadmin.
        by: String,
        /// Where the request came from.
        address: Option<String>,
        /// The person, by subject.
        sub: String,
        /// Admin tokens and admin sign-ins ended with it.
        admin_sessions: u64,
    },
    /// A superadmin registered, changed, disabled, enabled or deleted an app, or rotated its
    /// secret.
    AppChanged {
        /// What was done (`AppCreated`, `AppUpdated`, `SecretRotated`, ...).
        action: Action,
        /// The superadmin.
        by: String,
        /// Where the request came from.
        address: Option<String>,
        /// The app.
        client_id: ClientId,
        /// What changed, in plain words.
        detail: String,
    },
    /// A person changed their own account on their account page: took an app back, ended a
    /// session, changed a second factor.
    AccountChanged {
        /// What was done (`AppRemoved`, `SessionEnded`, ...).
        action: Action,
        /// The person.
        sub: String,
        /// Where the request came from.
        address: Option<String>,
        /// The app concerned, when one is.
        client_id: Option<ClientId>,
        /// What changed, in plain words.
        detail: String,
    },
    /// An authorize request that shows a page was kept (or refused: the store was full), and
    /// this is what all unfinished sign-ins keep now.
    PendingLoad {
        /// Requests kept.
        requests: u64,
        /// Bytes kept.
        bytes: u64,
        /// The most requests the store may keep.
        max_requests: u64,
        /// The most bytes the store may keep.
        max_bytes: u64,
    },
    /// A back-channel logout (OpenID Connect Back-Channel Logout 1.0) was queued for an app,
    /// or an attempt to deliver one ended.
    BackchannelLogout {
        /// The app told.
        client_id: ClientId,
        /// The person signed out.
        sub: String,
        /// What happened.
        outcome: LogoutOutcome,
    },
    /// A password or second-factor attempt failed, and counts against the limits.
    AttemptFailed {
        /// What was guessed.
        guess: Guess,
        /// The kinds of counter it counts in (`account`, `ipv4`, `ipv6_64`, `ipv6_48`).
        counters: Vec<&'static str>,
    },
}

/// What became of a back-channel logout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogoutOutcome {
    /// Queued, to be sent by whichever node claims it first.
    Queued,
    /// The app answered 2xx.
    Delivered {
        /// The HTTP status.
        status: u16,
    },
    /// An attempt failed (a 5xx, no answer in time, no connection): it is tried again later.
    Retrying {
        /// Attempts so far.
        attempt: u32,
        /// What went wrong, in plain words.
        problem: String,
        /// Seconds until the next attempt.
        retry_in: u64,
    },
    /// The app refused it (a 4xx, or a redirect, which is not followed): not tried again.
    Refused {
        /// The HTTP status.
        status: u16,
        /// The start of the answer's body, as the app sent it (data, never advice).
        said: String,
    },
    /// Attempts failed for as long as a logout is retried: given up.
    GaveUp {
        /// Attempts made.
        attempts: u32,
        /// What went wrong last, in plain words.
        problem: String,
    },
    /// Not sent: the app was deleted, or no longer has a back-channel logout URI.
    Dropped,
}

impl LogoutOutcome {
    /// The outcome as a word, for metric labels.
    pub fn as_str(&self) -> &'static str {
        match self {
            LogoutOutcome::Queued => "queued",
            LogoutOutcome::Delivered { .. } => "delivered",
            LogoutOutcome::Retrying { .. } => "retrying",
            LogoutOutcome::Refused { .. } => "refused",
            LogoutOutcome::GaveUp { .. } => "gave_up",
            LogoutOutcome::Dropped => "dropped",
        }
    }
}

/// What an attempt under the limits guesses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guess {
    /// A directory password.
    Password,
    /// A second-factor code (TOTP or recovery code).
    Otp,
    /// A passkey's answer at a passwordless sign-in, counted by address only: no account is
    /// known until it is checked.
    Passkey,
}

impl Guess {
    /// Every kind, for the metrics that show each from the start.
    pub const ALL: [Guess; 3] = [Guess::Password, Guess::Otp, Guess::Passkey];

    /// Whether it counts against the account guessed, as `signin::limits::begin` counts it: a
    /// passkey's answer names no account until it is checked, so it counts against the
    /// address alone.
    pub fn counts_by_account(self) -> bool {
        !matches!(self, Guess::Passkey)
    }

    /// The guess as a word, for counter keys and metric labels.
    pub fn as_str(self) -> &'static str {
        match self {
            Guess::Password => "password",
            Guess::Otp => "otp",
            Guess::Passkey => "passkey",
        }
    }
}

/// How tokens were obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    /// `grant_type=authorization_code`.
    AuthorizationCode,
    /// `grant_type=refresh_token`.
    RefreshToken,
}

/// Why a grant's tokens were revoked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revocation {
    /// Its authorization code was redeemed a second time (RFC 6749 §4.1.2).
    CodeReplayed,
    /// A rotated refresh token was used again (RFC 9700 §4.14.2).
    RefreshReused,
    /// The user is no longer in the directory, or is disabled or expired there.
    UserGone,
    /// The user may no longer use the app (their role or groups, or the app's list, changed).
    AccessRemoved,
    /// The app revoked one of its tokens (RFC 7009); `refresh` tells which kind it presented.
    ByApp {
        /// A refresh token (else an access token).
        refresh: bool,
    },
}

/// Where a password sign-in happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// The sign-in page of an app's authorize flow.
    App,
    /// The admin screen or admin API.
    Admin,
    /// The admin API's second-factor set-up, where any account enrols without a browser.
    SecondFactorSetup,
}

/// How a sign-in went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignInOutcome {
    /// Signed in.
    Succeeded,
    /// Refused, for this reason in plain words.
    Failed(String),
}

/// How a second-factor check went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecondFactorOutcome {
    /// A code of the enrolled authenticator was accepted.
    Code,
    /// A recovery code was accepted.
    RecoveryCode,
    /// One of the person's passkeys was accepted.
    Passkey,
    /// The code was wrong.
    Wrong,
    /// The code was right but already used.
    Replayed,
}

/// Why a token or authorize request was refused, named by the flow that refused it, so that
/// listeners (the app doctor) never have to read it out of a description that may hold text
/// the request sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The client secret was wrong, or the client unknown.
    WrongSecret,
    /// Credentials came both in the Basic header and in the body.
    CredentialsTwice,
    /// A confidential app sent no secret.
    SecretMissing,
    /// A public app sent a secret.
    SecretFromPublicApp,
    /// The app is disabled.
    AppDisabled,
    /// The code was already exchanged.
    CodeReplayed,
    /// The code is unknown or expired.
    CodeExpired,
    /// A rotated refresh token was used again.
    RefreshReplayed,
    /// PKCE missing, malformed or not matching.
    Pkce,
    /// The token request's redirect URI is not the authorize request's.
    RedirectUriDiffers,
    /// An unknown scope, or a refresh asking for more than the grant.
    Scope,
    /// Anything else: the description says what.
    Other,
}

/// Someone who wants to know what happened.
#[async_trait]
pub trait Listener: Send + Sync + 'static {
    /// Takes note of `event`. Errors are the listener's to log: the request goes on.
    async fn on(&self, event: &Event);
}

/// Where flows publish events: every listener hears every event, in the order they were added.
#[derive(Default, Clone)]
pub struct Events {
    listeners: Vec<Arc<dyn Listener>>,
}

impl Events {
    /// A bus with these listeners.
    pub fn new(listeners: Vec<Arc<dyn Listener>>) -> Self {
        Self { listeners }
    }

    /// Tells every listener, one after the other.
    pub async fn publish(&self, event: Event) {
        for listener in &self.listeners {
            listener.on(&event).await;
        }
    }
}

/// A context that can publish events: what a flow's context declares when it has news.
pub trait HasEvents {
    /// The bus.
    fn events(&self) -> &Events;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Recorder(Mutex<Vec<Event>>);

    #[async_trait]
    impl Listener for Recorder {
        async fn on(&self, event: &Event) {
            if let Ok(mut seen) = self.0.lock() {
                seen.push(event.clone());
            }
        }
    }

    #[tokio::test]
    async fn every_listener_hears_every_event_in_order() {
        let (a, b) = (Arc::new(Recorder::default()), Arc::new(Recorder::default()));
        let events = Events::new(vec![a.clone(), b.clone()]);
        let first = Event::SecondFactorEnrolled {
            sub: "ada".into(),
            replaced: false,
        };
        let second = Event::RecoveryCodeUsed {
            sub: "ada".into(),
            left: 9,
        };
        events.publish(first.clone()).await;
        events.publish(second.clone()).await;
        for recorder in [a, b] {
            assert_eq!(
                *recorder.0.lock().unwrap(),
                vec![first.clone(), second.clone()]
            );
        }
    }
}
