-- One step of a walk through the audit log: the events filed under every one of the given
-- sorted sets, beyond a cursor, one way. Walks the smallest set and looks the others up, and
-- looks at no more than ARGV[4] of its members, so that one step is a bounded amount of work.
--   KEYS[1] the events (hash: id -> JSON)   KEYS[2..] the log alone, or the indexes to intersect
--   ARGV[1] 'older' or 'newer'   ARGV[2] the cursor to go on from (excluded), or '+inf'
--   ARGV[3] how many events at most   ARGV[4] how many members to look at, at most
-- Answers { where to go on ('' when nothing is left), cursor, JSON, cursor, JSON, ... }
local walked, smallest = 2, redis.call('ZCARD', KEYS[2])
for i = 3, #KEYS do
  local size = redis.call('ZCARD', KEYS[i])
  if size < smallest then
    walked, smallest = i, size
  end
end
local limit, budget = tonumber(ARGV[3]), tonumber(ARGV[4])
local from = ARGV[2] == '+inf' and '+inf' or '(' .. ARGV[2]
local members
if ARGV[1] == 'older' then
  members = redis.call('ZREVRANGEBYSCORE', KEYS[walked], from, '-inf', 'WITHSCORES', 'LIMIT', 0, budget)
else
  members = redis.call('ZRANGEBYSCORE', KEYS[walked], from, '+inf', 'WITHSCORES', 'LIMIT', 0, budget)
end
-- The reply, its first element (where to go on) set last.
local reply, found = { '' }, 0
for i = 1, #members, 2 do
  if found == limit then
    reply[1] = reply[#reply - 1]
    return reply
  end
  local id, cursor = members[i], members[i + 1]
  local everywhere = true
  for k = 2, #KEYS do
    if k ~= walked and not redis.call('ZSCORE', KEYS[k], id) then
      everywhere = false
      break
    end
  end
  local event = everywhere and redis.call('HGET', KEYS[1], id)
  if event then
    reply[#reply + 1] = cursor
    reply[#reply + 1] = event
    found = found + 1
  end
end
if #members == 2 * budget then
  -- The budget ran out: go on after the last member looked at.
  reply[1] = members[#members]
end
return reply
