//! What the token endpoint keeps: authorization codes, access and refresh tokens, and the
//! outcomes of redeeming and rotating them.

use crate::clock::UnixTime;
use crate::domain::{Claims, ClientId, Digest, ScopeSet};
use serde::{Deserialize, Serialize};

/// An authorization code as issued at the end of the browser flow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeRecord {
    /// The app the code was issued to.
    pub client_id: ClientId,
    /// The redirect URI the authorize request used; the token request must repeat it.
    pub redirect_uri: String,
    /// Granted scopes.
    pub scopes: ScopeSet,
    /// Claims released by `scopes`, snapshot at sign-in.
    pub claims: Claims,
    /// PKCE S256 challenge, when the app sent one.
    pub code_challenge: Option<String>,
    /// When the user last authenticated with a password.
    pub auth_time: UnixTime,
    /// When the code stops being redeemable.
    pub expires_at: UnixTime,
    /// OpenID Connect `nonce` of the authorize request, echoed in the id_token.
    #[serde(default)]
    pub nonce: Option<String>,
    /// Authentication methods of the sign-in (RFC 8176 `amr`).
    #[serde(default)]
    pub amr: Vec<String>,
    /// The public id of the SSO session the code was issued in (the id_token's `sid`). Absent
    /// in codes written before sessions had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sid: Option<String>,
}

/// A code read back from the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredCode {
    /// The code as issued.
    pub record: CodeRecord,
    /// The grant a redemption issued, once the code has been consumed.
    pub consumed_by: Option<String>,
}

/// What `/oauth/userinfo` answers from: one read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccessRecord {
    /// The grant (token family) this token belongs to.
    pub grant_id: String,
    /// The app it was issued to.
    pub client_id: ClientId,
    /// Scopes of this token (may be narrower than the grant's).
    pub scopes: ScopeSet,
    /// Claims released by `scopes`.
    pub claims: Claims,
    /// When it stops being accepted.
    pub expires_at: UnixTime,
}

/// A refresh token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefreshRecord {
    /// The grant (token family) this token belongs to.
    pub grant_id: String,
    /// The app it was issued to.
    pub client_id: ClientId,
    /// The user.
    pub sub: String,
    /// Scopes originally granted; a refresh may ask for these or fewer.
    pub scopes: ScopeSet,
    /// When the user last authenticated with a password.
    pub auth_time: UnixTime,
    /// When it stops being accepted.
    pub expires_at: UnixTime,
    /// Authentication methods of the sign-in (RFC 8176 `amr`), repeated in refreshed id_tokens.
    #[serde(default)]
    pub amr: Vec<String>,
    /// The public id of the SSO session the grant came from, repeated in refreshed id_tokens
    /// (`sid`). Absent in tokens written before sessions had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sid: Option<String>,
}

/// A refresh token read back from the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredRefresh {
    /// The token as issued.
    pub record: RefreshRecord,
    /// When it was rotated, if it has been.
    pub rotated_at: Option<UnixTime>,
}

/// A live grant of a person, as their account page lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserGrant {
    /// The grant (token family).
    pub grant_id: String,
    /// The newest refresh token of the grant still kept: its app, scopes and session.
    pub refresh: RefreshRecord,
}

/// The tokens one successful redemption or rotation writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issuance {
    /// The grant (token family); a redemption starts one, a rotation continues it.
    pub grant_id: String,
    /// Digest of the new access token.
    pub access_digest: Digest,
    /// The new access token's record.
    pub access: AccessRecord,
    /// Seconds until the access token expires.
    pub access_ttl: u64,
    /// Digest of the new refresh token.
    pub refresh_digest: Digest,
    /// The new refresh token's record.
    pub refresh: RefreshRecord,
    /// Seconds until the refresh token expires; the grant's index lives at least this long.
    pub refresh_ttl: u64,
}

/// Outcome of [`crate::store::GrantStore::redeem_code`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Redemption {
    /// The code was valid and unused; the issuance was written.
    Issued,
    /// No such code (never issued, or expired).
    NotFound,
    /// The code had been redeemed before; the grant it issued has now been revoked.
    Replayed,
    /// The app is disabled or deleted: nothing was written and the code is left as it was.
    AppDisabled,
}

/// Outcome of [`crate::store::GrantStore::rotate_refresh`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rotation {
    /// The token was active; the issuance was written.
    Rotated,
    /// The token was rotated moments ago (a client retry): here is the successor, sealed.
    Grace(String),
    /// The token had been rotated before the grace window: the whole family was revoked.
    Reused,
    /// No such token (never issued, expired or revoked).
    NotFound,
    /// The app is disabled or deleted: nothing was written and the token is left as it was.
    AppDisabled,
}
