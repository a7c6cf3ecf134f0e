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

/// The loaded scripts.
pub(super) struct Scripts {
    /// Redeems a code: see `redeem.lua`.
    pub(super) redeem: Script,
    /// Rotates a refresh token: see `rotate.lua`.
    pub(super) rotate: Script,
    /// Revokes a grant: see `revoke.lua`.
    pub(super) revoke: Script,
}

impl Scripts {
    pub(super) fn new() -> Self {
        Self {
            redeem: Script::new(REDEEM),
            rotate: Script::new(ROTATE),
            revoke: Script::new(REVOKE),
        }
    }
}
