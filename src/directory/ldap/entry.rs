//! User entries as the directory hands them upward: which attributes are read, and how the
//! values of a search entry become [`DirectoryUser`] attributes.

use super::{account_state, guid};
use crate::directory::{Attributes, DirectoryUser};
use ldap3::SearchEntry;

/// The attributes to read of a user entry: the claims' and what tells an unusable account.
pub(super) fn with_states(mut attributes: Vec<String>) -> Vec<String> {
    for name in account_state::ATTRIBUTES {
        if !attributes.iter().any(|a| a.eq_ignore_ascii_case(name)) {
            attributes.push(name.to_owned());
        }
    }
    attributes
}

/// An entry as handed upward: its DN, and its attributes with lowercased names. An
/// `objectGUID` is written as its GUID string; other values that are not UTF-8 (photos,
/// certificates) are left out, as no claim reads them.
pub(super) fn to_user(entry: SearchEntry) -> DirectoryUser {
    let mut attributes = Attributes::new();
    for (name, values) in entry.attrs {
        if name.eq_ignore_ascii_case(guid::OBJECT_GUID) {
            // Sixteen bytes that happen to be UTF-8 arrive here rather than in `bin_attrs`.
            let guids = values.iter().filter_map(|v| guid::render(v.as_bytes()));
            attributes
                .entry(name.to_ascii_lowercase())
                .or_default()
                .extend(guids);
            continue;
        }
        attributes
            .entry(name.to_ascii_lowercase())
            .or_default()
            .extend(values);
    }
    for (name, values) in entry.bin_attrs {
        if name.eq_ignore_ascii_case(guid::OBJECT_GUID) {
            let guids = values.iter().filter_map(|v| guid::render(v));
            attributes
                .entry(name.to_ascii_lowercase())
                .or_default()
                .extend(guids);
        }
    }
    DirectoryUser {
        dn: entry.dn,
        attributes,
        groups: Vec::new(),
    }
}
