//! `/admin/audit`: the audit log, filtered by action, app, user and outcome, a page at a time.

use super::page;
use super::session::Ctx;
use super::views::{action_label, ActionChoice, AuditRow, AuditView};
use crate::audit::{self, Action, AuditFilter, AuditFrom, AuditResults};
use crate::state::AppState;
use crate::web::errors::PageError;
use crate::web::i18n::Text;
use poem::http::StatusCode;
use poem::web::{Data, Query};
use poem::{handler, Response};
use serde::Deserialize;

/// How many events a page shows at most.
const SHOWN: usize = 100;

/// The filter form (GET), and the page links' cursors.
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
    #[serde(default)]
    before: Option<String>,
    #[serde(default)]
    after: Option<String>,
}

impl AuditQuery {
    /// Where the page starts; a link that does not read (edited by hand) starts at the newest.
    fn from(&self) -> AuditFrom {
        let cursor = |c: &Option<String>| c.as_deref().and_then(|c| c.trim().parse().ok());
        match (cursor(&self.before), cursor(&self.after)) {
            (Some(c), _) => AuditFrom::Before(c),
            (None, Some(c)) => AuditFrom::After(c),
            (None, None) => AuditFrom::Newest,
        }
    }

    /// The link to this filter's page older than `before`, or newer than `after`.
    fn link(&self, cursor: (&str, i64)) -> String {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        for (key, value) in [
            ("action", &self.action),
            ("client_id", &self.client_id),
            ("actor", &self.actor),
        ] {
            if !value.trim().is_empty() {
                query.append_pair(key, value.trim());
            }
        }
        if self.failures_only.is_some() {
            query.append_pair("failures_only", "true");
        }
        query.append_pair(cursor.0, &cursor.1.to_string());
        format!("/admin/audit?{}", query.finish())
    }
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
        Err(_) => (
            AuditFilter::default(),
            Some(Text::new("admin-audit-unknown-action").arg("action", q.action.trim())),
        ),
    };
    let AuditResults {
        events,
        older,
        newer,
        partial,
    } = audit::search(state, &filter, q.from(), SHOWN).await?;
    let view = AuditView {
        nav: ctx.nav("audit"),
        actions: Action::ALL
            .iter()
            .map(|a| ActionChoice {
                value: a.as_str(),
                label: action_label(*a),
                selected: filter.action == Some(*a),
            })
            .collect(),
        client_id: q.client_id.trim().to_owned(),
        actor: q.actor.trim().to_owned(),
        failures_only,
        events: events.into_iter().map(AuditRow::from).collect(),
        error,
        older: older.map(|c| q.link(("before", c))),
        newer: newer.map(|c| q.link(("after", c))),
        partial,
    };
    page(state, StatusCode::OK, &view)
}
