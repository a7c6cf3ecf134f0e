//! Administering: the admin API, screen and CLI, app registration, access rules, the audit log.

pub(crate) mod admin_api;
pub(crate) mod admin_policy;
pub(crate) mod app_access;
pub(crate) mod app_doctor;
pub(crate) mod app_management;
pub(crate) mod audit;
pub(crate) mod audit_search;
pub(crate) mod screen;
pub(crate) mod sign_out_everywhere;
