//! Who must pass a second factor: by role, by group membership, or by a per-user attribute.

use super::Context;
use super::MfaError;
use crate::directory::DirectoryUser;
use crate::domain::dn::dn_in;
use crate::domain::Claims;

/// Whether the policy puts this user under the second factor. The role comes from the claims;
/// groups and the per-user attribute from the directory entry (`user`, or looked up by
/// subject when needed and not given).
pub async fn applies(
    cx: &impl Context,
    claims: &Claims,
    user: Option<&DirectoryUser>,
) -> Result<bool, MfaError> {
    let mfa = cx.mfa_settings();
    if let Some(role) = claims.role() {
        if mfa
            .required_roles
            .iter()
            .any(|r| r.eq_ignore_ascii_case(role.as_str()))
        {
            return Ok(true);
        }
    }
    if mfa.required_groups.is_empty() && mfa.user_attribute.is_none() {
        return Ok(false);
    }
    let looked_up;
    let user = match user {
        Some(user) => user,
        None => match cx.directory().lookup(claims.sub()).await? {
            Some(found) => {
                looked_up = found;
                &looked_up
            }
            // Gone from the directory: the session is useless anyway; ask for the factor.
            None => return Ok(true),
        },
    };
    if by_attribute(cx, user) {
        return Ok(true);
    }
    Ok(in_required_group(cx, user))
}

fn by_attribute(cx: &impl Context, user: &DirectoryUser) -> bool {
    let mfa = cx.mfa_settings();
    let Some(attribute) = &mfa.user_attribute else {
        return false;
    };
    user.attributes
        .get(&attribute.to_ascii_lowercase())
        .is_some_and(|values| {
            values
                .iter()
                .any(|v| v.trim().eq_ignore_ascii_case(&mfa.user_attribute_value))
        })
}

/// Whether the user is a member (nested membership counted) of a required group: the groups
/// the directory read with their entry.
fn in_required_group(cx: &impl Context, user: &DirectoryUser) -> bool {
    let required = &cx.mfa_settings().required_groups;
    user.groups.iter().any(|g| dn_in(&g.dn, required))
}
