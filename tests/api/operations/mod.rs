//! Running it: nodes, Redis high availability, metrics, logs, probes, proxies, outages,
//! upgrades.

pub(crate) mod compose;
pub(crate) mod logging;
pub(crate) mod metrics;
pub(crate) mod nodes;
pub(crate) mod outages;
pub(crate) mod proxies;
pub(crate) mod readiness;
pub(crate) mod redis_ha;
pub(crate) mod service;
pub(crate) mod shutdown;
pub(crate) mod upgrades;
