//! Wording that more than one page shows, so the sign-in pages and the admin screen put the
//! same situation in the same words.

/// Message of a lockout (the same for every account, known or not).
pub const LOCKED: &str = "Too many attempts. Wait a few minutes and try again.";
