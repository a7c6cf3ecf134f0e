//! Reading the audit log back, filtered, a page at a time.
//!
//! The exact filters are indexes of the store: an action, an app, an actor's name (case
//! ignored) and failures each find every event kept, however many others came after it. An
//! actor holding `*` is a pattern instead (`*` stands for any text): the store cannot index
//! that, so the events the other filters leave (or the whole log) are read and matched here,
//! a bounded number per search, and the answer says where to go on.

use super::{Action, AuditRecord, MAX_ACTOR_CHARS};
use crate::store::{AuditFrom, AuditIndex, HasStore, LoggedEvent, StoreError};

/// Store steps one search takes at most: a search for something rare costs a bounded amount
/// of work, and answers where the next one goes on.
const MAX_STEPS: usize = 20;
/// Events read per store step when an actor pattern matches them here.
const STEP: usize = 500;

/// What to look for; every set field must match.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    /// Exactly this action.
    pub action: Option<Action>,
    /// Exactly this app.
    pub client_id: Option<String>,
    /// The actor: exactly this name, case ignored; or, when it holds `*`, a name matching
    /// this pattern, `*` standing for any text.
    pub actor: Option<String>,
    /// Only failures.
    pub failures_only: bool,
}

/// A page of the audit log, newest first.
#[derive(Debug, Clone, Default)]
pub struct AuditResults {
    /// The events.
    pub events: Vec<AuditRecord>,
    /// Where the next older page starts ([`AuditFrom::Before`]), when there may be one.
    pub older: Option<i64>,
    /// Where the next newer page starts ([`AuditFrom::After`]), when there may be one.
    pub newer: Option<i64>,
    /// The search stopped after its share of work with fewer events than asked for: older
    /// ones may still match.
    pub partial: bool,
}

impl AuditFilter {
    /// Builds a filter from query parameters; blank values mean "any". An unknown action is
    /// refused with a message listing the known ones.
    pub fn parse(
        action: Option<&str>,
        client_id: Option<&str>,
        actor: Option<&str>,
        failures_only: bool,
    ) -> Result<Self, String> {
        let blank = |v: Option<&str>| {
            v.map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        };
        let action = match blank(action) {
            None => None,
            Some(name) => Some(
                Action::ALL
                    .into_iter()
                    .find(|a| a.as_str() == name)
                    .ok_or_else(|| {
                        let known: Vec<&str> = Action::ALL.iter().map(|a| a.as_str()).collect();
                        format!(
                            "unknown action `{name}`; known actions: {}",
                            known.join(", ")
                        )
                    })?,
            ),
        };
        // Stored actors are cut to this length; a name is looked up as it was stored.
        let actor = blank(actor).map(|a| a.chars().take(MAX_ACTOR_CHARS).collect());
        Ok(Self {
            action,
            client_id: blank(client_id),
            actor,
            failures_only,
        })
    }

    /// The actor pattern, when the actor is one.
    fn pattern(&self) -> Option<&str> {
        self.actor.as_deref().filter(|a| a.contains('*'))
    }

    /// The store indexes every match is filed under.
    fn indexes(&self) -> Vec<AuditIndex> {
        let mut indexes = Vec::new();
        if let Some(action) = self.action {
            indexes.push(AuditIndex::Action(action));
        }
        if let Some(app) = &self.client_id {
            indexes.push(AuditIndex::App(app.clone()));
        }
        if let Some(name) = self.actor.as_deref().filter(|_| self.pattern().is_none()) {
            indexes.push(AuditIndex::actor(name));
        }
        if self.failures_only {
            indexes.push(AuditIndex::Failures);
        }
        indexes
    }

    fn matches(&self, r: &AuditRecord) -> bool {
        let actor_ok = self.actor.as_deref().is_none_or(|want| {
            let Some(actor) = r.actor.as_deref() else {
                return false;
            };
            let (want, actor) = (want.to_lowercase(), actor.to_lowercase());
            match self.pattern() {
                Some(_) => glob(&want, &actor),
                None => want == actor,
            }
        });
        self.action.is_none_or(|a| a == r.action)
            && self
                .client_id
                .as_deref()
                .is_none_or(|c| r.client_id.as_deref() == Some(c))
            && actor_ok
            && (!self.failures_only || !r.success)
    }
}

/// Whether `text` matches `pattern`, in which each `*` stands for any text.
fn glob(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let mut parts: Vec<&str> = parts.collect();
    let Some(last) = parts.pop() else {
        // No `*` at all: the whole text.
        return rest.is_empty();
    };
    for part in parts {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// At most `limit` events matching `filter`, walking from `from`: the newest, or the page
/// older than a cursor, or the page newer than one. Answers them newest first, with the
/// cursors of the pages on either side.
pub async fn search(
    cx: &impl HasStore,
    filter: &AuditFilter,
    from: AuditFrom,
    limit: usize,
) -> Result<AuditResults, StoreError> {
    let limit = limit.max(1);
    let under = filter.indexes();
    // Ask for one more than shown: when it comes, there is a next page.
    let step = match filter.pattern() {
        Some(_) => STEP.max(limit + 1),
        None => limit + 1,
    };
    let mut found: Vec<LoggedEvent> = Vec::new();
    let mut position = from;
    let mut steps = 0;
    let beyond = loop {
        let page = cx.store().audit_events(&under, position, step).await?;
        let mut more = page
            .events
            .into_iter()
            .filter(|e| filter.matches(&e.record));
        found.extend(more.by_ref().take(limit - found.len()));
        if more.next().is_some() {
            break found.last().map(|e| e.cursor);
        }
        let Some(next) = page.next else {
            break None;
        };
        steps += 1;
        if steps == MAX_STEPS {
            break Some(next);
        }
        position = from.on_from(next);
    };
    Ok(results(found, from, beyond, limit))
}

/// The events newest first, and where the pages either side start.
fn results(
    mut found: Vec<LoggedEvent>,
    from: AuditFrom,
    beyond: Option<i64>,
    limit: usize,
) -> AuditResults {
    let partial = beyond.is_some() && found.len() < limit;
    let (older, newer) = match from {
        AuditFrom::Newest => (beyond, None),
        AuditFrom::Before(c) => {
            // Newer than this page: from its newest event, or from where it was asked for.
            let first = found.first().map_or(c.saturating_sub(1), |e| e.cursor);
            (beyond, Some(first))
        }
        AuditFrom::After(c) => {
            found.reverse();
            let last = found.last().map_or(c.saturating_add(1), |e| e.cursor);
            (Some(last), beyond)
        }
    };
    AuditResults {
        events: found.into_iter().map(|e| e.record).collect(),
        older,
        newer,
        partial,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_star_stands_for_any_text_and_the_rest_must_match_whole() {
        for (pattern, text, expected) in [
            ("*ada*", "ada", true),
            ("*ada*", "lovelace.ada.byron", true),
            ("ada*", "adalbert", true),
            ("ada*", "nada", false),
            ("*ce", "lovelace", true),
            ("*ce", "lovelaces", false),
            ("a*a", "ada", true),
            ("a*a", "a", false),
            ("*", "", true),
            ("l*l*ce", "lovelace", true),
            ("l*x*ce", "lovelace", false),
        ] {
            assert_eq!(glob(pattern, text), expected, "{pattern} ~ {text}");
        }
    }

    fn filter(actor: &str) -> AuditFilter {
        AuditFilter::parse(None, None, Some(actor), false).unwrap()
    }

    #[test]
    fn an_actor_is_an_exact_name_unless_it_holds_a_star() {
        let record = |actor: &str| AuditRecord {
            id: "e".into(),
            at: 0,
            action: Action::SignIn,
            actor: Some(actor.into()),
            client_id: None,
            address: None,
            success: true,
            detail: None,
        };
        assert!(filter("Ada").matches(&record("ada")));
        assert!(!filter("ad").matches(&record("ada")));
        assert!(filter("*D*").matches(&record("ada")));
        assert_eq!(filter("ADA").indexes(), [AuditIndex::actor("ada")]);
        assert!(filter("*da").indexes().is_empty());
    }
}
