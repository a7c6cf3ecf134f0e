//! A person's groups, nested ones included, read with their entry: the one group lookup of
//! `directory.group_*`, for the roles of `[roles]`, the second factor of `mfa.required_groups`,
//! app access and the `groups` claim.
//!
//! Active Directory answers every group a person is in, however deeply nested, in one search
//! with `LDAP_MATCHING_RULE_IN_CHAIN`. Other servers are asked level by level with the group
//! filter, bounded in depth and in count so a cycle or a huge tree cannot stall a sign-in. With
//! the `memberof` lookup the levels start from the groups the entry lists (no search at all for
//! someone in no group); with `search` they start from the entry itself.

use super::{fill, DirectoryError, DirectoryUser, LdapDirectory};
use crate::config::{DirectoryFlavor, GroupLookup, GroupSettings, RoleGroups};
use crate::directory::Group;
use crate::domain::dn::first_rdn_value;
use ldap3::ldap_escape;

/// `LDAP_MATCHING_RULE_IN_CHAIN`: AD follows `member` links transitively.
const IN_CHAIN: &str = "1.2.840.113556.1.4.1941";
/// Nesting levels followed on servers without the in-chain rule.
const MAX_DEPTH: usize = 8;
/// Groups collected at most.
const MAX_GROUPS: usize = 1000;

/// How a person's groups are read, and what is made of them.
#[derive(Debug)]
pub struct Membership {
    /// The group lookup; member attribute and name attribute lowercased.
    settings: GroupSettings,
    /// Where groups are searched: `directory.group_base`, else the user base (AD: the domain).
    base: Option<String>,
    /// `[roles]`, and the (lowercase) attribute the role is written into for the claim mapping.
    roles: Option<(RoleGroups, String)>,
    /// Whether an entry listing no group is searched for its groups all the same (see
    /// [`LdapDirectory::searching_unlisted`]).
    search_unlisted: bool,
}

impl Membership {
    /// The lookup of `settings`.
    pub(super) fn new(settings: &GroupSettings) -> Self {
        let mut settings = settings.clone();
        settings.member_attribute = settings.member_attribute.to_ascii_lowercase();
        settings.name_attribute = settings.name_attribute.to_ascii_lowercase();
        let base = (!settings.base.is_empty()).then(|| settings.base.clone());
        Self {
            settings,
            base,
            roles: None,
            search_unlisted: false,
        }
    }

    /// The attributes of a user entry the lookup reads.
    pub(super) fn entry_attributes(&self) -> Vec<String> {
        match self.settings.lookup {
            GroupLookup::Memberof => vec![self.settings.member_attribute.clone()],
            GroupLookup::Search => Vec::new(),
        }
    }
}

impl LdapDirectory {
    /// Also reads `attributes` of user entries (the second-factor policy's per-user attribute).
    pub fn with_attributes(mut self, attributes: &[String]) -> Self {
        for attribute in attributes {
            if !self
                .attributes
                .iter()
                .any(|a| a.eq_ignore_ascii_case(attribute))
            {
                self.attributes.push(attribute.clone());
            }
        }
        self
    }

    /// Makes the role the highest of `roles` whose groups the person is in, written into
    /// `role_attribute` (nothing changes when `roles` is empty).
    pub fn with_roles(mut self, roles: &RoleGroups, role_attribute: &str) -> Self {
        if !roles.is_empty() {
            self.membership.roles = Some((roles.clone(), role_attribute.to_ascii_lowercase()));
            self.membership.search_unlisted = true;
        }
        self
    }

    /// With the `memberof` lookup on a server other than Active Directory, searches the groups
    /// of an entry that lists none as the `search` lookup would, when `[roles]` or
    /// `mfa.required_groups` is set (`needed`): those always found their groups by search, on
    /// servers whose entries do not list them (OpenLDAP without its memberof overlay).
    pub fn searching_unlisted(mut self, needed: bool) -> Self {
        self.membership.search_unlisted |= needed;
        self
    }

    /// Reads `user`'s groups into it, and their role when `[roles]` is set.
    pub(super) async fn annotate(&self, user: &mut DirectoryUser) -> Result<(), DirectoryError> {
        let groups = self.groups_of(user).await?;
        if let Some((roles, attribute)) = &self.membership.roles {
            let dns: Vec<String> = groups.iter().map(|g| g.dn.clone()).collect();
            let role = roles.role_of(&dns);
            // Replaces whatever the entry holds there: with [roles] set, only groups count.
            user.attributes.insert(
                attribute.clone(),
                role.map(|r| vec![r.as_str().to_owned()])
                    .unwrap_or_default(),
            );
        }
        user.groups = groups;
        Ok(())
    }

    /// Every group `user` is in, directly or through other groups.
    async fn groups_of(&self, user: &DirectoryUser) -> Result<Vec<Group>, DirectoryError> {
        let settings = &self.membership.settings;
        let listed: Vec<String> = match settings.lookup {
            GroupLookup::Memberof => user
                .attributes
                .get(&settings.member_attribute)
                .cloned()
                .unwrap_or_default(),
            GroupLookup::Search => Vec::new(),
        };
        let lists_none = settings.lookup == GroupLookup::Memberof && listed.is_empty();
        if self.flavor == DirectoryFlavor::ActiveDirectory {
            if lists_none {
                return Ok(Vec::new());
            }
            return self.in_chain(&user.dn).await;
        }
        let mut found = Vec::new();
        let start = match settings.lookup {
            GroupLookup::Memberof if lists_none && self.membership.search_unlisted => {
                vec![user.dn.clone()]
            }
            GroupLookup::Memberof if lists_none => return Ok(Vec::new()),
            GroupLookup::Memberof => {
                for dn in listed.into_iter().take(MAX_GROUPS) {
                    let name = self.name_of(&dn).await?;
                    push(&mut found, Group { dn, name });
                }
                found.iter().map(|g| g.dn.clone()).collect()
            }
            GroupLookup::Search => vec![user.dn.clone()],
        };
        self.nested(start, &mut found).await?;
        Ok(found)
    }

    /// Active Directory: every group of `dn` in one search.
    async fn in_chain(&self, dn: &str) -> Result<Vec<Group>, DirectoryError> {
        let base = match &self.membership.base {
            Some(base) => base.clone(),
            None => self.naming_context().await?.to_owned(),
        };
        let filter = format!(
            "(&(objectClass=group)(member:{IN_CHAIN}:={}))",
            ldap_escape(dn)
        );
        let wanted = [self.membership.settings.name_attribute.clone()];
        let entries = self.search(&base, &filter, &wanted).await?;
        let mut found = Vec::new();
        for entry in entries {
            let name = self.name_in(&entry);
            push(&mut found, Group { dn: entry.dn, name });
        }
        Ok(found)
    }

    /// Other servers: the groups of each of `level`, then theirs, into `found`.
    async fn nested(
        &self,
        mut level: Vec<String>,
        found: &mut Vec<Group>,
    ) -> Result<(), DirectoryError> {
        let settings = &self.membership.settings;
        let base = self.membership.base.as_deref().unwrap_or(&self.user_base);
        let wanted = [settings.name_attribute.clone()];
        for _ in 0..MAX_DEPTH {
            let mut next = Vec::new();
            for member in &level {
                let filter = fill(&settings.filter, "{dn}", member);
                for entry in self.search(base, &filter, &wanted).await? {
                    let name = self.name_in(&entry);
                    let dn = entry.dn;
                    if push(
                        found,
                        Group {
                            dn: dn.clone(),
                            name,
                        },
                    ) {
                        next.push(dn);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        Ok(())
    }

    /// The name of a group entry read with its name attribute (else its first RDN's value).
    fn name_in(&self, entry: &DirectoryUser) -> String {
        let attribute = &self.membership.settings.name_attribute;
        entry
            .attributes
            .get(attribute)
            .and_then(|values| values.first())
            .cloned()
            .or_else(|| first_rdn_value(&entry.dn, attribute))
            .unwrap_or_else(|| entry.dn.clone())
    }

    /// The name of the group `dn`: its first RDN's value when the RDN is the name attribute
    /// (`cn=finance-team,...`), else read from its entry.
    async fn name_of(&self, dn: &str) -> Result<String, DirectoryError> {
        let attribute = &self.membership.settings.name_attribute;
        if let Some(name) = first_rdn_value(dn, attribute) {
            return Ok(name);
        }
        let wanted = [attribute.clone()];
        let entries = self
            .search_in(ldap3::Scope::Base, dn, "(objectClass=*)", &wanted)
            .await?;
        Ok(entries
            .first()
            .map(|entry| self.name_in(entry))
            .unwrap_or_else(|| dn.to_owned()))
    }
}

/// Adds `group` unless it is there already (DNs compared without case) or `found` is full;
/// answers whether it was added.
fn push(found: &mut Vec<Group>, group: Group) -> bool {
    let known = found.iter().any(|g| g.dn.eq_ignore_ascii_case(&group.dn));
    if known || found.len() >= MAX_GROUPS {
        return false;
    }
    found.push(group);
    true
}
