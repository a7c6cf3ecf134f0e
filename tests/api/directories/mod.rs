//! LDAP and Active Directory: lookups, failover, renames and people who leave.

pub(crate) mod active_directory;
pub(crate) mod directory_failover;
pub(crate) mod directory_ldap;
pub(crate) mod directory_scale;
pub(crate) mod leavers;
pub(crate) mod lookups_together;
pub(crate) mod renames;
