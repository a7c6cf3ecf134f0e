//! Admin API tokens, admin screen sign-ins and sign-ins waiting for their second factor, kept
//! as short-lived records the same way by both backends: in Redis, strings with an expiry under
//! `{p}admtok:<token digest>`, `{p}admscr:<session digest>` and
//! `{p}admscr:halfway:<sign-in cookie digest>`, each filed under its superadmin
//! (`{p}owned:admin:<sub>`) so that signing them out ends them all.

use super::namespace::{halfway_key, Namespace, Records};
use super::{AdminSession, AdminSessionStore, HalfwaySignIn, ScreenSignIn, StoreError};
use crate::domain::Digest;
use async_trait::async_trait;

#[async_trait]
impl<T: Records> AdminSessionStore for T {
    async fn put_admin_token(
        &self,
        token: &Digest,
        session: &AdminSession,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let key = (Namespace::AdminToken, token.as_hex());
        self.put_owned_record(key, &owner(&session.sub), "admin token", session, ttl)
            .await
    }

    async fn admin_token(&self, token: &Digest) -> Result<Option<AdminSession>, StoreError> {
        self.record(Namespace::AdminToken, token.as_hex(), "admin token")
            .await
    }

    async fn delete_admin_token(&self, token: &Digest) -> Result<(), StoreError> {
        self.remove(Namespace::AdminToken, token.as_hex())
            .await
            .map(drop)
    }

    async fn put_screen_sign_in(
        &self,
        session: &Digest,
        sign_in: &ScreenSignIn,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let what = "admin screen sign-in";
        let key = (Namespace::AdminScreen, session.as_hex());
        self.put_owned_record(key, &owner(&sign_in.sub), what, sign_in, ttl)
            .await
    }

    async fn screen_sign_in(&self, session: &Digest) -> Result<Option<ScreenSignIn>, StoreError> {
        self.record(
            Namespace::AdminScreen,
            session.as_hex(),
            "admin screen sign-in",
        )
        .await
    }

    async fn delete_screen_sign_in(&self, session: &Digest) -> Result<(), StoreError> {
        self.remove(Namespace::AdminScreen, session.as_hex())
            .await
            .map(drop)
    }

    async fn put_halfway_sign_in(
        &self,
        login: &Digest,
        sign_in: &HalfwaySignIn,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let key = halfway_key(login);
        let owner = owner(sign_in.claims.sub());
        let what = "half-way sign-in";
        self.put_owned_record((Namespace::AdminScreen, &key), &owner, what, sign_in, ttl)
            .await
    }

    async fn halfway_sign_in(&self, login: &Digest) -> Result<Option<HalfwaySignIn>, StoreError> {
        let key = halfway_key(login);
        self.record(Namespace::AdminScreen, &key, "half-way sign-in")
            .await
    }

    async fn delete_halfway_sign_in(&self, login: &Digest) -> Result<(), StoreError> {
        let key = halfway_key(login);
        self.remove(Namespace::AdminScreen, &key).await.map(drop)
    }

    async fn end_admin_sessions(&self, sub: &str) -> Result<u64, StoreError> {
        self.remove_owned(&owner(sub)).await
    }
}

/// Whose admin records are filed together.
fn owner(sub: &str) -> String {
    format!("admin:{sub}")
}
