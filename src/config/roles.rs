//! `[roles]`: the `role` claim (docs/src/protocol.md, Claims) that membership of directory groups
//! gives, nested groups included. When any is set, `role` comes from groups instead of
//! `claims.role`.

use super::value;
use crate::domain::dn::dn_in;
use crate::domain::Role;
use serde::Deserialize;

/// Group DNs of each role (`roles.<role>` settings).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoleGroups {
    /// Members are `superadmin`.
    #[serde(deserialize_with = "value::dn_list")]
    pub superadmin: Vec<String>,
    /// Members are `admin`.
    #[serde(deserialize_with = "value::dn_list")]
    pub admin: Vec<String>,
    /// Members are `ceo`.
    #[serde(deserialize_with = "value::dn_list")]
    pub ceo: Vec<String>,
    /// Members are `hr`.
    #[serde(deserialize_with = "value::dn_list")]
    pub hr: Vec<String>,
    /// Members are `finance`.
    #[serde(deserialize_with = "value::dn_list")]
    pub finance: Vec<String>,
    /// Members are `manager`.
    #[serde(deserialize_with = "value::dn_list")]
    pub manager: Vec<String>,
    /// Members are `employee`.
    #[serde(deserialize_with = "value::dn_list")]
    pub employee: Vec<String>,
}

impl RoleGroups {
    /// Whether no role names a group: `role` then comes from `claims.role`.
    pub fn is_empty(&self) -> bool {
        self.ranked().iter().all(|(_, groups)| groups.is_empty())
    }

    /// Each role with its groups, the highest role first.
    pub fn ranked(&self) -> [(Role, &[String]); 7] {
        [
            (Role::Superadmin, &self.superadmin),
            (Role::Admin, &self.admin),
            (Role::Ceo, &self.ceo),
            (Role::Hr, &self.hr),
            (Role::Finance, &self.finance),
            (Role::Manager, &self.manager),
            (Role::Employee, &self.employee),
        ]
    }

    /// The highest role one of `groups` (a person's groups, nested included) gives; `None`
    /// when none of them is named here.
    pub fn role_of(&self, groups: &[String]) -> Option<Role> {
        self.ranked()
            .into_iter()
            .find(|(_, named)| groups.iter().any(|group| dn_in(group, named)))
            .map(|(role, _)| role)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::config::Settings;

    #[test]
    fn the_highest_role_among_the_groups_wins() {
        let roles = RoleGroups {
            finance: vec!["CN=Finance,OU=Groups,DC=corp,DC=example".into()],
            admin: vec!["CN=IT Admins,OU=Groups,DC=corp,DC=example".into()],
            employee: vec!["CN=Staff,OU=Groups,DC=corp,DC=example".into()],
            ..RoleGroups::default()
        };
        let groups = |names: &[&str]| -> Vec<String> {
            names
                .iter()
                .map(|n| format!("cn={n},ou=groups,dc=corp,dc=example"))
                .collect()
        };
        assert_eq!(
            roles.role_of(&groups(&["staff", "finance", "it admins"])),
            Some(Role::Admin)
        );
        assert_eq!(
            roles.role_of(&groups(&["staff", "finance"])),
            Some(Role::Finance)
        );
        assert_eq!(roles.role_of(&groups(&["sales"])), None);
        assert!(!roles.is_empty());
        assert!(RoleGroups::default().is_empty());
    }

    #[test]
    fn role_groups_come_from_settings_as_semicolon_separated_dns() {
        let env = [(
            "SSO_BRIDGE__ROLES__HR".to_owned(),
            "CN=HR,DC=corp,DC=example; CN=People Ops,DC=corp,DC=example".to_owned(),
        )];
        let s = Settings::load_from(None, env).unwrap();
        assert_eq!(
            s.roles.hr,
            [
                "CN=HR,DC=corp,DC=example",
                "CN=People Ops,DC=corp,DC=example"
            ]
        );
        assert!(Settings::load_from(None, Vec::new())
            .unwrap()
            .roles
            .is_empty());
    }
}
