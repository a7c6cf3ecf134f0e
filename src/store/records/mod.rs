//! The records the store keeps, typed: callers hand these in and get them back, and only the
//! store turns them into stored text (see `store::codec`). Their JSON is what a running
//! deployment already holds, so a field may be added only with `#[serde(default)]`.

mod admin;
mod audit;
mod grants;
mod logout;
mod passkey;
mod second_factor;
mod sessions;

pub use admin::{AdminSession, HalfwaySignIn, ScreenSignIn};
pub use audit::{AppUse, AuditFrom, AuditIndex, AuditPage, AuditRecord, DoctorEntry, LoggedEvent};
pub use grants::{
    AccessRecord, CodeRecord, Issuance, Redemption, RefreshRecord, Rotation, StoredCode,
    StoredRefresh, UserGrant,
};
pub use logout::{EndedSessions, LogoutJob};
pub use passkey::{PasskeyAdded, PasskeyRecord};
pub use second_factor::EnrolmentRecord;
pub use sessions::{
    Device, PendingBound, PendingLimits, PendingLoad, PendingPut, PendingRequest, SessionRecord,
};
