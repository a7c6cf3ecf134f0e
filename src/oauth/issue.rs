//! Issuing codes and tokens: the raw values go to the client once, the store keeps digests.

use super::authorize::{redirect_with, AuthorizationRequest};
use super::token::TokenSuccess;
use super::{Context, OAuthError};
use crate::clock::UnixTime;
use crate::domain::secret::random_id;
use crate::domain::{Claims, ClientId, ScopeSet, SecretToken, SigningAlg};
use crate::oidc::id_token::{self, IdTokenFacts};
use crate::store::{
    AccessRecord, CodeRecord, Issuance, PendingRequest, RefreshRecord, SessionRecord, StoreError,
};

/// Who the code is for: the signed-in user's claims and when they last signed in.
pub struct Subject<'a> {
    /// Every claim of the user (filtered here by the granted scopes).
    pub claims: &'a Claims,
    /// Time of the password sign-in.
    pub auth_time: UnixTime,
    /// Authentication methods of the sign-in (RFC 8176).
    pub amr: &'a [String],
    /// The public id of the SSO session the code is issued in (the id_token's `sid`).
    pub sid: Option<&'a str>,
}

impl<'a> Subject<'a> {
    /// The user signed in to `session`.
    pub fn of(session: &'a SessionRecord) -> Self {
        Self {
            claims: &session.claims,
            auth_time: session.auth_time,
            amr: &session.amr,
            sid: session.sid.as_deref(),
        }
    }
}

/// Issues a one-time code for an approved request and answers the redirect location
/// `<redirect_uri>?code=…&state=…`.
pub async fn issue_code(
    cx: &impl Context,
    request: &AuthorizationRequest,
    subject: Subject<'_>,
) -> Result<String, StoreError> {
    let (code, record, ttl) = new_code(cx, request, subject);
    cx.store().put_code(&code.digest(), &record, ttl).await?;
    Ok(code_redirect(cx, request, &code))
}

/// Ends pending request `request_id` and issues the code that answers it, in one step; answers
/// the redirect location as [`issue_code`] does, or `None` when the request was already ended
/// (another form post finished it, or it expired): then no code is issued.
pub async fn finish_with_code(
    cx: &impl Context,
    request_id: &str,
    pending: &PendingRequest,
    subject: Subject<'_>,
) -> Result<Option<String>, StoreError> {
    let request = &pending.request;
    let (code, record, ttl) = new_code(cx, request, subject);
    let digest = code.digest();
    let store = cx.store();
    if !store
        .put_code_finishing(&digest, &record, ttl, request_id, pending)
        .await?
    {
        return Ok(None);
    }
    Ok(Some(code_redirect(cx, request, &code)))
}

/// A fresh code for `request`, its record and its TTL.
fn new_code(
    cx: &impl Context,
    request: &AuthorizationRequest,
    subject: Subject<'_>,
) -> (SecretToken, CodeRecord, u64) {
    let ttl = cx.token_settings().code_ttl.as_secs();
    let record = CodeRecord {
        client_id: request.client_id.clone(),
        redirect_uri: request.redirect_uri.clone(),
        scopes: request.scopes.clone(),
        claims: subject.claims.filtered(&request.scopes),
        code_challenge: request.code_challenge.clone(),
        auth_time: subject.auth_time,
        expires_at: cx.now() + ttl,
        nonce: request.oidc.nonce.clone(),
        amr: subject.amr.to_vec(),
        sid: subject.sid.map(str::to_owned),
    };
    (SecretToken::generate(), record, ttl)
}

/// Where the browser takes `code` to `request`'s app.
fn code_redirect(cx: &impl Context, request: &AuthorizationRequest, code: &SecretToken) -> String {
    let issuer = cx.issuer();
    let mut params = vec![("code", code.expose())];
    if let Some(s) = request.state.as_deref() {
        params.push(("state", s));
    }
    // RFC 9207: tells a client that talks to several servers which one answered.
    params.push(("iss", &issuer));
    redirect_with(&request.redirect_uri, &params)
}

/// What a new pair of tokens is about.
#[derive(Clone, Copy)]
pub struct TokenGrant<'a> {
    /// The token family: new for a code, inherited on refresh.
    pub grant_id: Option<&'a str>,
    /// The app.
    pub client_id: &'a ClientId,
    /// Scopes the user granted (the refresh token keeps these).
    pub grant_scopes: &'a ScopeSet,
    /// Scopes of the new access token (equal or narrower).
    pub token_scopes: &'a ScopeSet,
    /// The user's claims, filtered here by `token_scopes`.
    pub claims: &'a Claims,
    /// Time of the password sign-in.
    pub auth_time: UnixTime,
    /// Authentication methods of the sign-in (RFC 8176).
    pub amr: &'a [String],
    /// The app's id_token algorithm (`None`: the service's default).
    pub id_token_alg: Option<SigningAlg>,
    /// The public id of the SSO session the grant came from (the id_token's `sid`).
    pub sid: Option<&'a str>,
}

/// The issuing step both grants share: mints an access and a refresh token and signs the
/// id_token beside them. Answers the records to store and the response to send once stored.
/// `nonce` is the authorize request's, on code exchange only (OpenID Connect Core §12.2).
pub async fn issue_tokens(
    cx: &impl Context,
    grant: TokenGrant<'_>,
    nonce: Option<&str>,
) -> Result<(Issuance, TokenSuccess), OAuthError> {
    let (issuance, mut response) = mint(cx, grant);
    let id_token = sign_id_token(cx, grant, &issuance.access, nonce, &response.access_token);
    response.id_token = Some(id_token.await?);
    Ok((issuance, response))
}

/// Signs the id_token answered beside `access_token`, whose record is `access` (the app, and
/// the claims filtered by the token's scopes): on issuance, and again for the successor a
/// retried refresh gets, whose seal leaves the id_token out.
pub async fn sign_id_token(
    cx: &impl Context,
    grant: TokenGrant<'_>,
    access: &AccessRecord,
    nonce: Option<&str>,
    access_token: &str,
) -> Result<String, OAuthError> {
    let facts = IdTokenFacts {
        client_id: access.client_id.as_str(),
        claims: &access.claims,
        auth_time: grant.auth_time,
        nonce,
        amr: grant.amr,
        alg: grant.id_token_alg,
        sid: grant.sid,
    };
    Ok(id_token::sign(cx, facts, access_token).await?)
}

/// Mints an access and refresh token: the records to store and the response to send.
fn mint(cx: &impl Context, grant: TokenGrant<'_>) -> (Issuance, TokenSuccess) {
    let tokens = cx.token_settings();
    let (access_ttl, refresh_ttl) = (tokens.access_ttl.as_secs(), tokens.refresh_ttl.as_secs());
    let now = cx.now();
    let grant_id = grant
        .grant_id
        .map(str::to_owned)
        .unwrap_or_else(|| random_id(16));
    let access = SecretToken::generate();
    let refresh = SecretToken::generate();
    let issuance = Issuance {
        grant_id: grant_id.clone(),
        access_digest: access.digest(),
        access: AccessRecord {
            grant_id: grant_id.clone(),
            client_id: grant.client_id.clone(),
            scopes: grant.token_scopes.clone(),
            claims: grant.claims.filtered(grant.token_scopes),
            expires_at: now + access_ttl,
        },
        access_ttl,
        refresh_digest: refresh.digest(),
        refresh: RefreshRecord {
            grant_id,
            client_id: grant.client_id.clone(),
            sub: grant.claims.sub().to_owned(),
            scopes: grant.grant_scopes.clone(),
            auth_time: grant.auth_time,
            expires_at: now + refresh_ttl,
            amr: grant.amr.to_vec(),
            sid: grant.sid.map(str::to_owned),
        },
        refresh_ttl,
    };
    let response = TokenSuccess {
        access_token: access.expose().to_owned(),
        token_type: "Bearer".into(),
        expires_in: access_ttl,
        refresh_token: refresh.expose().to_owned(),
        scope: grant.token_scopes.to_string(),
        id_token: None,
    };
    (issuance, response)
}
