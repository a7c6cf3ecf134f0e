//! A subject that survives renames: `claims.sub` naming Active Directory's `objectGUID` or
//! OpenLDAP's `entryUUID` keeps a person's `sub`, remembered consents and tokens when their
//! username changes, and the new name signs in.

use crate::active_directory::{
    sign_in_response, spawn_ad_app, userinfo_after_sign_in, GUID_SUBJECT,
};
use crate::helpers::*;
use crate::mfa_helpers::register_direct;
use crate::support::samba::{Samba, USER_PASSWORD};
use crate::support::slapd::Slapd;
use reqwest::StatusCode;

/// Signs in after a rename and checks what must have survived it: the same `sub`, the
/// consent remembered (no consent page: straight back to the app), the earlier refresh token.
async fn assert_survives_rename(
    app: &TestApp,
    registered: &Registered,
    sub_before: &str,
    refresh_before: &str,
    new_name: &str,
    password: &str,
) {
    let signed_in = sign_in_response(app, registered, new_name, password).await;
    assert_eq!(signed_in.status(), StatusCode::SEE_OTHER);
    assert!(
        location(&signed_in).starts_with(&registered.redirect_uri),
        "the consent is remembered: {}",
        location(&signed_in)
    );
    let refreshed = app.refresh(registered, refresh_before).await;
    assert_eq!(refreshed.status(), StatusCode::OK, "the old refresh token");
    let refreshed: serde_json::Value = refreshed.json().await.unwrap();
    let info: serde_json::Value = app
        .userinfo(refreshed["access_token"].as_str().unwrap())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(info["sub"], sub_before);
}

#[tokio::test]
async fn the_object_guid_is_the_subject_written_as_ad_tools_write_it() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let sam = Samba::unique("guid");
    let person = samba.add_user(&sam, &[]);
    let app = spawn_ad_app(&GUID_SUBJECT).await;
    let registered = register_direct(&app).await;

    let (_, info) = userinfo_after_sign_in(&app, &registered, &sam, USER_PASSWORD).await;

    assert_eq!(info["sub"], samba.object_guid(&person.dn).as_str());
}

#[tokio::test]
async fn a_renamed_domain_account_keeps_its_object_guid_subject_consents_and_tokens() {
    let Some(samba) = Samba::shared() else {
        return;
    };
    let person = samba.add_user(&Samba::unique("before"), &[]);
    let app = spawn_ad_app(&GUID_SUBJECT).await;
    let registered = register_direct(&app).await;
    let (tokens, info) =
        userinfo_after_sign_in(&app, &registered, &person.sam, &person.password).await;

    let renamed = samba.rename(&person, &Samba::unique("after"));

    assert_eq!(
        sign_in_response(&app, &registered, &person.sam, &person.password)
            .await
            .status(),
        StatusCode::UNAUTHORIZED,
        "the old name is gone"
    );
    assert_survives_rename(
        &app,
        &registered,
        info["sub"].as_str().unwrap(),
        tokens["refresh_token"].as_str().unwrap(),
        &renamed.sam,
        &renamed.password,
    )
    .await;
}

#[tokio::test]
async fn a_renamed_openldap_entry_keeps_its_entry_uuid_subject_consents_and_tokens() {
    // A private slapd: the shared one's people must keep their names.
    let slapd = Slapd::start();
    let app = spawn_app_with(
        Backends::Real,
        &[
            ("SSO_BRIDGE__DIRECTORY__URL", slapd.url()),
            ("SSO_BRIDGE__CLAIMS__SUB", "entryUUID".into()),
            (
                "SSO_BRIDGE__DIRECTORY__LOOKUP_FILTER",
                "(&(objectClass=inetOrgPerson)(entryUUID={sub}))".into(),
            ),
        ],
    )
    .await;
    let registered = register_direct(&app).await;
    let (tokens, info) = userinfo_after_sign_in(&app, &registered, "alan", "alan-pw").await;
    let sub = info["sub"].as_str().unwrap().to_owned();
    assert_eq!(sub.len(), 36, "a UUID: {sub}");

    slapd.rename("uid=alan,ou=people,dc=example,dc=com", "uid=alan.turing");

    assert_survives_rename(
        &app,
        &registered,
        &sub,
        tokens["refresh_token"].as_str().unwrap(),
        "alan.turing",
        "alan-pw",
    )
    .await;
}
