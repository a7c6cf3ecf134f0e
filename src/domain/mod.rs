//! Domain types shared by every layer: ids, scopes, claims, secrets, authorize requests, audit
//! actions and the records they form, client address groups, id_token signing algorithms, outside text escaped for
//! logs, connection pool usage, and the languages of the pages.

pub mod address_group;
pub mod app_access;
pub mod audit;
pub mod authorize;
pub mod bounds;
pub mod claims;
pub mod client;
pub mod dn;
pub mod escaped;
pub mod language;
pub mod pool;
pub mod redirect_uri;
pub mod scope;
pub mod seal;
pub mod secret;
pub mod signing_alg;
pub mod username;

pub use address_group::AddressGroup;
pub use app_access::{OriginSet, WebOrigin};
pub use authorize::{AuthorizationRequest, OidcParams};
pub use claims::{Claims, Role};
pub use client::{ClientId, ClientRecord};
pub use escaped::Escaped;
pub use language::Language;
pub use pool::PoolUsage;
pub use redirect_uri::RedirectUri;
pub use scope::{Scope, ScopeSet};
pub use secret::{Digest, SecretToken};
pub use signing_alg::SigningAlg;
pub use username::Username;
