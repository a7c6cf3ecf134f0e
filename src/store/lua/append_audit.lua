-- Appends audit events in the order given, files each under its indexes, and forgets what
-- retention and the count limit no longer keep, oldest first, from the log and every index
-- alike. Each set is written once per call with all of its members: a batch costs a few
-- commands, not a few per event.
--   KEYS[1] the log (sorted set: event id by cursor)   KEYS[2] the events (hash: id -> JSON)
--   KEYS[3] where each event is filed (hash: id -> {"at": time, "ix": [index keys]})
--   KEYS[4] the last cursor given out   KEYS[5..] the indexes of the batch, each once
--   (sorted sets: event id by cursor)
--   ARGV[1] oldest time kept   ARGV[2] how many events are kept   ARGV[3] `1`: forget what
--   retention no longer keeps (a node asks for that once per second of event time; the count
--   limit holds on every append)   ARGV[4..] per event: id, JSON, time, how many indexes, then
--   the position in KEYS of each
-- Answers 1 when it stopped at MOST_FORGOTTEN with more perhaps left to forget (the next
-- append should sweep), else 0.

-- How many events one call forgets at most, so that no call runs long: after a lower count
-- limit or a long pause the log shrinks over the next appends.
local MOST_FORGOTTEN = 1000
-- How many of the oldest events a retention sweep reads at a time.
local SWEEP_STEP = 32

-- Appends --------------------------------------------------------------------------------------
local events, i = {}, 4
while i <= #ARGV do
  local count = tonumber(ARGV[i + 3])
  local positions = {}
  for k = 1, count do
    positions[k] = tonumber(ARGV[i + 3 + k])
  end
  events[#events + 1] = { id = ARGV[i], json = ARGV[i + 1], at = tonumber(ARGV[i + 2]), at_keys = positions }
  i = i + 4 + count
end

-- Cursors are given out in the order events are appended: later events sort after. The batch
-- takes its run of cursors at once.
local cursor = redis.call('INCRBY', KEYS[4], #events) - #events
local log, texts, filed, indexed = {}, {}, {}, {}
for _, event in ipairs(events) do
  cursor = cursor + 1
  local names = {}
  for _, position in ipairs(event.at_keys) do
    names[#names + 1] = KEYS[position]
    local members = indexed[position]
    if not members then
      members = {}
      indexed[position] = members
    end
    members[#members + 1] = cursor
    members[#members + 1] = event.id
  end
  log[#log + 1] = cursor
  log[#log + 1] = event.id
  texts[#texts + 1] = event.id
  texts[#texts + 1] = event.json
  filed[#filed + 1] = event.id
  filed[#filed + 1] = cjson.encode({ at = event.at, ix = names })
end
if #events > 0 then
  redis.call('ZADD', KEYS[1], unpack(log))
  redis.call('HSET', KEYS[2], unpack(texts))
  redis.call('HSET', KEYS[3], unpack(filed))
end
for position = 5, #KEYS do
  if indexed[position] then
    redis.call('ZADD', KEYS[position], unpack(indexed[position]))
  end
end

-- Forgetting -----------------------------------------------------------------------------------
local oldest = tonumber(ARGV[1])
local sweep = ARGV[3] == '1'
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[2])
-- Event ids to forget, oldest first, and what to take each out of, index by index in the order
-- first met.
local gone, from_index, index_order = {}, {}, {}
local function forget(id, entry)
  gone[#gone + 1] = id
  if not entry then
    return
  end
  for _, index in ipairs(type(entry.ix) == 'table' and entry.ix or {}) do
    local members = from_index[index]
    if not members then
      members = {}
      from_index[index] = members
      index_order[#index_order + 1] = index
    end
    members[#members + 1] = id
  end
end

local done = false
while not done and (sweep or over > #gone) and #gone < MOST_FORGOTTEN do
  local step = math.min(math.max(over - #gone, sweep and SWEEP_STEP or 0), MOST_FORGOTTEN - #gone)
  -- Nothing is removed yet, so the next oldest come after those already chosen.
  local ids = redis.call('ZRANGE', KEYS[1], #gone, #gone + step - 1)
  if #ids == 0 then
    break
  end
  local entries = redis.call('HMGET', KEYS[3], unpack(ids))
  for k, id in ipairs(ids) do
    local ok, entry = pcall(cjson.decode, entries[k] or 'null')
    if not ok or type(entry) ~= 'table' then
      entry = nil
    end
    -- Past the count limit, or older than retention, or not filed (it cannot be placed in
    -- time, nor found by a search): forgotten. Otherwise the log from here on is kept.
    if over > #gone or not entry or (sweep and (tonumber(entry.at) or 0) < oldest) then
      forget(id, entry)
    else
      done = true
      break
    end
  end
  if #ids < step then
    break
  end
end

if #gone > 0 then
  redis.call('ZREM', KEYS[1], unpack(gone))
  redis.call('HDEL', KEYS[2], unpack(gone))
  redis.call('HDEL', KEYS[3], unpack(gone))
  for _, index in ipairs(index_order) do
    redis.call('ZREM', index, unpack(from_index[index]))
  end
end
return #gone >= MOST_FORGOTTEN and 1 or 0
