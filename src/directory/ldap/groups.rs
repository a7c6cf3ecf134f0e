//! Group membership for the second-factor policy: the extra user attributes it reads, and the
//! group search (`mfa.group_lookup = "search"`).

use super::{fill, DirectoryError, LdapDirectory};

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
        }
        self.groups.1 = group_filter.to_owned();
        self
    }

    /// DNs of the groups the filter finds for the entry `dn`; none when no search is set up.
    pub(super) async fn find_groups(&self, dn: &str) -> Result<Vec<String>, DirectoryError> {
        let (base, template) = &self.groups;
        if template.is_empty() || dn.is_empty() {
            return Ok(Vec::new());
        }
        let filter = fill(template, "{dn}", dn);
        // "1.1": no attributes, the DNs are all the policy needs.
        let no_attributes = ["1.1".to_owned()];
        let groups = self
            .within(
                self.lookup_budget,
                self.search(base, &filter, &no_attributes),
            )
            .await?;
        Ok(groups.into_iter().map(|g| g.dn).collect())
    }
}
