-- Rotates refresh tokens, one after another: the refresh requests that arrived together. Each
-- has the key and argument layout of common.lua, its keys from KEYS[k + 1] and its arguments
-- from ARGV[a + 1], where k is the sum of the key counts of those before it and a is 11 times
-- its place (from 0):
--   KEYS[k + 1] the refresh token (a hash {data, grant, listed, kept, pruned, rotated_at, sealed})
--   KEYS[k + 8] the index of the SSO session of its grant, when it has one
--   ARGV[a + 7] now   ARGV[a + 8] grace seconds   ARGV[a + 9] the sealed successor
--   ARGV[a + 10] the client id   ARGV[a + 11] its key count: 8 with a session's index, else 7
-- A single rotation answers its reply: {'not_found'}, {'rotated'}, {'app_disabled'},
-- {'grace', sealed} or {'reused'}. Several answer one reply each, in order, where
-- {'failed', error} says that Redis refused a command of that rotation (the others go on).
local function rotate(k, a, session)
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
    issue({ listed = old[4] or nil, kept = old[5] or nil, pruned = old[6] or nil }, k, a,
      session, ARGV[a + 10])
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

-- The key of the rotation's session index at offsets k and a, or nil; and its key count.
local function layout(k, a)
  local count = ARGV[a + 11] + 0
  if count == 8 then
    return KEYS[k + 8], count
  end
  return nil, count
end

if #ARGV == 11 then
  return rotate(0, 0, (layout(0, 0)))
end
local replies = {}
local k, a = 0, 0
while a < #ARGV do
  local session, count = layout(k, a)
  local ok, reply = pcall(rotate, k, a, session)
  if not ok then
    reply = {'failed', type(reply) == 'table' and reply.err or tostring(reply)}
  end
  replies[#replies + 1] = reply
  k, a = k + count, a + 11
end
return replies
