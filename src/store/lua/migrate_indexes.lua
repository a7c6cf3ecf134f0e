-- Brings indexes kept in a format of earlier versions to the current one, each in one atomic
-- step, and answers how many it brought: the merged per-client, per-user and per-user session
-- indexes, then the grant indexes turned into lists. Run by the start-up migration
-- (`migrate.rs`) on the keys of one SCAN page; a key already in the current format is left
-- alone, so running it twice changes nothing.
--   KEYS the keys of the page that may need it (earlier indexes, grant indexes)
--   ARGV[1] the key prefix
-- Earlier versions kept `issued:<client>`, `userissued:<sub>` and `usersess:<sub>` as plain
-- sets; their members merge into `client-issued:`, `user-issued:` and `user-sessions:`, each
-- scored by when it expires (the server's clock plus its TTL). A grant index an earlier version
-- wrote is a plain set or a sorted set of its tokens; it becomes a list, the soonest to expire
-- first, as the grant's next tokens are appended. Either way a member already gone is dropped.
local prefix = ARGV[1]
local RENAMED = {
  {prefix .. 'issued:', prefix .. 'client-issued:'},
  {prefix .. 'userissued:', prefix .. 'user-issued:'},
  {prefix .. 'usersess:', prefix .. 'user-sessions:'},
}
local grants = prefix .. 'grant:'
local now = redis.call('TIME')[1] + 0

-- The members of the plain set `key` still kept, with the score each gets; and the longest TTL
-- among them.
local function scored(key)
  local pairs_, longest = {}, 0
  for _, member in ipairs(redis.call('SMEMBERS', key)) do
    local ttl = redis.call('TTL', member)
    if ttl ~= -2 then
      ttl = math.max(ttl, 0)
      pairs_[#pairs_ + 1] = string.format('%d', now + ttl)
      pairs_[#pairs_ + 1] = member
      longest = math.max(longest, ttl)
    end
  end
  return pairs_, longest
end

-- ZADD GT of score and member `pairs_` to `key`, a bounded number at a time: Lua passes at most
-- a few thousand arguments at once.
local function zadd(key, pairs_)
  for first = 1, #pairs_, 1000 do
    redis.call('ZADD', key, 'GT', unpack(pairs_, first, math.min(first + 999, #pairs_)))
  end
end

-- Makes the grant index `key`, a plain set or a sorted set (`kind`), the list of its tokens
-- still kept, the soonest to expire first; it lives as long as it did, or as its longest token.
local function listed(key, kind)
  local members
  if kind == 'set' then
    members = redis.call('SMEMBERS', key)
  else
    members = redis.call('ZRANGE', key, 0, -1)
  end
  local kept, longest = {}, 0
  for _, member in ipairs(members) do
    local ttl = redis.call('TTL', member)
    if ttl ~= -2 then
      -- A token always has a TTL; one without any sorts last.
      if ttl == -1 then
        ttl = math.huge
      else
        longest = math.max(longest, ttl)
      end
      kept[#kept + 1] = {ttl, member}
    end
  end
  table.sort(kept, function(x, y)
    if x[1] ~= y[1] then
      return x[1] < y[1]
    end
    return x[2] < y[2]
  end)
  local ttl = redis.call('TTL', key)
  redis.call('DEL', key)
  for first = 1, #kept, 1000 do
    local batch = {}
    for i = first, math.min(first + 999, #kept) do
      batch[#batch + 1] = kept[i][2]
    end
    redis.call('RPUSH', key, unpack(batch))
  end
  if #kept > 0 and math.max(ttl, longest) > 0 then
    redis.call('EXPIRE', key, math.max(ttl, longest))
  end
end

local merged, converted = 0, 0
for _, key in ipairs(KEYS) do
  local kind = redis.call('TYPE', key).ok
  if string.sub(key, 1, #grants) == grants then
    if kind == 'set' or kind == 'zset' then
      listed(key, kind)
      converted = converted + 1
    end
  elseif kind == 'set' then
    local target
    for _, names in ipairs(RENAMED) do
      if string.sub(key, 1, #names[1]) == names[1] then
        target = names[2] .. string.sub(key, #names[1] + 1)
      end
    end
    if target then
      local members, longest = scored(key)
      if #members > 0 then
        -- A later expiry already there is kept, and the index is never shortened.
        zadd(target, members)
        -- Members that never expire give no lifetime: EXPIRE 0 would delete the index.
        if longest > 0 and redis.call('TTL', target) < longest then
          redis.call('EXPIRE', target, longest)
        end
      end
      redis.call('DEL', key)
      merged = merged + 1
    end
  end
end
return {merged, converted}
