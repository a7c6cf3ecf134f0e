//! `/admin/audit`: the audit log, filtered by action, app, user and outcome.

use super::page;
use super::session::Ctx;
use super::views::{ActionChoice, AuditRow, AuditView};
use crate::audit::{self, Action, AuditFilter, AuditFrom};
use crate::state::AppState;
use crate::web::errors::PageError;
use poem::http::StatusCode;
use poem::web::{Data, Query};
use poem::{handler, Response};
use serde::Deserialize;

/// How many events the page shows at most.
const SHOWN: usize = 200;

/// The filter form (GET).
#[derive(Debug, Deserialize)]
pub struct AuditQuery {
    #[serde(default)]
    action: String,
    #[serde(default)]
    client_id: String,
    #[serde(default)]
    actor: String,
    #[serde(default)]
    failures_only: Option<String>,
}

/// `GET /admin/audit`.
#[handler]
pub async fn show(
    Data(state): Data<&AppState>,
    Query(q): Query<AuditQuery>,
    ctx: Ctx,
) -> Result<Response, PageError> {
    let failures_only = q.failures_only.is_some();
    let (filter, error) = match AuditFilter::parse(
        Some(&q.action),
        Some(&q.client_id),
        Some(&q.actor),
        failures_only,
    ) {
        Ok(f) => (f, None),
        Err(message) => (AuditFilter::default(), Some(message)),
    };
    let found = audit::search(state, &filter, AuditFrom::Newest, SHOWN).await?;
    let view = AuditView {
        nav: ctx.nav("audit"),
        actions: Action::ALL
            .iter()
            .map(|a| ActionChoice {
                value: a.as_str(),
                label: a.as_str().replace('_', " "),
                selected: filter.action == Some(*a),
            })
            .collect(),
        client_id: q.client_id.trim().to_owned(),
        actor: q.actor.trim().to_owned(),
        failures_only,
        events: found.events.into_iter().map(AuditRow::from).collect(),
        error,
    };
    page(state, StatusCode::OK, &view)
}
