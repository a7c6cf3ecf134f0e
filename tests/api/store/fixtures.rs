//! What the shared store tests are made of: the two subjects, records and small helpers.

use crate::support::redis::RedisServer;
use sso_bridge::clock::{Clock, OffsetClock, UnixTime};
use sso_bridge::config::{StoreBackend, StoreSettings};
use sso_bridge::domain::secret::random_id;
use sso_bridge::domain::{
    AuthorizationRequest, Claims, ClientId, ClientRecord, Digest, OidcParams, RedirectUri, ScopeSet,
};
use sso_bridge::store::memory::MemoryStore;
use sso_bridge::store::redis::RedisStore;
use sso_bridge::store::*;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// A store under test, and a way to make time pass for it.
pub struct Subject {
    pub store: Arc<dyn Store>,
    clock: OffsetClock,
    server: Option<Arc<RedisServer>>,
}

impl Subject {
    pub fn memory() -> Subject {
        let clock = OffsetClock::default();
        let store = Arc::new(MemoryStore::new(Arc::new(clock.clone())));
        Subject {
            store,
            clock,
            server: None,
        }
    }

    pub fn redis() -> Subject {
        let server = RedisServer::shared();
        let store = RedisStore::new(&redis_settings(&server.url(), 1000)).unwrap();
        Subject {
            store: Arc::new(store),
            clock: OffsetClock::default(),
            server: Some(server),
        }
    }

    /// The application clock's now.
    pub fn now(&self) -> UnixTime {
        self.clock.now()
    }

    /// A TTL short enough to wait out: real seconds in Redis, clock seconds in memory.
    pub fn short_ttl(&self) -> u64 {
        if self.server.is_some() {
            1
        } else {
            60
        }
    }

    /// Lets `ttl` seconds (and a bit) pass for the store.
    pub async fn outlive(&self, ttl: u64) {
        match self.server {
            Some(_) => tokio::time::sleep(Duration::from_millis(ttl * 1000 + 500)).await,
            None => self.clock.advance(ttl as i64 + 1),
        }
    }
}

/// Settings of a Redis store with a fresh random key prefix.
pub fn redis_settings(url: &str, timeout_ms: u64) -> StoreSettings {
    StoreSettings {
        backend: StoreBackend::Redis,
        redis_url: url.to_owned().into(),
        password: None,
        sentinel: None,
        key_prefix: format!("test-{}:", random_id(9)),
        pool_size: 8,
        timeout: std::time::Duration::from_millis(timeout_ms),
    }
}

pub fn code_record(now: UnixTime) -> CodeRecord {
    let claims = BTreeMap::from([("sub".to_string(), "ada".to_string())]);
    CodeRecord {
        client_id: ClientId::generate(),
        redirect_uri: "https://app.example.com/callback".into(),
        scopes: ScopeSet::parse("openid profile").unwrap(),
        claims: Claims::new(claims).unwrap(),
        code_challenge: Some("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM".into()),
        auth_time: now,
        expires_at: now + 60,
        nonce: Some("n-0S6_WzA2Mj".into()),
        amr: vec!["pwd".into()],
        sid: None,
    }
}

/// A code record of a fresh app, registered (enabled) in `store` as the app of every real code
/// is: redeeming and rotating write nothing for an app that is not.
pub async fn code_record_in(store: &dyn Store, now: UnixTime) -> CodeRecord {
    let record = code_record(now);
    register(store, &record.client_id).await;
    record
}

/// Registers an enabled app under `id`.
pub async fn register(store: &dyn Store, id: &ClientId) {
    let app = ClientRecord {
        client_id: id.clone(),
        ..client("fixture app")
    };
    store.put_client(&app).await.unwrap();
}

/// What redeeming `code` or rotating a token of `grant_id` writes, with fresh token digests.
pub fn issuance(grant_id: &str, code: &CodeRecord, ttl: u64) -> Issuance {
    let now = code.auth_time;
    Issuance {
        grant_id: grant_id.into(),
        access_digest: Digest::of(&random_id(32)),
        access: AccessRecord {
            grant_id: grant_id.into(),
            client_id: code.client_id.clone(),
            scopes: code.scopes.clone(),
            claims: code.claims.clone(),
            expires_at: now + ttl,
        },
        access_ttl: ttl,
        refresh_digest: Digest::of(&random_id(32)),
        refresh: RefreshRecord {
            grant_id: grant_id.into(),
            client_id: code.client_id.clone(),
            sub: code.claims.sub().into(),
            scopes: code.scopes.clone(),
            auth_time: now,
            expires_at: now + ttl,
            amr: code.amr.clone(),
            sid: code.sid.clone(),
        },
        refresh_ttl: ttl,
    }
}

/// A session of `sub`, signed in at `now` with a password.
pub fn session_record(now: UnixTime, sub: &str) -> SessionRecord {
    let claims = BTreeMap::from([("sub".to_string(), sub.to_string())]);
    SessionRecord {
        claims: Claims::new(claims).unwrap(),
        auth_time: now,
        amr: vec!["pwd".into()],
        expires_at: now + 3600,
        checked_at: Some(now),
        sid: Some(random_id(16)),
        device: None,
        last_seen: None,
    }
}

/// An authorize request waiting for sign-in, bound to a fresh browser.
pub fn pending_request() -> PendingRequest {
    PendingRequest {
        request: AuthorizationRequest {
            client_id: ClientId::generate(),
            redirect_uri: "https://app.example.com/callback".into(),
            scopes: ScopeSet::parse("openid profile").unwrap(),
            state: Some(random_id(8)),
            code_challenge: Some("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM".into()),
            oidc: OidcParams {
                nonce: Some("n-0S6_WzA2Mj".into()),
                max_age: Some(300),
                ui_locales: Some("de-CH fr".into()),
                ..OidcParams::default()
            },
        },
        csrf_token: random_id(32),
        browser: Digest::of(&random_id(32)),
        replaced_session: None,
        groups: Vec::new(),
        admitted_at: None,
    }
}

/// Limits on all pending requests that no test reaches.
pub const UNBOUNDED: PendingLimits = PendingLimits {
    requests: u64::MAX / 2,
    bytes: u64::MAX / 2,
};

pub fn client(name: &str) -> ClientRecord {
    ClientRecord {
        client_id: ClientId::generate(),
        name: name.into(),
        secret_digest: Some(Digest::of("client secret")),
        redirect_uris: vec![RedirectUri::parse("https://app.example.com/callback").unwrap()],
        require_pkce: true,
        enabled: true,
        created_by: "root".into(),
        created_at: 1_700_000_000,
        post_logout_redirect_uris: Vec::new(),
        may_introspect: false,
        id_token_signed_response_alg: None,
        revision: 0,
        allowed_roles: Vec::new(),
        allowed_groups: Vec::new(),
        web_origins: Vec::new(),
        backchannel_logout_uri: None,
    }
}

/// A fresh code stored and redeemed: the grant it started.
pub async fn redeemed(s: &Subject, grant: &str) -> (Digest, Issuance) {
    let code = Digest::of(&random_id(32));
    let record = code_record_in(s.store.as_ref(), s.now()).await;
    s.store.put_code(&code, &record, 60).await.unwrap();
    let issue = issuance(grant, &record, 3600);
    assert_eq!(
        s.store.redeem_code(&code, &issue).await.unwrap(),
        Redemption::Issued
    );
    (code, issue)
}

/// Whether any token of `issue` can still be read.
pub async fn any_token_left(s: &Subject, issue: &Issuance) -> bool {
    let access = s.store.access_token(&issue.access_digest).await.unwrap();
    let refresh = s.store.refresh_token(&issue.refresh_digest).await.unwrap();
    access.is_some() || refresh.is_some()
}
