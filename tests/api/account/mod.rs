//! The staff account page: apps, sessions, second factors, recent activity, and who may touch what.

pub(crate) mod page;
pub(crate) mod two_step;
