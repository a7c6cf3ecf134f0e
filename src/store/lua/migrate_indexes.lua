-- Brings indexes kept in a format of earlier versions to the current one, each in one atomic
-- step, and answers how many it brought: the merged per-client, per-user and per-user session
-- indexes, then the grant indexes turned into sorted sets. Run by the start-up migration
-- (`migrate.rs`) on the keys of one SCAN page; a key already in the current format is left
-- alone, so running it twice changes nothing.
--   KEYS the keys of the page that may need it (earlier indexes, grant indexes)
--   ARGV[1] the key prefix
-- Earlier versions kept `issued:<client>`, `userissued:<sub>` and `usersess:<sub>` as plain
-- sets; their members merge into `client-issued:`, `user-issued:` and `user-sessions:`. A grant
-- index an earlier version wrote is a plain set of its tokens; it becomes a sorted set by expiry.
-- Either way each member is scored by when it expires (the server's clock plus its TTL), and a
-- member already gone is dropped.
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

-- ZADD of score and member `pairs_` to `key` (with `flag`, or none), a bounded number at a
-- time: Lua passes at most a few thousand arguments at once.
local function zadd(key, flag, pairs_)
  for first = 1, #pairs_, 1000 do
    local last = math.min(first + 999, #pairs_)
    if flag then
      redis.call('ZADD', key, flag, unpack(pairs_, first, last))
    else
      redis.call('ZADD', key, unpack(pairs_, first, last))
    end
  end
end

local merged, converted = 0, 0
for _, key in ipairs(KEYS) do
  if redis.call('TYPE', key).ok == 'set' then
    local target
    for _, names in ipairs(RENAMED) do
      if string.sub(key, 1, #names[1]) == names[1] then
        target = names[2] .. string.sub(key, #names[1] + 1)
      end
    end
    local members, longest = scored(key)
    if target then
      if #members > 0 then
        -- A later expiry already there is kept, and the index is never shortened.
        zadd(target, 'GT', members)
        -- Members that never expire give no lifetime: EXPIRE 0 would delete the index.
        if longest > 0 and redis.call('TTL', target) < longest then
          redis.call('EXPIRE', target, longest)
        end
      end
      redis.call('DEL', key)
      merged = merged + 1
    elseif string.sub(key, 1, #grants) == grants then
      local ttl = redis.call('TTL', key)
      redis.call('DEL', key)
      if #members > 0 then
        zadd(key, nil, members)
        if math.max(ttl, longest) > 0 then
          redis.call('EXPIRE', key, math.max(ttl, longest))
        end
      end
      converted = converted + 1
    end
  end
end
return {merged, converted}
