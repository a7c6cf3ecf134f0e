-- Stores a fresh, unconsumed code and indexes it under its client, its user and, when it names
-- one, its SSO session.
--   KEYS[1] the code   KEYS[2] the client's index   KEYS[3] the user's index
--   KEYS[4] (optional) the session's index (hash: `c<code key>` -> client id)
--   ARGV[1] code JSON   ARGV[2] TTL   ARGV[3] the client id
-- The code's key is fresh (a random 256-bit code's digest): nothing to clear first.
redis.call('HSET', KEYS[1], 'data', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
local now, ttl = server_now(), ARGV[2] + 0
index(KEYS[2], KEYS[1], ttl, now)
index(KEYS[3], KEYS[1], ttl, now)
if KEYS[4] then
  redis.call('HSET', KEYS[4], 'c' .. KEYS[1], ARGV[3])
  lengthen(KEYS[4], ttl, now)
end
return 1
