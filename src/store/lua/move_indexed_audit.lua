-- Moves the newest events of the sorted-set log of earlier versions (event id by cursor, with
-- sorted-set indexes of the same shape) into the log and indexes that are lists, at their head:
-- each keeps its cursor when that is below every cursor in the log, and gets one from the
-- lowest cursor given out otherwise (an event an earlier node wrote meanwhile), so the lists
-- stay in cursor order. The events and their filings stay where they are; a filing is rewritten
-- to name the lists.
--   KEYS[1] the sorted-set log   KEYS[2] the log   KEYS[3] where each event is filed
--   KEYS[4] the lowest cursor given out (counts down from 0)
--   ARGV[1] how many events to move at most   ARGV[2] the prefix of the sorted-set indexes' keys
--   ARGV[3] the prefix of the lists' keys that take their place
-- Answers how many events are left to move.
local newest = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
local head = redis.call('LINDEX', KEYS[2], 0)
local below = head and tonumber(string.match(head, '^(%-?%d+) '))
local from, to = ARGV[2], ARGV[3]
local moved = {}
for k = 1, #newest, 2 do
  local id, cursor = newest[k], tonumber(newest[k + 1])
  moved[#moved + 1] = id
  if below and cursor >= below then
    cursor = redis.call('DECR', KEYS[4])
  end
  below = cursor
  local entry = cursor .. ' ' .. id
  redis.call('LPUSH', KEYS[2], entry)
  local ok, filing = pcall(cjson.decode, redis.call('HGET', KEYS[3], id) or 'null')
  if ok and type(filing) == 'table' and type(filing.ix) == 'table' then
    local lists = {}
    for _, index in ipairs(filing.ix) do
      if string.sub(index, 1, #from) == from then
        redis.call('ZREM', index, id)
        index = to .. string.sub(index, #from + 1)
      end
      lists[#lists + 1] = index
      redis.call('LPUSH', index, entry)
    end
    filing.ix = lists
    redis.call('HSET', KEYS[3], id, cjson.encode(filing))
  end
end
if #moved > 0 then
  redis.call('ZREM', KEYS[1], unpack(moved))
end
return redis.call('ZCARD', KEYS[1])
