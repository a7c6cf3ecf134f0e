//! Connected apps as a superadmin manages them: registration and the rest of an app's life,
//! when it was last used, and the app doctor's account of its recent failed requests.
//!
//! The admin API and the admin screen call [`manage`]; [`LastUsed`] and [`Doctor`] listen to
//! what the OAuth flows publish, so those flows never call back into the admin side.
//! [`Origins`] keeps every app's browser origins in memory for the CORS answers.

pub mod doctor;
pub mod last_used;
pub mod manage;
pub mod origins;

pub use doctor::Doctor;
pub use last_used::LastUsed;
pub use manage::{Actor, AppError, Changes, NewApp};
pub use origins::{Origins, OriginsListener};

use crate::clock::HasClock;
use crate::domain::SigningAlg;
use crate::events::HasEvents;
use crate::store::HasStore;

/// What managing apps needs: the store and clock, the event bus (every change is published, and
/// so audited), and which id_token algorithms the service can sign with (an app may be
/// registered only for one of them).
pub trait Context: HasStore + HasClock + HasEvents + Sync {
    /// The id_token signing algorithms the service holds a key for, its default first.
    fn id_token_algs(&self) -> &[SigningAlg];
}
