//! The Lua scripts behind the store's atomic operations (sources in `src/store/lua/`).
//!
//! Each grant and session script but the pending-request, owned-record, client and reading
//! scripts is `common.lua` (the shared `revoke`, `index`, `take_index` and `issue` functions)
//! followed by its own body; the code scripts add `code.lua` (`put_code`), and the scripts that
//! end a pending request `finish.lua` (`finish`). The audit and migration scripts stand alone.
//! `redis::Script` sends them by SHA-1 and loads them again after a server restart.

use redis::Script;

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
    include_str!("../lua/code.lua"),
    include_str!("../lua/put_code.lua")
);
const PUT_CODE_FINISHING: &str = concat!(
    include_str!("../lua/common.lua"),
    include_str!("../lua/code.lua"),
    include_str!("../lua/finish.lua"),
    include_str!("../lua/put_code_finishing.lua")
);
const REVOKE_CLIENT: &str = concat!(
    include_str!("../lua/common.lua"),
    include_str!("../lua/revoke_client.lua")
);
const REVOKE_USER: &str = concat!(
    include_str!("../lua/common.lua"),
    include_str!("../lua/revoke_user.lua")
);
const REVOKE_USER_CODES: &str = include_str!("../lua/revoke_user_codes.lua");
const REVOKE_SESSION: &str = concat!(
    include_str!("../lua/common.lua"),
    include_str!("../lua/revoke_session.lua")
);
const PUT_SESSION: &str = concat!(
    include_str!("../lua/common.lua"),
    include_str!("../lua/put_session.lua")
);
const END_SESSIONS: &str = concat!(
    include_str!("../lua/common.lua"),
    include_str!("../lua/end_sessions.lua")
);
const USER_SESSIONS: &str = include_str!("../lua/user_sessions.lua");
const USER_GRANTS: &str = include_str!("../lua/user_grants.lua");
const PUT_PENDING: &str = include_str!("../lua/put_pending.lua");
const FINISH_PENDING: &str = concat!(
    include_str!("../lua/finish.lua"),
    include_str!("../lua/finish_pending.lua")
);
const REMOVE_OWNED: &str = include_str!("../lua/remove_owned.lua");
const REPLACE_CLIENT: &str = include_str!("../lua/replace_client.lua");
const CLAIM_LOGOUTS: &str = include_str!("../lua/claim_logouts.lua");
const ADD_PASSKEY: &str = include_str!("../lua/add_passkey.lua");
const UPDATE_PASSKEY: &str = include_str!("../lua/update_passkey.lua");
const DELETE_PASSKEY: &str = include_str!("../lua/delete_passkey.lua");
const DELETE_PASSKEYS: &str = include_str!("../lua/delete_passkeys.lua");

const APPEND_AUDIT: &str = include_str!("../lua/append_audit.lua");
const AUDIT_EVENTS: &str = include_str!("../lua/audit_events.lua");
const MOVE_EARLIER_AUDIT: &str = include_str!("../lua/move_earlier_audit.lua");
const MOVE_INDEXED_AUDIT: &str = include_str!("../lua/move_indexed_audit.lua");
const MIGRATE_INDEXES: &str = include_str!("../lua/migrate_indexes.lua");
const FORMAT_LOCK: &str = include_str!("../lua/format_lock.lua");

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
    /// Ends a pending request and, if it was live, stores its code: see
    /// `put_code_finishing.lua`.
    pub(super) put_code_finishing: Script,
    /// Revokes every code and grant of a client: see `revoke_client.lua`.
    pub(super) revoke_client: Script,
    /// Revokes every code and grant of a user: see `revoke_user.lua`.
    pub(super) revoke_user: Script,
    /// Revokes the codes of a user for one app: see `revoke_user_codes.lua`.
    pub(super) revoke_user_codes: Script,
    /// Revokes what an SSO session gave: see `revoke_session.lua`.
    pub(super) revoke_session: Script,
    /// Stores a session and indexes it under its user: see `put_session.lua`.
    pub(super) put_session: Script,
    /// Ends every session of a user: see `end_sessions.lua`.
    pub(super) end_sessions: Script,
    /// Reads the sessions a user's index names: see `user_sessions.lua`.
    pub(super) user_sessions: Script,
    /// Reads a user's live grants: see `user_grants.lua`.
    pub(super) user_grants: Script,
    /// Stores a pending request within its groups' bounds: see `put_pending.lua`.
    pub(super) put_pending: Script,
    /// Ends a pending request and takes it out of its groups: see `finish_pending.lua`.
    pub(super) finish_pending: Script,
    /// Deletes every record filed under an owner: see `remove_owned.lua`.
    pub(super) remove_owned: Script,
    /// Writes a change to a client over the revision it was made from: see
    /// `replace_client.lua`.
    pub(super) replace_client: Script,
    /// Claims back-channel logouts that are due: see `claim_logouts.lua`.
    pub(super) claim_logouts: Script,
    /// Adds a passkey unless its id is taken: see `add_passkey.lua`.
    pub(super) add_passkey: Script,
    /// Writes a change to a passkey still there: see `update_passkey.lua`.
    pub(super) update_passkey: Script,
    /// Removes one of a person's passkeys: see `delete_passkey.lua`.
    pub(super) delete_passkey: Script,
    /// Removes every passkey of a person: see `delete_passkeys.lua`.
    pub(super) delete_passkeys: Script,
    /// Appends an audit event to the log and its indexes, and trims them: see
    /// `append_audit.lua`.
    pub(super) append_audit: Script,
    /// One step of a walk through the audit log: see `audit_events.lua`.
    pub(super) audit_events: Script,
    /// At start-up, moves events of the first versions' audit log into the lists: see
    /// `move_earlier_audit.lua`.
    pub(super) move_earlier_audit: Script,
    /// At start-up, moves events of the sorted-set audit log of earlier versions into the
    /// lists: see `move_indexed_audit.lua`.
    pub(super) move_indexed_audit: Script,
    /// At start-up, brings indexes of earlier versions to the current format: see
    /// `migrate_indexes.lua`.
    pub(super) migrate_indexes: Script,
    /// At start-up, renews or lets go of the migration's lock while it names this node: see
    /// `format_lock.lua`.
    pub(super) format_lock: Script,
}

impl Scripts {
    pub(super) fn new() -> Self {
        Self {
            redeem: Script::new(REDEEM),
            rotate: Script::new(ROTATE),
            revoke: Script::new(REVOKE),
            put_code: Script::new(PUT_CODE),
            put_code_finishing: Script::new(PUT_CODE_FINISHING),
            revoke_client: Script::new(REVOKE_CLIENT),
            revoke_user: Script::new(REVOKE_USER),
            revoke_user_codes: Script::new(REVOKE_USER_CODES),
            revoke_session: Script::new(REVOKE_SESSION),
            put_session: Script::new(PUT_SESSION),
            end_sessions: Script::new(END_SESSIONS),
            user_sessions: Script::new(USER_SESSIONS),
            user_grants: Script::new(USER_GRANTS),
            put_pending: Script::new(PUT_PENDING),
            finish_pending: Script::new(FINISH_PENDING),
            remove_owned: Script::new(REMOVE_OWNED),
            replace_client: Script::new(REPLACE_CLIENT),
            claim_logouts: Script::new(CLAIM_LOGOUTS),
            add_passkey: Script::new(ADD_PASSKEY),
            update_passkey: Script::new(UPDATE_PASSKEY),
            delete_passkey: Script::new(DELETE_PASSKEY),
            delete_passkeys: Script::new(DELETE_PASSKEYS),
            append_audit: Script::new(APPEND_AUDIT),
            audit_events: Script::new(AUDIT_EVENTS),
            move_earlier_audit: Script::new(MOVE_EARLIER_AUDIT),
            move_indexed_audit: Script::new(MOVE_INDEXED_AUDIT),
            migrate_indexes: Script::new(MIGRATE_INDEXES),
            format_lock: Script::new(FORMAT_LOCK),
        }
    }
}
