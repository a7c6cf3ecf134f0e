-- Appends an audit event, files it under its indexes, and forgets what retention and the count
-- limit no longer keep, oldest first, from the log and every index alike.
--   KEYS[1] the log (sorted set: event id by cursor)   KEYS[2] the events (hash: id -> JSON)
--   KEYS[3] where each event is filed (hash: id -> {"at": time, "ix": [index keys]})
--   KEYS[4] the last cursor given out   KEYS[5..] the indexes of this event (sorted sets:
--   event id by cursor)
--   ARGV[1] event id   ARGV[2] event JSON   ARGV[3] event time   ARGV[4] oldest time kept
--   ARGV[5] how many events are kept

-- Cursors are given out in the order events are appended: later events sort after.
local cursor = redis.call('INCR', KEYS[4])
local id = ARGV[1]
local indexes = {}
for i = 5, #KEYS do
  indexes[#indexes + 1] = KEYS[i]
  redis.call('ZADD', KEYS[i], cursor, id)
end
redis.call('ZADD', KEYS[1], cursor, id)
redis.call('HSET', KEYS[2], id, ARGV[2])
redis.call('HSET', KEYS[3], id, cjson.encode({at = tonumber(ARGV[3]), ix = indexes}))

local function forget(gone, filed)
  redis.call('ZREM', KEYS[1], gone)
  redis.call('HDEL', KEYS[2], gone)
  redis.call('HDEL', KEYS[3], gone)
  if filed then
    for _, index in ipairs(filed.ix) do
      redis.call('ZREM', index, gone)
    end
  end
end

local oldest = tonumber(ARGV[4])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[5])
while true do
  local first = redis.call('ZRANGE', KEYS[1], 0, 0)
  if #first == 0 then
    break
  end
  local entry = redis.call('HGET', KEYS[3], first[1])
  local filed = entry and cjson.decode(entry)
  if over <= 0 and filed and filed.at >= oldest then
    break
  end
  forget(first[1], filed)
  over = over - 1
end
return cursor
