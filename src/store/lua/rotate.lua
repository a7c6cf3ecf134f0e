-- Rotates refresh tokens, one after another: #KEYS / 7 of them, the refresh requests that
-- arrived together. Each has the key and argument layout of common.lua, its keys from
-- KEYS[k + 1] and its arguments from ARGV[a + 1] (k = 7, a = 10 times its place, from 0):
--   KEYS[k + 1] the refresh token (a hash {data, grant, listed, kept, pruned, rotated_at, sealed})
--   ARGV[a + 7] now   ARGV[a + 8] grace seconds   ARGV[a + 9] the sealed successor
--   ARGV[a + 10] the client id
-- A single rotation answers its reply: {'not_found'}, {'rotated'}, {'app_disabled'},
-- {'grace', sealed} or {'reused'}. Several answer one reply each, in order, where
-- {'failed', error} says that Redis refused a command of that rotation (the others go on).
local function rotate(k, a)
  local old = redis.call('HMGET', KEYS[k + 1], 'grant', 'rotated_at', 'sealed', 'listed', 'kept', 'pruned')
  local grant, rotated_at, sealed = old[1], old[2], old[3]
  if not grant then
    return {'not_found'}
  end
  if not rotated_at then
    if not allowed(k, ARGV[a + 10]) then
      return {'app_disabled'}
    end
    -- Field writes keep the old token's remaining TTL, so a late reuse is still recognised.
    redis.call('HSET', KEYS[k + 1], 'rotated_at', ARGV[a + 7], 'sealed', ARGV[a + 9])
    issue({ listed = old[4] or nil, kept = old[5] or nil, pruned = old[6] or nil }, k, a)
    return {'rotated'}
  end
  -- A rotation stamped after `now` (a node whose clock runs ahead) counts as within grace.
  if sealed and tonumber(ARGV[a + 7]) - tonumber(rotated_at) <= tonumber(ARGV[a + 8]) then
    return {'grace', sealed}
  end
  -- Reuse of a rotated token: someone else holds a copy. Revoke the whole family.
  revoke(ARGV[a + 6] .. grant)
  redis.call('DEL', KEYS[k + 1])
  return {'reused'}
end

if #KEYS == 7 then
  return rotate(0, 0)
end
local replies = {}
for i = 0, #KEYS / 7 - 1 do
  local ok, reply = pcall(rotate, 7 * i, 10 * i)
  if not ok then
    reply = {'failed', type(reply) == 'table' and reply.err or tostring(reply)}
  end
  replies[i + 1] = reply
end
return replies
