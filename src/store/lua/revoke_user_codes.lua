-- Deletes the codes a user was issued for one app and has not exchanged yet; answers how many.
-- Their grants (tokens) are left alone: revoke.lua ends those one by one. A code exchanged
-- already is kept, so that a replay of it still revokes what it was exchanged for.
--   KEYS[1] the user's index   KEYS[2] the app's index (both: codes and grant indexes)
--   ARGV[1] prefix of every code key
local revoked = 0
for _, key in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if string.sub(key, 1, #ARGV[1]) == ARGV[1] and redis.call('ZSCORE', KEYS[2], key)
      and redis.call('HEXISTS', key, 'consumed_by') == 0 then
    revoked = revoked + redis.call('DEL', key)
    redis.call('ZREM', KEYS[1], key)
    redis.call('ZREM', KEYS[2], key)
  end
end
return revoked
