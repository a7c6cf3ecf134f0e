//! What Active Directory adds to LDAP sign-in: one account behind the names `jdoe`,
//! `jdoe@corp.example` and `CORP\jdoe`, with the domain's NetBIOS name read from the
//! directory (the crossRef of the domain under `CN=Partitions` of the configuration).

use super::{fill, DirectoryError, LdapDirectory};
use crate::config::DirectoryFlavor;
use ldap3::{ldap_escape, Scope};

impl LdapDirectory {
    /// The name to fill into the user filter for `username`: on Active Directory,
    /// `<NETBIOS>\jdoe` is `jdoe` when NETBIOS is this domain's (another domain's stays as
    /// typed, and so finds no one).
    pub(super) async fn filter_name<'a>(
        &self,
        username: &'a str,
    ) -> Result<&'a str, DirectoryError> {
        if self.flavor != DirectoryFlavor::ActiveDirectory {
            return Ok(username);
        }
        let Some((domain, name)) = username.split_once('\\') else {
            return Ok(username);
        };
        if domain.eq_ignore_ascii_case(self.netbios().await?) {
            Ok(name)
        } else {
            Ok(username)
        }
    }

    /// The account a sign-in name names, for the attempt limits: on Active Directory the
    /// sAMAccountName (lowercase) of the one entry the user filter finds; the name itself
    /// otherwise, and when no single entry matches.
    pub(super) async fn canonical_account(&self, username: &str) -> Result<String, DirectoryError> {
        let name = self.filter_name(username).await?;
        // Without '@' the name is the sAMAccountName already: no search needed.
        if self.flavor != DirectoryFlavor::ActiveDirectory || !name.contains('@') {
            return Ok(name.to_lowercase());
        }
        let filter = fill(&self.user_filter, "{username}", name);
        let found = self
            .search_person(&filter, &[SAM_ACCOUNT_NAME.to_owned()])
            .await?;
        let sam = match found.as_slice() {
            [one] => one
                .attributes
                .get(&SAM_ACCOUNT_NAME.to_ascii_lowercase())
                .and_then(|values| values.first()),
            _ => None,
        };
        Ok(sam.map_or(name, String::as_str).to_lowercase())
    }

    /// The domain's NetBIOS name, read once and kept: it never changes while a domain lives.
    async fn netbios(&self) -> Result<&str, DirectoryError> {
        Ok(&self.domain().await?.netbios)
    }

    /// The domain's naming context (`DC=corp,DC=example`), read with the NetBIOS name.
    pub(super) async fn naming_context(&self) -> Result<&str, DirectoryError> {
        Ok(&self.domain().await?.naming_context)
    }

    async fn domain(&self) -> Result<&Domain, DirectoryError> {
        self.domain.get_or_try_init(|| self.read_domain()).await
    }

    async fn read_domain(&self) -> Result<Domain, DirectoryError> {
        let contexts = [CONFIGURATION_NC.to_owned(), DEFAULT_NC.to_owned()];
        let root = self
            .search_in(Scope::Base, "", "(objectClass=*)", &contexts)
            .await?;
        let value = |entry: Option<&super::DirectoryUser>, name: &str| {
            entry
                .and_then(|e| e.attributes.get(&name.to_ascii_lowercase()))
                .and_then(|values| values.first())
                .cloned()
        };
        let (Some(configuration), Some(domain)) = (
            value(root.first(), CONFIGURATION_NC),
            value(root.first(), DEFAULT_NC),
        ) else {
            return Err(not_a_domain("its root entry names no naming contexts"));
        };
        let filter = format!(
            "(&(objectClass=crossRef)(nCName={})(nETBIOSName=*))",
            ldap_escape(&domain)
        );
        let partitions = format!("CN=Partitions,{configuration}");
        let found = self
            .search_in(
                Scope::OneLevel,
                &partitions,
                &filter,
                &[NETBIOS_NAME.to_owned()],
            )
            .await?;
        let netbios = value(found.first(), NETBIOS_NAME).ok_or_else(|| {
            not_a_domain(&format!("no crossRef under {partitions} names {domain}"))
        })?;
        Ok(Domain {
            netbios,
            naming_context: domain,
        })
    }
}

/// What sso-bridge reads of an Active Directory domain once.
#[derive(Debug)]
pub(super) struct Domain {
    netbios: String,
    naming_context: String,
}

const SAM_ACCOUNT_NAME: &str = "sAMAccountName";
const NETBIOS_NAME: &str = "nETBIOSName";
const CONFIGURATION_NC: &str = "configurationNamingContext";
const DEFAULT_NC: &str = "defaultNamingContext";

/// The server answers, but not as an Active Directory domain controller does.
fn not_a_domain(why: &str) -> DirectoryError {
    DirectoryError::Unavailable(format!(
        "directory.flavor is active_directory, but the NetBIOS name of the domain cannot be \
         read: {why}"
    ))
}
