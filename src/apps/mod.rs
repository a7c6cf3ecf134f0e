//! Connected apps as a superadmin manages them: registration and the rest of an app's life,
//! when it was last used, and the app doctor's account of its recent failed requests.
//!
//! The admin API and the admin screen call [`manage`]; [`LastUsed`] and [`Doctor`] listen to
//! what the OAuth flows publish, so those flows never call back into the admin side.

pub mod doctor;
pub mod last_used;
pub mod manage;

pub use doctor::Doctor;
pub use last_used::LastUsed;
pub use manage::{Actor, AppError, Changes, NewApp};

/// What managing apps needs: the store and clock, and the audit log's settings (every change
/// is audited).
pub trait Context: crate::audit::Context {}

impl<T: crate::audit::Context> Context for T {}
