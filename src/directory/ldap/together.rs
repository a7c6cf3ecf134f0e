//! Lookups by subject that arrive together go out as one search.
//!
//! Every refresh and every due session check reads its user again (`Directory::lookup`). Under
//! load many arrive at once, and a directory spends most of a search on the operation itself
//! (reading the request, handing it to a worker thread, sending the result) rather than on the
//! entry: one search for eight subjects, `(|(&(objectClass=person)(uid=a))(&(…)(uid=b))…)`,
//! costs slapd about a ninth of what eight searches cost per entry, and the service sends one
//! request instead of eight. Each lookup still reads the directory as it is when the lookup
//! is made: nothing is kept between searches.
//!
//! The first lookup of a gathering leads it: it lets the requests that are ready at the same
//! moment run first (one turn of the runtime, no timer), then makes the gathered search and
//! hands each lookup its entries. The leader makes that one search (one per `MOST` subjects)
//! and nothing else: each lookup settles its own entries (the account's state, its groups,
//! which may take searches of their own) and makes any search of its own it needs, in its own
//! request and within its own time budget, so that no lookup waits on another's groups or on
//! a subject the gathered search could not answer. A lookup that joined another's gathering
//! waits for that answer; if the leader goes away first (its request was dropped), everyone it
//! would have answered searches alone.
//!
//! A gathered search must answer each subject exactly as a search of its own would. So it is
//! made only when `directory.lookup_filter` finds the subject by equality on the subject
//! attribute, as the whole filter or one part of a top-level `(&…)` whose other parts do not
//! name the subject: then an entry the combined filter returns matched the part of every
//! subject its subject attribute holds. An entry is handed to the subjects that one of its
//! values equals exactly; a value equal to another subject only when case and spaces are
//! ignored (as the directory's matching rules may compare them), or an entry handed to no
//! subject at all, sends the subjects concerned to searches of their own, and so does a search
//! that returns as many entries as its size limit.

use super::DirectoryError;
use crate::directory::DirectoryUser;
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use tokio::sync::oneshot;

/// The most subjects one gathered search asks for: bounds its filter and its answer. A
/// gathering with more is searched in parts.
pub(super) const MOST: usize = 32;

/// What a gathered search tells one lookup.
#[derive(Clone)]
pub(super) enum Gathered {
    /// The subject's entries, as a search of its own would have returned them; the lookup
    /// settles them itself (state, groups), so that no lookup waits on another's.
    Entries(Vec<DirectoryUser>),
    /// The gathered search cannot answer for this subject: the lookup searches alone.
    Alone,
}

/// A lookup's answer from its gathering.
pub(super) type Found = Result<Gathered, DirectoryError>;

/// The lookups waiting for a gathered search, and how to make one.
pub(super) struct Gathering {
    /// `directory.lookup_filter`.
    template: String,
    /// The subject attribute, lowercased as entries' attribute names are.
    subject: String,
    waiting: Mutex<Vec<Waiter>>,
}

struct Waiter {
    sub: String,
    answer: oneshot::Sender<Found>,
}

/// Where a lookup stands in its gathering.
pub(super) struct Joined<'a> {
    /// Its answer, once the gathering's search is made.
    pub(super) answer: oneshot::Receiver<Found>,
    /// Whether it leads the gathering: then it makes the search, after [`Lead::take`].
    pub(super) lead: Option<Lead<'a>>,
}

/// The leader's hold on a gathering. Dropped before it took the waiting lookups (its request
/// went away), it lets them go, and each then searches alone.
pub(super) struct Lead<'a> {
    gathering: &'a Gathering,
    taken: bool,
}

impl Lead<'_> {
    /// Every lookup that joined: the gathering is closed, and the next lookup starts another.
    pub(super) fn take(mut self) -> Vec<(String, oneshot::Sender<Found>)> {
        self.taken = true;
        self.gathering
            .drain()
            .into_iter()
            .map(|w| (w.sub, w.answer))
            .collect()
    }
}

impl Drop for Lead<'_> {
    fn drop(&mut self) {
        if !self.taken {
            drop(self.gathering.drain());
        }
    }
}

impl Gathering {
    /// A gathering for `lookup_filter`, when it finds the subject as this module requires (by
    /// equality on `subject_attribute`); `None` otherwise, and lookups search alone.
    pub(super) fn new(lookup_filter: &str, subject_attribute: &str) -> Option<Self> {
        finds_by_equality(lookup_filter, subject_attribute).then(|| Self {
            template: lookup_filter.to_owned(),
            subject: subject_attribute.to_ascii_lowercase(),
            waiting: Mutex::new(Vec::new()),
        })
    }

    /// Joins the gathering under way, or starts one.
    pub(super) fn join(&self, sub: &str) -> Joined<'_> {
        let (answer, receiver) = oneshot::channel();
        let mut waiting = self.lock();
        let first = waiting.is_empty();
        waiting.push(Waiter {
            sub: sub.to_owned(),
            answer,
        });
        drop(waiting);
        Joined {
            answer: receiver,
            // Built only for the first: a lead dropped untaken lets the gathering go.
            lead: first.then(|| Lead {
                gathering: self,
                taken: false,
            }),
        }
    }

    /// The filter that finds every one of `subs` (filter-escaped by `fill`).
    pub(super) fn filter(&self, subs: &[&str]) -> String {
        let fill = |sub: &str| super::fill(&self.template, "{sub}", sub);
        match subs {
            [one] => fill(one),
            many => {
                let mut filter = String::from("(|");
                for sub in many {
                    filter.push_str(&fill(sub));
                }
                filter.push(')');
                filter
            }
        }
    }

    /// Hands the entries of a gathered search for `subs` (each once) to the subjects they
    /// belong to: for each subject, its entries, or `None` when it must be searched alone.
    pub(super) fn sort(
        &self,
        subs: &[&str],
        entries: Vec<DirectoryUser>,
    ) -> Vec<Option<Vec<DirectoryUser>>> {
        let exact: HashMap<&str, usize> = subs.iter().enumerate().map(|(i, s)| (*s, i)).collect();
        let mut alike: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, sub) in subs.iter().enumerate() {
            alike.entry(loose(sub)).or_default().push(i);
        }
        let mut doubtful = vec![false; subs.len()];
        let mut owners: Vec<Vec<usize>> = Vec::with_capacity(entries.len());
        for entry in &entries {
            let values = entry
                .attributes
                .get(&self.subject)
                .map(Vec::as_slice)
                .unwrap_or_default();
            let mut owned_by = Vec::new();
            for value in values {
                if let Some(&i) = exact.get(value.as_str()) {
                    owned_by.push(i);
                }
                for &i in alike
                    .get(&loose(value))
                    .map(Vec::as_slice)
                    .unwrap_or_default()
                {
                    if subs[i] != value {
                        doubtful[i] = true;
                    }
                }
            }
            if owned_by.is_empty() {
                // Matched some subject's part in a way this cannot place: no answer is sure.
                return vec![None; subs.len()];
            }
            owned_by.sort_unstable();
            owned_by.dedup();
            owners.push(owned_by);
        }
        let mut found: Vec<Vec<DirectoryUser>> = vec![Vec::new(); subs.len()];
        for (entry, owned_by) in entries.into_iter().zip(owners) {
            if let Some((&last, others)) = owned_by.split_last() {
                for &i in others {
                    found[i].push(entry.clone());
                }
                found[last].push(entry);
            }
        }
        found
            .into_iter()
            .zip(doubtful)
            .map(|(entries, doubtful)| (!doubtful).then_some(entries))
            .collect()
    }

    fn drain(&self) -> Vec<Waiter> {
        std::mem::take(&mut *self.lock())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Waiter>> {
        // The lock guards a plain push or take, which cannot leave the list half-changed.
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The distinct subjects of `waiters` in their order, and for each subject the waiters it
/// answers.
pub(super) fn by_subject(
    waiters: Vec<(String, oneshot::Sender<Found>)>,
) -> Vec<(String, Vec<oneshot::Sender<Found>>)> {
    let mut order: Vec<(String, Vec<oneshot::Sender<Found>>)> = Vec::new();
    let mut place: HashMap<String, usize> = HashMap::new();
    for (sub, answer) in waiters {
        match place.get(&sub) {
            Some(&i) => order[i].1.push(answer),
            None => {
                place.insert(sub.clone(), order.len());
                order.push((sub, vec![answer]));
            }
        }
    }
    order
}

/// Subjects that only the directory's matching rules could tell apart from another of
/// `subs`: they are searched alone.
pub(super) fn alike(subs: &[String]) -> Vec<bool> {
    let loose: Vec<String> = subs.iter().map(|s| loose(s)).collect();
    let mut count: HashMap<&str, usize> = HashMap::new();
    for l in &loose {
        *count.entry(l.as_str()).or_default() += 1;
    }
    loose
        .iter()
        .map(|l| count.get(l.as_str()).is_some_and(|&n| n > 1))
        .collect()
}

/// The answer for each waiter of a subject (a waiter that went away has nobody to tell).
pub(super) fn tell(mut answers: Vec<oneshot::Sender<Found>>, found: Found) {
    let Some(last) = answers.pop() else {
        return;
    };
    for answer in answers {
        let _ = answer.send(again(&found));
    }
    let _ = last.send(found);
}

/// The same answer, for another waiter.
pub(super) fn again(found: &Found) -> Found {
    match found {
        Ok(user) => Ok(user.clone()),
        Err(err) => Err(DirectoryError::Unavailable(match err {
            DirectoryError::Unavailable(cause) => cause.clone(),
            other => other.to_string(),
        })),
    }
}

/// A value as a directory's case-ignoring matching rule may see it: lowercase, with runs of
/// spaces as one and none at either end.
fn loose(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for word in value.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().flat_map(char::to_lowercase));
    }
    out
}

/// Whether `filter` finds the subject by equality on `attribute`: it is `(attribute={sub})`,
/// or a top-level `(&…)` of which that is one part and no other part names `{sub}`.
fn finds_by_equality(filter: &str, attribute: &str) -> bool {
    if filter.matches("{sub}").count() != 1 || attribute.is_empty() {
        return false;
    }
    let part = format!("({attribute}={{sub}})");
    let Some(start) = filter.to_ascii_lowercase().find(&part.to_ascii_lowercase()) else {
        return false;
    };
    if filter.len() == part.len() {
        return true;
    }
    // A top-level AND, and the part directly inside it. Parentheses in values are escaped
    // (`\28`, `\29`), so every one in a filter is structural.
    if !filter.starts_with("(&") || !filter.ends_with(')') {
        return false;
    }
    let mut depth = 0i32;
    for (i, c) in filter.char_indices() {
        if i == start {
            return depth == 1 && balanced(filter);
        }
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth <= 0 {
            // The top-level AND closed before the part.
            return false;
        }
    }
    false
}

/// Whether the parentheses of `filter` balance, closing only at its end.
fn balanced(filter: &str) -> bool {
    let mut depth = 0i32;
    for (i, c) in filter.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth < 0 || (depth == 0 && i + 1 != filter.len()) {
            return false;
        }
    }
    depth == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::directory::Attributes;

    fn user(dn: &str, uids: &[&str]) -> DirectoryUser {
        let mut attributes = Attributes::new();
        attributes.insert("uid".into(), uids.iter().map(|u| u.to_string()).collect());
        DirectoryUser {
            dn: dn.into(),
            attributes,
            groups: Vec::new(),
        }
    }

    fn gathering() -> Gathering {
        Gathering::new("(&(objectClass=inetOrgPerson)(uid={sub}))", "uid").unwrap()
    }

    #[test]
    fn only_a_filter_that_finds_the_subject_by_equality_gathers() {
        for yes in [
            "(uid={sub})",
            "(&(objectClass=inetOrgPerson)(uid={sub}))",
            "(&(objectCategory=person)(objectClass=user)(UID={sub}))",
            "(&(uid={sub})(!(employeeType=gone)))",
        ] {
            assert!(finds_by_equality(yes, "uid"), "{yes}");
        }
        for no in [
            "(mail={sub})",
            "(|(uid={sub})(mail={sub}))",
            "(&(objectClass=person)(|(uid={sub})(cn=x)))",
            "(&(objectClass=person)(uid={sub})(cn={sub}))",
            "(&(objectClass=person)(uid=*{sub}))",
            "(&(objectClass=person))(uid={sub})",
            "(!(uid={sub}))",
            "",
        ] {
            assert!(!finds_by_equality(no, "uid"), "{no}");
        }
    }

    #[test]
    fn the_filter_of_one_subject_is_the_lookup_filter_and_of_several_their_or() {
        let g = gathering();
        assert_eq!(
            g.filter(&["ada"]),
            "(&(objectClass=inetOrgPerson)(uid=ada))"
        );
        assert_eq!(
            g.filter(&["ada", "a*)"]),
            "(|(&(objectClass=inetOrgPerson)(uid=ada))(&(objectClass=inetOrgPerson)(uid=a\\2a\\29)))"
        );
    }

    #[test]
    fn entries_go_to_the_subjects_they_hold() {
        let g = gathering();
        let sorted = g.sort(
            &["ada", "grace", "nobody"],
            vec![user("uid=grace", &["grace"]), user("uid=ada", &["ada"])],
        );
        let dns = |s: &Option<Vec<DirectoryUser>>| {
            s.as_ref()
                .map(|users| users.iter().map(|u| u.dn.clone()).collect::<Vec<_>>())
        };
        assert_eq!(dns(&sorted[0]), Some(vec!["uid=ada".to_owned()]));
        assert_eq!(dns(&sorted[1]), Some(vec!["uid=grace".to_owned()]));
        assert_eq!(dns(&sorted[2]), Some(vec![]));
    }

    #[test]
    fn two_entries_of_one_subject_both_go_to_it() {
        let g = gathering();
        let sorted = g.sort(
            &["ada"],
            vec![
                user("uid=ada,ou=a", &["ada"]),
                user("uid=ada,ou=b", &["ada"]),
            ],
        );
        assert_eq!(sorted[0].as_ref().map(Vec::len), Some(2));
    }

    #[test]
    fn a_value_that_differs_only_in_case_or_spaces_sends_that_subject_alone() {
        let g = gathering();
        let sorted = g.sort(
            &["ada", "grace"],
            vec![
                user("uid=Ada", &["Ada", "grace"]),
                user("uid=grace", &["grace"]),
            ],
        );
        assert!(sorted[0].is_none());
        assert_eq!(sorted[1].as_ref().map(Vec::len), Some(2));
        let spaced = g.sort(&["ada  b"], vec![user("uid=x", &["ada b"])]);
        assert!(spaced.iter().all(Option::is_none));
    }

    #[test]
    fn an_entry_that_belongs_to_no_subject_sends_every_subject_alone() {
        let g = gathering();
        let sorted = g.sort(
            &["ada", "grace"],
            vec![user("uid=ada", &["ada"]), user("uid=other", &["other"])],
        );
        assert!(sorted.iter().all(Option::is_none));
    }

    #[test]
    fn subjects_alike_but_for_case_are_told_apart() {
        let subs = ["ada".to_owned(), "ADA".to_owned(), "grace".to_owned()];
        assert_eq!(alike(&subs), vec![true, true, false]);
    }

    #[test]
    fn a_lead_dropped_before_taking_lets_everyone_go() {
        let g = gathering();
        let first = g.join("ada");
        let mut second = g.join("grace");
        assert!(first.lead.is_some() && second.lead.is_none());
        drop(first);
        assert!(second.answer.try_recv().is_err());
        assert!(g.join("hedy").lead.is_some());
    }

    #[test]
    fn repeated_subjects_are_searched_once_and_each_waiter_answered() {
        let g = gathering();
        let mut joined: Vec<_> = ["ada", "grace", "ada"].iter().map(|s| g.join(s)).collect();
        let lead = joined[0].lead.take().unwrap();
        let subjects = by_subject(lead.take());
        assert_eq!(
            subjects
                .iter()
                .map(|(s, w)| (s.as_str(), w.len()))
                .collect::<Vec<_>>(),
            vec![("ada", 2), ("grace", 1)]
        );
        for (sub, answers) in subjects {
            tell(answers, Ok(Gathered::Entries(vec![user(&sub, &[&sub])])));
        }
        let dns: Vec<String> = joined
            .iter_mut()
            .map(|j| match j.answer.try_recv().unwrap().unwrap() {
                Gathered::Entries(entries) => entries[0].dn.clone(),
                Gathered::Alone => panic!("answered alone"),
            })
            .collect();
        assert_eq!(dns, vec!["ada", "grace", "ada"]);
    }
}
