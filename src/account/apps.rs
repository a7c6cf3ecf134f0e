//! The apps a person let in: those holding a live grant (tokens) or a remembered approval of
//! theirs, and taking one back.

use super::{AccountError, Context, Person};
use crate::backchannel;
use crate::clock::UnixTime;
use crate::domain::audit::Action;
use crate::domain::{ClientId, ScopeSet};
use std::collections::{BTreeSet, HashMap};

/// One app on the person's account page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppEntry {
    /// The app.
    pub client_id: ClientId,
    /// Its name.
    pub name: String,
    /// What the person let it read: the approval remembered and every live grant together.
    pub scopes: ScopeSet,
    /// When it first obtained tokens for the person, as far back as that is kept.
    pub first_used: Option<UnixTime>,
    /// When it last obtained tokens for the person.
    pub last_used: Option<UnixTime>,
}

/// Every registered app `sub` has a live grant or a remembered approval for, by name.
pub async fn list(cx: &impl Context, sub: &str) -> Result<Vec<AppEntry>, AccountError> {
    let store = cx.store();
    let apps = store.clients().await?;
    let ids: Vec<ClientId> = apps.iter().map(|a| a.client_id.clone()).collect();
    let mut scopes: HashMap<ClientId, ScopeSet> = HashMap::new();
    for (client, approved) in store.consents(sub, &ids).await? {
        scopes.insert(client, approved);
    }
    for grant in store.user_grants(sub).await? {
        let granted = grant.refresh.scopes;
        let held = match scopes.remove(&grant.refresh.client_id) {
            Some(held) => held.union(&granted),
            None => granted,
        };
        scopes.insert(grant.refresh.client_id, held);
    }
    let uses: HashMap<ClientId, _> = store.app_uses(sub, &ids).await?.into_iter().collect();
    let mut entries: Vec<AppEntry> = apps
        .into_iter()
        .filter_map(|app| {
            let scopes = scopes.remove(&app.client_id)?;
            let used = uses.get(&app.client_id);
            Some(AppEntry {
                first_used: used.map(|u| u.first),
                last_used: used.map(|u| u.last),
                client_id: app.client_id,
                name: app.name,
                scopes,
            })
        })
        .collect();
    entries.sort_by_key(|a| a.name.to_lowercase());
    Ok(entries)
}

/// What taking an app back ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removed {
    /// The app's name.
    pub name: String,
    /// Grants (token families) revoked.
    pub grants: u64,
}

/// Takes the app `client_id` (as the form sent it) back from the person: forgets their
/// approval first, so that no new grant begins without asking them again, deletes the codes
/// issued to it for them and not exchanged yet, then revokes every live grant of theirs for
/// it, and tells the app (back-channel logout) once per session the grants came from. An app
/// the person has neither a grant, a code nor an approval for is [`AccountError::NotTheirs`],
/// and nothing changes. Audited.
pub async fn remove(
    cx: &impl Context,
    person: Person<'_>,
    client_id: &str,
) -> Result<Removed, AccountError> {
    let not_theirs = AccountError::NotTheirs("app");
    let client = ClientId::parse(client_id.trim()).ok_or(AccountError::NotTheirs("app"))?;
    let store = cx.store();
    let app = store.client(&client).await?.ok_or(not_theirs)?;
    // In this order, so that nothing the app could still obtain outlives the removal: without
    // the approval no new code is issued without asking; without the codes not exchanged yet
    // (a sign-in a moment ago) no new grant begins; then every grant there is ends.
    let approved = store.delete_consent(person.sub, &client).await?;
    let codes = store.revoke_user_codes(person.sub, &client).await?;
    let grants: Vec<_> = store
        .user_grants(person.sub)
        .await?
        .into_iter()
        .filter(|g| g.refresh.client_id == client)
        .collect();
    if !approved && codes == 0 && grants.is_empty() {
        return Err(AccountError::NotTheirs("app"));
    }
    let mut sessions = BTreeSet::new();
    for grant in &grants {
        store.revoke_grant(&grant.grant_id).await?;
        sessions.insert(grant.refresh.sid.clone());
    }
    for sid in &sessions {
        backchannel::grant_ended(cx, &client, person.sub, sid.as_deref()).await?;
    }
    store.forget_app_use(person.sub, &client).await?;
    let count = grants.len() as u64;
    let detail = format!(
        "removed by the person: {count} grants and {codes} unused codes revoked, approval forgotten"
    );
    let event = person.event(Action::AppRemoved, Some(&client), detail);
    cx.events().publish(event).await;
    Ok(Removed {
        name: app.name,
        grants: count,
    })
}
