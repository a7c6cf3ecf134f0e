//! The Prometheus metrics: every family registered once at start-up, label values chosen from
//! fixed sets (route patterns, outcomes, operation names), never a username, token or secret.
//!
//! Recording is an atomic add (a short lock for histograms) under a read lock on the family;
//! label sets are small structs of `&'static str`, so nothing is allocated per request. Pool
//! gauges are read from the backends when scraped.

use crate::domain::PoolUsage;
use crate::events::Guess;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::sync::Arc;
use std::time::Duration;

/// Upper bounds of the latency buckets, in seconds: 1 ms to 10 s.
const LATENCY_BUCKETS: [f64; 13] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The `Content-Type` of a scrape.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

fn latency_histogram() -> Histogram {
    Histogram::new(LATENCY_BUCKETS)
}

type Latencies<L> = Family<L, Histogram, fn() -> Histogram>;

/// A request, by the route pattern it matched (`/admin/api/apps/:client_id`, never the path).
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    /// The route pattern, or `unmatched`.
    pub route: Arc<str>,
    /// The HTTP method (a fixed set; anything else is `other`).
    pub method: &'static str,
}

/// A request and its answer.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    /// The route pattern, or `unmatched`.
    pub route: Arc<str>,
    /// The HTTP method.
    pub method: &'static str,
    /// The status code answered.
    pub status: u16,
}

/// One label of a fixed set of values.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct Outcome {
    /// How it went.
    pub outcome: &'static str,
}

/// A sign-in: where, and how it went.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct SignInLabels {
    /// `app`, `admin` or `second_factor_setup`.
    pub place: &'static str,
    /// `succeeded` or `failed`.
    pub outcome: &'static str,
}

/// How tokens were obtained.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct GrantLabel {
    /// `authorization_code` or `refresh_token`.
    pub grant: &'static str,
}

/// Why something was revoked.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ReasonLabel {
    /// The reason, from a fixed set.
    pub reason: &'static str,
}

/// What was replayed.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct KindLabel {
    /// `authorization_code` or `refresh_token`.
    pub kind: &'static str,
}

/// The OAuth error code of a refusal.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ErrorLabel {
    /// An RFC 6749 §5.2 code.
    pub error: &'static str,
}

/// A counter of the attempt limits, by kind.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct CounterLabel {
    /// `account`, `ipv4`, `ipv6_64` or `ipv6_48`.
    pub counter: &'static str,
}

/// A failed attempt, by what it guessed and a counter it counts in.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct AttemptLabels {
    /// `password`, `otp` or `passkey`.
    pub guess: &'static str,
    /// `account`, `ipv4`, `ipv6_64` or `ipv6_48`.
    pub counter: &'static str,
}

/// The kinds of counter of the attempt limits.
pub const COUNTERS: [&str; 4] = ["account", "ipv4", "ipv6_64", "ipv6_48"];

/// A store or directory operation, by the name of its method.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct OperationLabel {
    /// The method name (`redeem_code`, `authenticate`...).
    pub operation: &'static str,
}

/// Connections of a pool in one state.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct PoolLabels {
    /// `store` or `directory`.
    pub pool: &'static str,
    /// `in_use`, `idle` or `max`.
    pub state: &'static str,
}

/// Every metric of the service.
pub struct Metrics {
    registry: Registry,
    pub(super) requests: Family<RequestLabels, Counter>,
    pub(super) request_latency: Latencies<RouteLabels>,
    pub(super) sign_ins: Family<SignInLabels, Counter>,
    pub(super) second_factor_checks: Family<Outcome, Counter>,
    pub(super) tokens_issued: Family<GrantLabel, Counter>,
    pub(super) grants_revoked: Family<ReasonLabel, Counter>,
    pub(super) replays: Family<KindLabel, Counter>,
    pub(super) token_refusals: Family<ErrorLabel, Counter>,
    pub(super) lockouts: Family<CounterLabel, Counter>,
    pub(super) failed_attempts: Family<AttemptLabels, Counter>,
    pub(super) backchannel_logouts: Family<Outcome, Counter>,
    pub(super) pending_requests: Gauge,
    pub(super) pending_bytes: Gauge,
    pub(super) store_latency: Latencies<OperationLabel>,
    pub(super) store_errors: Family<OperationLabel, Counter>,
    pub(super) directory_latency: Latencies<OperationLabel>,
    pub(super) directory_errors: Family<OperationLabel, Counter>,
    pools: Family<PoolLabels, Gauge>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    /// Registers every family, with the label values of the flow counters created up front so
    /// that a scrape shows them at 0 before anything happened.
    pub fn new() -> Self {
        let mut metrics = Self {
            registry: Registry::with_prefix("sso_bridge"),
            requests: Family::default(),
            request_latency: Family::new_with_constructor(latency_histogram),
            sign_ins: Family::default(),
            second_factor_checks: Family::default(),
            tokens_issued: Family::default(),
            grants_revoked: Family::default(),
            replays: Family::default(),
            token_refusals: Family::default(),
            lockouts: Family::default(),
            failed_attempts: Family::default(),
            backchannel_logouts: Family::default(),
            pending_requests: Gauge::default(),
            pending_bytes: Gauge::default(),
            store_latency: Family::new_with_constructor(latency_histogram),
            store_errors: Family::default(),
            directory_latency: Family::new_with_constructor(latency_histogram),
            directory_errors: Family::default(),
            pools: Family::default(),
        };
        metrics.register();
        metrics.create_known_labels();
        metrics
    }

    fn register(&mut self) {
        let r = &mut self.registry;
        r.register(
            "http_requests",
            "HTTP requests answered, by route pattern, method and status",
            self.requests.clone(),
        );
        r.register(
            "http_request_duration_seconds",
            "Time to answer an HTTP request, by route pattern and method",
            self.request_latency.clone(),
        );
        r.register(
            "sign_ins",
            "Password sign-ins, by place and outcome",
            self.sign_ins.clone(),
        );
        r.register(
            "second_factor_checks",
            "Second-factor codes checked, by outcome",
            self.second_factor_checks.clone(),
        );
        r.register(
            "tokens_issued",
            "Token responses issued, by grant (a refresh_token grant is a refresh)",
            self.tokens_issued.clone(),
        );
        r.register(
            "grants_revoked",
            "Grants whose tokens were all revoked, by reason",
            self.grants_revoked.clone(),
        );
        r.register(
            "replays_detected",
            "Authorization codes redeemed twice and rotated refresh tokens used again",
            self.replays.clone(),
        );
        r.register(
            "token_refusals",
            "Token requests refused, by OAuth error code",
            self.token_refusals.clone(),
        );
        r.register(
            "lockouts",
            "Accounts or address groups locked out for too many failed attempts, by kind of counter (account, ipv4, ipv6_64, ipv6_48)",
            self.lockouts.clone(),
        );
        r.register(
            "failed_attempts",
            "Failed password, second-factor and passwordless passkey attempts, by what was guessed and each kind of counter they count in",
            self.failed_attempts.clone(),
        );
        r.register(
            "backchannel_logouts",
            "Back-channel logouts: queued, and each delivery attempt's outcome (delivered, retrying, refused, gave_up, dropped)",
            self.backchannel_logouts.clone(),
        );
        r.register(
            "pending_sign_ins",
            "Unfinished authorize requests (sign-in or consent pages shown, not yet answered) in the store, as last seen by this node",
            self.pending_requests.clone(),
        );
        r.register(
            "pending_sign_in_bytes",
            "Bytes the store keeps for unfinished authorize requests, as last seen by this node",
            self.pending_bytes.clone(),
        );
        r.register(
            "store_operation_duration_seconds",
            "Time of a store operation, by operation",
            self.store_latency.clone(),
        );
        r.register(
            "store_errors",
            "Store operations that failed, by operation",
            self.store_errors.clone(),
        );
        r.register(
            "directory_operation_duration_seconds",
            "Time of a directory operation, by operation",
            self.directory_latency.clone(),
        );
        r.register(
            "directory_errors",
            "Directory operations that failed (down, slow or refusing the service account), by operation",
            self.directory_errors.clone(),
        );
        r.register(
            "pool_connections",
            "Connections of the store's and the directory's pools: in use, idle, and the most the pool opens",
            self.pools.clone(),
        );
    }

    fn create_known_labels(&self) {
        for place in ["app", "admin", "second_factor_setup"] {
            for outcome in ["succeeded", "failed"] {
                drop(
                    self.sign_ins
                        .get_or_create(&SignInLabels { place, outcome }),
                );
            }
        }
        for outcome in ["code", "recovery_code", "passkey", "wrong", "replayed"] {
            drop(
                self.second_factor_checks
                    .get_or_create(&Outcome { outcome }),
            );
        }
        for grant in ["authorization_code", "refresh_token"] {
            drop(self.tokens_issued.get_or_create(&GrantLabel { grant }));
        }
        for reason in [
            "by_app",
            "code_replayed",
            "refresh_reused",
            "user_gone",
            "access_removed",
        ] {
            drop(self.grants_revoked.get_or_create(&ReasonLabel { reason }));
        }
        for kind in ["authorization_code", "refresh_token"] {
            drop(self.replays.get_or_create(&KindLabel { kind }));
        }
        for outcome in [
            "queued",
            "delivered",
            "retrying",
            "refused",
            "gave_up",
            "dropped",
        ] {
            drop(self.backchannel_logouts.get_or_create(&Outcome { outcome }));
        }
        for counter in COUNTERS {
            drop(self.lockouts.get_or_create(&CounterLabel { counter }));
            // A series that can never count (a passkey's answer by account) is left out.
            let counted = Guess::ALL
                .into_iter()
                .filter(|guess| counter != "account" || guess.counts_by_account());
            for guess in counted.map(Guess::as_str) {
                drop(
                    self.failed_attempts
                        .get_or_create(&AttemptLabels { guess, counter }),
                );
            }
        }
    }

    /// Notes the unfinished authorize requests the store holds, and their bytes.
    pub fn pending_load(&self, requests: u64, bytes: u64) {
        let gauge = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        self.pending_requests.set(gauge(requests));
        self.pending_bytes.set(gauge(bytes));
    }

    /// Counts an answered request and its time.
    pub fn request(&self, route: Arc<str>, method: &'static str, status: u16, took: Duration) {
        self.request_latency
            .get_or_create(&RouteLabels {
                route: Arc::clone(&route),
                method,
            })
            .observe(took.as_secs_f64());
        self.requests
            .get_or_create(&RequestLabels {
                route,
                method,
                status,
            })
            .inc();
    }

    /// Times a store operation; `failed` when the store could not answer.
    pub fn store_operation(&self, operation: &'static str, took: Duration, failed: bool) {
        let label = OperationLabel { operation };
        self.store_latency
            .get_or_create(&label)
            .observe(took.as_secs_f64());
        if failed {
            self.store_errors.get_or_create(&label).inc();
        }
    }

    /// Times a directory operation; `failed` when the directory could not answer.
    pub fn directory_operation(&self, operation: &'static str, took: Duration, failed: bool) {
        let label = OperationLabel { operation };
        self.directory_latency
            .get_or_create(&label)
            .observe(took.as_secs_f64());
        if failed {
            self.directory_errors.get_or_create(&label).inc();
        }
    }

    /// The text of a scrape, with the pools as `store` and `directory` report them now.
    pub fn scrape(
        &self,
        store: Option<PoolUsage>,
        directory: Option<PoolUsage>,
    ) -> Result<String, std::fmt::Error> {
        for (pool, usage) in [("store", store), ("directory", directory)] {
            let Some(usage) = usage else { continue };
            let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
            for (state, value) in [
                ("in_use", usage.in_use),
                ("idle", usage.open.saturating_sub(usage.in_use)),
                ("max", usage.max),
            ] {
                self.pools
                    .get_or_create(&PoolLabels { pool, state })
                    .set(count(value));
            }
        }
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.registry)?;
        Ok(text)
    }
}
