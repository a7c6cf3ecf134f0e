-- Appends audit events in the order given, files each under its indexes, and forgets what
-- retention and the count limit no longer keep, oldest first, from the log and every index
-- alike.
--   KEYS[1] the log (sorted set: event id by cursor)   KEYS[2] the events (hash: id -> JSON)
--   KEYS[3] where each event is filed (hash: id -> {"at": time, "ix": [index keys]})
--   KEYS[4] the last cursor given out   KEYS[5..] the indexes of every event, one event's after
--   the other's (sorted sets: event id by cursor)
--   ARGV[1] oldest time kept   ARGV[2] how many events are kept   ARGV[3] `1`: forget what
--   retention no longer keeps (a node asks for that once per second of event time; the count
--   limit holds on every append)   ARGV[4..] per event: id, JSON, time, how many indexes

-- Cursors are given out in the order events are appended: later events sort after. The batch
-- takes its run of cursors at once.
local next_key = 5
local count = (#ARGV - 3) / 4
local cursor = redis.call('INCRBY', KEYS[4], count) - count
for at = 4, #ARGV, 4 do
  cursor = cursor + 1
  local id = ARGV[at]
  local indexes = {}
  for i = next_key, next_key + tonumber(ARGV[at + 3]) - 1 do
    indexes[#indexes + 1] = KEYS[i]
    redis.call('ZADD', KEYS[i], cursor, id)
  end
  next_key = next_key + #indexes
  redis.call('ZADD', KEYS[1], cursor, id)
  redis.call('HSET', KEYS[2], id, ARGV[at + 1])
  redis.call('HSET', KEYS[3], id, cjson.encode({at = tonumber(ARGV[at + 2]), ix = indexes}))
end

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

local oldest = tonumber(ARGV[1])
local sweep = ARGV[3] == '1'
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[2])
while sweep or over > 0 do
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
