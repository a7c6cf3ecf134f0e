-- Stores a pending authorize request and counts it in its bounded groups and in the load of
-- every pending request, unless the load or a refusing group is full; an evicting group over its
-- maximum loses its oldest members, whose requests end.
--   KEYS[1] the request   KEYS[2..n+1] the groups (sorted sets of request keys, scored by
--   expiry in microseconds)   KEYS[n+2] the load (a hash: `n<minute>` requests and `b<minute>`
--   bytes admitted in each minute and still pending)
--   ARGV[1] request JSON   ARGV[2] TTL in seconds   ARGV[3] the minute the request is filed
--   under (its `admitted_at` / 60)   ARGV[4] most requests   ARGV[5] most bytes   ARGV[6] the
--   prefix of every group key   ARGV[7..] each group's maximum, then `e` (evicts) or `r`
--   (refuses), in the order of KEYS[2..n+1]
-- Answers {outcome, requests, bytes, group}: outcome 2 stored, 1 a group is full (named), 0 the
-- load is full; requests and bytes are the load with this request when stored, else without.
-- Expiry scores come from the server's clock, the one that expires the requests themselves.
local groups = #KEYS - 2
local load = KEYS[#KEYS]
local group_prefix = ARGV[6]
local ttl = ARGV[2] + 0
local minute = ARGV[3] + 0
local size = #ARGV[1]
-- A minute's requests have all expired `ttl` seconds after it ends.
local minutes = math.floor(ttl / 60) + 1

-- Requests and bytes that evictions took out of the load.
local gone, gone_bytes = 0, 0

-- Takes a request out of the load, by the minute its record names.
local function unload(value)
  local ok, request = pcall(cjson.decode, value)
  if not (ok and type(request) == 'table') then
    return nil
  end
  if type(request.admitted_at) == 'number' then
    local at = string.format('%d', math.floor(request.admitted_at / 60))
    redis.call('HINCRBY', load, 'n' .. at, -1)
    redis.call('HINCRBY', load, 'b' .. at, -#value)
    gone = gone + 1
    gone_bytes = gone_bytes + #value
  end
  return request
end

-- Ends the request `key`, which left `left`, and takes it out of its other groups (the record
-- names them), so that no group outlives its requests.
local function forget(key, left)
  local value = redis.call('GET', key)
  redis.call('DEL', key)
  if not value then
    return
  end
  local request = unload(value)
  if request and type(request.groups) == 'table' then
    for _, name in ipairs(request.groups) do
      local other = group_prefix .. tostring(name)
      if other ~= left then
        redis.call('ZREM', other, key)
      end
    end
  end
end

-- What is pending now: the minutes whose requests may still live.
local fields = {}
for m = minute - minutes, minute do
  fields[#fields + 1] = string.format('n%d', m)
  fields[#fields + 1] = string.format('b%d', m)
end
local counts = redis.call('HMGET', load, unpack(fields))
local requests, bytes = 0, 0
for i = 1, #counts, 2 do
  requests = requests + (tonumber(counts[i]) or 0)
  bytes = bytes + (tonumber(counts[i + 1]) or 0)
end
requests = math.max(requests, 0)
bytes = math.max(bytes, 0)
if requests + 1 > ARGV[4] + 0 or bytes + size > ARGV[5] + 0 then
  return {0, requests, bytes, ''}
end

-- Numbers go to Redis as text, literals included, or made with `%d` (a Lua number would be
-- written with `%.17g`, which costs far more) and are read with `+ 0`, one conversion where
-- `tonumber` makes two.
local time = redis.call('TIME')
local now = time[1] * 1000000 + time[2]
for i = 1, groups do
  if ARGV[7 + 2 * i - 1] == 'r' then
    local live = redis.call('ZCOUNT', KEYS[i + 1], string.format('(%d', now), '+inf')
    if live >= ARGV[7 + 2 * i - 2] + 0 then
      return {1, requests, bytes, KEYS[i + 1]}
    end
  end
end

-- Expired members are dropped on one write in eight (by the clock's microseconds), as the
-- token indexes drop theirs: scores are expiries, so a group over its maximum pops those still
-- left before any live request, and a live request never gives way to them.
local prune = now % 8 == 0
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
for i = 1, groups do
  local group = KEYS[i + 1]
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
  if ARGV[7 + 2 * i - 1] == 'e' then
    local over = redis.call('ZCARD', group) - ARGV[7 + 2 * i - 2]
    if over > 0 then
      local popped = redis.call('ZPOPMIN', group, over)
      for j = 1, #popped, 2 do
        forget(popped[j], group)
      end
    end
  end
end

local filed = string.format('%d', minute)
redis.call('HINCRBY', load, 'n' .. filed, 1)
redis.call('HINCRBY', load, 'b' .. filed, size)
redis.call('EXPIRE', load, string.format('%d', ttl + 120))
-- Minutes whose requests have all expired leave the hash on one write in eight.
if prune then
  local oldest = minute - minutes
  for _, field in ipairs(redis.call('HKEYS', load)) do
    local m = tonumber(string.sub(field, 2))
    if m and m < oldest then
      redis.call('HDEL', load, field)
    end
  end
end
return {2, math.max(requests + 1 - gone, 0), math.max(bytes + size - gone_bytes, 0), ''}
