-- Moves events from the first log of earlier versions (one sorted set of event JSON by time)
-- into the log. Called with the newest events left there, newest first: each gets a cursor below
-- every event already in the log, so the log keeps its order, and one moved by another node in
-- the meantime is skipped.
--   KEYS[1] the earlier log   KEYS[2] the log   KEYS[3] the events   KEYS[4] where each is filed
--   KEYS[5] the lowest cursor given out (counts down from 0)
--   ARGV, per event: its JSON as the earlier log holds it, its id ('' for an event that does
--   not read back: it is dropped), its time, how many indexes, then their keys
local i, moved = 1, 0
while i <= #ARGV do
  local member, id, at, count = ARGV[i], ARGV[i + 1], ARGV[i + 2], tonumber(ARGV[i + 3])
  local indexes = {}
  for k = 1, count do
    indexes[k] = ARGV[i + 3 + k]
  end
  i = i + 4 + count
  if redis.call('ZREM', KEYS[1], member) == 1 and id ~= '' and redis.call('HEXISTS', KEYS[4], id) == 0 then
    local entry = redis.call('DECR', KEYS[5]) .. ' ' .. id
    redis.call('LPUSH', KEYS[2], entry)
    for _, index in ipairs(indexes) do
      redis.call('LPUSH', index, entry)
    end
    redis.call('HSET', KEYS[3], id, member)
    redis.call('HSET', KEYS[4], id, cjson.encode({at = tonumber(at), ix = indexes}))
    moved = moved + 1
  end
end
return moved
