//! Group membership, nested groups included: for the second-factor policy (the extra user
//! attributes it reads, `mfa.group_lookup = "search"`, `mfa.required_groups`) and for roles
//! from groups (`[roles]`).
//!
//! Active Directory answers every group a person is in, however deeply nested, in one search
//! with `LDAP_MATCHING_RULE_IN_CHAIN`. Other servers are asked level by level with the group
//! filter, bounded in depth and in count so a cycle or a huge tree cannot stall a sign-in.

use super::{fill, DirectoryError, DirectoryUser, LdapDirectory};
use crate::config::{DirectoryFlavor, RoleGroups};
use ldap3::ldap_escape;

/// `LDAP_MATCHING_RULE_IN_CHAIN`: AD follows `member` links transitively.
const IN_CHAIN: &str = "1.2.840.113556.1.4.1941";
/// Nesting levels followed on servers without the in-chain rule.
const MAX_DEPTH: usize = 8;
/// Groups collected at most, on servers without the in-chain rule.
const MAX_GROUPS: usize = 1000;

/// What of a person's membership the directory reads with their entry.
#[derive(Debug, Default)]
pub struct Membership {
    /// `[roles]`, and the (lowercase) attribute the role is written into for the claim mapping.
    roles: Option<(RoleGroups, String)>,
    /// The (lowercase) attribute listing the person's groups for `mfa.required_groups`, filled
    /// with every group, nested included.
    member_attribute: Option<String>,
    /// Filter finding the groups that list `{dn}` as a member (other servers than AD).
    group_filter: String,
    /// Whether `mfa.group_base` was set; else AD's groups are searched in the whole domain.
    group_base_set: bool,
}

impl LdapDirectory {
    /// Also reads `attributes` of user entries (the policy's group and per-user attributes),
    /// and finds groups under `group_base` (empty: the user base) with `group_filter`.
    pub fn with_policy(
        mut self,
        attributes: &[String],
        group_base: &str,
        group_filter: &str,
    ) -> Self {
        for attribute in attributes {
            if !self
                .attributes
                .iter()
                .any(|a| a.eq_ignore_ascii_case(attribute))
            {
                self.attributes.push(attribute.clone());
            }
        }
        if !group_base.is_empty() {
            self.groups.0 = group_base.to_owned();
            self.membership.group_base_set = true;
        }
        self.groups.1 = group_filter.to_owned();
        self
    }

    /// Reads every group of a person with their entry, nested included: the highest of
    /// `roles` becomes the value of `role_attribute` (none when `roles` is empty), and, when
    /// `member_attribute` is given, the groups become its values. `group_filter` (`{dn}`)
    /// finds the groups of an entry on servers other than Active Directory.
    pub fn with_membership(
        mut self,
        roles: &RoleGroups,
        role_attribute: &str,
        member_attribute: Option<&str>,
        group_filter: &str,
    ) -> Self {
        if !roles.is_empty() {
            self.membership.roles = Some((roles.clone(), role_attribute.to_ascii_lowercase()));
        }
        self.membership.member_attribute = member_attribute.map(str::to_ascii_lowercase);
        self.membership.group_filter = group_filter.to_owned();
        self
    }

    /// DNs of the groups of the entry `dn`, nested included; none when no search is set up.
    pub(super) async fn find_groups(&self, dn: &str) -> Result<Vec<String>, DirectoryError> {
        if self.groups.1.is_empty() || dn.is_empty() {
            return Ok(Vec::new());
        }
        self.within(self.lookup_budget, self.nested_groups(dn, &self.groups.1))
            .await
    }

    /// Writes what `with_membership` asked for into `user`'s attributes.
    pub(super) async fn annotate(&self, user: &mut DirectoryUser) -> Result<(), DirectoryError> {
        let membership = &self.membership;
        if membership.roles.is_none() && membership.member_attribute.is_none() {
            return Ok(());
        }
        let groups = self
            .nested_groups(&user.dn, &membership.group_filter)
            .await?;
        if let Some((roles, attribute)) = &membership.roles {
            let role = roles.role_of(&groups);
            // Replaces whatever the entry holds there: with [roles] set, only groups count.
            user.attributes.insert(
                attribute.clone(),
                role.map(|r| vec![r.as_str().to_owned()])
                    .unwrap_or_default(),
            );
        }
        if let Some(attribute) = &membership.member_attribute {
            let listed = user.attributes.entry(attribute.clone()).or_default();
            for group in groups {
                if !listed.iter().any(|g| g.eq_ignore_ascii_case(&group)) {
                    listed.push(group);
                }
            }
        }
        Ok(())
    }

    /// Every group the entry `dn` is in, directly or through other groups.
    async fn nested_groups(&self, dn: &str, template: &str) -> Result<Vec<String>, DirectoryError> {
        // "1.1": no attributes, the DNs are all that is needed.
        let no_attributes = ["1.1".to_owned()];
        if self.flavor == DirectoryFlavor::ActiveDirectory {
            let base = if self.membership.group_base_set {
                self.groups.0.clone()
            } else {
                self.naming_context().await?.to_owned()
            };
            let filter = format!(
                "(&(objectClass=group)(member:{IN_CHAIN}:={}))",
                ldap_escape(dn)
            );
            let found = self.search(&base, &filter, &no_attributes).await?;
            return Ok(found.into_iter().map(|g| g.dn).collect());
        }
        let mut found: Vec<String> = Vec::new();
        let mut level = vec![dn.to_owned()];
        for _ in 0..MAX_DEPTH {
            let mut next = Vec::new();
            for member in &level {
                let filter = fill(template, "{dn}", member);
                for group in self.search(&self.groups.0, &filter, &no_attributes).await? {
                    let known = found.iter().any(|g| g.eq_ignore_ascii_case(&group.dn));
                    if !known && found.len() < MAX_GROUPS {
                        found.push(group.dn.clone());
                        next.push(group.dn);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        Ok(found)
    }
}
