-- Appends audit events in the order given, files each under its indexes, and forgets what
-- retention and the count limit no longer keep, oldest first, from the log and every index
-- alike. The log and the indexes are lists in cursor order, so an append is a push at their
-- tail and forgetting a trim at their head: a batch costs one push per list it writes, whatever
-- the size of the log.
--   KEYS[1] the log (list of "<cursor> <event id>")   KEYS[2] the events (hash: id -> JSON)
--   KEYS[3] where each event is filed (hash: id -> {"at": time, "ix": [index keys]})
--   KEYS[4] the last cursor given out   KEYS[5..] the indexes of the batch, each once (lists of
--   "<cursor> <event id>", like the log)
--   ARGV[1] oldest time kept   ARGV[2] how many events are kept   ARGV[3] `1`: forget what
--   retention no longer keeps (a node asks for that once per second of event time; the count
--   limit holds on every append)   ARGV[4] how many events follow   then per event: id, JSON,
--   filing (the JSON `{"at": time, "ix": [index keys]}` to keep in KEYS[3])   then per index
--   (KEYS[5..], in order): the events filed under it, as one byte each, the event's place in
--   the batch (1, 2, ...; a batch holds at most 255)
-- Answers 1 when it stopped at MOST_FORGOTTEN with more perhaps left to forget (the next
-- append should sweep), else 0.

-- How many events one call forgets at most, so that no call runs long: after a lower count
-- limit or a long pause the log shrinks over the next appends.
local MOST_FORGOTTEN = 1000
-- How many of the oldest events a retention sweep reads at a time.
local SWEEP_STEP = 32

-- Appends --------------------------------------------------------------------------------------
-- The writer sends each event's filing ready-made and each index's events as bytes, so an
-- append converts no number and encodes no JSON: those were most of what it cost.
local count = ARGV[4] + 0
local function event_arg(k, field)
  return ARGV[4 + 3 * (k - 1) + field]
end

-- A batch written again (its writer went away before hearing how it went) files each event
-- once: those already filed, or met before in this batch, are left out.
local ids, new = {}, {}
if count > 0 then
  for k = 1, count do
    ids[k] = event_arg(k, 1)
  end
  local known, seen = redis.call('HMGET', KEYS[3], unpack(ids)), {}
  for k = 1, count do
    if not known[k] and not seen[ids[k]] then
      seen[ids[k]] = true
      new[#new + 1] = k
    end
  end
end

-- Cursors are given out in the order events are appended: later events sort after. The batch
-- takes its run of cursors at once.
if #new > 0 then
  local cursor = redis.call('INCRBY', KEYS[4], string.format('%d', #new)) - #new
  local entries, log, texts, filed = {}, {}, {}, {}
  for _, k in ipairs(new) do
    cursor = cursor + 1
    local entry = string.format('%d %s', cursor, ids[k])
    entries[k] = entry
    log[#log + 1] = entry
    texts[#texts + 1] = ids[k]
    texts[#texts + 1] = event_arg(k, 2)
    filed[#filed + 1] = ids[k]
    filed[#filed + 1] = event_arg(k, 3)
  end
  redis.call('RPUSH', KEYS[1], unpack(log))
  redis.call('HSET', KEYS[2], unpack(texts))
  redis.call('HSET', KEYS[3], unpack(filed))
  for position = 5, #KEYS do
    local places, pushed = ARGV[4 + 3 * count + position - 4] or '', {}
    for j = 1, #places do
      pushed[#pushed + 1] = entries[string.byte(places, j)]
    end
    if #pushed > 0 then
      redis.call('RPUSH', KEYS[position], unpack(pushed))
    end
  end
end

-- Forgetting -----------------------------------------------------------------------------------
-- The cursor (a number) and the event id of a log or index entry, `<cursor> <id>`.
local function split(entry)
  local cursor, id = string.match(entry, '^(%-?%d+) (.*)$')
  return tonumber(cursor), id
end

local oldest, keep = tonumber(ARGV[1]), tonumber(ARGV[2])
local sweep = ARGV[3] == '1'
local over = redis.call('LLEN', KEYS[1]) - keep
if over > 0 then
  -- Past the limit, a two-hundredth of it more goes at once (500 at most), so that the appends
  -- after this one find room and forget nothing: the log keeps at most `keep` all the same.
  over = over + math.min(math.floor(keep / 200), MOST_FORGOTTEN / 2)
end
-- The oldest entries to forget (a prefix of the log), and what to take each out of: how many
-- of them each index files, indexes in the order first met, and the highest cursor forgotten.
local gone, ids, from_index, index_order, last = 0, {}, {}, {}, nil
local function forget(cursor, id, filing)
  gone = gone + 1
  last = cursor or last
  ids[#ids + 1] = id
  if not filing then
    return
  end
  for _, index in ipairs(type(filing.ix) == 'table' and filing.ix or {}) do
    if not from_index[index] then
      from_index[index] = 0
      index_order[#index_order + 1] = index
    end
    from_index[index] = from_index[index] + 1
  end
end

local done = false
while not done and (sweep or over > gone) and gone < MOST_FORGOTTEN do
  local step = math.min(math.max(over - gone, sweep and SWEEP_STEP or 0), MOST_FORGOTTEN - gone)
  -- Nothing is removed yet, so the next oldest come after those already chosen.
  local entries = redis.call('LRANGE', KEYS[1], gone, gone + step - 1)
  if #entries == 0 then
    break
  end
  local cursors, chosen = {}, {}
  for k, entry in ipairs(entries) do
    local cursor, id = split(entry)
    cursors[k], chosen[k] = cursor, id or entry
  end
  local filings = redis.call('HMGET', KEYS[3], unpack(chosen))
  for k in ipairs(entries) do
    local ok, filing = pcall(cjson.decode, filings[k] or 'null')
    if not ok or type(filing) ~= 'table' then
      filing = nil
    end
    -- Past the count limit, or older than retention, or not filed (it cannot be placed in
    -- time, nor found by a search): forgotten. Otherwise the log from here on is kept.
    if over > gone or not filing or (sweep and (tonumber(filing.at) or 0) < oldest) then
      forget(cursors[k], chosen[k], filing)
    else
      done = true
      break
    end
  end
  if #entries < step then
    break
  end
end

if gone > 0 then
  redis.call('LTRIM', KEYS[1], gone, -1)
  redis.call('HDEL', KEYS[2], unpack(ids))
  redis.call('HDEL', KEYS[3], unpack(ids))
  -- Each index is in cursor order too, so what it files of the forgotten events is its head, up
  -- to the highest cursor forgotten: as far as the filings say, trimmed as far as it goes. When
  -- the last entry that far is forgotten, so is every one before it, and one read settles it;
  -- otherwise the head is read entry by entry.
  for _, index in ipairs(index_order) do
    if last then
      local named, drop = from_index[index], 0
      local furthest = split(redis.call('LINDEX', index, named - 1) or '')
      if furthest and furthest <= last then
        drop = named
      else
        for _, entry in ipairs(redis.call('LRANGE', index, 0, named - 1)) do
          local cursor = split(entry)
          if cursor and cursor > last then
            break
          end
          drop = drop + 1
        end
      end
      if drop > 0 then
        redis.call('LTRIM', index, drop, -1)
      end
    end
  end
end
return gone >= MOST_FORGOTTEN and 1 or 0
