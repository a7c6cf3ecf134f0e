-- Stores a fresh, unconsumed code and indexes it under its client, its user and, when it names
-- one, its SSO session (after common.lua).
--   code: its key   client, user: the client's and the user's index
--   session: the session's index (hash: `c<code key>` -> client id), or nil
--   data: the code's JSON   ttl: its TTL   client_id: the client's id
-- The code's key is fresh (a random 256-bit code's digest): nothing to clear first.
local function put_code(code, client, user, session, data, ttl, client_id)
  redis.call('HSET', code, 'data', data)
  redis.call('EXPIRE', code, ttl)
  local now = server_now()
  ttl = ttl + 0
  index(client, code, ttl, now)
  index(user, code, ttl, now)
  if session then
    redis.call('HSET', session, 'c' .. code, client_id)
    lengthen(session, ttl, now)
  end
end
