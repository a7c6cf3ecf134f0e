-- Rotates a refresh token (KEYS[1], a hash {data, grant, listed, kept, pruned, rotated_at, sealed}).
--   ARGV[7] now   ARGV[8] grace seconds   ARGV[9] the sealed successor
--   ARGV[10] the client id (see common.lua)
-- Returns {'not_found'}, {'rotated'}, {'app_disabled'}, {'grace', sealed} or {'reused'}.
local old = redis.call('HMGET', KEYS[1], 'grant', 'rotated_at', 'sealed', 'listed', 'kept', 'pruned')
local grant, rotated_at, sealed = old[1], old[2], old[3]
if not grant then
  return {'not_found'}
end
if not rotated_at then
  if not allowed() then
    return {'app_disabled'}
  end
  -- Field writes keep the old token's remaining TTL, so a late reuse is still recognised.
  redis.call('HSET', KEYS[1], 'rotated_at', ARGV[7], 'sealed', ARGV[9])
  issue({ listed = old[4] or nil, kept = old[5] or nil, pruned = old[6] or nil })
  return {'rotated'}
end
-- A rotation stamped after `now` (a node whose clock runs ahead) counts as within grace.
if sealed and tonumber(ARGV[7]) - tonumber(rotated_at) <= tonumber(ARGV[8]) then
  return {'grace', sealed}
end
-- Reuse of a rotated token: someone else holds a copy. Revoke the whole family.
revoke(ARGV[6] .. grant)
redis.call('DEL', KEYS[1])
return {'reused'}
