//! What the second factor keeps for an enrolled user.

use crate::clock::UnixTime;
use serde::{Deserialize, Serialize};

/// What the store keeps for an enrolled user (recovery codes are kept beside it as digests).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnrolmentRecord {
    /// The TOTP secret, encrypted with `mfa.encryption_key` for this user.
    pub sealed_secret: String,
    /// When the enrolment was confirmed.
    pub enrolled_at: UnixTime,
}
