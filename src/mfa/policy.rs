//! Who must pass a second factor: by role, by group membership, or by a per-user attribute.

use super::Context;
use super::MfaError;
use crate::config::GroupLookup;
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
    in_required_group(cx, user).await
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

async fn in_required_group(cx: &impl Context, user: &DirectoryUser) -> Result<bool, MfaError> {
    let mfa = cx.mfa_settings();
    if mfa.required_groups.is_empty() {
        return Ok(false);
    }
    let groups = match mfa.group_lookup {
        GroupLookup::Memberof => user
            .attributes
            .get(&mfa.member_attribute.to_ascii_lowercase())
            .cloned()
            .unwrap_or_default(),
        GroupLookup::Search => cx.directory().groups_of(&user.dn).await?,
    };
    Ok(groups.iter().any(|g| dn_in(g, &mfa.required_groups)))
}
