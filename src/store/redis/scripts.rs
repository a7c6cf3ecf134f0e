//! The Lua scripts behind the store's atomic operations (sources in `src/store/lua/`).
//!
//! Each script is `common.lua` (the shared `revoke` and `issue` functions) followed by its own
//! body. `redis::Script` sends them by SHA-1 and loads them again after a server restart.

use deadpool_redis::redis::Script;

const REDEEM: &str = concat!(
    include_str!("../lua/common.lua"),
    include_str!("../lua/redeem.lua")
);
const ROTATE: &str = concat!(
    include_str!("../lua/common.lua"),
    include_str!("../lua/rotate.lua")
);
const REVOKE: &str = concat!(
    include_str!("../lua/common.lua"),
    include_str!("../lua/revoke.lua")
);

const PUT_CODE: &str = concat!(
    include_str!("../lua/common.lua"),
    include_str!("../lua/put_code.lua")
);
const REVOKE_CLIENT: &str = concat!(
    include_str!("../lua/common.lua"),
    include_str!("../lua/revoke_client.lua")
);

/// The loaded scripts.
pub(super) struct Scripts {
    /// Redeems a code: see `redeem.lua`.
    pub(super) redeem: Script,
    /// Rotates a refresh token: see `rotate.lua`.
    pub(super) rotate: Script,
    /// Revokes a grant: see `revoke.lua`.
    pub(super) revoke: Script,
    /// Stores a code and indexes it under its client: see `put_code.lua`.
    pub(super) put_code: Script,
    /// Revokes every code and grant of a client: see `revoke_client.lua`.
    pub(super) revoke_client: Script,
}

impl Scripts {
    pub(super) fn new() -> Self {
        Self {
            redeem: Script::new(REDEEM),
            rotate: Script::new(ROTATE),
            revoke: Script::new(REVOKE),
            put_code: Script::new(PUT_CODE),
            revoke_client: Script::new(REVOKE_CLIENT),
        }
    }
}
