-- Stores a pending authorize request and counts it in its bounded groups; a group over its
-- maximum loses its oldest members, whose requests end.
--   KEYS[1] the request   KEYS[2..] the groups (sorted sets of request keys, scored by expiry
--   in microseconds)   ARGV[1] request JSON   ARGV[2] TTL in seconds   ARGV[3..] each group's
--   maximum, in the order of KEYS[2..]   ARGV[#KEYS + 2] the prefix of every group key
-- Expiry scores come from the server's clock, the one that expires the requests themselves.
local group_prefix = ARGV[#KEYS + 2]

-- Ends the request `key`, which left `left`, and takes it out of its other groups (the record
-- names them), so that no group outlives its requests.
local function forget(key, left)
  local value = redis.call('GET', key)
  redis.call('DEL', key)
  if not value then
    return
  end
  local ok, request = pcall(cjson.decode, value)
  if ok and type(request) == 'table' and type(request.groups) == 'table' then
    for _, name in ipairs(request.groups) do
      local other = group_prefix .. tostring(name)
      if other ~= left then
        redis.call('ZREM', other, key)
      end
    end
  end
end

-- Numbers go to Redis as text, literals included, or made with `%d` (a Lua number would be
-- written with `%.17g`, which costs far more) and are read with `+ 0`, one conversion where
-- `tonumber` makes two.
local time = redis.call('TIME')
local now = time[1] * 1000000 + time[2]
local ttl = ARGV[2] + 0
-- Expired members are dropped on one write in eight (by the clock's microseconds), as the
-- token indexes drop theirs: scores are expiries, so a group over its maximum pops those still
-- left before any live request, and a live request never gives way to them.
local prune = now % 8 == 0
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
for i = 2, #KEYS do
  local group = KEYS[i]
  if prune then
    redis.call('ZREMRANGEBYSCORE', group, '-inf', string.format('%d', now))
  end
  -- Scores strictly increase within a group, so that the oldest is always the one to give way.
  local score = now + ttl * 1000000
  local newest = redis.call('ZRANGE', group, '-1', '-1', 'WITHSCORES')
  if newest[2] and newest[2] + 0 >= score then
    score = newest[2] + 1
  end
  redis.call('ZADD', group, string.format('%d', score), KEYS[1])
  redis.call('EXPIRE', group, ARGV[2])
  local over = redis.call('ZCARD', group) - ARGV[i + 1]
  if over > 0 then
    local popped = redis.call('ZPOPMIN', group, over)
    for j = 1, #popped, 2 do
      forget(popped[j], group)
    end
  end
end
return 1
