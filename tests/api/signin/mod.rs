//! Signing people in: passwords, the second factor, limits and lockouts, the pages' languages and input bounds.

pub(crate) mod account_states;
pub(crate) mod address_groups;
pub(crate) mod bounds;
pub(crate) mod input_limits;
pub(crate) mod languages;
pub(crate) mod lockout_guard;
pub(crate) mod mfa;
pub(crate) mod mfa_admin;
pub(crate) mod mfa_helpers;
pub(crate) mod mfa_policy;
pub(crate) mod password_policy;
pub(crate) mod roles_from_groups;
pub(crate) mod unfinished_signins;
pub(crate) mod username_timing;
