//! Searches page by page (Simple Paged Results, RFC 2696): Active Directory answers at most
//! `MaxPageSize` (1,000) entries to one search, and a person may be in more groups than that.
//! A search for one person asks for two entries at most instead, in one search without paging,
//! which costs the server less on every sign-in and refresh.
//! Referrals and continuation references are dropped, never followed: sso-bridge talks only to
//! the servers it is configured with.

use super::{ber, to_user, DirectoryUser, LdapDirectory, SearchFailure, Wanted};
use ldap3::controls::{PagedResults, RawControl};
use ldap3::{Ldap, LdapResult, ResultEntry, Scope, SearchEntry, SearchOptions};

/// The Simple Paged Results control.
const PAGED_RESULTS: &str = "1.2.840.113556.1.4.319";
/// Pages read at most for one search: a bound on a server that never says it is done.
const MAX_PAGES: usize = 1000;
/// LDAP result code of a search that found more entries than its size limit (RFC 4511 §4.1.9).
const SIZE_LIMIT_EXCEEDED: u32 = 4;

impl LdapDirectory {
    /// Runs one search on `ldap`: every page of it, or its first entries (see [`Wanted`]).
    /// Every page has the operation timeout.
    pub(super) async fn search_on(
        &self,
        ldap: &mut Ldap,
        (scope, base, filter): (Scope, &str, &str),
        attributes: &[String],
        wanted: Wanted,
    ) -> Result<Vec<DirectoryUser>, SearchFailure> {
        if let Wanted::AtMost(limit) = wanted {
            return self
                .first_entries(ldap, (scope, base, filter), attributes, limit)
                .await;
        }
        let size = i32::try_from(self.page_size).unwrap_or(i32::MAX);
        let mut found = Vec::new();
        let mut cookie = Vec::new();
        for _ in 0..MAX_PAGES {
            let page: RawControl = PagedResults { size, cookie }.into();
            let ldap3::SearchResult(entries, result) = ldap
                .with_timeout(self.operation_timeout)
                .with_controls(page)
                .search(base, scope, filter, attributes)
                .await
                .map_err(SearchFailure::Ldap)?;
            if result.rc != 0 {
                return Err(SearchFailure::Result {
                    rc: result.rc,
                    text: result.text,
                });
            }
            found.extend(users(entries));
            // A server without paging answers everything at once, and no cookie.
            match next_page(&result) {
                Some(next) => cookie = next,
                None => return Ok(found),
            }
        }
        Err(SearchFailure::Result {
            rc: 0,
            text: format!("the server was still paging after {MAX_PAGES} pages"),
        })
    }
}

impl LdapDirectory {
    /// The first `limit` entries, in one search with that size limit and no paging: a server
    /// that finds more answers "size limit exceeded" (4) with the first ones, which is what
    /// was asked.
    async fn first_entries(
        &self,
        ldap: &mut Ldap,
        (scope, base, filter): (Scope, &str, &str),
        attributes: &[String],
        limit: i32,
    ) -> Result<Vec<DirectoryUser>, SearchFailure> {
        let ldap3::SearchResult(entries, result) = ldap
            .with_timeout(self.operation_timeout)
            .with_search_options(SearchOptions::new().sizelimit(limit))
            .search(base, scope, filter, attributes)
            .await
            .map_err(SearchFailure::Ldap)?;
        if result.rc != 0 && result.rc != SIZE_LIMIT_EXCEEDED {
            return Err(SearchFailure::Result {
                rc: result.rc,
                text: result.text,
            });
        }
        Ok(users(entries).collect())
    }
}

/// The entries of a search's answer as users; referrals and intermediate messages are dropped.
fn users(entries: Vec<ResultEntry>) -> impl Iterator<Item = DirectoryUser> {
    entries
        .into_iter()
        .filter(|entry| !entry.is_ref() && !entry.is_intermediate())
        .map(|entry| to_user(SearchEntry::construct(entry)))
}

/// The cookie asking for the next page, if the server has more: the response control's
/// `SEQUENCE { size INTEGER, cookie OCTET STRING }`, with a non-empty cookie.
fn next_page(result: &LdapResult) -> Option<Vec<u8>> {
    let control = result.ctrls.iter().find(|c| c.1.ctype == PAGED_RESULTS)?;
    let fields = ber::elements(ber::sequence(control.1.val.as_deref()?)?)?;
    match fields.as_slice() {
        [size, cookie] if size.tag == 0x02 && cookie.tag == 0x04 && !cookie.contents.is_empty() => {
            Some(cookie.contents.to_vec())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ldap3::controls::Control;

    fn answer(value: &[u8]) -> LdapResult {
        LdapResult {
            rc: 0,
            matched: String::new(),
            text: String::new(),
            refs: Vec::new(),
            ctrls: vec![Control(
                None,
                RawControl {
                    ctype: PAGED_RESULTS.into(),
                    crit: false,
                    val: Some(value.to_vec()),
                },
            )],
        }
    }

    #[test]
    fn a_cookie_asks_for_more_and_an_empty_or_malformed_one_ends_the_search() {
        assert_eq!(
            next_page(&answer(&[
                0x30, 0x07, 0x02, 0x01, 0x00, 0x04, 0x02, 0x0b, 0x01
            ])),
            Some(vec![0x0b, 0x01])
        );
        assert_eq!(
            next_page(&answer(&[0x30, 0x05, 0x02, 0x01, 0x00, 0x04, 0x00])),
            None
        );
        assert_eq!(
            next_page(&answer(&[0x30, 0x05, 0x02, 0x01, 0x00, 0x04])),
            None
        );
        assert_eq!(next_page(&answer(&[])), None);
    }
}
