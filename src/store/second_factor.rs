//! The second factor, written once for both backends: authenticators being set up and the TOTP
//! time steps already accepted are short-lived records (in Redis, strings with an expiry under
//! `{p}mfasetup:<sub>\n<holder>` and `{p}otpused:<sub>\n<authenticator>\n<step>`); enrolments
//! with their recovery codes are kept by each backend its own way ([`EnrolmentBackend`]).

use super::namespace::{otp_step_key, setup_key, Namespace, Records};
use super::{EnrolmentRecord, SecondFactorStore, StoreError};
use crate::domain::Digest;
use async_trait::async_trait;

/// How a backend keeps enrolments and their recovery codes: the methods of
/// [`SecondFactorStore`] of the same names, which answer with them.
#[async_trait]
pub(super) trait EnrolmentBackend: Send + Sync {
    async fn put_second_factor(
        &self,
        sub: &str,
        record: &EnrolmentRecord,
        recovery: &[Digest],
    ) -> Result<(), StoreError>;
    async fn second_factor(&self, sub: &str) -> Result<Option<EnrolmentRecord>, StoreError>;
    async fn use_recovery_code(&self, sub: &str, code: &Digest) -> Result<bool, StoreError>;
    async fn recovery_codes_left(&self, sub: &str) -> Result<u64, StoreError>;
    async fn delete_second_factor(&self, sub: &str) -> Result<bool, StoreError>;
}

#[async_trait]
impl<T: Records + EnrolmentBackend> SecondFactorStore for T {
    async fn put_second_factor(
        &self,
        sub: &str,
        record: &EnrolmentRecord,
        recovery: &[Digest],
    ) -> Result<(), StoreError> {
        EnrolmentBackend::put_second_factor(self, sub, record, recovery).await
    }

    async fn second_factor(&self, sub: &str) -> Result<Option<EnrolmentRecord>, StoreError> {
        EnrolmentBackend::second_factor(self, sub).await
    }

    async fn use_recovery_code(&self, sub: &str, code: &Digest) -> Result<bool, StoreError> {
        EnrolmentBackend::use_recovery_code(self, sub, code).await
    }

    async fn recovery_codes_left(&self, sub: &str) -> Result<u64, StoreError> {
        EnrolmentBackend::recovery_codes_left(self, sub).await
    }

    async fn delete_second_factor(&self, sub: &str) -> Result<bool, StoreError> {
        EnrolmentBackend::delete_second_factor(self, sub).await
    }

    async fn put_setup(
        &self,
        sub: &str,
        holder: &str,
        sealed_secret: &str,
        ttl: u64,
    ) -> Result<(), StoreError> {
        let key = setup_key(sub, holder);
        self.put_text(Namespace::MfaSetup, &key, sealed_secret.to_owned(), ttl)
            .await
    }

    async fn setup(&self, sub: &str, holder: &str) -> Result<Option<String>, StoreError> {
        self.text(Namespace::MfaSetup, &setup_key(sub, holder))
            .await
    }

    async fn delete_setup(&self, sub: &str, holder: &str) -> Result<(), StoreError> {
        let key = setup_key(sub, holder);
        self.remove(Namespace::MfaSetup, &key).await.map(drop)
    }

    async fn spend_otp_step(
        &self,
        sub: &str,
        authenticator: &str,
        step: u64,
        ttl: u64,
    ) -> Result<bool, StoreError> {
        let key = otp_step_key(sub, authenticator, step);
        self.put_text_new(Namespace::OtpUsed, &key, "1", ttl).await
    }
}
