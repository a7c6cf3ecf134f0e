-- One step of a walk through the audit log: the events filed under every one of the given
-- lists, beyond a cursor, one way. Walks the shortest list and checks the others in each
-- event's filing, and looks at no more than ARGV[4] of its entries, so that one step is a
-- bounded amount of work.
--   KEYS[1] the events (hash: id -> JSON)   KEYS[2] where each is filed (hash: id -> {"ix": ...})
--   KEYS[3..] the log alone, or the indexes to intersect (lists of "<cursor> <event id>" in
--   cursor order)
--   ARGV[1] 'older' or 'newer'   ARGV[2] the cursor to go on from (excluded), or '+inf'
--   ARGV[3] how many events at most   ARGV[4] how many entries to look at, at most
-- Answers { where to go on ('' when nothing is left), cursor, JSON, cursor, JSON, ... }
local walked, length = 3, redis.call('LLEN', KEYS[3])
for i = 4, #KEYS do
  local size = redis.call('LLEN', KEYS[i])
  if size < length then
    walked, length = i, size
  end
end
local limit, budget = tonumber(ARGV[3]), tonumber(ARGV[4])
local older = ARGV[1] == 'older'

-- The cursor (as written) and the event id of an entry, `<cursor> <id>`.
local function split(entry)
  return string.match(entry or '', '^(%-?%d+) (.*)$')
end

-- The cursor of the walked list's entry at `position`.
local function cursor_at(position)
  local cursor = split(redis.call('LINDEX', KEYS[walked], position))
  return tonumber(cursor) or 0
end

-- The position of the first entry whose cursor is above `from` (binary search: the list is in
-- cursor order); `length` when there is none.
local function first_above(from)
  local low, high = 0, length
  while low < high do
    local middle = math.floor((low + high) / 2)
    if cursor_at(middle) > from then
      high = middle
    else
      low = middle + 1
    end
  end
  return low
end

local entries = {}
if length > 0 then
  if older then
    -- From the newest entry below the cursor, backwards.
    local last = ARGV[2] == '+inf' and length - 1 or first_above(tonumber(ARGV[2]) - 1) - 1
    if last >= 0 then
      local span = redis.call('LRANGE', KEYS[walked], math.max(0, last - budget + 1), last)
      for k = #span, 1, -1 do
        entries[#entries + 1] = span[k]
      end
    end
  else
    local first = first_above(tonumber(ARGV[2]))
    entries = redis.call('LRANGE', KEYS[walked], first, first + budget - 1)
  end
end

-- The reply, its first element (where to go on) set last.
local reply, found = { '' }, 0
for _, entry in ipairs(entries) do
  if found == limit then
    reply[1] = reply[#reply - 1]
    return reply
  end
  local cursor, id = split(entry)
  local everywhere = cursor ~= nil
  if everywhere and #KEYS > 3 then
    local ok, filing = pcall(cjson.decode, redis.call('HGET', KEYS[2], id) or 'null')
    local filed_under = {}
    if ok and type(filing) == 'table' and type(filing.ix) == 'table' then
      for _, index in ipairs(filing.ix) do
        filed_under[index] = true
      end
    end
    for k = 3, #KEYS do
      if k ~= walked and not filed_under[KEYS[k]] then
        everywhere = false
        break
      end
    end
  end
  local event = everywhere and redis.call('HGET', KEYS[1], id)
  if event then
    reply[#reply + 1] = cursor
    reply[#reply + 1] = event
    found = found + 1
  end
end
if #entries == budget then
  -- The budget ran out: go on after the last entry looked at.
  reply[1] = split(entries[#entries]) or ''
end
return reply
